"""`tribunal precedent search` (R-4): plain words, all required, best first.

Each word of the query must occur in an entry (FTS5 AND). A word is matched as a phrase of the
tokens it contains (`rate-limit` -> "rate limit"; a CJK word -> its bigrams); a single CJK
character is matched against the characters column. `score` is -bm25: higher is better. Ties
go to the higher ID (the later precedent), then the later entry, so the order is deterministic.

X-3: FTS5's bm25 counts every query word's entries by walking the word's whole list on every
query, so a common word costs milliseconds at 100,000 entries however few hits are asked for.
When every word is one token, the index's word statistics (index.py) stand in for that walk, and
bm25 is computed here with FTS5's formula, constants and order of operations, so the scores and
the order are exactly those of one ranked join over every match with FTS5's bm25 (the tests
compare them on generated stores). Three ways get there, chosen for speed only:
- shortest first, stopping early, when the bound it stops on is tight (`_Statistics.bounded`);
- every match scored in SQL, when that costs less than FTS5's walks (`cheaper_in_sql`);
- FTS5's own bm25 otherwise, and for a word of several tokens (a phrase), whose count in an
  entry only FTS5 knows.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tribunal.errors import BadInput
from tribunal.precedents.entry import ALL_SCOPE
from tribunal.precedents.index import (
    CJK_CHARS,
    CJK_RUN,
    COLUMN_KEYS,
    TOKENIZER,
    cjk_text,
    forget_index,
    open_index,
    rebuild,
)

Result = TypeVar("Result")
_TOKEN = re.compile(r"[^\W_]+")  # unicode61: letters and digits; `_` separates words
K1, B = 1.2, 0.75  # bm25's constants in fts5_aux.c, reproduced here (X-3)


@dataclass(frozen=True)
class SearchFilters:
    """Scope filters: an entry must declare the key and list the value (or `all`)."""

    domains: tuple[str, ...] = ()
    tiers: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()
    include_superseded: bool = False


@dataclass(frozen=True)
class SearchHit:
    """One result, in the shape `--json` prints (R-4)."""

    case_id: str
    verdict: str
    score: float
    applies_to: Any
    next_check: Any
    evidence_ref: Any

    def to_json(self) -> dict[str, Any]:
        """`{case_id, verdict, score, applies_to, next_check, evidence_ref}`."""
        return {
            "case_id": self.case_id,
            "verdict": self.verdict,
            "score": self.score,
            "applies_to": self.applies_to,
            "next_check": self.next_check,
            "evidence_ref": self.evidence_ref,
        }


def match_expression(query: str) -> str:
    """The FTS5 expression for a plain-words query; BadInput when it holds no word."""
    return _plan(_phrases(query)).expression


# C-3: the longest query searched. Each word becomes statement variables, result columns and
# terms of one bm25 sum, and SQLite bounds all three (32,766 variables, 2,000 columns, an
# expression depth of 1,000 by default): a longer query is bad input, not an internal error.
MAX_QUERY_LENGTH = 1000


def _phrases(query: str) -> list[tuple[str, str]]:
    """(column, phrase text) per word of `query`; BadInput when it holds no word or is longer
    than MAX_QUERY_LENGTH characters."""
    if len(query) > MAX_QUERY_LENGTH:
        raise BadInput(
            f"the query is {len(query)} characters long; at most {MAX_QUERY_LENGTH} are searched",
            field="QUERY",
        )
    phrases = []
    for word in query.split():
        if not _TOKEN.search(word):
            continue  # punctuation (or `_`) alone: nothing to look for
        if CJK_RUN.fullmatch(word) and len(word) == 1:
            phrases.append(("chars", word))
            continue
        text, _ = cjk_text(word)
        phrases.append(("body", " ".join(text.split())))
    if not phrases:
        raise BadInput(f"the query {query!r} holds no word to search for", field="QUERY")
    return phrases


@dataclass(frozen=True)
class _Query:
    """A query as the index answers it."""

    expression: str  # the FTS5 AND of its words
    keys: list[str] | None  # each word's key in the index's `term` table; None for a phrase
    token_keys: list[str]  # the key of every token of every word


def _plan(phrases: list[tuple[str, str]]) -> _Query:
    """The FTS5 expression and the statistics keys of the words (one tokenizer call).

    X-3: a column filter makes FTS5 read every candidate's positions to learn its column, so a
    word carries one only where the other column could hold one of its tokens: `chars` holds
    single CJK characters, which `body` holds too where a CJK run is one character long or a
    bigram holds a separator (`ク・` is the token ク). The hits and their bm25 are the same
    either way (tests/records/test_search_ranking.py).
    """
    tokens = _tokens([text for _, text in phrases])
    terms = []
    for (column, text), found in zip(phrases, tokens, strict=True):
        quoted = '"' + text.replace('"', '""') + '"'
        shared = column == "chars" or any(
            len(token) == 1 and CJK_RUN.fullmatch(token) for token in found
        )
        terms.append(f"{column} : {quoted}" if shared else quoted)
    token_keys = [
        COLUMN_KEYS[column] + token
        for (column, _), found in zip(phrases, tokens, strict=True)
        for token in found
    ]
    one_each = all(len(found) == 1 for found in tokens)
    return _Query(" AND ".join(terms), token_keys if one_each else None, token_keys)


def search_precedents(
    source: Path,
    root: Path,
    query: str,
    *,
    filters: SearchFilters | None = None,
    limit: int | None = 20,
) -> list[SearchHit]:
    """Entries of `source` matching every word of `query`, best first (R-4).

    Raises BadInput for an empty query or a precedents file that is missing or does not parse.
    """
    # The words are tokenized before the index is opened: a failure of the tokenizer's own
    # in-memory database is not a sign of a corrupt index (query_index rebuilds on those).
    planned = _plan(_phrases(query))
    chosen = filters or SearchFilters()
    return query_index(source, root, lambda connection: _ranked(connection, planned, chosen, limit))


def relevance(
    source: Path,
    root: Path,
    texts: list[str],
    *,
    include_superseded: bool = False,
    limit: int | None = 20,
) -> list[tuple[int, str, float]]:
    """R-4 candidates: the entries whose scope is prose only (no domains, tiers or modes) that
    share at least one word with `texts`, best first, as (position in the file counting from
    1, case_id, score); score is -bm25, higher is better. Raises BadInput as search does."""
    terms = _any_word(texts)
    if not terms:
        return []
    where = [
        "entry_text MATCH ?",
        "entry.domains IS NULL AND entry.tiers IS NULL AND entry.modes IS NULL",
    ]
    if not include_superseded:
        where.append("entry.superseded = 0")
    sql = (
        "SELECT entry.position, entry.case_id, -bm25(entry_text) AS score FROM entry_text "
        "JOIN entry ON entry.id = entry_text.rowid "
        f"WHERE {' AND '.join(where)} "
        "ORDER BY score DESC, entry.number DESC, entry.position DESC"
    )
    parameters: list[Any] = [" OR ".join(terms)]
    if limit is not None:
        sql += " LIMIT ?"
        parameters.append(limit)
    rows = query_index(source, root, lambda c: c.execute(sql, parameters).fetchall())
    return [(int(row[0]), str(row[1]), float(row[2])) for row in rows]


def query_index(source: Path, root: Path, run: Callable[[Any], Result]) -> Result:
    """`run(connection)` over a fresh index of `source`; a corrupt index is rebuilt once and the
    query retried (R-5). Raises BadInput when the source is missing or does not parse."""
    import sqlite3

    for attempt in (1, 2):
        connection = open_index(source, root)
        try:
            return run(connection)
        except sqlite3.DatabaseError:
            forget_index(source, root)
            if attempt == 2:
                raise
            rebuild(source, root)  # a corrupt index is rebuilt, never trusted
    raise AssertionError("unreachable")


# Ranking candidates against a whole dispute: at most this many distinct words of its text.
MAX_RELEVANCE_TERMS = 64


def _any_word(texts: list[str]) -> list[str]:
    """FTS5 terms matching any word of `texts` (each word a phrase of its tokens), deduplicated
    in order of first appearance, at most MAX_RELEVANCE_TERMS."""
    seen: dict[str, None] = {}
    for text in texts:
        for token in _TOKEN.findall(cjk_text(text)[0]):
            if len(seen) < MAX_RELEVANCE_TERMS:
                seen.setdefault(token.lower(), None)
    return ['body : "' + token.replace('"', '""') + '"' for token in seen]


def _ranked(
    connection: Any, query: _Query, filters: SearchFilters, limit: int | None
) -> list[SearchHit]:
    """The best `limit` hits (all with None), exactly as one ranked join over every match with
    FTS5's bm25 gives them (module doc); the way there is chosen for speed (X-3)."""
    if limit is not None and limit <= 0:
        return []
    if limit is not None:
        limit = min(limit, MAX_LIMIT)
    expression, keys = query.expression, query.keys
    if keys is None:  # a phrase of several tokens: only FTS5 knows its count in an entry
        # At most as many matches as its rarest token has entries (none: no statistics).
        tokens = _statistics(connection, query.token_keys) if query.token_keys else None
        if query.token_keys and tokens is None:
            return []  # a token no entry holds
        if limit is None or (tokens is not None and min(tokens.holding) <= FEW_MATCHES):
            return _ranked_join(connection, expression, filters, limit)
        return _best_by_fts(connection, expression, filters, limit)
    statistics = _statistics(connection, keys)
    if statistics is None:
        return []  # a word no entry holds: all words are required
    if limit is not None and statistics.bounded(limit):
        return _shortest_first(connection, expression, statistics, filters, limit)
    if statistics.cheaper_in_sql():
        return _scored_in_sql(connection, expression, statistics, filters, limit)
    if limit is None:
        return _ranked_join(connection, expression, filters, None)
    return _best_by_fts(connection, expression, filters, limit)


