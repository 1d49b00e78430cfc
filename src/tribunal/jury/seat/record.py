"""The one SeatRecord shape every model seat produces (SPEC §1, L-11).

`{lens, tier, rung, family, verdict: pass|refuse|hold, verified, low_information, findings,
checked, rejected_rungs: [{rung, reason, raw_tail}]}` plus, added for readers of the record:
`reason`/`note`/`raw_tail` (why the seated rung's verdict was rewritten: `malformed`,
`contradictory_pass`), `builder_family_seated` (L-10), `verifier` (the fused verifier, L-5) and
`recorded` (the verdict is a replay rung's recorded reply, L-7).
Courts consume this shape only; `seat_record.schema.json` describes `to_dict()`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.verdict import Checked, Finding, Verdict

# L-5/L-10: `verified` of a fused seat — True (cross-family verifier passed too), False
# (UNVERIFIED: no verifier answered), "same-family" (only under --solo); None: not a fused seat.
Verified = bool | Literal["same-family"] | None
SAME_FAMILY: Literal["same-family"] = "same-family"

# L-5: a fused seat keeps both verdicts; the verifier's findings are prefixed with its rung.
_VERIFIER_PREFIX = re.compile(r"\[verifier:[^\]\n]*\]\s*")


def verifier_claim(rung: str, claim: str) -> str:
    """L-5: the claim of a fused seat's verifier finding, as the seat keeps it:
    `[verifier:<rung>] <claim>`."""
    return f"[verifier:{rung}] {claim}"


def seat_claim(claim: str) -> str:
    """The claim itself, without the `[verifier:<rung>]` prefix a fused seat's verifier finding
    carries (B-3: the seat raises the finding, whichever of its two rungs wrote it)."""
    match = _VERIFIER_PREFIX.match(claim)
    return claim[match.end() :] if match else claim


@dataclass(frozen=True)
class RejectedRung:
    """A rung that gave no verdict for the seat, and why (L-6); skips before dispatch included.

    `raw_tail` (<= 2 KB) is kept for a rung that answered (`wrong_lens`, `truncated`,
    `annulled`); `answered_lens` names the other lens of a `wrong_lens` answer.
    """

    rung: str
    reason: ReasonCode
    raw_tail: str | None = None
    detail: str = ""
    answered_lens: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of one `rejected_rungs` entry."""
        data: dict[str, Any] = {
            "rung": self.rung,
            "reason": self.reason.value,
            "raw_tail": self.raw_tail,
            "detail": self.detail,
        }
        if self.answered_lens is not None:
            data["answered_lens"] = self.answered_lens
        return data


@dataclass(frozen=True)
class VerifierSeat:
    """The verifier half of a fused seat (L-5)."""

    rung: str
    family: str
    verdict: SeatVerdict

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of `verifier`."""
        return {"rung": self.rung, "family": self.family, "verdict": self.verdict.value}


@dataclass(frozen=True)
class SeatRecord:
    """What one seat came to: the seated rung's verdict, or a hold (`rung: None`)."""

    lens: str
    tier: str
    rung: str | None
    family: str | None
    verdict: SeatVerdict
    verified: Verified = None
    low_information: bool = False
    findings: tuple[Finding, ...] = ()
    checked: tuple[Checked, ...] = ()
    rejected_rungs: tuple[RejectedRung, ...] = ()
    reason: ReasonCode | None = None
    note: str | None = None
    raw_tail: str | None = None
    builder_family_seated: bool = False
    verifier: VerifierSeat | None = None
    recorded: bool = False  # L-7: a replay rung's recorded reply, labelled in every report

    @classmethod
    def seated(
        cls,
        verdict: Verdict,
        *,
        tier: str,
        rung: str,
        family: str,
        rejected_rungs: tuple[RejectedRung, ...] = (),
        builder_family_seated: bool = False,
    ) -> SeatRecord:
        """The record of a seat that got `verdict` from `rung` (a single, unfused seat)."""
        return cls(
            lens=verdict.lens,
            tier=tier,
            rung=rung,
            family=family,
            verdict=verdict.verdict,
            low_information=verdict.low_information,
            findings=verdict.findings,
            checked=verdict.checked,
            rejected_rungs=rejected_rungs,
            reason=verdict.reason,
            note=verdict.note,
            raw_tail=verdict.raw_tail,
            builder_family_seated=builder_family_seated,
        )

    @classmethod
    def hold(
        cls,
        *,
        lens: str,
        tier: str,
        rejected_rungs: tuple[RejectedRung, ...] = (),
        note: str = "ladder exhausted with no verdict",
    ) -> SeatRecord:
        """L-6: the ladder ran out — HOLD, never a pass and never the builder."""
        return cls(
            lens=lens,
            tier=tier,
            rung=None,
            family=None,
            verdict=SeatVerdict.HOLD,
            rejected_rungs=rejected_rungs,
            note=note,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, valid against `seat_record.schema.json`."""
        return {
            "lens": self.lens,
            "tier": self.tier,
            "rung": self.rung,
            "family": self.family,
            "verdict": self.verdict.value,
            "verified": self.verified,
            "low_information": self.low_information,
            "findings": [finding.to_dict() for finding in self.findings],
            "checked": [entry.to_dict() for entry in self.checked],
            "rejected_rungs": [rejected.to_dict() for rejected in self.rejected_rungs],
            "reason": self.reason.value if self.reason is not None else None,
            "note": self.note,
            "raw_tail": self.raw_tail,
            "builder_family_seated": self.builder_family_seated,
            "verifier": self.verifier.to_dict() if self.verifier is not None else None,
            "recorded": self.recorded,
        }
