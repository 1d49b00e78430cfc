"""P-12: the offline golden run's figures, round by round, through the decision core."""

from __future__ import annotations

from fractions import Fraction

from tests.courts.panel.builders import (
    ABSENT_QUOTE,
    THREE,
    WINDOW_EDGE,
    card,
    check,
    score,
)
from tribunal.courts.panel import (
    ConsensusKind,
    Decision,
    Dissent,
    FailureScenario,
    PanelItemKind,
    PanelOutcome,
    PanelRound,
    PanelRule,
    Recommendation,
    ScenarioKind,
    Scorecard,
    ScorecardPhase,
    TriggerName,
    apply_citations,
    decide,
    find_triggers,
    member_overall,
)

ROUND_1 = (
    card("quality", [8, 8, 8], recommendation=Recommendation.SHIP),
    card("fitness", [8, 7, 8], recommendation=Recommendation.SHIP_WITH_CAVEATS),
    card("adversary", [7, 3, 7], recommendation=Recommendation.ITERATE, scenarios=[WINDOW_EDGE]),
)
ROUND_1_SYNTHESIS = (
    card(
        "quality", [8, 5, 8], phase=ScorecardPhase.SYNTHESIS, recommendation=Recommendation.ITERATE
    ),
    card(
        "fitness", [8, 5, 8], phase=ScorecardPhase.SYNTHESIS, recommendation=Recommendation.ITERATE
    ),
    card(
        "adversary",
        [7, 3, 7],
        phase=ScorecardPhase.SYNTHESIS,
        recommendation=Recommendation.ITERATE,
        scenarios=[WINDOW_EDGE],
    ),
)

# Round 2: the adversary's low score and its correctness scenario cite a function that does not
# exist; the other scenario it names is of kind `other`, and checks.
PHANTOM = FailureScenario(
    input="a burst after reset_window()",
    wrong_behaviour="the counter is not cleared",
    kind=ScenarioKind.CORRECTNESS,
    location="limiter.py:30",
    quote="self.reset_window(now)",
)
CLOCK_SKEW = FailureScenario(
    input="a clock that steps backwards",
    wrong_behaviour="a request may wait one window longer than needed",
    kind=ScenarioKind.OTHER,
    location="limiter.py:14",
    quote="if now - start > window:",
)
LOW_FOUR = score(4, "0.8", ABSENT_QUOTE)
ROUND_2 = (
    card("quality", [9, 8, 8], round=2),
    card("fitness", [8, 8, 8], round=2),
    card(
        "adversary",
        {"correctness": 8, "robustness": LOW_FOUR, "clarity": 8},
        round=2,
        recommendation=Recommendation.ITERATE,
        scenarios=[PHANTOM, CLOCK_SKEW],
    ),
)


def round_1() -> Decision:
    return decide(PanelRound(THREE, 1, ROUND_1, ROUND_1_SYNTHESIS), check)


def round_2() -> Decision:
    return decide(PanelRound(THREE, 2, ROUND_2), check)


def test_round_1_the_spread_fires_on_robustness_and_the_pass_fail_split_too() -> None:
    fired = round_1().triggers
    assert [(t.name, t.dimension) for t in fired] == [
        (TriggerName.SPREAD, "robustness"),
        (TriggerName.PASS_FAIL_SPLIT, None),
    ]
    assert str(fired[0]) == "spread on robustness: quality 8, fitness 7, adversary 3 (spread 5)"
    assert str(fired[1]) == (
        "pass/fail split: own overalls quality 0.80, fitness 0.77, adversary 0.57 "
        "against target 0.80"
    )


def test_round_1_own_overalls_quality_exactly_at_the_target_the_others_below() -> None:
    checked = [apply_citations(c, check) for c in ROUND_1]
    overalls = [member_overall(THREE, c.scores) for c in checked]
    assert overalls == [Fraction(4, 5), Fraction(23, 30), Fraction(17, 30)]
    assert find_triggers(THREE, checked)  # the synthesis phase opens


def test_round_1_synthesis_majority_pair_and_the_dissent() -> None:
    decision = round_1()
    correctness, robustness, clarity = decision.dimensions
    assert robustness.consensus.kind is ConsensusKind.MAJORITY
    assert robustness.consensus.value == 5
    assert robustness.consensus.members == ("quality", "fitness")
    assert robustness.dissents == (
        Dissent("adversary", "robustness", ROUND_1_SYNTHESIS[2].scores["robustness"]),
    )
    assert [m.score.score for m in robustness.first_scores] == [8, 7, 3]
    assert robustness.synthesis_scores is not None
    assert [m.score.score for m in robustness.synthesis_scores] == [5, 5, 3]
    assert correctness.consensus.value == clarity.consensus.value == Fraction(23, 3)
    assert correctness.consensus.kind is ConsensusKind.AGREED
    assert not any(d.blocked for d in decision.dimensions)


def test_round_1_overall_0_68_iterates_with_the_scenario_in_the_fix_list() -> None:
    decision = round_1()
    assert decision.overall == Fraction(61, 90)
    assert decision.overall_shown == "0.68"
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == [
        "overall below the caveat band: overall 0.68 < 0.70",
        "unrefuted correctness or safety scenario: correctness from adversary: "
        "a burst straddling the window edge",
    ]
    # Raised in both phases, one entry.
    assert [(item.kind, item.item, item.lenses) for item in decision.fix_list] == [
        (PanelItemKind.SCENARIO, WINDOW_EDGE, ("adversary",))
    ]
    assert decision.refuted == ()


def test_round_2_the_adversary_low_score_and_its_scenario_are_refuted_and_excluded() -> None:
    decision = round_2()
    assert not decision.synthesis_held
    correctness, robustness, clarity = decision.dimensions
    assert robustness.consensus.value == 8
    assert robustness.consensus.members == ("quality", "fitness")
    assert robustness.dissents == ()
    assert correctness.consensus.value == Fraction(25, 3)
    assert clarity.consensus.value == 8
    assert [(r.lens, r.kind, r.item, r.dimension) for r in decision.refuted] == [
        ("adversary", PanelItemKind.SCORE, LOW_FOUR, "robustness"),
        ("adversary", PanelItemKind.SCENARIO, PHANTOM, None),
    ]
    reason = "'self.reset_window(now)' does not occur verbatim in the artifact"
    assert {r.reason for r in decision.refuted} == {reason}
    assert robustness.first_scores[2].refuted == reason


def test_round_2_overall_0_81_ships_the_refuted_dissent_listed_verbatim() -> None:
    decision = round_2()
    assert decision.overall == Fraction(73, 90)
    assert decision.overall_shown == "0.81"
    assert decision.outcome is PanelOutcome.SHIP
    assert [(r.rule, str(r)) for r in decision.reasons] == [
        (PanelRule.AT_TARGET, "overall at or above target: overall 0.81 >= 0.80")
    ]
    assert decision.refuted[0].item == LOW_FOUR  # score, confidence and evidence, verbatim
    assert [item.item for item in decision.fix_list] == [CLOCK_SKEW]
    assert [item.item for item in decision.caveats.items] == [CLOCK_SKEW]


def test_round_2_cards_are_round_2() -> None:
    assert all(isinstance(c, Scorecard) and c.round == 2 for c in ROUND_2)
