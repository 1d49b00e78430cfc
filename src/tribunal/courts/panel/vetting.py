"""Vetting a plan (P-11): the decision over the three lenses' seats, a pure function.

- Two of the three lenses pass → PROCEED (the workflow then freezes the criteria, P-1).
- Otherwise REFINE: the critiques — each refusing or holding seat's findings and note — go back
  with the judgment, for exactly one refinement.
- A second failing vetting of the same slice → ESCALATE: one refinement was allowed, and it did
  not bring the plan through; a person decides.

A seat that holds (no rung gave a verdict, or a fused pass nobody verified) is not a pass. V-3: a
bare pass — one that cites no line that checks — counts, but never as the only evidence: when
every pass is bare the plan does not proceed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.enums import SeatVerdict, VetOutcome
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Finding

PASSES_TO_PROCEED = 2
REFINEMENTS = 1  # P-11: exactly one refinement, then a person decides


@dataclass(frozen=True)
class Critique:
    """What a lens that did not pass says: its verdict (refuse or hold), its findings and its
    note (why a rung's answer was rewritten, or why the seat held)."""

    lens: str
    verdict: SeatVerdict
    findings: tuple[Finding, ...] = ()
    note: str | None = None

    @classmethod
    def of(cls, seat: SeatRecord) -> Critique:
        """The critique of `seat`."""
        return cls(seat.lens, seat.verdict, seat.findings, seat.note)


@dataclass(frozen=True)
class VetDecision:
    """What a vetting came to: the outcome, every reason (the deciding one first), the lenses
    that passed, refused and held, the critiques, and the vetting's number for its slice (from
    1) with the failing vettings before it."""

    outcome: VetOutcome
    reasons: tuple[str, ...]
    passed: tuple[str, ...]
    refused: tuple[str, ...]
    held: tuple[str, ...]
    critiques: tuple[Critique, ...]
    vetting: int
    failed_before: int

    @property
    def failed(self) -> bool:
        """True unless the plan proceeds."""
        return self.outcome is not VetOutcome.PROCEED


def decide_vet(
    seats: Sequence[SeatRecord], *, failed_before: int = 0, vetted_before: int = 0
) -> VetDecision:
    """Decide a vetting from its `seats` (one per lens, in the lenses' order), the number of the
    slice's earlier vettings that did not proceed (`failed_before`) and of all its earlier
    vettings (`vetted_before`). Returns the VetDecision; raises nothing."""
    passed = tuple(seat.lens for seat in seats if _passes(seat))
    refused = tuple(seat.lens for seat in seats if seat.verdict is SeatVerdict.REFUSE)
    held = tuple(seat.lens for seat in seats if seat.lens not in passed + refused)
    critiques = tuple(Critique.of(seat) for seat in seats if seat.lens not in passed)
    count = f"{len(passed)} of {len(seats)} lenses passed ({', '.join(passed) or 'none'})"
    bare = bool(passed) and all(seat.low_information for seat in seats if seat.lens in passed)
    reasons: list[str] = []
    if len(passed) >= PASSES_TO_PROCEED and not bare:
        outcome = VetOutcome.PROCEED
        reasons.append(f"{count}: the plan proceeds, and the criteria are frozen")
    else:
        why = count
        if len(passed) >= PASSES_TO_PROCEED:
            why = (
                f"{count}, but every pass was bare: none cites a line of the plan or the "
                "criteria that checks"
            )
        if failed_before >= REFINEMENTS:
            outcome = VetOutcome.ESCALATE
            reasons.append(
                f"the plan failed its vetting again ({failed_before} failing vetting(s) before "
                "this one): the one refinement did not bring it through, and a person decides"
            )
            reasons.append(why)
        else:
            outcome = VetOutcome.REFINE
            reasons.append(f"{why}: refine the plan once with the critiques, then vet it again")
    reasons += [f"lens {lens} refused" for lens in refused]
    notes = {seat.lens: seat.note for seat in seats}
    reasons += [f"lens {lens} held" + (f": {notes[lens]}" if notes[lens] else "") for lens in held]
    return VetDecision(
        outcome=outcome,
        reasons=tuple(reasons),
        passed=passed,
        refused=refused,
        held=held,
        critiques=critiques,
        vetting=vetted_before + 1,
        failed_before=failed_before,
    )


def _passes(seat: SeatRecord) -> bool:
    """A pass from a rung that sat (a fused pass nobody verified is a hold, L-5)."""
    return seat.verdict is SeatVerdict.PASS and seat.rung is not None and seat.verified is not False
