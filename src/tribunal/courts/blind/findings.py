"""Findings of a convening as the blind court counts them: every seat's, plus the harness's for a
proof that came out false (B-4), each with the fingerprint the ledger keys it by (B-3; see
`tribunal.courts.fingerprints`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tribunal.courts.fingerprints import fingerprint
from tribunal.enums import CitationStatus, ProofName, Severity
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Finding

HARNESS_LENS = "harness"  # B-4: the lens false proofs are reported from


@dataclass(frozen=True)
class CourtFinding:
    """One finding of a convening: which lens raised it, and its fingerprint."""

    lens: str
    finding: Finding

    @property
    def fingerprint(self) -> str:
        """The B-3 fingerprint of the finding."""
        return fingerprint(self.finding.claim, self.finding.location)

    @property
    def severity(self) -> Severity:
        """The finding's severity."""
        return self.finding.severity

    def to_dict(self) -> dict[str, Any]:
        """The JSON form in `summary.json` and the ledger: lens and fingerprint first."""
        return {"lens": self.lens, "fingerprint": self.fingerprint, **self.finding.to_dict()}


def seat_findings(seats: Iterable[SeatRecord]) -> list[CourtFinding]:
    """Every finding of every seat, in seat order (a refuse's, a pass's, a fused verifier's)."""
    return [CourtFinding(seat.lens, finding) for seat in seats for finding in seat.findings]


def harness_finding(proof: ProofName, detail: str) -> CourtFinding:
    """B-4: a proof that came out false is a blocker finding from the lens `harness`."""
    finding = Finding(
        severity=Severity.BLOCKER,
        claim=proof.failure_code,
        evidence=detail or None,
        location=None,
        citation=CitationStatus.NOT_CHECKED,
    )
    return CourtFinding(HARNESS_LENS, finding)
