"""P-6: citation verdicts applied — refuted scores, discarded findings and scenarios, the
refuted log, and what stays refuted from earlier rounds."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.courts.panel.builders import (
    ABSENT_OUTPUT,
    ABSENT_QUOTE,
    COMMAND,
    LOCATION,
    QUOTE,
    UNLOCATED_QUOTE,
    WINDOW_EDGE,
    card,
    check,
    score,
)
from tribunal.courts.panel import (
    Evidence,
    FailureScenario,
    Finding,
    PanelItemKind,
    ScenarioKind,
    Score,
    ScorecardPhase,
    Severity,
    apply_citations,
    fingerprint,
)
from tribunal.courts.panel.refutation import (
    ADJUDICATED,
    CONCERN_DISCARDED,
    NEEDS_LOCATION,
    NEEDS_QUOTE,
    NO_EVIDENCE,
    score_refutation,
)

ABSENT_REASON = "'self.reset_window(now)' does not occur verbatim in the artifact"


@pytest.mark.parametrize(
    ("value", "evidence", "why"),
    [
        (8, [QUOTE], None),
        (10, [UNLOCATED_QUOTE], None),  # a quote found with no location still checks
        (8, [COMMAND], NEEDS_QUOTE),
        (8, [LOCATION], NEEDS_QUOTE),
        (9, [], NEEDS_QUOTE),
        (7, [COMMAND], None),
        (7, [], None),  # 4 to 7: nothing asked of the level
        (4, [], None),
        (3, [LOCATION], None),
        (3, [COMMAND], None),
        (1, [QUOTE], None),
        (3, [UNLOCATED_QUOTE], NEEDS_LOCATION),
        (2, [], NEEDS_LOCATION),
        (9, [QUOTE, ABSENT_QUOTE], ABSENT_REASON),  # ANY evidence that does not check
        (5, [ABSENT_QUOTE], ABSENT_REASON),
        (
            3,
            [COMMAND, ABSENT_OUTPUT],
            "'reset_window passed' does not occur verbatim in the artifact",
        ),
    ],
)
def test_what_each_level_needs(value: int, evidence: Sequence[Evidence], why: str | None) -> None:
    assert score_refutation(Score.of(value, "0.7", *evidence), check) == why


def test_every_failing_citation_is_in_the_reason() -> None:
    two = score(5, "0.7", ABSENT_QUOTE, ABSENT_OUTPUT)
    assert score_refutation(two, check) == (
        f"{ABSENT_REASON}; 'reset_window passed' does not occur verbatim in the artifact"
    )


def test_a_9_whose_quote_does_not_check_is_refuted_and_logged_verbatim() -> None:
    nine = score(9, "0.9", ABSENT_QUOTE)
    checked = apply_citations(
        card("quality", {"correctness": nine, "robustness": 8, "clarity": 8}), check
    )
    assert "correctness" not in checked.scores
    assert set(checked.scores) == {"robustness", "clarity"}
    (entry,) = checked.refuted
    assert (entry.lens, entry.phase, entry.kind, entry.dimension) == (
        "quality",
        ScorecardPhase.SCORE,
        PanelItemKind.SCORE,
        "correctness",
    )
    assert entry.item is nine
    assert entry.reason == ABSENT_REASON


def test_a_finding_or_scenario_whose_citation_does_not_check_is_discarded() -> None:
    bad_finding = Finding(Severity.MAJOR, "resets twice", "limiter.py:30", "self.reset_window(now)")
    good_finding = Finding(Severity.MINOR, "name is vague", "limiter.py:14", "start")
    located_only = Finding(Severity.INFO, "long function", "limiter.py:1")
    bad_scenario = FailureScenario("x", "y", ScenarioKind.SAFETY, "reset_window.py:1")
    checked = apply_citations(
        card(
            "adversary",
            [5, 5, 5],
            findings=[bad_finding, good_finding, located_only],
            scenarios=[bad_scenario, WINDOW_EDGE],
        ),
        check,
    )
    assert checked.findings == (good_finding, located_only)
    assert checked.failure_scenarios == (WINDOW_EDGE,)
    assert [(e.kind, e.item) for e in checked.refuted] == [
        (PanelItemKind.FINDING, bad_finding),
        (PanelItemKind.SCENARIO, bad_scenario),
    ]


def test_a_finding_with_no_evidence_at_all_is_discarded() -> None:
    bare = Finding(Severity.BLOCKER, "it is all wrong")
    checked = apply_citations(card("adversary", [5, 5, 5], findings=[bare]), check)
    assert checked.findings == ()
    assert checked.refuted[0].reason == NO_EVIDENCE


def test_refuted_with_evidence_earlier_stays_refuted_by_fingerprint() -> None:
    finding = Finding(
        Severity.MAJOR, "The window never resets at line 14", "limiter.py:14", "start"
    )
    # Lines move as a fix lands: the ledger's fingerprint still matches.
    earlier = {
        fingerprint("the window never resets at line 20", "limiter.py:20"),
        fingerprint(WINDOW_EDGE.input, WINDOW_EDGE.location),
    }
    checked = apply_citations(
        card("adversary", [5, 5, 5], findings=[finding], scenarios=[WINDOW_EDGE]),
        check,
        earlier,
    )
    assert checked.findings == () and checked.failure_scenarios == ()
    assert [e.reason for e in checked.refuted] == [ADJUDICATED, ADJUDICATED]


def test_an_escalation_stands_unless_its_concern_was_rebutted() -> None:
    standing = apply_citations(card("adversary", [5, 5, 5], escalation="cannot rebut"), check)
    assert standing.escalation == "cannot rebut"

    rests_on_kept = apply_citations(
        card("adversary", [5, 5, 5], scenarios=[WINDOW_EDGE], escalation="cannot rebut"), check
    )
    assert rests_on_kept.escalation == "cannot rebut"

    phantom = FailureScenario("x", "y", ScenarioKind.CORRECTNESS, "limiter.py:30", "reset_window()")
    rebutted = apply_citations(
        card("adversary", [5, 5, 5], scenarios=[phantom], escalation="cannot rebut"), check
    )
    assert rebutted.escalation is None
    assert [(e.kind, e.item, e.reason) for e in rebutted.refuted][-1] == (
        PanelItemKind.ESCALATION,
        "cannot rebut",
        CONCERN_DISCARDED,
    )

    adjudicated = apply_citations(
        card("adversary", [5, 5, 5], escalation="cannot rebut"),
        check,
        {fingerprint("cannot rebut", None)},
    )
    assert adjudicated.escalation is None
    assert adjudicated.refuted[0].reason == ADJUDICATED
