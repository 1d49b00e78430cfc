"""`tribunal duel`: every counterexample case against the executable spec, into duel.json
(T-1, T-4)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import CaseVerdict
from tribunal.evidence.duel import DuelReport, duel_from_paths
from tribunal.outputs import check_output_path, write_output
from tribunal.workflows.bulk import bulk_work


@dataclass(frozen=True)
class DuelRequest:
    """The spec file, the cases directory, where duel.json goes, and the root paths are written
    relative to (C-8)."""

    spec: Path
    cases: Path
    out: Path
    root: Path


@dataclass(frozen=True)
class DuelResult:
    """The duel's report, written to the request's `out`."""

    report: DuelReport

    @property
    def failed(self) -> bool:
        """True when a counterexample got through (a case FAILed)."""
        return bool(self.report.count(CaseVerdict.FAIL))


def duel(request: DuelRequest) -> DuelResult:
    """Run the duel and write duel.json. Raises BadInput (nothing written) for a bad spec, case
    or output path."""
    check_output_path(request.out)
    with bulk_work():
        report = duel_from_paths(request.spec, request.cases, request.root)
        write_output(request.out, report.to_dict())  # C-3: only after every input was checked
    return DuelResult(report)
