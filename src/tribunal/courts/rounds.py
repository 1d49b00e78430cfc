"""Arbitrating a dispute over its rounds (A-2): every round is decided by the rules of
`arbiter_rules`; the decision is that of the latest accepted round.

A pure function of the loaded dispute, its evidence report and the applicable precedents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.courts.arbiter_rules import ApplicablePrecedent, RoundDecision, decide_round
from tribunal.courts.dispute import Dispute
from tribunal.courts.votes import Vote
from tribunal.enums import FinalVerdict, JudgmentVerdict, RoundStatus, VoteAction
from tribunal.evidence.dispute_evidence import EvidenceReport


@dataclass(frozen=True)
class RoundReport:
    """One round: its votes, whether it counts and why, and what it decided if it counts."""

    round: int
    votes: tuple[Vote, ...]
    status: RoundStatus
    why: str
    decision: RoundDecision | None = None


@dataclass(frozen=True)
class Arbitration:
    """The whole outcome: every round, the final decision, what stays deferred."""

    rounds: tuple[RoundReport, ...]
    decision: RoundDecision
    final_verdict: FinalVerdict
    deferred: tuple[Vote, ...]
    evidence: EvidenceReport
    linked_precedents: tuple[str, ...]

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
    precedents: Sequence[ApplicablePrecedent] = (),
) -> Arbitration:
    """Decide `dispute` (A-2): each round in turn; the latest accepted round's decision holds.

    `precedents` are the applicable precedents in R-4's order; the tie breaker consults them.
    """
    by_round: dict[int, list[Vote]] = {}
    for vote in dispute.votes:
        by_round.setdefault(vote.round, []).append(vote)
    numbers = sorted(by_round) or [1]  # no votes at all: round 1 without votes
    reports: list[RoundReport] = []
    latest: RoundDecision | None = None
    for number in numbers:
        votes = tuple(by_round.get(number, ()))
        decision = decide_round(
            number,
            votes,
            dispute.charter,
            missing=evidence.missing,
            precedents=precedents,
        )
        reports.append(RoundReport(number, votes, RoundStatus.ACCEPTED, "", decision))
        latest = decision
    assert latest is not None
    deciding_round = next(report for report in reversed(reports) if report.decision is latest)
    deferred = tuple(
        vote
        for vote in deciding_round.votes
        if vote.vote is JudgmentVerdict.DEFERRED or vote.action is VoteAction.DEFERRED
    )
    return Arbitration(
        rounds=tuple(reports),
        decision=latest,
        final_verdict=final_verdict(latest.verdict, deferred),
        deferred=deferred,
        evidence=evidence,
        linked_precedents=tuple(precedent.case_id for precedent in precedents),
    )


def final_verdict(verdict: JudgmentVerdict, deferred: Sequence[Vote]) -> FinalVerdict:
    """A-2 `final_verdict`: APPROVE is accepted (partial while items stay deferred), DENY
    rejected, DEFERRED deferred."""
    if verdict is JudgmentVerdict.APPROVE:
        return FinalVerdict.PARTIAL if deferred else FinalVerdict.ACCEPTED
    if verdict is JudgmentVerdict.DENY:
        return FinalVerdict.REJECTED
    return FinalVerdict.DEFERRED
