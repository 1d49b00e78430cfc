"""`tribunal records check [PATH]`: every judgment and precedents.md under PATH checked like code —
schemas, unique precedent IDs, every evidence_ref and linked precedent resolves (R-6)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.paths import find_root, inside
from tribunal.records.check import CheckReport, check_records


@dataclass(frozen=True)
class RecordsCheckRequest:
    """What to check (None: the whole root), the globs to skip, and a precedents file to check
    too (whose IDs judgments may cite)."""

    root: Path
    path: Path | None = None
    excludes: Sequence[str] = ()
    precedents: Path | None = None


def records_check(request: RecordsCheckRequest) -> CheckReport:
    """Check the records; return every problem found (none: all hold). Raises BadInput for a
    bad `.tribunalignore` pattern; TribunalError when git cannot list the files."""
    root, path = request.root, request.path
    if path is not None and not inside(path, root):
        root = find_root(path if path.is_dir() else path.parent)
    extra = (request.precedents,) if request.precedents is not None else ()
    return check_records(
        path if path is not None else root,
        root,
        excludes=tuple(request.excludes),
        extra_precedents=extra,
    )
