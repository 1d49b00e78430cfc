"""X-3, R-4: every way search ranks gives exactly what one ranked join with FTS5's bm25 gives.

search.py scores single-token words from the statistics the index keeps (shortest first with an
early stop, or every match in SQL) and leaves phrases to FTS5. The reference here is the plain
statement: every match joined with its entry, ordered by FTS5's own bm25, then the higher
number, then the later entry. Corpora are generated from a fixed seed with what makes ranking
hard: common words held several times by some entries, entries longer than 127 words (their
length takes two bytes in FTS5's size records), CJK text, one-character queries, duplicate
numbers, superseded entries and scopes.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.precedents.test_search import write_precedents
from tribunal.precedents import search
from tribunal.precedents.index import open_index
from tribunal.precedents.search import SearchFilters, search_precedents

COMMON = ["rollback", "silent", "alert", "cache", "tier", "quota", "backup", "verified"]
RARE = ["ledger", "webhook", "failover", "eviction", "partition", "skew", "invoice", "tenant"]
CJK = ["東京の監査", "限流策略", "审计日志", "バックアップ確認", "東京"]


def _text(rng: random.Random) -> str:
    words = [rng.choice(COMMON if rng.random() < 0.7 else RARE) for _ in range(rng.randint(2, 9))]
    if rng.random() < 0.3:
        words.extend([rng.choice(COMMON)] * rng.randint(1, 4))  # a common word held often
    if rng.random() < 0.05:
        words.extend(rng.choice(RARE + COMMON) for _ in range(140))  # over 127 words
    if rng.random() < 0.15:
        words.append(rng.choice(CJK))
    rng.shuffle(words)
    return " ".join(words)


def _corpus(tmp_path: Path, seed: int, size: int) -> Path:
    rng = random.Random(seed)
    entries = []
    for position in range(1, size + 1):
        if entries and rng.random() < 0.05:
            # Two branches that added an entry under one number, same words but the verdict:
            # equal scores, equal numbers, and only the position left to order them.
            case_id, _, applies, next_check, extra = entries[-1]
            entries.append((case_id, "APPROVE", applies, next_check, extra))
            continue
        number = position
        extra = ""
        if position > 3 and rng.random() < 0.05:
            extra = f"supersedes: PREC-{rng.randint(1, position - 1):03d}\n"
        applies = _text(rng)
        if rng.random() < 0.3:
            domain = rng.choice(["billing", "auth", "all"])
            applies = f"{{domains: [{domain}], text: {applies}}}"
        else:
            applies = f'"{applies}"'
        next_check = " ".join(rng.choice(COMMON + RARE) for _ in range(rng.randint(1, 3)))
        entries.append((f"PREC-{number:03d}", "DENY", applies, next_check, extra))
    return write_precedents(tmp_path / "precedents.md", entries)


def _reference(
    connection: Any, query: str, filters: SearchFilters, limit: int | None
) -> list[tuple[str, str, float]]:
    # Every word with its column filter, as the expression was before filters were dropped
    # for speed, so a filter wrongly dropped shows as a difference.
    expression = " AND ".join(
        f'{column} : "{text.replace(chr(34), chr(34) * 2)}"'
        for column, text in search._phrases(query)
    )
    where, parameters = search._filters(filters)
    rows = connection.execute(
        "SELECT entry.case_id, entry.verdict, -bm25(entry_text) FROM entry_text "
        "JOIN entry ON entry.id = entry_text.rowid WHERE entry_text MATCH ?"
        + "".join(f" AND {condition}" for condition in where)
        + " ORDER BY -bm25(entry_text) DESC, entry.number DESC, entry.position DESC",
        [expression, *parameters],
    ).fetchall()
    return [(row[0], row[1], row[2]) for row in rows][:limit]


def _pairs(hits: list[search.SearchHit]) -> list[tuple[str, str, float]]:
    return [(hit.case_id, hit.verdict, hit.score) for hit in hits]


QUERIES = [
    "rollback",
    "silent",
    "ledger",
    "rollback silent",
    "cache tier quota",
    "silent alert backup verified",
    "webhook skew",
    "東京",
    "限流",
    "审计",
    "京",
    "バックアップ",  # a phrase of bigrams: FTS5 ranks it
    "rate-limit",  # a phrase of two tokens that no entry holds
    "rollback rollback",  # a word twice is two phrases, as in FTS5
    "nothing",
]
FILTERS = [
    SearchFilters(),
    SearchFilters(domains=("billing",)),
    SearchFilters(include_superseded=True),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_gives_the_ranked_join_of_fts5_bm25(tmp_path: Path, seed: int) -> None:
    source = _corpus(tmp_path, seed, 400)
    connection = open_index(source, tmp_path)
    compared = 0
    for query in QUERIES:
        for filters in FILTERS:
            for limit in (1, 3, 20, 1000, None):
                expected = _reference(connection, query, filters, limit)
                found = search_precedents(source, tmp_path, query, filters=filters, limit=limit)
                assert _pairs(found) == expected, (query, filters, limit)
                compared += len(expected)
    assert compared > 1000  # the corpus is not so thin that little is compared


@pytest.mark.parametrize("seed", [4, 5])
def test_each_way_of_ranking_gives_the_same_hits(tmp_path: Path, seed: int) -> None:
    """Routing picks one way per query; each must be exact on every query it could get."""
    source = _corpus(tmp_path, seed, 300)
    connection = open_index(source, tmp_path)
    for query in QUERIES:
        planned = search._plan(search._phrases(query))
        expression, keys = planned.expression, planned.keys
        statistics = None if keys is None else search._statistics(connection, keys)
        for filters in FILTERS:
            for limit in (1, 3, 20, 1000):
                expected = _reference(connection, query, filters, limit)
                assert _pairs(search._best_by_fts(connection, expression, filters, limit)) == (
                    expected
                ), (query, limit)
                if statistics is None:
                    continue
                for way in (search._shortest_first, search._scored_in_sql):
                    found = way(connection, expression, statistics, filters, limit)
                    assert _pairs(found) == expected, (way.__name__, query, filters, limit)


def test_word_statistics_are_what_fts5_counts(tmp_path: Path) -> None:
    source = _corpus(tmp_path, 6, 300)
    connection: sqlite3.Connection = open_index(source, tmp_path)
    connection.execute(
        "CREATE VIRTUAL TABLE temp.check_instance USING fts5vocab(main, entry_text, 'instance')"
    )
    counts: dict[tuple[str, int], int] = {}
    lengths: dict[int, int] = {}
    for term, rowid, column in connection.execute("SELECT term, doc, col FROM temp.check_instance"):
        key = ("0" if column == "body" else "1") + term
        counts[key, rowid] = counts.get((key, rowid), 0) + 1
        lengths[rowid] = lengths.get(rowid, 0) + 1
    stored = dict(connection.execute("SELECT id, length FROM entry").fetchall())
    assert stored == lengths
    assert max(stored.values()) > 127  # two-byte lengths are read right
    for key, entries, most, at_most in connection.execute("SELECT * FROM term"):
        held = [count for (word, _), count in counts.items() if word == key]
        assert (entries, most, at_most) == (len(held), max(held), held.count(max(held))), key
    for rowid, repeats in connection.execute("SELECT id, repeats FROM entry"):
        expected = {word: n for (word, at), n in counts.items() if at == rowid and n > 1}
        listed = dict(pair.split(":") for pair in (repeats or "").split())
        assert {word: int(n) for word, n in listed.items()} == expected
    ordered = [row[0] for row in connection.execute("SELECT floor FROM entry ORDER BY id")]
    suffix = [min(stored[rowid] for rowid in stored if rowid >= at) for at in sorted(stored)]
    assert ordered == suffix


class _CountingConnection:
    """Passes statements through and counts the rows they return (what a way reads)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.rows = 0

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        rows = self.connection.execute(sql, parameters).fetchall()
        self.rows += len(rows)
        return _Rows(rows)


