"""X-4 without losing C-3: the quick schema check only ever says yes when jsonschema agrees."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from testing import REPO
from testing.duel_data import SPEC, tutorial_case

from tribunal.documents import load_any as load_document
from tribunal.evidence.cases import CaseChecker
from tribunal.schemas import quick_validator_for, validator_for
from tribunal.schemas.quickcheck import quick_validator
from tribunal.spec.load import load_spec

SCHEMAS_DIR = REPO / "src" / "tribunal" / "schemas"

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


# Any schema built from the keywords the quick check models (and some it does not), with local
# references: whatever it is, a quick yes must be a jsonschema yes.
TYPE_NAMES = st.sampled_from(["string", "boolean", "null", "object", "array", "number", "integer"])
BOUNDS = st.one_of(st.integers(-3, 3), st.floats(-3, 3, allow_nan=False))
KEYS = st.sampled_from(["a", "b", "c", "1", "_x"])
LEAF_SCHEMAS = st.one_of(
    st.just({}),
    st.booleans(),
    st.just({"$ref": "#/$defs/word"}),
    st.just({"$ref": "#/$defs/missing"}),
    st.just({"not": {"type": "string"}}),  # not modelled: never sure
    st.just({"oneOf": [{"type": "string"}]}),  # not modelled: never sure
    st.fixed_dictionaries({"uniqueItems": st.booleans()}),
    st.fixed_dictionaries(
        {},
        optional={
            "type": TYPE_NAMES | st.lists(TYPE_NAMES, min_size=1, max_size=3, unique=True),
            "minimum": BOUNDS,
            "maximum": BOUNDS,
            "exclusiveMinimum": BOUNDS,
            "exclusiveMaximum": BOUNDS,
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(0, 3),
            "pattern": st.sampled_from(["^a", "\\S", "^[a-z]+$"]),
            "enum": st.lists(st.text("ab", max_size=2), min_size=1, max_size=3),
            "const": st.text("ab", max_size=2) | st.integers(0, 2),
        },
    ),
)
SCHEMAS = st.recursive(
    LEAF_SCHEMAS,
    lambda inner: st.fixed_dictionaries(
        {},
        optional={
            "type": TYPE_NAMES,
            "properties": st.dictionaries(KEYS, inner, max_size=3),
            "required": st.lists(KEYS, max_size=2, unique=True),
            "additionalProperties": inner,
            "propertyNames": inner,
            "minProperties": st.integers(0, 2),
            "items": inner,
            "minItems": st.integers(0, 2),
            "if": st.fixed_dictionaries({"type": TYPE_NAMES}),
            "then": inner,
            "else": inner,
            "$ref": st.just("#/$defs/word"),
        },
    ),
    max_leaves=8,
)
INSTANCES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 5),
        st.floats(-5, 5) | st.sampled_from([float("nan"), float("inf"), -float("inf"), 2.0]),
        st.text("ab ", max_size=3),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)


@given(SCHEMAS, INSTANCES)
def test_quick_yes_implies_jsonschema_yes_for_any_schema(schema: Any, instance: Any) -> None:
    from jsonschema import Draft202012Validator

    root = {"$defs": {"word": {"type": "string", "pattern": "^[ab]+$"}}}
    root = {**schema, **root} if isinstance(schema, dict) else {"allOf": [schema], **root}
    Draft202012Validator.check_schema(root)
    if quick_validator(root)(instance):
        assert Draft202012Validator(root).is_valid(instance)


SHIPPED_SPEC = load_document(SPEC, "specs/autoscale_spec.yaml").data
SPEC_PLACES = st.sampled_from(
    [
        ("spec_id",), ("given", "pod_cpu"), ("given", "clamp_policy"),
        ("given", "clamp_policy", "default"), ("given", "clamp_policy", "type"),
        ("given", "clamp_policy", "extra"), ("given", "__bad"), ("when", "payload"),
        ("then", "derive", "allowed_delta"), ("then", "invariants"), ("then", "unknown"),
        ("verdicts", "PASS"), ("next_steps", "clean"), ("next_steps", "bad key"), ("unknown",),
    ]
)  # fmt: skip


@given(st.lists(st.tuples(SPEC_PLACES, VALUES), max_size=3))
def test_quick_yes_implies_jsonschema_yes_for_specs(changes: list[tuple[Any, Any]]) -> None:
    spec = copy.deepcopy(SHIPPED_SPEC)
    for place, value in changes:
        target = spec
        for key in place[:-1]:
            if not isinstance(target.get(key), dict):
                target[key] = {}
            target = target[key]
        target[place[-1]] = value
    if quick_validator_for("spec")(spec):
        assert validator_for("spec").is_valid(spec)


def test_quick_check_is_sure_of_every_shipped_input() -> None:
    # X-4: the shipped spec and tiers never need jsonschema (nor its import).
    assert quick_validator_for("spec")(SHIPPED_SPEC)
    tiers = load_document(REPO / "matrix" / "tiers.json", "matrix/tiers.json").data
    assert quick_validator_for("tiers")(tiers)


@pytest.mark.parametrize("path", sorted(SCHEMAS_DIR.glob("*.schema.json")), ids=lambda p: p.name)
def test_every_shipped_schema_is_a_valid_schema(path: Path) -> None:
    # The quick path never builds jsonschema's validator, which is what used to check this.
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))
