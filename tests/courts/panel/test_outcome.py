"""P-8: the first outcome that applies — the overall against the band, deadlock, blocked
dimensions, escalations, BLOCK and its consistency check, refuted scores."""

from __future__ import annotations

from fractions import Fraction

from tests.courts.panel.builders import (
    ABSENT_QUOTE,
    card,
    equal_weights,
    rules,
    score,
    sit,
)
from tribunal.courts.panel import (
    ConsensusKind,
    Criteria,
    FailureScenario,
    Finding,
    MalformedCard,
    PanelItemKind,
    PanelOutcome,
    PanelRule,
    Recommendation,
    ScenarioKind,
    Severity,
)

BLOCK = Recommendation.BLOCK
LENSES = ("quality", "fitness", "adversary")


def test_all_eights_ship_at_the_target_exactly() -> None:
    decision = sit(*(card(lens, [8, 8, 8]) for lens in LENSES))
    assert decision.overall == Fraction(4, 5) == decision.target
    assert decision.outcome is PanelOutcome.SHIP
    assert [str(r) for r in decision.reasons] == [
        "overall at or above target: overall 0.80 >= 0.80"
    ]


def test_7_7_7_is_exactly_0_70_the_band_edge_ship_with_caveats() -> None:
    decision = sit(*(card(lens, [7, 7, 7]) for lens in LENSES))
    assert decision.overall == Fraction(7, 10)
    assert decision.outcome is PanelOutcome.SHIP_WITH_CAVEATS
    assert [str(r) for r in decision.reasons] == [
        "overall in the caveat band: overall 0.70 >= 0.70"
    ]


def test_just_below_the_band_iterates() -> None:
    # target 0.801: the band starts at 0.701, and 7/7/7's exact 0.70 is below it (a float
    # 0.801 - 0.1 is 0.7010000000000001; 0.8 - 0.1 is 0.7000000000000001 — exactness matters).
    criteria = equal_weights("correctness", "robustness", "clarity", target="0.801")
    decision = sit(*(card(lens, [7, 7, 7]) for lens in LENSES), criteria=criteria)
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == [
        "overall below the caveat band: overall 0.700 < 0.701"
    ]


def test_just_below_the_band_by_one_score_iterates() -> None:
    decision = sit(
        card("quality", [7, 7, 7]), card("fitness", [7, 7, 7]), card("adversary", [7, 7, 6])
    )
    assert decision.overall == Fraction(31, 45)  # 0.6888…
    assert rules(decision) == [PanelRule.BELOW_CAVEAT_BAND]


def test_a_deadlock_escalates() -> None:
    decision = sit(
        card("quality", [3, 8, 8]), card("fitness", [6, 8, 8]), card("adversary", [9, 8, 8])
    )
    assert decision.synthesis_held
    assert decision.dimensions[0].consensus.kind is ConsensusKind.DEADLOCK
    assert decision.outcome is PanelOutcome.ESCALATE
    assert str(decision.reasons[0]) == "deadlock: correctness (3, 6, 9)"


def test_a_blocked_dimension_iterates_though_the_overall_passes() -> None:
    criteria = Criteria.of({"a": 4, "b": 4, "c": 1})
    decision = sit(
        card("quality", [9, 9, 2], criteria=criteria),
        card("fitness", [9, 9, 3], criteria=criteria),
        card("adversary", [9, 9, 9], criteria=criteria),
        criteria=criteria,
    )
    c = decision.dimensions[2]
    assert c.blocked and c.consensus.value == Fraction(5, 2)
    assert [d.lens for d in c.dissents] == ["adversary"]
    assert decision.overall == Fraction(149, 180)
    assert decision.overall_shown == "0.83"
    assert decision.overall >= decision.target
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == ["blocked dimension: c"]


def test_one_member_low_score_is_a_recorded_dissent_not_a_block() -> None:
    decision = sit(
        card("quality", [9, 9, 9]), card("fitness", [9, 9, 9]), card("adversary", [9, 9, 2])
    )
    assert decision.outcome is PanelOutcome.SHIP
    assert [d.score.score for d in decision.caveats.dissents] == [2]


def test_an_unrefuted_escalation_escalates() -> None:
    decision = sit(
        card("quality", [8, 8, 8]),
        card("adversary", [8, 8, 8], escalation="tokens leak across tenants"),
    )
    assert decision.outcome is PanelOutcome.ESCALATE
    assert [str(r) for r in decision.reasons] == [
        "unrefuted escalation: adversary: tokens leak across tenants"
    ]
    assert [(e.lens, e.reason) for e in decision.escalations] == [
        ("adversary", "tokens leak across tenants")
    ]


def test_an_escalation_resting_on_a_refuted_scenario_does_not_escalate() -> None:
    phantom = FailureScenario(
        "burst", "passes", ScenarioKind.SAFETY, "limiter.py:30", "reset_window()"
    )
    decision = sit(
        card("quality", [8, 8, 8]),
        card("adversary", [8, 8, 8], scenarios=[phantom], escalation="unsafe"),
    )
    assert decision.outcome is PanelOutcome.SHIP
    assert [e.kind for e in decision.refuted] == [PanelItemKind.SCENARIO, PanelItemKind.ESCALATION]