# More hits than any store holds: a larger limit means the same and would overflow SQLite's
# 64-bit integers once doubled or added to.
MAX_LIMIT = 1 << 31

# Up to this many matches, one ranked join (bm25 and the entry for each) costs less than
# FTS5's LIMIT followed by a join of the few kept, which may need a second pass for ties.
FEW_MATCHES = 300


def _ranked_join(
    connection: Any,
    expression: str,
    filters: SearchFilters,
    limit: int | None,
    at_least: float | None = None,
) -> list[SearchHit]:
    """Every match (scoring `at_least`, when given) scored by FTS5's bm25, joined with its
    entry, best first."""
    where, parameters = _filters(filters)
    if at_least is not None:
        where.append("-bm25(entry_text) >= ?")
        parameters.append(at_least)
    sql = (
        "SELECT entry.output, -bm25(entry_text) AS score FROM entry_text "
        "JOIN entry ON entry.id = entry_text.rowid WHERE entry_text MATCH ?"
        + "".join(f" AND {condition}" for condition in where)
        + " ORDER BY score DESC, entry.number DESC, entry.position DESC"
    )
    if limit is not None:
        sql += " LIMIT ?"
    rows = connection.execute(sql, [expression, *parameters, *([] if limit is None else [limit])])
    return _hits(rows.fetchall())


