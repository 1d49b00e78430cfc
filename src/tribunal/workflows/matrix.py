"""`tribunal matrix`: the duel's results seen through implementor/verifier tier pairs (T-1, T-7)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import MatrixSignal
from tribunal.evidence.duel import duel_from_paths
from tribunal.evidence.matrix import MatrixReport, load_tiers, run_matrix
from tribunal.outputs import check_output_path, write_output
from tribunal.paths import display_path
from tribunal.workflows.bulk import bulk_work


@dataclass(frozen=True)
class MatrixRequest:
    """The spec, the cases, the tiers file, where matrix.json goes, and the pairs to run
    (`impl/verifier,...`; None: every listed pair)."""

    spec: Path
    cases: Path
    tiers: Path
    out: Path
    root: Path
    pairs: str | None = None


@dataclass(frozen=True)
class MatrixResult:
    """The matrix report written."""

    report: MatrixReport

    @property
    def uniform_pass(self) -> bool:
        """True when every pair passed."""
        return self.report.signal is MatrixSignal.UNIFORM_PASS


def matrix(request: MatrixRequest) -> MatrixResult:
    """Run the duel once, judge it through the tier pairs, and write matrix.json. Raises
    BadInput (nothing written) for a bad spec, case, tiers file, pair or output path."""
    check_output_path(request.out)
    root = request.root
    with bulk_work():
        duel = duel_from_paths(request.spec, request.cases, root)
        tiers = load_tiers(request.tiers, display_path(request.tiers, root), duel.spec.spec_id)
        report = run_matrix(duel, tiers, tiers.select(request.pairs))
        write_output(request.out, report.to_dict())  # C-3: only after every input was checked
    return MatrixResult(report)
