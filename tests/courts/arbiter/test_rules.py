"""A-2 as properties over every ballot: the order of the rules, the veto, the tie breaker that
never approves, and one deciding rule per round."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribunal.courts.arbiter.rules import ApplicablePrecedent, decide_round
from tribunal.documents import Document
from tribunal.enums import CheckStatus, DisputeEvidenceKind, JudgmentVerdict, Role, VoteAction
from tribunal.evidence.dispute.charter import Charter, load_charter
from tribunal.evidence.dispute.votes import Vote

CHARTER = load_charter()
VOTING = (Role.VERIFIER, Role.IMPLEMENTOR, Role.SAFETY)


def make_vote(role: Role, verdict: JudgmentVerdict, critical: bool, withdrawn: bool) -> Vote:
    return Vote(
        round=1,
        role=role,
        action=VoteAction.WITHDRAWN if withdrawn else VoteAction.PROPOSED,
        vote=verdict,
        critical_risk=critical,
        summary="s",
        evidence_ref=("x",),
        cited=("x",),
        targets=(Path("x"),),
        label=f"votes/R1-{role}.yaml",
        document=Document(Path("x"), "x", {}, ""),
    )


ballots = st.lists(
    st.tuples(
        st.sampled_from(VOTING),
        st.sampled_from(list(JudgmentVerdict)),
        st.booleans(),
        st.booleans(),
    ),
    max_size=3,
    unique_by=lambda entry: entry[0],
)
precedent_lists = st.lists(
    st.builds(
        ApplicablePrecedent,
        st.integers(1, 999).map(lambda n: f"PREC-{n:03d}"),
        st.sampled_from(list(JudgmentVerdict)),
    ),
    max_size=3,
)
missing_kinds = st.lists(st.sampled_from(list(DisputeEvidenceKind)), unique=True, max_size=3)


@given(ballots, precedent_lists, missing_kinds)
def test_the_rules_of_a_round(
    ballot: list[tuple[Role, JudgmentVerdict, bool, bool]],
    precedents: list[ApplicablePrecedent],
    missing: list[DisputeEvidenceKind],
) -> None:
    votes = [make_vote(*entry) for entry in ballot]
    decision = decide_round(1, votes, CHARTER, missing=missing, precedents=precedents)
    counted = [vote for vote in votes if vote.counts]
    approving = sum(1 for vote in counted if vote.vote is JudgmentVerdict.APPROVE)
    veto = any(
        v.role is Role.SAFETY and v.vote is JudgmentVerdict.DENY and v.critical_risk
        for v in counted
    )
    if missing:
        assert decision.verdict is JudgmentVerdict.DENY
        assert decision.reason == f"missing_evidence:{missing[0]}"
    elif veto:
        assert (decision.verdict, decision.reason) == (JudgmentVerdict.DENY, "safety_veto")
    elif len({vote.role for vote in counted}) < CHARTER.quorum:
        assert (decision.verdict, decision.reason) == (JudgmentVerdict.DEFERRED, "no_quorum")
    if decision.verdict is JudgmentVerdict.APPROVE:
        assert decision.reason == "pass_rule" and approving >= 2 and not veto and not missing
    if decision.reason.startswith(("tie_breaker", "precedent")):
        assert decision.verdict is not JudgmentVerdict.APPROVE  # never yields APPROVE
    if decision.reason.startswith("precedent:"):
        first = next(p for p in precedents if p.verdict is not JudgmentVerdict.APPROVE)
        assert decision.reason == f"precedent:{first.case_id}"
        assert decision.verdict is first.verdict
    statuses = [check.status for check in decision.checks]
    decided = statuses.index(CheckStatus.DECIDED)
    assert statuses.count(CheckStatus.DECIDED) == 1
    assert set(statuses[:decided]) <= {CheckStatus.NOT_MET}
    assert set(statuses[decided + 1 :]) <= {CheckStatus.NOT_REACHED}


A, D_, N = JudgmentVerdict.APPROVE, JudgmentVerdict.DENY, JudgmentVerdict.DEFERRED


def weighted_charter(tmp_path: Path, **weights: int) -> Charter:
    roles = "".join(f"  {role}:\n    vote_weight: {weight}\n" for role, weight in weights.items())
    path = tmp_path / "charter.yaml"
    path.write_text(f"roles:\n{roles}", "utf-8")
    return load_charter(path, "charter.yaml")


@pytest.mark.parametrize(
    ("weights", "ballot", "expected"),
    [
        # the verifier's weight 2 alone reaches the pass rule (1 would tie).
        ({"verifier": 2}, {Role.VERIFIER: A, Role.IMPLEMENTOR: N}, (A, "pass_rule")),
        # ... and beats one denying weight with it: pass rule comes before denying weight.
        (
            {"verifier": 2},
            {Role.VERIFIER: A, Role.IMPLEMENTOR: D_, Role.SAFETY: D_},
            (A, "pass_rule"),
        ),
        # The implementor's weight 2 alone denies (1 would tie, and the tie would defer).
        (
            {"implementor": 2},
            {Role.VERIFIER: A, Role.IMPLEMENTOR: D_, Role.SAFETY: N},
            (D_, "deny_weight"),
        ),
        # A weight of 0 adds nothing (load_votes refuses such a vote file; the rules too).
        (
            {"safety": 0},
            {Role.VERIFIER: A, Role.SAFETY: A, Role.IMPLEMENTOR: N},
            (N, "tie_breaker:unresolved"),
        ),
    ],
)
def test_vote_weights_decide(
    tmp_path: Path,
    weights: dict[str, int],
    ballot: dict[Role, JudgmentVerdict],
    expected: tuple[JudgmentVerdict, str],
) -> None:
    charter = weighted_charter(tmp_path, **weights)
    votes = [make_vote(role, verdict, False, False) for role, verdict in ballot.items()]
    decision = decide_round(1, votes, charter, missing=[], precedents=[])
    assert (decision.verdict, decision.reason) == expected