# The FTS5 path takes this many more hits than asked for before it joins and filters them.
OVERFETCH = 32


def _best_by_fts(
    connection: Any, expression: str, filters: SearchFilters, limit: int
) -> list[SearchHit]:
    """The best `limit` hits with the LIMIT taken inside the FTS5 query (bm25 in C), then
    joined with their entries. When that is not enough to be exact (filters dropped too many,
    or equal scores straddle the cut, whose order among them FTS5 does not know), one ranked
    join finishes the work, over the matches scoring at least the last score kept."""
    where, parameters = _filters(filters)
    conditions = "".join(f" AND {condition}" for condition in where)
    fetch = limit + OVERFETCH
    hits = connection.execute(
        "SELECT rowid, -bm25(entry_text) AS score FROM entry_text WHERE entry_text MATCH ? "
        "ORDER BY score DESC LIMIT ?",
        [expression, fetch],
    ).fetchall()
    entries = _entries_of(connection, [rowid for rowid, _ in hits], conditions, parameters)
    kept = sorted(
        ((score, *entries[rowid]) for rowid, score in hits if rowid in entries), reverse=True
    )[:limit]
    if len(hits) < fetch or (len(kept) == limit and kept[-1][0] > hits[-1][1]):
        return _hits([(output, score) for score, _, _, output in kept])
    at_least = kept[-1][0] if len(kept) == limit else None
    return _ranked_join(connection, expression, filters, limit, at_least)


