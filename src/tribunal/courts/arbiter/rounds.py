"""Arbitrating a dispute over its rounds (A-2, A-4, A-5).

Every round is decided by the rules of `arbiter_rules`; round N > 1 counts only when A-4 admits
it; the decision is that of the latest accepted round. Three accepted rounds in a row without a
decision (DEFERRED) stop the dispute for a human: the verdict is DEFERRED `deadlock`, the
stop condition and the artifact are recorded, and later rounds are rejected.

A pure function of the loaded dispute, its evidence report and the applicable precedents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tribunal.courts.arbiter.admission import Movement, admit_round
from tribunal.courts.arbiter.rules import (
    ApplicablePrecedent,
    RoundDecision,
    RuleCheck,
    decide_round,
)
from tribunal.enums import (
    ArbiterReason,
    CheckStatus,
    FinalVerdict,
    JudgmentVerdict,
    RoundStatus,
    VoteAction,
)
from tribunal.evidence.dispute.checks import EvidenceReport
from tribunal.evidence.dispute.model import Dispute
from tribunal.evidence.dispute.movement import MovementFiles
from tribunal.evidence.dispute.votes import Vote

# how many accepted rounds in a row may end without a decision before a human takes over.
DEADLOCK_ROUNDS = 3
STOP_CONDITION = "three_rounds_without_decision"


@dataclass(frozen=True)
class RoundReport:
    """One round: its votes, whether it counts and why, and what it decided if it counts."""

    round: int
    votes: tuple[Vote, ...]
    status: RoundStatus
    why: str
    decision: RoundDecision | None = None


@dataclass(frozen=True)
class Stop:
    """A-5: the dispute stopped for a human — the condition and the rounds that met it."""

    condition: str
    rounds: tuple[int, ...]

    def describe(self) -> str:
        """One sentence for the judgment and the trace."""
        first, last = self.rounds[0], self.rounds[-1]
        return (
            f"{len(self.rounds)} accepted rounds in a row (R{first}-R{last}) ended without a "
            "decision; the dispute stops here and waits for a human"
        )


@dataclass(frozen=True)
class Arbitration:
    """The whole outcome: every round, the final decision, what stays deferred."""

    rounds: tuple[RoundReport, ...]
    decision: RoundDecision
    final_verdict: FinalVerdict
    deferred: tuple[Vote, ...]
    evidence: EvidenceReport
    linked_precedents: tuple[str, ...]
    stop: Stop | None = None

    @property
    def verdict(self) -> JudgmentVerdict:
        """The verdict of the decision."""
        return self.decision.verdict

    @property
    def reason(self) -> str:
        """The reason of the decision."""
        return self.decision.reason


def arbitrate(
    dispute: Dispute,
    evidence: EvidenceReport,
    movement: MovementFiles,
    precedents: Sequence[ApplicablePrecedent] = (),
) -> Arbitration:
    """Decide `dispute` (module docstring) over its checked `evidence` and the files a round's
    movement rests on (`movement`). `precedents`: the applicable ones in R-4's order."""
    by_round: dict[int, list[Vote]] = {}
    for vote in dispute.votes:
        by_round.setdefault(vote.round, []).append(vote)
    numbers = sorted(by_round) or [1]  # no votes at all: round 1 without votes
    reports: list[RoundReport] = []
    latest: RoundDecision | None = None
    undecided: list[int] = []
    stop: Stop | None = None
    used: dict[Movement, int] = {}
    for number in numbers:
        votes = tuple(by_round.get(number, ()))
        if stop is not None:
            why = f"rejected: the dispute stopped at R{stop.rounds[-1]} for a human"
            reports.append(RoundReport(number, votes, RoundStatus.REJECTED, why))
            continue
        if number == 1:
            why = "accepted: the first round opens the dispute"
        else:
            admission = admit_round(movement, votes, used)
            why = admission.why
            if not admission.accepted:
                reports.append(RoundReport(number, votes, RoundStatus.REJECTED, why))
                continue
            if admission.key is not None:
                used[admission.key] = number  # one diff moves one round
        decision = decide_round(
            number, votes, dispute.charter, missing=evidence.missing, precedents=precedents
        )
        reports.append(RoundReport(number, votes, RoundStatus.ACCEPTED, why, decision))
        latest = decision
        undecided = [*undecided, number] if decision.verdict is JudgmentVerdict.DEFERRED else []
        if len(undecided) == DEADLOCK_ROUNDS:
            stop = Stop(STOP_CONDITION, tuple(undecided))
    assert latest is not None  # round 1 is always accepted
    deciding_round = next(report for report in reversed(reports) if report.decision is latest)
    final = _deadlock(latest, stop) if stop is not None else _with_deadlock_check(latest)
    deferred = tuple(
        vote
        for vote in deciding_round.votes
        if vote.vote is JudgmentVerdict.DEFERRED or vote.action is VoteAction.DEFERRED
    )
    return Arbitration(
        rounds=tuple(reports),
        decision=final,
        final_verdict=final_verdict(final.verdict, deferred),
        deferred=deferred,
        evidence=evidence,
        linked_precedents=tuple(precedent.case_id for precedent in precedents),
        stop=stop,
    )


def final_verdict(verdict: JudgmentVerdict, deferred: Sequence[Vote]) -> FinalVerdict:
    """A-2 `final_verdict`: APPROVE is accepted (partial while items stay deferred), DENY
    rejected, DEFERRED deferred."""
    if verdict is JudgmentVerdict.APPROVE:
        return FinalVerdict.PARTIAL if deferred else FinalVerdict.ACCEPTED
    if verdict is JudgmentVerdict.DENY:
        return FinalVerdict.REJECTED
    return FinalVerdict.DEFERRED


def _deadlock(latest: RoundDecision, stop: Stop) -> RoundDecision:
    return replace(
        latest,
        verdict=JudgmentVerdict.DEFERRED,
        reason=ArbiterReason.DEADLOCK.value,
        rationale=f"{stop.describe()} (R{latest.round} itself: {latest.reason})",
        checks=(*latest.checks, RuleCheck(ArbiterReason.DEADLOCK.value, CheckStatus.DECIDED)),
    )


def _with_deadlock_check(latest: RoundDecision) -> RoundDecision:
    return replace(
        latest,
        checks=(*latest.checks, RuleCheck(ArbiterReason.DEADLOCK.value, CheckStatus.NOT_MET)),
    )
