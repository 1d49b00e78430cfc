"""`tribunal precedent merge-file %O %A %B`: the git merge driver of precedents.md — every section
either side appended, whole, ours first; any other edit a conflict (C-9, R-3)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.atomic import write_atomic
from tribunal.outputs import check_output_path
from tribunal.precedents.merge import MergeOutcome, merge_precedents


@dataclass(frozen=True)
class MergeRequest:
    """The three versions git hands the driver; the result is written to `ours`."""

    base: Path
    ours: Path
    theirs: Path


def merge(request: MergeRequest) -> MergeOutcome:
    """Merge and write the result (or the conflict markers) to `ours`, keeping its mode."""
    ours = request.ours
    check_output_path(ours, "OURS")  # C-3: the result replaces only a regular file
    outcome = merge_precedents(
        request.base.read_bytes(), ours.read_bytes(), request.theirs.read_bytes()
    )
    write_atomic(ours, outcome.data, mode=ours.stat().st_mode & 0o777)
    return outcome