def _entries_of(
    connection: Any, ids: list[int], conditions: str, parameters: list[Any]
) -> dict[int, tuple[int, int, str]]:
    """id -> (number, position, output) of the entries among `ids` that pass `conditions`."""
    sql = (
        "SELECT id, number, position, output FROM entry "
        f"WHERE id IN (SELECT value FROM json_each(?)){conditions}"
    )
    rows = connection.execute(sql, [json.dumps(ids), *parameters]).fetchall()
    return {row[0]: (row[1], row[2], row[3]) for row in rows}


@dataclass(frozen=True)
class _Statistics:
    """What bm25 needs for the words of a query (index.py keeps it; module doc)."""

    keys: list[str]
    idfs: list[float]
    most: list[int]  # each word's highest count in one entry
    holding: list[int]  # entries holding each word
    at_most: list[int]  # entries holding each word `most` times
    average: float  # words per entry

    @property
    def constant_counts(self) -> list[int | None]:
        """Per word, its count in every entry holding it when that is the same for all (every
        entry holds it its highest count of times), else None."""
        return [
            most if at_most == holding else None
            for most, at_most, holding in zip(self.most, self.at_most, self.holding, strict=True)
        ]

    def bounded(self, limit: int) -> bool:
        """Whether reading shortest first will stop early. Its bound takes every word at its
        highest count at once: tight when no word repeats, or when one word is held its
        highest count of times by at least `limit` entries and a quarter of those holding it;
        loose when common words repeat unevenly, and then scoring every match in SQL is faster
        than reading them all in Python."""
        if all(most == 1 for most in self.most):
            return True
        if len(self.keys) > 1:
            return False
        return self.at_most[0] >= limit and 4 * self.at_most[0] >= self.holding[0]

    def cheaper_in_sql(self) -> bool:
        """Whether scoring every match in SQL beats FTS5's bm25. Costs in microseconds per
        unit, measured with bench/search_x3.py (2-core Xeon): FTS5 walks each word's entries
        (0.05 each) and scores each match (1.0), after a fixed 200; SQL scores each match
        (1.25), after a fixed 50. The matches are taken as many as the rarest word's entries
        (common words come together). The choice changes the time, never the hits."""
        matches = min(self.holding)
        by_fts = 200 + 0.05 * sum(self.holding) + 1.0 * matches
        return 50 + 1.25 * matches < by_fts


def _statistics(connection: Any, keys: list[str]) -> _Statistics | None:
    """The statistics of `keys`, or None when a word is in no entry (one statement: X-3)."""
    distinct = sorted(set(keys))
    rows = connection.execute(
        "SELECT key, entries, most, at_most, "
        "(SELECT value FROM meta WHERE key = 'entries'), (SELECT value FROM meta WHERE key = "
        f"'words') FROM term WHERE key IN ({', '.join('?' * len(distinct))})",
        distinct,
    ).fetchall()
    if len(rows) < len(distinct):
        return None
    known = {row[0]: row[1:4] for row in rows}
    entries, words = int(rows[0][4]), int(rows[0][5])
    return _Statistics(
        keys,
        idfs=[_idf(entries, known[key][0]) for key in keys],
        most=[known[key][1] for key in keys],
        holding=[known[key][0] for key in keys],
        at_most=[known[key][2] for key in keys],
        average=words / entries,  # fts5_aux.c: (double)nToken / (double)nRow
    )


