"""`tribunal precedent search` (R-4): plain words, all required, best first.

Each word of the query must occur in an entry (FTS5 AND). A word is matched as a phrase of the
tokens it contains (`rate-limit` -> "rate limit"; a CJK word -> its bigrams); a single CJK
character is matched against the characters column. `score` is -bm25: higher is better. Ties
go to the higher ID (the later precedent), so the order is deterministic.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tribunal.errors import BadInput
from tribunal.records.index import CJK_RUN, cjk_text, forget_index, open_index, rebuild
from tribunal.records.precedent import ALL_SCOPE

Result = TypeVar("Result")
_WORD_CHAR = re.compile(r"\w")
_TOKEN = re.compile(r"[^\W_]+")  # unicode61: letters and digits; `_` separates words


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
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

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
    terms = []
    for word in query.split():
        if not _WORD_CHAR.search(word):
            continue  # punctuation alone: nothing to look for
        if CJK_RUN.fullmatch(word) and len(word) == 1:
            terms.append(f'chars : "{word}"')
            continue
        text, _ = cjk_text(word)
        terms.append('body : "' + " ".join(text.split()).replace('"', '""') + '"')
    if not terms:
        raise BadInput(f"the query {query!r} holds no word to search for", field="QUERY")
    return " AND ".join(terms)


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
    expression = match_expression(query)
    chosen = filters or SearchFilters()
    return query_index(
        source, root, lambda connection: _ranked(connection, expression, chosen, limit)
    )


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
        "ORDER BY score DESC, entry.number DESC, entry.id DESC"
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


# a ranked query first takes this many more hits than asked for, then filters them; only
# when filters drop too many does it ask again for more (eight times as many each time).
OVERFETCH = 32


def _ranked(
    connection: Any, expression: str, filters: SearchFilters, limit: int | None
) -> list[SearchHit]:
    """The best `limit` hits, exactly as one ranked join would give them, but with the LIMIT
    pushed into the FTS query: ids follow (number, position), so `score DESC, rowid DESC` is
    the final order and only the hits taken are joined with their entries."""
    where, parameters = _filters(filters)
    fetch = None if limit is None else limit + OVERFETCH
    while True:
        sql = (
            "SELECT rowid, -bm25(entry_text) AS score FROM entry_text WHERE entry_text MATCH ? "
            "ORDER BY score DESC, rowid DESC"
        )
        hits = connection.execute(
            sql + ("" if fetch is None else " LIMIT ?"),
            [expression, *([] if fetch is None else [fetch])],
        ).fetchall()
        outputs = _outputs_of(connection, [hit[0] for hit in hits], where, parameters)
        kept = [(outputs[rowid], score) for rowid, score in hits if rowid in outputs]
        if fetch is None or limit is None or len(kept) >= limit or len(hits) < fetch:
            return [_hit(row) for row in kept[:limit]]
        fetch *= 8


MAX_MARKS = 500  # ids bound one by one; more go through json_each


def _marks(count: int) -> str:
    return ", ".join("?" * count)


def _outputs_of(
    connection: Any, ids: list[int], where: list[str], parameters: list[Any]
) -> dict[int, str]:
    """id -> output of the entries among `ids` that pass the filters `where`."""
    conditions = "".join(f" AND {condition}" for condition in where)
    if len(ids) <= MAX_MARKS:
        sql = f"SELECT id, output FROM entry WHERE id IN ({_marks(len(ids))}){conditions}"
        return dict(connection.execute(sql, [*ids, *parameters]).fetchall())
    sql = f"SELECT id, output FROM entry WHERE id IN (SELECT value FROM json_each(?)){conditions}"
    return dict(connection.execute(sql, [json.dumps(ids), *parameters]).fetchall())


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


def _hit(row: tuple[str, float]) -> SearchHit:
    output = json.loads(row[0])
    score = float(row[1])
    return SearchHit(
        case_id=output["case_id"],
        verdict=output["verdict"],
        score=score,
        applies_to=output["applies_to"],
        next_check=output["next_check"],
        evidence_ref=output["evidence_ref"],
    )