class _Rows:
    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def fetchall(self) -> list[Any]:
        return self.rows

    def __iter__(self) -> Any:
        return iter(self.rows)


def test_shortest_first_stops_before_reading_every_match(tmp_path: Path) -> None:
    """X-3: with a word held once per entry, the best are the shortest; reading stops early."""
    entries = [
        (f"PREC-{n:03d}", "DENY", '"needle ' + "hay " * (n % 37) + '"', "x", "")
        for n in range(1, 301)
    ]
    source = write_precedents(tmp_path / "precedents.md", entries)
    connection = open_index(source, tmp_path)
    planned = search._plan(search._phrases("needle"))
    keys = planned.keys
    assert keys is not None
    statistics = search._statistics(connection, keys)
    assert statistics is not None and statistics.bounded(5)
    counting = _CountingConnection(connection)
    found = search._shortest_first(counting, planned.expression, statistics, SearchFilters(), 5)
    assert _pairs(found) == _reference(connection, "needle", SearchFilters(), 5)
    assert counting.rows < 100  # of 300 matches


@pytest.mark.parametrize("outsider", [False, True])
@pytest.mark.parametrize("query", ["quota", "quota-rule"])
def test_equal_scores_across_the_cut_go_to_the_higher_numbers(
    tmp_path: Path, query: str, outsider: bool
) -> None:
    """Eighty entries score the same: each way must read past its first batch (or its first
    LIMIT) and keep the five highest numbers, never the first five it happens to read. The
    outsider matches nothing, is short for FTS5 and long by the estimate, so it sits last and
    holds the floor down: shortest-first must then bound the lengths to read by the score
    kept, ties included, not stop at the floor."""
    entries = [(f"PREC-{n:03d}", "DENY", '"quota rule"', "x", "") for n in range(1, 81)]
    if outsider:
        entries.append(("PREC-081", "DENY", '"other ' + "・ " * 60 + '"', "x", ""))
    source = write_precedents(tmp_path / "precedents.md", entries)
    connection = open_index(source, tmp_path)
    expected = [(f"PREC-{n:03d}", "DENY") for n in range(80, 75, -1)]
    planned = search._plan(search._phrases(query))
    expression, keys = planned.expression, planned.keys
    found = [search._best_by_fts(connection, expression, SearchFilters(), 5)]
    if keys is not None:
        statistics = search._statistics(connection, keys)
        assert statistics is not None
        for way in (search._shortest_first, search._scored_in_sql):
            found.append(way(connection, expression, statistics, SearchFilters(), 5))
    for hits in found:
        assert [(hit.case_id, hit.verdict) for hit in hits] == expected
    assert _pairs(search_precedents(source, tmp_path, query, limit=5)) == _reference(
        connection, query, SearchFilters(), 5
    )


