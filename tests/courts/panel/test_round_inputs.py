"""P-8: what is decided before the arithmetic (flags, malformed cards, failed commands), every
rule that applied with the deciding one first, and rounds whose cards do not fit."""

from __future__ import annotations

import pytest

from tests.courts.panel.builders import (
    THREE,
    card,
    check,
    rules,
    sit,
    synthesis_of,
)
from tribunal.courts.panel import (
    MalformedCard,
    PanelOutcome,
    PanelRound,
    PanelRule,
    Recommendation,
    RoundFlags,
    ScorecardPhase,
    Severity,
    decide,
)
from tribunal.errors import BadInput

BLOCK = Recommendation.BLOCK
LENSES = ("quality", "fitness", "adversary")


def test_a_malformed_card_is_at_best_iterate_with_its_blocker_in_the_fix_list() -> None:
    decision = sit(
        card("quality", [9, 9, 9]),
        card("fitness", [9, 9, 9]),
        malformed=[MalformedCard("adversary", "mini", reason="adversary_did_not_oppose")],
    )
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == [
        "malformed scorecard: adversary from mini (adversary_did_not_oppose)"
    ]
    assert [(i.claim, i.severity, i.lenses) for i in decision.fix_list] == [
        ("malformed scorecard from mini", Severity.BLOCKER, ("adversary",))
    ]
    assert decision.members == ("quality", "fitness", "adversary")


def test_a_failed_verification_command_iterates_a_harness_blocker() -> None:
    flags = RoundFlags(failed_commands=("python -m pytest -q",))
    decision = sit(card("quality", [9, 9, 9]), card("adversary", [9, 9, 9]), flags=flags)
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == ["verification failed: python -m pytest -q"]
    assert [(i.lenses, i.claim, i.detail) for i in decision.fix_list] == [
        (("harness",), "verification_failed", "python -m pytest -q")
    ]


@pytest.mark.parametrize(
    ("flags", "outcome", "first"),
    [
        (
            RoundFlags(not_convened="status NEEDS_CONTEXT"),
            PanelOutcome.NOT_CONVENED,
            PanelRule.NOT_CONVENED,
        ),
        (RoundFlags(invalid="timeout after 300 s"), PanelOutcome.INVALID, PanelRule.INVALID),
        (RoundFlags(held_lenses=("adversary",)), PanelOutcome.HOLD, PanelRule.LENS_NOT_SEATED),
        (RoundFlags(beyond_budget="round 4 of 3"), PanelOutcome.ESCALATE, PanelRule.BEYOND_BUDGET),
    ],
)
def test_the_flags_decide_first(flags: RoundFlags, outcome: PanelOutcome, first: PanelRule) -> None:
    decision = sit(card("quality", [9, 9, 9]), card("adversary", [9, 9, 9]), flags=flags)
    assert decision.outcome is outcome
    assert rules(decision) == [first]


def test_every_rule_that_applied_the_deciding_one_first() -> None:
    flags = RoundFlags(
        not_convened="status BLOCKED",
        invalid="signal 9",
        held_lenses=("fitness",),
        beyond_budget="round 4 of 3",
        failed_commands=("make test",),
    )
    decision = decide(PanelRound(THREE, 4, ()), check, flags=flags)
    assert decision.outcome is PanelOutcome.NOT_CONVENED
    assert rules(decision) == [
        PanelRule.NOT_CONVENED,
        PanelRule.INVALID,
        PanelRule.LENS_NOT_SEATED,
        PanelRule.BEYOND_BUDGET,
        PanelRule.DIMENSION_NOT_SCORED,
        PanelRule.DIMENSION_NOT_SCORED,
        PanelRule.DIMENSION_NOT_SCORED,
        PanelRule.VERIFICATION_FAILED,
    ]


def test_beyond_budget_with_no_seat_called_escalates_on_the_budget() -> None:
    decision = decide(
        PanelRound(THREE, 4, ()), check, flags=RoundFlags(beyond_budget="round 4 of 3")
    )
    assert decision.outcome is PanelOutcome.ESCALATE
    assert str(decision.reasons[0]) == "beyond budget: round 4 of 3"


def test_no_reason_names_a_requirement_id() -> None:
    decision = sit(
        card("quality", [3, 8, 8]), card("fitness", [6, 8, 8]), card("adversary", [9, 8, 8])
    )
    assert all("P-" not in str(r) for r in decision.reasons)
    assert all("P-" not in rule.value for rule in PanelRule)


def test_a_trigger_without_a_synthesis_is_bad_input() -> None:
    first = (card("quality", [8, 8, 8]), card("adversary", [3, 8, 8]))
    with pytest.raises(BadInput, match="no synthesis phase was held"):
        decide(PanelRound(THREE, 1, first), check)


def test_a_synthesis_without_a_trigger_is_bad_input() -> None:
    first = (card("quality", [8, 8, 8]), card("adversary", [8, 8, 8]))
    with pytest.raises(BadInput, match="no trigger fired"):
        decide(PanelRound(THREE, 1, first, synthesis_of(first)), check)


@pytest.mark.parametrize(
    "panel",
    [
        PanelRound(THREE, 1, (card("quality", {"correctness": 8, "robustness": 8}),)),
        PanelRound(
            THREE,
            1,
            (card("quality", {"correctness": 8, "robustness": 8, "clarity": 8, "speed": 8}),),
        ),
        PanelRound(THREE, 2, (card("quality", [8, 8, 8]),)),
        PanelRound(THREE, 1, (card("quality", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),)),
        PanelRound(THREE, 1, (card("quality", [8, 8, 8]), card("quality", [7, 7, 7]))),
        PanelRound(
            THREE,
            1,
            (card("quality", [8, 8, 8]), card("adversary", [2, 8, 8])),
            (card("stranger", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),),
        ),
        PanelRound(
            THREE, 1, (card("quality", [8, 8, 8]),), malformed=(MalformedCard("quality", "r"),)
        ),
        PanelRound(
            THREE,
            1,
            (card("quality", [8, 8, 8]),),
            malformed=(MalformedCard("adversary", "r", ScorecardPhase.SYNTHESIS),),
        ),
    ],
)
def test_cards_that_do_not_fit_the_round_are_bad_input(panel: PanelRound) -> None:
    with pytest.raises(BadInput):
        decide(panel, check)


def test_the_last_phase_decides_and_a_member_malformed_in_synthesis_is_absent() -> None:
    first = (card("quality", [8, 8, 8]), card("fitness", [8, 8, 8]), card("adversary", [2, 8, 8]))
    synthesis = (
        card("quality", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),
        card("fitness", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),
    )
    malformed = (MalformedCard("adversary", "mini", ScorecardPhase.SYNTHESIS, "no JSON"),)
    decision = decide(PanelRound(THREE, 1, first, synthesis, malformed), check)
    correctness = decision.dimensions[0]
    assert [m.score.score for m in correctness.first_scores] == [8, 8, 2]
    assert correctness.synthesis_scores is not None
    assert [m.lens for m in correctness.synthesis_scores] == ["quality", "fitness"]
    assert correctness.consensus.value == 8
    assert decision.outcome is PanelOutcome.ITERATE
    assert rules(decision) == [PanelRule.MALFORMED_SCORECARD]
