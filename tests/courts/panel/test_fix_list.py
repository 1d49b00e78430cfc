"""P-8: the fix list (every unrefuted finding and scenario, ordered by severity) and the
non-blocking caveats."""

from __future__ import annotations

from tests.courts.panel.builders import (
    THREE,
    WINDOW_EDGE,
    card,
    check,
    rules,
    sit,
)
from tribunal.courts.panel import (
    FailureScenario,
    Finding,
    PanelOutcome,
    PanelRound,
    PanelRule,
    Recommendation,
    ScenarioKind,
    ScorecardPhase,
    Severity,
    decide,
)

BLOCK = Recommendation.BLOCK
LENSES = ("quality", "fitness", "adversary")


def test_a_correctness_scenario_iterates_and_is_in_the_fix_list() -> None:
    decision = sit(
        card("quality", [9, 9, 9]), card("adversary", [9, 9, 9], scenarios=[WINDOW_EDGE])
    )
    assert decision.outcome is PanelOutcome.ITERATE
    assert rules(decision) == [PanelRule.FAILURE_SCENARIO]
    assert [item.item for item in decision.fix_list] == [WINDOW_EDGE]


def test_minor_findings_and_other_scenarios_are_caveats_not_blocks() -> None:
    minor = Finding(Severity.MINOR, "vague name", "limiter.py:14", "start")
    other = FailureScenario("a slow clock", "late", ScenarioKind.OTHER, "limiter.py:14")
    decision = sit(
        card("quality", [7, 7, 7], findings=[minor]),
        card("adversary", [7, 7, 7], scenarios=[other]),
    )
    assert decision.outcome is PanelOutcome.SHIP_WITH_CAVEATS
    assert [item.item for item in decision.caveats.items] == [minor, other]


def test_the_fix_list_is_ordered_by_severity_and_merges_one_defect() -> None:
    info = Finding(Severity.INFO, "a comment is stale", "limiter.py:2", "start")
    blocker = Finding(Severity.BLOCKER, "the window start never advances", "limiter.py:14", "start")
    same_place = Finding(
        Severity.MINOR, "The window start never advances.", "limiter.py:15", "start"
    )
    decision = sit(
        card("quality", [8, 8, 8], findings=[info, same_place]),
        card("adversary", [8, 8, 8], findings=[blocker]),
    )
    assert [(i.severity, i.lenses) for i in decision.fix_list] == [
        (Severity.BLOCKER, ("adversary", "quality")),
        (Severity.INFO, ("quality",)),
    ]
    assert decision.outcome is PanelOutcome.ITERATE  # the strongest severity counts


def test_scenarios_are_ordered_by_kind_and_only_other_is_a_caveat() -> None:
    major = Finding(Severity.MAJOR, "retries forever", "limiter.py:20", "while True:")
    minor = Finding(Severity.MINOR, "vague name", "limiter.py:14", "start")
    other = FailureScenario("a slow clock", "late", ScenarioKind.OTHER, "limiter.py:14")
    decision = sit(
        card("quality", [8, 8, 8], findings=[minor, major]),
        card("adversary", [8, 8, 8], scenarios=[other, WINDOW_EDGE]),
    )
    # A correctness scenario is listed with the blockers; one of kind `other` with the minors.
    assert [item.item for item in decision.fix_list] == [WINDOW_EDGE, major, minor, other]
    assert [item.severity for item in decision.fix_list] == [
        Severity.BLOCKER,
        Severity.MAJOR,
        Severity.MINOR,
        Severity.MINOR,
    ]
    assert [item.item for item in decision.caveats.items] == [minor, other]


def test_a_defect_raised_first_and_left_out_of_the_synthesis_is_not_dropped() -> None:
    first = (
        card("quality", [8, 8, 8]),
        card("adversary", [3, 8, 8], scenarios=[WINDOW_EDGE]),
    )
    synthesis = (
        card("quality", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),
        card("adversary", [8, 8, 8], phase=ScorecardPhase.SYNTHESIS),
    )
    decision = decide(PanelRound(THREE, 1, first, synthesis), check)
    assert decision.outcome is PanelOutcome.ITERATE
    assert rules(decision) == [PanelRule.FAILURE_SCENARIO]
    assert [item.item for item in decision.fix_list] == [WINDOW_EDGE]


def test_one_defect_raised_twice_keeps_the_copy_block_rests_on() -> None:
    # Found by the BLOCK property: the same claim (one fingerprint), first as a plain blocker,
    # then as structural with no local fix; a BLOCK majority rests on the structural copy.
    plain = Finding(Severity.BLOCKER, "the start never advances", quote="if now - start > window:")
    redesign = Finding(
        Severity.BLOCKER,
        "the start never advances",
        quote="if now - start > window:",
        structural=True,
    )
    decision = sit(
        card("quality", [1, 1, 1], findings=[plain], recommendation=BLOCK),
        card("adversary", [1, 1, 1], findings=[redesign], recommendation=BLOCK),
    )
    assert decision.outcome is PanelOutcome.BLOCK
    (item,) = decision.fix_list
    assert item.item == redesign and item.lenses == ("adversary", "quality")
