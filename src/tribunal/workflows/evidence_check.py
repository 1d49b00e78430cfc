"""`tribunal evidence check DIR`: is the evidence the arbiter's verifier accepts all there —
schema records, hook logs, Gherkin scenarios with passing results (A-3)? The votes are not
read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.evidence.dispute.checks import EvidenceReport, check_evidence
from tribunal.evidence.dispute.model import Dispute, load_dispute


@dataclass(frozen=True)
class EvidenceCheckRequest:
    """The dispute directory."""

    directory: Path
    root: Path


@dataclass(frozen=True)
class EvidenceCheckResult:
    """The dispute (without its votes) and what its evidence came to, kind by kind."""

    dispute: Dispute
    report: EvidenceReport


def evidence_check(request: EvidenceCheckRequest) -> EvidenceCheckResult:
    """Check every evidence kind the charter requires. Raises BadInput for a bad dispute.yaml
    or charter (a broken vote file is `arbitrate`'s bad input, not this one's)."""
    dispute = load_dispute(request.directory, root=request.root, with_votes=False)
    return EvidenceCheckResult(dispute, check_evidence(dispute))