# Matches are read in batches: the first holds twice the limit (at least FIRST_BATCH), each
# next one twice the last, up to MAX_BATCH.
FIRST_BATCH = 32
MAX_BATCH = 4096


def _shortest_first(
    connection: Any,
    expression: str,
    statistics: _Statistics,
    filters: SearchFilters,
    limit: int,
) -> list[SearchHit]:
    """The best `limit` matches, scored with bm25's formula from the index's word statistics.

    Ids follow the length, so matches come shortest first; an entry later than id r is at
    least `floor(r)` words long and holds each word at most `most` times, which bounds its
    score (bm25 grows with a word's count and falls with the length). Reading stops once that
    bound is below the last score kept: no later entry can enter, even on a tie.
    """
    keys, idfs, most, average = (
        statistics.keys,
        statistics.idfs,
        statistics.most,
        statistics.average,
    )
    # A word every entry holds equally often has that count everywhere; others are looked up
    # in `repeats` (index.py), which is read only then. Equal lengths and counts give equal
    # scores, computed once.
    lookups = [
        (f" {key}:", constant)
        for key, constant in zip(keys, statistics.constant_counts, strict=True)
    ]
    same_counts = tuple(c for _, c in lookups if c is not None)
    if len(same_counts) < len(lookups):
        same_counts = ()  # some count differs between entries: looked up per entry
    repeats_column = "entry.repeats" if not same_counts else "NULL"
    where, parameters = _filters(filters)
    sql = (
        "SELECT entry_text.rowid, entry.length, entry.floor, entry.number, entry.position, "
        f"{repeats_column} FROM entry_text JOIN entry ON entry.id = entry_text.rowid "
        "WHERE entry_text MATCH ? AND entry_text.rowid > ? AND entry.length <= ?"
        + "".join(f" AND {condition}" for condition in where)
        + " ORDER BY entry_text.rowid LIMIT ?"
    )
    longest = _UNBOUNDED
    scores: dict[tuple[int, tuple[int, ...]], float] = {}
    kept: list[tuple[float, int, int, int]] = []  # score, number, position, id
    after, batch = 0, max(2 * limit, FIRST_BATCH)
    while True:
        rows = connection.execute(sql, [expression, after, longest, *parameters, batch])
        rows = rows.fetchall()
        for rowid, length, _, number, position, repeats in rows:
            counts = same_counts or tuple(
                _count(repeats, needle) if constant is None else constant
                for needle, constant in lookups
            )
            score = scores.get((length, counts))
            if score is None:
                score = scores[length, counts] = _bm25(idfs, list(counts), length, average)
            kept.append((score, number, position, rowid))
        kept.sort(reverse=True)  # the score, then the higher number, then the later entry
        del kept[limit:]
        if len(rows) < batch:
            break  # every match read
        after, floor = rows[-1][0], rows[-1][2]
        if len(kept) == limit:
            if _bm25(idfs, most, floor, average) < kept[-1][0]:
                break
            # Entries longer than this cannot reach the last score kept, even on a tie: the
            # next batches skip them in SQL rather than read them here.
            longest = _longest(idfs, most, average, kept[-1][0], floor)
        batch = min(2 * batch, MAX_BATCH)
    entries = _entries_of(connection, [rowid for *_, rowid in kept], "", [])
    return _hits([(entries[rowid][2], score) for score, _, _, rowid in kept])


_UNBOUNDED = 1 << 62  # no length limit (SQLite integers are 64-bit)


