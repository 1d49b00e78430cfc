"""`tribunal panel freeze`: criteria frozen before the artifact exists — their sha256 recorded in
the ledger for their slice, so a panel later scores against exactly these bytes (P-1)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.evidence.slice.criteria import load_criteria
from tribunal.paths import display_path
from tribunal.records.ledger import check_writable, default_ledger_path
from tribunal.records.slices import Freezing, freeze


@dataclass(frozen=True)
class FreezeRequest:
    """The criteria file, and the ledger to record in (None: the root's default ledger)."""

    criteria: Path
    root: Path
    ledger: Path | None = None


def panel_freeze(request: FreezeRequest) -> Freezing:
    """Validate the criteria and freeze them. Returns the Freezing; raises BadInput (nothing
    written) for bad criteria, an unwritable ledger, or a slice frozen with other criteria."""
    root = request.root
    criteria = load_criteria(request.criteria, display_path(request.criteria, root))
    path = request.ledger if request.ledger is not None else default_ledger_path(root)
    label = display_path(path, root)
    check_writable(path, label)
    return freeze(path, criteria, label=label)
