"""`tribunal invariants`: every declared threshold of a metrics file checked, and a target bought
with a breached guard caught (T-5)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import load_json
from tribunal.enums import CaseVerdict
from tribunal.evidence.invariants import check_invariants
from tribunal.outputs import check_output_path, write_output
from tribunal.paths import display_path


@dataclass(frozen=True)
class InvariantsRequest:
    """The metrics file, where invariants.json goes, and the optional baseline and target (they
    go together)."""

    metrics: Path
    out: Path
    root: Path
    baseline: Path | None = None
    target: str | None = None


@dataclass(frozen=True)
class InvariantsResult:
    """The `invariants.json` document written."""

    report: dict[str, Any]

    @property
    def passed(self) -> bool:
        """True when every check held and no target was bought with a breached guard."""
        return CaseVerdict(self.report["verdict"]) is CaseVerdict.PASS


def invariants(request: InvariantsRequest) -> InvariantsResult:
    """Check the metrics and write invariants.json. Raises BadInput (nothing written) for bad
    metrics, a target without a threshold, or a bad output path."""
    check_output_path(request.out)
    root = request.root
    metrics = load_json(request.metrics, display_path(request.metrics, root))
    baseline = None
    if request.baseline is not None:
        baseline = load_json(request.baseline, display_path(request.baseline, root))
    report = check_invariants(metrics, baseline=baseline, target=request.target)
    write_output(request.out, report)  # C-3: only after every input was checked
    return InvariantsResult(report)
