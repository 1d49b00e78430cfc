"""Findings of a convening as the blind court counts them: every seat's, plus the harness's for a
proof that came out false (B-4), each with the fingerprint the ledger keys it by (B-3).

A fingerprint identifies "the same finding" across rounds, so that convergence is measured on
NEW findings and a refutation keeps applying while the finding is raised again. It hashes the
normalised claim and the normalised location:

- claim: without the `[verifier:<rung>]` prefix of a fused seat's verifier finding (L-5: the
  finding is the seat's, whichever rung wrote it — a primary and its verifier raising one defect
  raise one finding, and a verifier that changes rung between rounds raises no new one), then
  Unicode NFKC, case folded, backticks and quotes dropped, every run of whitespace one space,
  trailing `.`/`;`/`:` dropped. Line references inside the claim (`line 42`, `lines
  3-5`, `L42`, `path:42`) become `line #`, because lines move as a fix lands. Other digits are
  kept: "HTTP 404" and "HTTP 500", "off by 1" and "off by 2" are different claims.
- location: the path only, `\\` as `/`, a leading `./` dropped, case kept (paths are case
  sensitive); the line is dropped for the same reason as above. A finding without a location is
  keyed by its claim alone.
- the lens is not part of it: two lenses raising one defect at one place raise one finding.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tribunal.enums import CitationStatus, ProofName, Severity
from tribunal.jury.seat.record import SeatRecord, seat_claim
from tribunal.jury.verdict import Finding

HARNESS_LENS = "harness"  # B-4: the lens false proofs are reported from
FINGERPRINT_CHARS = 16

_LINE_REFERENCE = re.compile(
    r"(?:\blines?\s*#?\s*\d+(?:\s*(?:-|–|to)\s*\d+)?|\bl\d+(?:-\d+)?\b|(?<=\S):\d+(?:-\d+)?\b)"
)
_QUOTES = re.compile(r"[`'\"‘’“”]")
_SPACE = re.compile(r"\s+")
_LOCATION_LINE = re.compile(r":\d+(?:-\d+)?\Z")


def normalise_claim(claim: str) -> str:
    """The claim as fingerprinted (see the module docstring)."""
    text = unicodedata.normalize("NFKC", seat_claim(claim)).casefold()
    text = _QUOTES.sub("", text)
    text = _LINE_REFERENCE.sub(" line #", text)
    text = _SPACE.sub(" ", text).strip()
    return text.rstrip(".;: ")


def normalise_location(location: str | None) -> str:
    """The location as fingerprinted: the path, without its line (see the module docstring)."""
    if not location:
        return ""
    path = _LOCATION_LINE.sub("", location.strip()).replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def fingerprint(claim: str, location: str | None) -> str:
    """B-3: 16 hex characters of sha256 over the normalised claim and location."""
    key = f"{normalise_claim(claim)}\n{normalise_location(location)}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:FINGERPRINT_CHARS]


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