def test_column_filters_dropped_only_where_no_other_column_holds_the_word(
    tmp_path: Path,
) -> None:
    """X-3: a phrase goes without `body :` only when `chars` cannot hold it. `京!` leaves a
    lone CJK character in `body`, where no entry holds one; `chars` holds 京 for every entry
    with 東京 or 北京, so dropping that filter would find them."""
    entries = [
        ("PREC-001", "DENY", '"東京 quota"', "x", ""),
        ("PREC-002", "DENY", '"北京 quota"', "x", ""),
    ]
    source = write_precedents(tmp_path / "precedents.md", entries)
    assert search.match_expression("京!") == 'body : "京 !"'
    assert search.match_expression("quota 東京") == '"quota" AND "東京"'
    assert search_precedents(source, tmp_path, "京!") == []
    # `ア・` is the bigram of a CJK run whose second character separates words: its one token
    # is ア, which `chars` holds for every entry with katakana.
    assert search.match_expression("ア・") == 'body : "ア・"'

    assert [hit.case_id for hit in search_precedents(source, tmp_path, "京")] == [
        "PREC-002",
        "PREC-001",
    ]


def test_a_bigram_with_a_separator_keeps_its_column(tmp_path: Path) -> None:
    entries = [
        ("PREC-001", "DENY", '"バック・アップ quota"', "x", ""),  # body holds the token ア
        ("PREC-002", "DENY", '"アップ quota"', "x", ""),  # only `chars` holds ア
    ]
    source = write_precedents(tmp_path / "precedents.md", entries)
    connection = open_index(source, tmp_path)
    found = search_precedents(source, tmp_path, "ア・")
    assert [hit.case_id for hit in found] == ["PREC-001"]
    assert _pairs(found) == _reference(connection, "ア・", SearchFilters(), 20)


