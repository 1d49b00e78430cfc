"""`tribunal adjudicate`: a finding refuted with evidence, recorded in the ledger; it rides along
in the next round's prompts and no longer blocks (B-3). Or an executor's correctness or scope
concern resolved with evidence, so the panel court may sit (P-9)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import BadInput
from tribunal.outputs import check_output_path
from tribunal.paths import display_path
from tribunal.records.ledger import Refutation, default_ledger_path, load_ledger
from tribunal.records.ledger import adjudicate as record_refutation
from tribunal.records.slices import (
    Resolution,
    SliceRefutation,
    raised_in_slices,
    refute_finding,
    resolve_concern,
)


@dataclass(frozen=True)
class AdjudicateRequest:
    """The finding's fingerprint, the `path:line` that refutes it, why, the ledger (None: the
    root's default ledger), and the dispute when the fingerprint is in several."""

    fingerprint: str
    evidence: str
    note: str
    root: Path
    ledger: Path | None = None
    contract: str | None = None
    base: str | None = None
    slice_id: str | None = None  # a panel slice's finding (default: a dispute's, else a slice's)


def adjudicate(request: AdjudicateRequest) -> Refutation | SliceRefutation:
    """Record the refutation; return it. A fingerprint is looked up in the blind court's
    disputes, then in the panel court's slices (with `slice_id`: in that slice only). Raises
    BadInput (nothing written) for an unknown or ambiguous fingerprint, evidence that does not
    resolve in the judged repository, or an empty note."""
    root = request.root
    path = request.ledger if request.ledger is not None else default_ledger_path(root)
    label = display_path(path, root)
    check_output_path(path, "--ledger", label)  # read, then rewritten
    if request.slice_id is None:
        try:
            return record_refutation(
                path,
                request.fingerprint,
                evidence=request.evidence,
                note=request.note,
                root=root,
                contract=request.contract,
                base=request.base,
                label=label,
            )
        except BadInput:
            if not raised_in_slices(load_ledger(path, label), request.fingerprint):
                raise
    return refute_finding(
        path,
        request.fingerprint,
        evidence=request.evidence,
        note=request.note,
        root=root,
        slice_id=request.slice_id,
        label=label,
    )


@dataclass(frozen=True)
class ConcernRequest:
    """The concern's number in the slice's latest report, the `path:line` that resolves it, why,
    the ledger (None: the root's default ledger), and the slice (None: the ledger's only one)."""

    number: int
    evidence: str
    note: str
    root: Path
    ledger: Path | None = None
    slice_id: str | None = None


def resolve(request: ConcernRequest) -> Resolution:
    """Record the concern resolved; return what was recorded. Raises BadInput (nothing written)
    for an unknown slice or concern, evidence that does not resolve, or an empty note."""
    root = request.root
    path = request.ledger if request.ledger is not None else default_ledger_path(root)
    return resolve_concern(
        path,
        request.number,
        evidence=request.evidence,
        note=request.note,
        root=root,
        slice_id=request.slice_id,
        label=display_path(path, root),
    )
