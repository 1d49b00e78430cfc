"""P-8's NOT_CONVENED row, P-9: whether a panel sits at all, decided before anything runs."""

from __future__ import annotations

import pytest

from tribunal.courts.panel.convening import (
    ReportFacts,
    beyond_budget,
    not_convened,
    retries_the_same_blocked,
)
from tribunal.enums import ExecutorStatus

DONE = ReportFacts(ExecutorStatus.DONE, address_resolves=True, diff_empty=False)


def test_a_done_report_with_an_address_and_a_diff_convenes() -> None:
    assert not_convened(DONE) is None


@pytest.mark.parametrize(
    ("facts", "reason"),
    [
        (ReportFacts(ExecutorStatus.NEEDS_CONTEXT, True, False), "NEEDS_CONTEXT"),
        (ReportFacts(ExecutorStatus.BLOCKED, True, False), "BLOCKED"),
        (ReportFacts(ExecutorStatus.DONE, False, False), "no address that resolves"),
        (ReportFacts(ExecutorStatus.DONE, True, True), "changes nothing since base"),
    ],
)
def test_no_panel_without_something_to_judge(facts: ReportFacts, reason: str) -> None:
    found = not_convened(facts)
    assert found is not None and reason in found


def test_concerns_block_until_resolved_and_observations_never_do() -> None:
    facts = ReportFacts(
        ExecutorStatus.DONE_WITH_CONCERNS,
        True,
        False,
        blocking_concerns=((2, "fp-two", "a burst passes twice"), (3, "fp-three", "scope grew")),
    )
    reason = not_convened(facts)
    assert reason is not None
    assert "concern 2: a burst passes twice" in reason and "concern 3: scope grew" in reason
    assert "concern 2" not in (not_convened(facts, {"fp-two"}) or "")
    assert not_convened(facts, {"fp-two", "fp-three"}) is None
    observations_only = ReportFacts(ExecutorStatus.DONE_WITH_CONCERNS, True, False)
    assert not_convened(observations_only) is None


def test_the_same_blocked_model_retried_unchanged_is_refused() -> None:
    before = {"executor": "vendor-a", "context": "plan-v1", "status": "BLOCKED"}
    blocked = ExecutorStatus.BLOCKED
    assert retries_the_same_blocked(blocked, "vendor-a", "plan-v1", before)
    assert not retries_the_same_blocked(blocked, "vendor-a", "plan-v2", before)
    assert not retries_the_same_blocked(blocked, "vendor-b", "plan-v1", before)
    assert not retries_the_same_blocked(ExecutorStatus.DONE, "vendor-a", "plan-v1", before)
    assert not retries_the_same_blocked(blocked, "vendor-a", "plan-v1", None)


def test_the_budget_counts_rounds_and_each_reports_complexity() -> None:
    assert beyond_budget(3, rounds=3, spent=2, weight=1, dispatches=5) is None
    assert "round 4 is beyond the budget of 3" in (beyond_budget(4, 3, 0, 1, 5) or "")
    assert beyond_budget(2, rounds=3, spent=3, weight=2, dispatches=5) is None  # exactly 5
    over = beyond_budget(2, rounds=3, spent=4, weight=2, dispatches=5)
    assert over is not None and "reach 6, beyond the budget of 5" in over