def test_the_early_stop_holds_where_the_length_estimate_is_wrong(tmp_path: Path) -> None:
    """X-3: ids follow an estimate of each entry's length; the stop reads the true shortest
    length still ahead (`floor`), not the length of the entry just read. A run of lone `・`
    counts as forty words in the estimate and none for FTS5, so the shortest entry gets the
    last id; stopping on the last length read would lose it."""
    entries = [
        (f"PREC-{n:03d}", "DENY", '"needle ' + "hay " * (5 + n % 7) + '"', "x", "")
        for n in range(1, 200)
    ] + [("PREC-200", "DENY", '"needle ' + "・ " * 40 + '"', "x", "")]
    source = write_precedents(tmp_path / "precedents.md", entries)
    connection = open_index(source, tmp_path)
    last = connection.execute("SELECT case_id FROM entry ORDER BY id DESC LIMIT 1").fetchone()
    assert last == ("PREC-200",)  # the estimate put the shortest entry last
    planned = search._plan(search._phrases("needle"))
    assert planned.keys is not None
    statistics = search._statistics(connection, planned.keys)
    assert statistics is not None and statistics.bounded(3)
    found = search._shortest_first(connection, planned.expression, statistics, SearchFilters(), 3)
    assert found[0].case_id == "PREC-200"
    assert _pairs(found) == _reference(connection, "needle", SearchFilters(), 3)


def _fts5_tokens(texts: list[str]) -> list[list[str]]:
    """What FTS5 itself makes of each text with the index's tokenizer."""
    from tribunal.precedents.index import TOKENIZER

    connection = sqlite3.connect(":memory:")
    connection.execute(f"CREATE VIRTUAL TABLE w USING fts5(x, tokenize='{TOKENIZER}')")
    connection.execute("CREATE VIRTUAL TABLE v USING fts5vocab(w, 'instance')")
    connection.executemany("INSERT INTO w(rowid, x) VALUES (?, ?)", enumerate(texts))
    found: list[list[tuple[int, str]]] = [[] for _ in texts]
    for rowid, offset, term in connection.execute("SELECT doc, offset, term FROM v"):
        found[rowid].append((offset, term))
    return [[term for _, term in sorted(tokens)] for tokens in found]


def test_cjk_text_is_split_as_fts5_splits_it() -> None:
    """X-3: search splits CJK text itself (no trip to FTS5); that must be exactly what FTS5
    makes of it — every character of CJK_RUN alone, and a sample of pairs and runs with the
    separators among them."""
    from tribunal.precedents.index import CJK_RUN, cjk_text

    spans = [(0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF)]
    spans += [(0xF900, 0xFAFF), (0x20000, 0x2EBEF)]
    singles = [chr(code) for low, high in spans for code in range(low, high + 1)]
    assert all(CJK_RUN.fullmatch(character) for character in singles)
    rng = random.Random(7)
    pool = singles[::97] + list(search.CJK_SEPARATORS) * 40
    runs = ["".join(rng.choice(pool) for _ in range(rng.randint(2, 9))) for _ in range(4000)]
    texts = singles + [" ".join(cjk_text(run)[0].split()) for run in runs]
    assert search._tokens(texts) == _fts5_tokens(texts)
    alone = _fts5_tokens(singles)
    dropped = {c for c, tokens in zip(singles, alone, strict=True) if not tokens}
    assert dropped == set(search.CJK_SEPARATORS)
