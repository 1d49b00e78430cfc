"""`tribunal precedent search QUERY`: plain words, all required, best first (R-4, R-5)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.precedents.search import SearchFilters, SearchHit, search_precedents
from tribunal.workflows.precedent_add import precedents_file


@dataclass(frozen=True)
class SearchRequest:
    """The query, its scope filters, the most hits wanted, and the precedents file."""

    query: str
    root: Path
    filters: SearchFilters
    limit: int | None = None
    file: Path | None = None


def search(request: SearchRequest) -> list[SearchHit]:
    """The hits, best first. Raises BadInput for a malformed precedents file or query."""
    target = precedents_file(request.root, request.file)
    return search_precedents(
        target, request.root, request.query, filters=request.filters, limit=request.limit
    )
