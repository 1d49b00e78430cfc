"""R-4, R-5: precedent search over an FTS5 index that is rebuilt when stale or corrupt."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tribunal.cli import cli
from tribunal.errors import BadInput
from tribunal.precedents.index import index_paths
from tribunal.precedents.search import SearchFilters, search_precedents

ENTRY = """## {id}

```yaml
case_id: {id}
verdict: {verdict}
evidence_ref: tests/{id}.json
applies_to: {applies_to}
next_check: "{next_check}"
{extra}```

"""

ENTRIES = [
    ("PREC-001", "DENY", '"rate-limit without tenant_id dedup"', "burst above 60", ""),
    ("PREC-002", "APPROVE", '"rate change in the billing export"', "new exporter", ""),
    ("PREC-003", "DENY", '"東京 のレート制限は確認が必要"', "再確認", ""),
    ("PREC-004", "DEFERRED", '"限流策略需要复核, 北京机房"', "负载变化", ""),
    (
        "PREC-005",
        "DENY",
        "{domains: [billing], modes: [strict], text: limit limit limit on invoices}",
        "never",
        "",
    ),
    ("PREC-006", "APPROVE", '"audit trace kept"', "manual review floor", "supersedes: PREC-002\n"),
    ("PREC-007", "DENY", "{domains: [all], text: a limit everywhere}", "x", ""),
    ("PREC-008", "DENY", '"unrelated: storage quotas"', "disk", ""),
    ("PREC-009", "DENY", '"unrelated: dns caching"', "ttl", ""),
]


def write_precedents(path: Path, entries: list[tuple[str, str, str, str, str]]) -> Path:
    text = "# Precedents\n\n" + "".join(
        ENTRY.format(id=i, verdict=v, applies_to=a, next_check=n, extra=e)
        for i, v, a, n, e in entries
    )
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return write_precedents(tmp_path / "precedents.md", ENTRIES)


def ids(store: Path, query: str, **filters: Any) -> list[str]:
    hits = search_precedents(store, store.parent, query, filters=SearchFilters(**filters))
    return [hit.case_id for hit in hits]


def test_all_words_are_required(store: Path) -> None:
    assert ids(store, "rate") == ["PREC-001"]
    assert ids(store, "rate", include_superseded=True) == ["PREC-002", "PREC-001"]
    assert ids(store, "rate limit") == ["PREC-001"]
    assert ids(store, "rate limit quotas") == []
    assert ids(store, "TENANT_ID") == ["PREC-001"]  # case-folded, `_` separates words


def test_ranked_best_first_with_higher_is_better_score(store: Path) -> None:
    hits = search_precedents(store, store.parent, "limit")
    assert [h.case_id for h in hits] == ["PREC-005", "PREC-007", "PREC-001"]
    assert hits[0].score > hits[1].score > hits[2].score > 0


def test_cjk_short_queries(store: Path) -> None:
    assert ids(store, "東京") == ["PREC-003"]  # Japanese, two characters
    assert ids(store, "確認") == ["PREC-003"]
    assert ids(store, "北京") == ["PREC-004"]  # Chinese, two characters
    assert ids(store, "复核") == ["PREC-004"]
    assert ids(store, "京") == ["PREC-004", "PREC-003"]  # one character: both, later first
    assert ids(store, "レート制限") == ["PREC-003"]
    assert ids(store, "東北") == []


def test_superseded_hidden_unless_all(store: Path) -> None:
    assert ids(store, "billing") == ["PREC-005"]
    assert ids(store, "billing", include_superseded=True) == ["PREC-005", "PREC-002"]


def test_scope_filters(store: Path) -> None:
    assert ids(store, "limit", domains=("billing",)) == ["PREC-005", "PREC-007"]
    assert ids(store, "limit", modes=("strict",)) == ["PREC-005"]
    assert ids(store, "limit", tiers=("t1",)) == []


def test_json_prints_one_list(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(store.parent)
    result = CliRunner().invoke(cli, ["precedent", "search", "invoices", "--json"])
    assert result.exit_code == 0
    (hit,) = json.loads(result.stdout)
    assert list(hit) == ["case_id", "verdict", "score", "applies_to", "next_check", "evidence_ref"]
    assert hit["applies_to"] == {
        "domains": ["billing"],
        "modes": ["strict"],
        "text": "limit limit limit on invoices",
    }
    assert (hit["case_id"], hit["evidence_ref"], hit["next_check"]) == (
        "PREC-005",
        "tests/PREC-005.json",
        "never",
    )
    assert hit["score"] > 0


def test_plain_output_and_limit(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(store.parent)
    result = CliRunner().invoke(cli, ["precedent", "search", "limit", "--limit", "1"])
    assert result.exit_code == 0
    assert result.stdout.startswith("PREC-005  DENY      ")
    assert result.stdout.endswith("  limit limit limit on invoices\n")
    assert len(result.stdout.splitlines()) == 1


def test_bad_queries_and_files(store: Path, tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="holds no word"):
        search_precedents(store, tmp_path, " - ")
    with pytest.raises(BadInput, match="holds no word"):
        search_precedents(store, tmp_path, "__ _")  # `_` separates words, as `-` does
    with pytest.raises(BadInput, match="file not found"):
        search_precedents(tmp_path / "missing.md", tmp_path, "x")
    store.write_text(store.read_text().replace("verdict: DENY", "verdict: NO", 1))
    with pytest.raises(BadInput, match="verdict"):
        search_precedents(store, tmp_path, "limit")


def test_underscores_alone_are_no_word(store: Path) -> None:
    assert ids(store, "limit _") == ids(store, "limit") == ["PREC-005", "PREC-007", "PREC-001"]


def test_a_limit_beyond_any_store_gives_every_match(store: Path) -> None:
    """A limit past SQLite's integers (the CLI takes any) means "all", never an overflow."""
    for query in ("limit", "rate-limit", "tenant_id dedup"):
        everything = search_precedents(store, store.parent, query, limit=None)
        assert everything
        assert search_precedents(store, store.parent, query, limit=1 << 63) == everything


