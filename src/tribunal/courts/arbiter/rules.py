"""Deciding one round of an arbitrated dispute (A-2): the rules, in their order.

1. the evidence check of A-3 fails -> DENY `missing_evidence:<kind>`, whatever the votes;
2. safety votes DENY with `critical_risk: true` -> DENY `safety_veto`;
3. fewer voting roles voted than the quorum -> DEFERRED `no_quorum`;
4. approving weight >= 2 -> APPROVE `pass_rule`;
5. denying weight >= 2 -> DENY `deny_weight`;
6. the tie breaker, which never yields APPROVE: safety's DENY decides (`tie_breaker:safety`);
   else the first applicable precedent (in R-4's order, as the caller supplies them) whose
   verdict is DENY or DEFERRED decides (`precedent:PREC-NNN`); else DEFERRED
   (`tie_breaker:unresolved`).

A pure function of its arguments: no files, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.enums import (
    ArbiterReason,
    CheckStatus,
    DisputeEvidenceKind,
    JudgmentVerdict,
    Role,
    Veto,
)
from tribunal.evidence.dispute.charter import Charter
from tribunal.evidence.dispute.votes import Vote

TIE_SAFETY = "safety"
TIE_UNRESOLVED = "unresolved"

# the rules of a round as the decision trace names them, in the order they apply.
RULES = (
    ArbiterReason.MISSING_EVIDENCE.value,
    ArbiterReason.SAFETY_VETO.value,
    "quorum",
    ArbiterReason.PASS_RULE.value,
    ArbiterReason.DENY_WEIGHT.value,
    "tie_breaker:safety",
    "tie_breaker:precedent",
    "tie_breaker:unresolved",
)


@dataclass(frozen=True)
class ApplicablePrecedent:
    """A precedent that applies to the dispute (R-4), as precedent matching answers it."""

    case_id: str
    verdict: JudgmentVerdict


@dataclass(frozen=True)
class RuleCheck:
    """A-6 `checks[]`: one rule and what it did."""

    rule: str
    status: CheckStatus


@dataclass(frozen=True)
class RoundDecision:
    """What one round decided, which votes it rests on, and how every rule fared."""

    round: int
    verdict: JudgmentVerdict
    reason: str
    rationale: str
    deciding: tuple[Vote, ...]
    checks: tuple[RuleCheck, ...]
    precedent: str | None = None


def decide_round(
    round_number: int,
    votes: Sequence[Vote],
    charter: Charter,
    *,
    missing: Sequence[DisputeEvidenceKind] = (),
    precedents: Sequence[ApplicablePrecedent] = (),
) -> RoundDecision:
    """Decide round `round_number` from its `votes` by the rules of A-2 (module docstring).

    `missing` lists the evidence kinds the A-3 check found missing, in the charter's order;
    `precedents` the applicable precedents in R-4's order (DENY, DEFERRED, APPROVE; then the
    higher number).
    """
    counted = [vote for vote in votes if vote.counts]
    outcome = _first_rule(counted, charter, missing, precedents)
    rule_index, verdict, reason, rationale, deciding, precedent = outcome
    checks = tuple(
        RuleCheck(
            rule,
            CheckStatus.NOT_MET
            if index < rule_index
            else CheckStatus.DECIDED
            if index == rule_index
            else CheckStatus.NOT_REACHED,
        )
        for index, rule in enumerate(RULES)
    )
    return RoundDecision(
        round=round_number,
        verdict=verdict,
        reason=reason,
        rationale=rationale,
        deciding=tuple(deciding),
        checks=checks,
        precedent=precedent,
    )


_Outcome = tuple[int, JudgmentVerdict, str, str, list[Vote], str | None]


def _first_rule(
    counted: list[Vote],
    charter: Charter,
    missing: Sequence[DisputeEvidenceKind],
    precedents: Sequence[ApplicablePrecedent],
) -> _Outcome:
    prefix = f"R{counted[0].round}: " if counted else ""
    if missing:
        kinds = ", ".join(kind.value for kind in missing)
        return (
            0,
            JudgmentVerdict.DENY,
            ArbiterReason.MISSING_EVIDENCE.with_argument(missing[0].value),
            f"{prefix}required evidence is missing ({kinds}); the verifier accepts only "
            "machine-checked evidence, so the change is denied whatever the votes",
            [],
            None,
        )
    vetoes = [vote for vote in counted if _vetoes(vote, charter)]
    if vetoes:
        return (
            1,
            JudgmentVerdict.DENY,
            ArbiterReason.SAFETY_VETO.value,
            f"{prefix}safety denies with critical_risk: the veto decides alone",
            vetoes,
            None,
        )
    roles = sorted({vote.role.value for vote in counted})
    if len(roles) < charter.quorum:
        return (
            2,
            JudgmentVerdict.DEFERRED,
            ArbiterReason.NO_QUORUM.value,
            f"{prefix}{len(roles)} voting role(s) voted ({', '.join(roles) or 'none'}), "
            f"fewer than the quorum of {charter.quorum}",
            counted,
            None,
        )
    approving = [vote for vote in counted if vote.vote is JudgmentVerdict.APPROVE]
    denying = [vote for vote in counted if vote.vote is JudgmentVerdict.DENY]
    approve_weight = _weight(approving, charter)
    deny_weight = _weight(denying, charter)
    needed = charter.pass_rule.weight
    tally = f"approving weight {approve_weight}, denying weight {deny_weight}"
    if approve_weight >= needed:
        return (
            3,
            JudgmentVerdict.APPROVE,
            ArbiterReason.PASS_RULE.value,
            f"{prefix}{tally}: at least {needed} approve and safety raises no veto",
            approving,
            None,
        )
    if deny_weight >= needed:
        return (
            4,
            JudgmentVerdict.DENY,
            ArbiterReason.DENY_WEIGHT.value,
            f"{prefix}{tally}: at least {needed} deny",
            denying,
            None,
        )
    # the tie breaker never yields APPROVE.
    safety_denies = [vote for vote in denying if vote.role is Role.SAFETY]
    if safety_denies:
        return (
            5,
            JudgmentVerdict.DENY,
            ArbiterReason.TIE_BREAKER.with_argument(TIE_SAFETY),
            f"{prefix}{tally}, no side reaches {needed}; the tie breaker puts safety first "
            "and safety denies",
            safety_denies,
            None,
        )
    for precedent in precedents:
        if precedent.verdict in (JudgmentVerdict.DENY, JudgmentVerdict.DEFERRED):
            return (
                6,
                precedent.verdict,
                ArbiterReason.PRECEDENT.with_argument(precedent.case_id),
                f"{prefix}{tally}, no side reaches {needed}; the latest matching precedent "
                f"{precedent.case_id} ({precedent.verdict}) decides",
                counted,
                precedent.case_id,
            )
    return (
        7,
        JudgmentVerdict.DEFERRED,
        ArbiterReason.TIE_BREAKER.with_argument(TIE_UNRESOLVED),
        f"{prefix}{tally}, no side reaches {needed}; safety does not deny and no applicable "
        "precedent denies or defers, so the round is deferred",
        counted,
        None,
    )


def _vetoes(vote: Vote, charter: Charter) -> bool:
    seat = charter.seat(vote.role)
    return (
        seat is not None
        and seat.veto is Veto.CRITICAL_RISK
        and vote.vote is JudgmentVerdict.DENY
        and vote.critical_risk
    )


def _weight(votes: Sequence[Vote], charter: Charter) -> int:
    total = 0
    for vote in votes:
        seat = charter.seat(vote.role)
        total += seat.vote_weight if seat is not None else 0
    return total