def _longest(idfs: list[float], most: list[int], average: float, score: float, floor: int) -> int:
    """The greatest length at which an entry holding each word its highest count of times
    still scores `score` or more; `floor` is such a length. The bound falls with the length,
    so an exponential search, then a bisection, finds it."""
    low, high = floor, max(2 * floor, 1)
    while _bm25(idfs, most, high, average) >= score:
        low, high = high, 2 * high
        if high >= _UNBOUNDED:
            return _UNBOUNDED
    while high - low > 1:
        middle = (low + high) // 2
        if _bm25(idfs, most, middle, average) >= score:
            low = middle
        else:
            high = middle
    return low


def _count(repeats: str | None, needle: str) -> int:
    """A word's count in an entry from its `repeats` (index.py): 1 unless listed there."""
    if repeats is None:
        return 1
    at = repeats.find(needle)
    if at < 0:
        return 1
    start = at + len(needle)
    return int(repeats[start : repeats.index(" ", start)])


def _scored_in_sql(
    connection: Any,
    expression: str,
    statistics: _Statistics,
    filters: SearchFilters,
    limit: int | None,
) -> list[SearchHit]:
    """The best `limit` matches (all with None), every one scored in SQL (C speed) by bm25's
    formula from the index's word statistics: what FTS5's bm25 computes, without its count of
    each word's entries. fts5_aux.c's order of operations is kept, so the doubles are equal."""
    where, filter_parameters = _filters(filters)
    counts, scores = [], []
    count_parameters: list[Any] = []
    score_parameters: list[Any] = []
    for index, (key, idf, constant) in enumerate(
        zip(statistics.keys, statistics.idfs, statistics.constant_counts, strict=True)
    ):
        needle = f" {key}:"
        if constant is not None:
            counts.append(f"? AS count{index}")
            count_parameters.append(constant)
        else:
            counts.append(
                "coalesce(CAST(substr(entry.repeats, nullif(instr(entry.repeats, ?), 0) + ?, 12) "
                f"AS INTEGER), 1) AS count{index}"
            )
            count_parameters.extend([needle, len(needle)])
        scores.append(f"? * ((count{index} * ?) / (count{index} + norm))")
        score_parameters.extend([idf, K1 + 1.0])
    # The innermost query runs as a co-routine (LIMIT -1 keeps it from being flattened into
    # the next), so each count and the length's norm are computed once per match; only the
    # entries kept are read for their output.
    order = "score DESC, number DESC, position DESC"
    sql = (
        "SELECT entry.output, best.score FROM ("
        f"SELECT id, number, position, {' + '.join(scores)} AS score FROM ("
        "SELECT entry.id AS id, entry.number AS number, entry.position AS position, "
        f"? * (1 - ? + ? * entry.length / ?) AS norm, {', '.join(counts)} "
        "FROM entry_text JOIN entry ON entry.id = entry_text.rowid WHERE entry_text MATCH ?"
        + "".join(f" AND {condition}" for condition in where)
        + f" LIMIT -1) ORDER BY {order}"
        + ("" if limit is None else " LIMIT ?")
        + ") AS best JOIN entry ON entry.id = best.id "
        "ORDER BY best.score DESC, best.number DESC, best.position DESC"
    )
    parameters = [
        *score_parameters,
        *(K1, B, B, statistics.average),
        *count_parameters,
        expression,
        *filter_parameters,
        *([] if limit is None else [limit]),
    ]
    return _hits(connection.execute(sql, parameters).fetchall())


def _idf(entries: int, holding: int) -> float:
    """bm25's inverse document frequency, exactly as fts5_aux.c computes it."""
    idf = math.log((entries - holding + 0.5) / (holding + 0.5))
    return idf if idf > 0.0 else 1e-6


def _bm25(idfs: list[float], frequencies: list[int], length: int, average: float) -> float:
    """-bm25 of one entry: fts5_aux.c's sum, in its order of operations (same doubles)."""
    score = 0.0
    for idf, frequency in zip(idfs, frequencies, strict=True):
        numerator = frequency * (K1 + 1.0)
        denominator = frequency + K1 * (1 - B + B * length / average)
        score += idf * (numerator / denominator)
    return score


