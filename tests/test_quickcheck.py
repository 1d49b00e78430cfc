"""X-4 without losing C-3: the quick schema check only ever says yes when jsonschema agrees."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.duel_data import SPEC, tutorial_case
from tribunal.evidence.cases import CaseChecker
from tribunal.schemas.quickcheck import quick_validator
from tribunal.spec.load import load_spec

CHECKER = CaseChecker(load_spec(SPEC, "specs/autoscale_spec.yaml"))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        ["soft_clamp", "hard_block", "grafana", "PASS", " ", "allowed_delta_within_quota"]
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
PLACES = st.sampled_from(
    [
        ("counterexample_id",), ("assertion_id",), ("description",), ("minimality_trace",),
        ("given_snapshot", "current_replicas"), ("given_snapshot", "pod_cpu"),
        ("given_snapshot", "clamp_policy"), ("given_snapshot", "extra"),
        ("when_payload", "scale_up_percent"), ("when_payload", "duplicate_within_seconds"),
        ("expected_failure", "diagnostic_code"), ("expected_failure", "verdict"),
        ("expected_failure", "executed_delta_upper_bound"), ("unknown",),
    ]
)  # fmt: skip


def mutate(case: dict[str, Any], place: tuple[str, ...], value: Any) -> dict[str, Any]:
    target = case
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    return case


@given(st.lists(st.tuples(PLACES, VALUES), max_size=3), st.booleans())
def test_quick_yes_implies_jsonschema_yes(changes: list[tuple[Any, Any]], drop: bool) -> None:
    case = tutorial_case()
    for place, value in changes:
        mutate(case, place, value)
    if drop:
        del case["given_snapshot"]["pod_cpu"]
    if CHECKER.certainly_valid(case):
        assert CHECKER.validator.is_valid(case)


def test_quick_check_is_sure_of_the_tutorial_case_and_not_of_a_wrong_one() -> None:
    assert CHECKER.certainly_valid(tutorial_case())
    assert not CHECKER.certainly_valid(tutorial_case(given_snapshot__current_replicas=True))
    assert not CHECKER.certainly_valid(tutorial_case(given_snapshot__pod_cpu=float("nan")))


def test_unknown_keywords_are_never_sure() -> None:
    check = quick_validator({"type": "object", "oneOf": [{"required": ["a"]}]})
    assert check({"a": 1}) is False
