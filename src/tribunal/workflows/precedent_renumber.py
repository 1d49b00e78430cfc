"""`tribunal precedent renumber PREC-NNN`: the later copy of a duplicated ID (after a merge of
two branches) gets the next ID — the one audited rewrite of precedents.md — and the judgments
that cite the ID are listed, never rewritten (R-3, R-1)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.precedents.renumber import RenumberReport, renumber_precedent
from tribunal.records.walk import find_records
from tribunal.workflows.precedent_add import precedents_file


@dataclass(frozen=True)
class RenumberRequest:
    """The duplicated ID and the precedents file."""

    case_id: str
    root: Path
    file: Path | None = None


def renumber(request: RenumberRequest) -> RenumberReport:
    """Renumber the later copies; return what changed and which judgments cite the ID. Raises
    BadInput when the ID is not duplicated or the file is unusable."""
    root = request.root
    judgments = find_records(root, root).judgments
    target = precedents_file(root, request.file)
    return renumber_precedent(target, root, request.case_id, judgments=judgments)