STRUCTURAL = Finding(
    Severity.MAJOR,
    "one global counter for every client",
    "limiter.py:3",
    "COUNT = 0",
    structural=True,
)
LOCAL = Finding(
    Severity.MAJOR,
    "the start never advances",
    "limiter.py:14",
    "if now - start > window:",
    fix="set start = now when the window rolls",
)


def test_a_structural_finding_with_a_block_majority_blocks() -> None:
    decision = sit(
        card("quality", [4, 4, 4], recommendation=BLOCK, findings=[STRUCTURAL, LOCAL]),
        card("fitness", [4, 4, 4], recommendation=BLOCK),
        card("adversary", [4, 4, 4], recommendation=Recommendation.ITERATE),
    )
    assert decision.outcome is PanelOutcome.BLOCK
    assert str(decision.reasons[0]) == (
        "majority recommends BLOCK on a structural finding: 2 of 3 recommend BLOCK; "
        "one global counter for every client"
    )
    assert PanelRule.BELOW_CAVEAT_BAND in rules(decision)  # it applied too, listed after


def test_the_same_set_as_local_fixes_iterates_block_contradicts_the_evidence() -> None:
    as_local = Finding(
        STRUCTURAL.severity,
        STRUCTURAL.claim,
        STRUCTURAL.location,
        STRUCTURAL.quote,
        fix="key by client",
    )
    decision = sit(
        card("quality", [4, 4, 4], recommendation=BLOCK, findings=[as_local, LOCAL]),
        card("fitness", [4, 4, 4], recommendation=BLOCK),
        card("adversary", [4, 4, 4], recommendation=Recommendation.ITERATE),
    )
    assert decision.outcome is PanelOutcome.ITERATE
    assert str(decision.reasons[0]) == (
        "BLOCK contradicts the evidence: every finding is a local fix: 2 of 3 recommend BLOCK"
    )
    assert [item.fix for item in decision.fix_list] == ["key by client", LOCAL.fix]


def test_a_structural_finding_without_a_majority_does_not_block() -> None:
    decision = sit(
        card("quality", [8, 8, 8], recommendation=BLOCK, findings=[STRUCTURAL]),
        card("fitness", [8, 8, 8]),
        card("adversary", [8, 8, 8]),
    )
    assert decision.outcome is PanelOutcome.ITERATE
    assert [str(r) for r in decision.reasons] == [
        "unrefuted blocker or major finding: major from quality: "
        "one global counter for every client"
    ]


def test_half_the_panel_recommending_block_is_no_strict_majority() -> None:
    decision = sit(
        card("quality", [8, 8, 8], recommendation=BLOCK, findings=[STRUCTURAL]),
        card("fitness", [8, 8, 8], recommendation=BLOCK),
        card("adversary", [8, 8, 8]),
        card("operator", [8, 8, 8]),
    )
    assert decision.outcome is PanelOutcome.ITERATE
    assert rules(decision) == [PanelRule.SERIOUS_FINDING]


def test_a_malformed_member_counts_in_the_panel_a_block_majority_is_of() -> None:
    decision = sit(
        card("quality", [8, 8, 8], recommendation=BLOCK, findings=[STRUCTURAL]),
        card("fitness", [8, 8, 8], recommendation=BLOCK),
        card("adversary", [8, 8, 8]),
        malformed=[MalformedCard("operator", "mini")],
    )
    assert decision.outcome is PanelOutcome.ITERATE  # 2 of 4: no majority


def test_a_block_majority_with_no_finding_leaves_it_to_the_math() -> None:
    decision = sit(*(card(lens, [8, 8, 8], recommendation=BLOCK) for lens in LENSES))
    assert decision.outcome is PanelOutcome.SHIP


def test_a_9_whose_quote_does_not_check_is_refuted_listed_and_excluded() -> None:
    nine = score(9, "0.9", ABSENT_QUOTE)
    decision = sit(
        card("quality", {"correctness": nine, "robustness": 7, "clarity": 7}),
        card("fitness", [7, 7, 7]),
        card("adversary", [7, 7, 7]),
    )
    correctness = decision.dimensions[0]
    assert correctness.consensus.value == 7 and correctness.consensus.members == (
        "fitness",
        "adversary",
    )
    assert correctness.first_scores[0].refuted is not None
    assert [(r.lens, r.item) for r in decision.refuted] == [("quality", nine)]
    assert decision.overall == Fraction(7, 10)


def test_a_dimension_with_every_score_refuted_escalates_never_ships() -> None:
    phantom = score(9, "0.9", ABSENT_QUOTE)
    decision = sit(
        *(card(lens, {"correctness": 9, "robustness": phantom, "clarity": 9}) for lens in LENSES)
    )
    robustness = decision.dimensions[1]
    assert robustness.consensus.kind is ConsensusKind.UNSCORED
    assert robustness.consensus.value is None
    assert decision.outcome is PanelOutcome.ESCALATE
    assert [str(r) for r in decision.reasons] == ["dimension not scored: robustness"]
    assert decision.overall == Fraction(3, 5)  # a lower bound: robustness credits nothing
