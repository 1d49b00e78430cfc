"""`tribunal precedent match`: which precedents a later dispute falls under — applies, due for
re-examination, cannot be evaluated, scope unknown, or a prose candidate (R-4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import DisputeSource
from tribunal.paths import display_path
from tribunal.precedents.facts import Facts, case_facts, facts_file, judgment_facts
from tribunal.precedents.match import MatchResult, match_precedents
from tribunal.workflows.precedent_add import precedents_file

_LOADERS = {
    DisputeSource.CASE: case_facts,
    DisputeSource.JUDGMENT: judgment_facts,
    DisputeSource.FACTS: facts_file,
}


@dataclass(frozen=True)
class MatchRequest:
    """The dispute (a case file, a judgment or a facts file), the precedents file, and what to
    list."""

    source: DisputeSource
    dispute: Path
    root: Path
    file: Path | None = None
    include_superseded: bool = False
    candidate_limit: int | None = 20


def match(request: MatchRequest) -> MatchResult:
    """Place every precedent for the dispute. Raises BadInput for a bad dispute file or
    precedents file."""
    facts: Facts = _LOADERS[request.source](
        request.dispute, display_path(request.dispute, request.root)
    )
    return match_precedents(
        precedents_file(request.root, request.file),
        request.root,
        facts,
        include_superseded=request.include_superseded,
        candidate_limit=request.candidate_limit,
    )