def test_index_lives_under_dot_tribunal(store: Path) -> None:
    ids(store, "limit")
    paths = index_paths(store, store.parent)
    assert paths.database.parent == store.parent / ".tribunal" / "index"
    assert paths.database.is_file() and paths.stamp.is_file()


def test_stale_index_is_rebuilt_after_an_edit(store: Path) -> None:
    assert ids(store, "quotas") == ["PREC-008"]
    write_precedents(store, [*ENTRIES, ("PREC-010", "DENY", '"more quotas"', "n", "")])
    assert ids(store, "quotas") == ["PREC-010", "PREC-008"]


def test_same_bytes_with_a_new_mtime_are_not_rebuilt(store: Path) -> None:
    ids(store, "limit")
    database = index_paths(store, store.parent).database
    built = database.stat().st_ino
    stat = store.stat()
    os.utime(store, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert ids(store, "quotas") == ["PREC-008"]
    assert database.stat().st_ino == built  # the hash matched: refreshed, not rebuilt
    ids(store, "quotas")
    assert database.stat().st_ino == built


@pytest.mark.parametrize("keep_stamp", [False, True])
def test_corrupt_index_is_rebuilt(store: Path, keep_stamp: bool) -> None:
    """R-5: garbage in the index is never trusted; with `keep_stamp` the stamp is forged to
    match, so only the database's own failure can reveal the corruption."""
    assert ids(store, "quotas") == ["PREC-008"]
    paths = index_paths(store, store.parent)
    size = paths.database.stat().st_size
    paths.database.write_bytes(b"\x00garbage" * (size // 8))
    if keep_stamp:
        stat = paths.database.stat()
        forged = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "inode": stat.st_ino}
        paths.stamp.write_text(json.dumps(forged) + "\n")
    assert ids(store, "quotas") == ["PREC-008"]
    assert paths.database.read_bytes().startswith(b"SQLite format 3\x00")


def test_deleted_index_is_rebuilt(store: Path) -> None:
    ids(store, "limit")
    index_paths(store, store.parent).database.unlink()
    assert ids(store, "quotas") == ["PREC-008"]


def test_limit_pushdown_gives_what_one_ranked_join_gives(tmp_path: Path) -> None:
    """X-3: the LIMIT is taken inside the FTS query, then filtered; filters that drop the best
    hits make it fetch again, and equal scores still go to the higher number (ids follow the
    number, not the file order)."""
    import sqlite3

    from tribunal.precedents.index import open_index

    entries = [
        (f"PREC-{n:03d}", "DENY", '"quota quota quota rule"', "x", "") for n in range(60, 0, -1)
    ] + [
        (f"PREC-{n:03d}", "DENY", "{domains: [billing], text: a quota rule written at length}",
         "x", "")
        for n in (61, 62, 63)
    ]  # fmt: skip
    path = write_precedents(tmp_path / "precedents.md", entries)
    hits = search_precedents(path, tmp_path, "quota", limit=5)
    assert [h.case_id for h in hits] == ["PREC-060", "PREC-059", "PREC-058", "PREC-057", "PREC-056"]
    billing = search_precedents(
        path, tmp_path, "quota", filters=SearchFilters(domains=("billing",)), limit=2
    )
    assert [h.case_id for h in billing] == ["PREC-063", "PREC-062"]
    # The reference: one ranked join over every match, no pushdown.
    connection: sqlite3.Connection = open_index(path, tmp_path)
    reference = connection.execute(
        "SELECT entry.case_id FROM entry_text JOIN entry ON entry.id = entry_text.rowid "
        "WHERE entry_text MATCH 'body : \"quota\"' AND entry.superseded = 0 "
        "ORDER BY -bm25(entry_text) DESC, entry.number DESC, entry.position DESC"
    ).fetchall()
    everything = search_precedents(path, tmp_path, "quota", limit=None)
    assert [h.case_id for h in everything] == [row[0] for row in reference]
    assert [h.case_id for h in search_precedents(path, tmp_path, "quota", limit=63)] == [
        row[0] for row in reference
    ]


# C-3: a query too long for the index is bad input (once SQLite's "too many SQL variables" or
# "Expression tree is too large": an internal error, exit 3); the longest query searched works.
LONGEST = 1000


@pytest.mark.parametrize(
    "query",
    [
        "a" * (LONGEST + 1),
        " ".join(f"w{number}" for number in range(130_000)),  # more variables than SQLite takes
        "中国" * 50_000,
    ],
    ids=["one character over", "130,000 words", "100,000 CJK characters"],
)
def test_a_query_too_long_is_bad_input(
    store: Path, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    monkeypatch.chdir(store.parent)
    result = CliRunner().invoke(cli, ["precedent", "search", query, "--file", "precedents.md"])
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        f"tribunal: error: QUERY: the query is {len(query)} characters long; "
        f"at most {LONGEST} are searched\n"
    )


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("limit " * (LONGEST // 6), True),  # the most words a query holds, every one indexed
        (("l " * LONGEST)[:LONGEST], True),
        (("東京" * LONGEST)[:LONGEST], False),
        ("".join(chr(0x4E00 + number) for number in range(LONGEST)), False),
    ],
    ids=["repeated word", "500 one-letter words", "CJK run", "1000 distinct CJK characters"],
)
def test_the_longest_query_is_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, query: str, found: bool
) -> None:
    wide = [
        (f"PREC-{n:03d}", "DENY", f'"{"limit l " * 40}東京 {n}"', "x", "") for n in range(1, 400)
    ]
    write_precedents(tmp_path / "precedents.md", wide)
    monkeypatch.chdir(tmp_path)
    for limit in ("1", "20", "1000"):
        result = CliRunner().invoke(
            cli,
            ["precedent", "search", query, "--file", "precedents.md", "--limit", limit, "--json"],
        )
        assert result.exit_code == 0, result.output
        assert bool(json.loads(result.stdout)) is found
