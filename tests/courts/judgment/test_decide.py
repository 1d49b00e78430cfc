"""T-6: the arbiter court without votes, over Evidence records alone."""

from __future__ import annotations

import pytest

from tribunal.courts.judgment.decide import decide
from tribunal.enums import CaseVerdict, JudgmentVerdict
from tribunal.errors import BadInput
from tribunal.evidence.record import Evidence


def record(kind: str, verdict: str, reason: str, *refs: str) -> Evidence:
    return Evidence(kind, CaseVerdict(verdict), reason, list(refs), {"reasons": []})


def test_reason_order_is_the_rule_not_the_input_order() -> None:
    evidence = [
        record("duel", "DEFERRED", "deferred:d1", "cases/d1.json"),
        record("readiness", "DEFERRED", "needs_human:x", "fixtures/r.json"),
        record("readiness", "FAIL", "blocked:x", "fixtures/r.json#/stateful"),
        record("invariant", "FAIL", "violates_invariant:m", "metrics/m.json#/m"),
        record("duel", "PASS", "clean", "cases/a.json"),
    ]
    decision = decide(evidence)
    assert decision.verdict is JudgmentVerdict.DENY
    assert decision.reason == "violates_invariant:m"
    assert decision.evidence_ref == [
        "metrics/m.json#/m",
        "fixtures/r.json#/stateful",
        "cases/d1.json",
        "fixtures/r.json",
    ]
    assert [cause.reason_code for cause in decision.causes] == [
        "violates_invariant:m",
        "blocked:x",
        "deferred:d1",
        "needs_human:x",
    ]


def test_other_deferred_evidence_ranks_after_deferred_cases() -> None:
    decision = decide(
        [
            record("readiness", "DEFERRED", "needs_human:x", "fixtures/r.json"),
            record("duel", "DEFERRED", "deferred:d1", "cases/d1.json"),
        ]
    )
    assert decision.verdict is JudgmentVerdict.DEFERRED and decision.reason == "deferred:d1"


def test_clean_refs_are_case_files_by_name_then_the_metrics_file_then_others() -> None:
    decision = decide(
        [
            record("duel", "PASS", "clean", "cases/b.json"),
            record("duel", "PASS", "clean", "cases/a.json"),
            record("invariant", "PASS", "clean", "metrics/m.json#/x"),
            record("invariant", "PASS", "clean", "metrics/m.json#/y"),
            record("readiness", "PASS", "clean", "fixtures/r.json"),
        ]
    )
    assert decision.verdict is JudgmentVerdict.APPROVE and decision.reason == "clean"
    assert decision.evidence_ref == [
        "cases/a.json",
        "cases/b.json",
        "metrics/m.json",
        "fixtures/r.json",
    ]


def test_nothing_to_cite_is_bad_input() -> None:
    with pytest.raises(BadInput, match="nothing to cite"):
        decide([])
