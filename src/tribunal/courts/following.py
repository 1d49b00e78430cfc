"""Following a precedent (R-4): a court's decision, then the precedents that apply to the dispute.

- Every applicable precedent is linked (`linked_precedents`), in match order (DENY, DEFERRED,
  APPROVE, then the latest).
- The top one decides how the decision changes: when its verdict equals the court's, the reason
  becomes `precedent:PREC-NNN` (resolved by reference, not by a new round); when they differ,
  the stricter verdict wins (DENY > DEFERRED > APPROVE) with reason
  `precedent_conflict:PREC-NNN`.
- A precedent only ever keeps a verdict or makes it stricter: it never turns a FAIL or a
  breached invariant (a DENY) into an APPROVE, nor a deferred case into an APPROVE.
- `evidence_ref` then also cites the top precedent's entry (`precedents.md:<line>`).

Any court's Decision can be followed this way (`tribunal judgment` now; `arbitrate` may too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.courts.arbiter import Decision
from tribunal.enums import ReasonKind
from tribunal.precedents.entry import Precedent


@dataclass(frozen=True)
class Followed:
    """The decision after following precedents, what it was before, and what was linked."""

    decision: Decision
    computed: Decision
    linked: list[str]
    top: Precedent | None

    @property
    def changed(self) -> bool:
        """True when a precedent decided the reason (by reference or by conflict)."""
        return self.top is not None

    @property
    def reason_text(self) -> str | None:
        """One sentence saying how the precedent bore on the verdict (None when none applied)."""
        top = self.top
        if top is None:
            return None
        computed = self.computed
        if top.verdict is computed.verdict:
            return (
                f"{top.case_id} ({top.verdict}) applies and agrees with the evidence "
                f"({computed.reason}): resolved by reference"
            )
        return (
            f"{top.case_id} ({top.verdict}) applies but the evidence says {computed.verdict} "
            f"({computed.reason}): the stricter verdict, {self.decision.verdict}, stands"
        )


def follow_precedents(decision: Decision, applies: Sequence[Precedent], cite: str) -> Followed:
    """`decision` after the applicable precedents `applies` (in match order, top first); `cite`
    is the evidence_ref of the top entry. Never loosens the verdict."""
    linked = list(dict.fromkeys(entry.case_id for entry in applies))
    if not applies:
        return Followed(decision=decision, computed=decision, linked=linked, top=None)
    top = applies[0]
    if top.verdict is decision.verdict:
        kind = ReasonKind.PRECEDENT
        verdict = decision.verdict
        sentence = (
            f"{decision.sentence} Precedent {top.case_id} ({top.verdict}) applies and agrees: "
            "the dispute is resolved by reference."
        )
    else:
        kind = ReasonKind.PRECEDENT_CONFLICT
        # the stricter verdict wins, so a precedent can never loosen the court's verdict.
        verdict = max(decision.verdict, top.verdict, key=lambda v: v.strictness)
        sentence = (
            f"{decision.sentence} Precedent {top.case_id} ({top.verdict}) applies but disagrees "
            f"with the evidence ({decision.verdict}): the stricter verdict, {verdict}, stands."
        )
    refs = [*decision.evidence_ref, *([cite] if cite not in decision.evidence_ref else [])]
    followed = dataclasses.replace(
        decision,
        verdict=verdict,
        reason=f"{kind.value}:{top.case_id}",
        evidence_ref=refs,
        sentence=sentence,
    )
    return Followed(decision=followed, computed=decision, linked=linked, top=top)