def _tokens(texts: list[str]) -> list[list[str]]:
    """The tokens FTS5 makes of each text with the index's tokenizer, in order.

    CJK text (bigrams and single characters, as cjk_text writes them) is split here: FTS5
    keeps every character of CJK_RUN as it is, except the six of CJK_SEPARATORS, which end a
    token (tests/records/test_search_ranking.py checks every character of CJK_RUN and every
    pair of a sample). Any other text goes into an in-memory FTS5 table (one per thread)
    inside a transaction that is rolled back, so nothing accumulates: about 25 microseconds a
    query. Never cached: a repeated query pays again (X-3 measures 100 runs of each)."""
    tokens: list[list[str]] = [[] for _ in texts]
    others = []
    for index, text in enumerate(texts):
        if _CJK_TEXT.fullmatch(text):
            tokens[index] = [t for piece in text.split() for t in _CJK_SPLIT.split(piece) if t]
        else:
            others.append((index, text))
    if not others:
        return tokens
    connection = _tokenizer()
    connection.execute("BEGIN")
    try:
        rows_sql = ", ".join(["(?, ?)"] * len(others))  # one statement for all the texts
        connection.execute(
            f"INSERT INTO word(rowid, text) VALUES {rows_sql}",
            [value for pair in others for value in pair],
        )
        rows = connection.execute("SELECT doc, offset, term FROM word_token").fetchall()
    finally:
        connection.execute("ROLLBACK")
    for index, _, term in sorted(rows):
        tokens[index].append(term)
    return tokens


# The characters of CJK_RUN that unicode61 takes for separators (or drops as diacritics):
# combining and spacing (han)dakuten, the katakana-hiragana double hyphen, the middle dot.
CJK_SEPARATORS = "\u3099\u309a\u309b\u309c\u30a0\u30fb"
_CJK_TEXT = re.compile(f"[{CJK_CHARS} ]+")
_CJK_SPLIT = re.compile(f"[{CJK_SEPARATORS}]+")
_TOKENIZER = threading.local()


def _tokenizer() -> Any:
    """This thread's in-memory FTS5 table with the index's tokenizer, and its instances."""
    if not hasattr(_TOKENIZER, "connection"):
        import sqlite3

        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.executescript(
            f"""
            CREATE VIRTUAL TABLE word USING fts5(text, tokenize='{TOKENIZER}', content='');
            CREATE VIRTUAL TABLE word_token USING fts5vocab(word, 'instance');
            """
        )
        _TOKENIZER.connection = connection
    return _TOKENIZER.connection


def _filters(filters: SearchFilters) -> tuple[list[str], list[Any]]:
    where: list[str] = []
    parameters: list[Any] = []
    if not filters.include_superseded:
        where.append("entry.superseded = 0")
    for column, values in (
        ("domains", filters.domains),
        ("tiers", filters.tiers),
        ("modes", filters.modes),
    ):
        for value in values:
            where.append(f"EXISTS (SELECT 1 FROM json_each(entry.{column}) WHERE value IN (?, ?))")
            parameters.extend([value, ALL_SCOPE])
    return where, parameters


def _hits(rows: list[tuple[str, float]]) -> list[SearchHit]:
    """The hits of (output JSON, score) rows. X-3: one decode of all outputs as one array
    costs a third of one decode per output."""
    outputs = json.loads("[" + ",".join(row[0] for row in rows) + "]")
    hits = []
    for output, (_, score) in zip(outputs, rows, strict=True):
        # The fields straight into the frozen instance: a third of what __init__ costs, one
        # object.__setattr__ a field. `output` holds exactly the other five (index._row).
        hit = object.__new__(SearchHit)
        hit.__dict__.update(output, score=float(score))
        hits.append(hit)
    return hits
