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
from typing import TYPE_CHECKING, Any

from tribunal.courts.judgment.decide import Decision
from tribunal.enums import MatchStatus, ReasonKind
from tribunal.jsontext import printable
from tribunal.markdown import code
from tribunal.precedents.entry import Precedent

if TYPE_CHECKING:
    from tribunal.precedents.match import MatchResult


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


@dataclass(frozen=True)
class NotApplied:
    """R-4: a precedent the dispute may fall under that was not followed, and why: its
    next_check cannot be evaluated for the dispute, its scope is unknown, or it is due for
    re-examination. `detail` names the missing fields or keys (or the values read)."""

    case_id: str
    verdict: str
    status: MatchStatus
    detail: str

    def __str__(self) -> str:
        return f"{self.case_id} ({self.verdict}): {self.status.value} — {self.detail}"


def not_applied_precedents(result: MatchResult) -> list[NotApplied]:
    """R-4: the precedents `tribunal judgment` does not follow but must not pass over in silence.

    The verdict rules of R-4 are kept: only `applies` is linked and may change the verdict
    (follow_precedents). The others are listed, never followed either way, because each rests on
    a fact the dispute does not give: a cannot_evaluate precedent's condition may be true for
    this dispute (then it is due, not settled) or false (then it applies); a scope_unknown one
    may be out of scope; a due one's own condition says it is to be re-examined, not followed.
    Making the verdict stricter on an unknown would invent that fact as surely as loosening it
    would. "cannot_evaluate is never counted as not triggered" is honoured by never treating it
    as applying, and by saying so here (body and stderr) so a reader passes the facts (--facts).
    """
    listed = [
        *(
            (
                p,
                f"next_check.when {code(p.entry.next_check_when)} cannot be evaluated: "
                + (f"the dispute lacks {', '.join(p.missing)}" if p.missing else p.why),
            )
            for p in result.cannot_evaluate
        ),
        *(
            (p, f"the dispute lacks the scope key(s) {', '.join(p.keys)}")
            for p in result.scope_unknown
        ),
        *(
            (p, f"next_check.when {code(p.entry.next_check_when)} is true ({_values(p.values)})")
            for p in result.due_for_reexamination
        ),
    ]
    return [
        NotApplied(p.entry.case_id, p.entry.verdict.value, p.status, detail) for p, detail in listed
    ]


def _values(values: dict[str, Any]) -> str:
    return ", ".join(f"{name}={_shown(value)}" for name, value in values.items())


def _shown(value: Any) -> str:
    """A value as a sentence prints it: `none` for null, integral floats as integers."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(printable(value))
