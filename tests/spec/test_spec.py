"""T-2: the type language, spec loading (and its bad inputs), and the evaluation order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from testing import REPO

from tribunal.enums import InvariantStatus
from tribunal.errors import BadInput
from tribunal.spec.load import load_spec
from tribunal.spec.model import Spec
from tribunal.spec.types import type_schema

SHIPPED = REPO / "specs" / "autoscale_spec.yaml"
TUTORIAL_GIVEN = {
    "cluster_id": "prod-eu-1",
    "current_replicas": 12,
    "pod_cpu": 1,
    "remaining_quota": 3,
    "max_replicas": 15,
    "max_actions_per_window": 4,
    "clamp_policy": "soft_clamp",
    "dedup_window_seconds": 2,
}


def shipped() -> Spec:
    return load_spec(SHIPPED, "specs/autoscale_spec.yaml")


def variant(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped spec with one piece of text replaced (the replacement must happen)."""
    text = SHIPPED.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "spec.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    """The line of the LAST occurrence of `needle` (a replacement lands after the original)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return max(number for number, line in enumerate(lines, 1) if needle in line)


# --- the type language --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "good", "bad"),
    [
        ("string", ["x", ""], [1, None, True]),
        ("boolean", [True, False], [0, 1, "true"]),
        ("integer", [0, -3, 2.0], [True, False, 1.5, "1"]),
        ("number", [0, 1.5, -2], [True, "1", None]),
        ("integer_min_0", [0, 7], [-1, True, 0.5]),
        ("integer_min_1", [1], [0, True]),
        ("number_positive", [0.001, 3], [0, -1, True]),
        ("number_min_0", [0, 0.5], [-0.1, False]),
        ("integer_range_1_1000", [1, 1000], [0, 1001, True]),
        ("integer_range_-5_5", [-5, 5], [-6]),
        ("enum:hard_block,soft_clamp", ["hard_block", "soft_clamp"], ["x", 1, True]),
    ],
)
def test_type_words_are_json_schema_fragments(word: str, good: list[Any], bad: list[Any]) -> None:
    validator = Draft202012Validator(type_schema(word))
    for value in good:
        assert validator.is_valid(value), (word, value)
    for value in bad:
        assert not validator.is_valid(value), (word, value)


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("int", "unknown type 'int'"),
        ("integer_range_5_1", "the range is empty"),
        ("integer_range_1_" + "9" * 5000, "a bound longer than 19 digits"),  # int() refuses it
        ("integer_range_-" + "9" * 20 + "_1", "a bound longer than 19 digits"),
        ("enum:a,,b", "an enum value is empty"),
        ("enum:a,a", "an enum value is repeated"),
    ],
)
def test_words_outside_the_language(word: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        type_schema(word)


# --- the shipped spec ---------------------------------------------------------------------------


def test_shipped_spec_is_t2() -> None:
    spec = shipped()
    assert spec.spec_id == "autoscale_v1"
    assert spec.assertion_id == "allowed_delta_within_quota"
    given = {f.name: (f.type_word, f.required, f.default) for f in spec.given}
    assert given == {
        "cluster_id": ("string", True, None),
        "current_replicas": ("integer_min_0", True, None),
        "pod_cpu": ("number_positive", True, None),
        "remaining_quota": ("integer_min_0", True, None),
        "max_replicas": ("integer_min_1", True, None),
        "max_actions_per_window": ("integer_min_1", True, None),
        "clamp_policy": ("enum:hard_block,soft_clamp", False, "soft_clamp"),
        "dedup_window_seconds": ("integer_min_0", False, 0),
        "actions_per_window": ("integer_min_0", False, 1),
    }
    payload = {f.name: (f.type_word, f.required) for f in spec.payload}
    assert payload == {
        "source_service": ("enum:pagerduty,grafana", False),
        "scale_up_percent": ("integer_range_1_1000", True),
        "duplicate_within_seconds": ("number_min_0", False),
    }
    assert [(d.name, d.expression.text) for d in spec.derive] == [
        ("requested_delta", "floor(current_replicas * scale_up_percent / 100)"),
        ("quota_delta", "floor(remaining_quota / pod_cpu)"),
        ("headroom_delta", "max(0, max_replicas - current_replicas)"),
        ("allowed_delta", "min(requested_delta, quota_delta, headroom_delta)"),
        (
            "is_duplicate",
            "duplicate_within_seconds is not None and "
            "duplicate_within_seconds < dedup_window_seconds",
        ),
    ]
    assert [(d.name, d.expression.text) for d in spec.derive_after] == [
        ("executed_delta", "0 if halted else allowed_delta"),
        ("target_replicas", "current_replicas + executed_delta"),
    ]
    assert [(d.code, d.when.text, d.halt_before) for d in spec.diagnostics] == [
        ("DUPLICATE_WEBHOOK_DEDUPED", "is_duplicate", "execute_scale_action"),
        (
            "HARD_BLOCK_REQUESTED_OVERSHOOT",
            'clamp_policy == "hard_block" and allowed_delta < requested_delta',
            "execute_scale_action",
        ),
        ("QUOTA_EXCEEDED_AFTER_CLAMP", "requested_delta > quota_delta", "execute_scale_action"),
        ("MAX_REPLICAS_REACHED", "requested_delta > headroom_delta", "execute_scale_action"),
        (
            "NO_CAPACITY_LEFT",
            "allowed_delta == 0 and requested_delta > 0",
            "execute_scale_action",
        ),
    ]
    assert [i.text for i in spec.invariants] == [
        "target_replicas <= max_replicas",
        "executed_delta <= remaining_quota / pod_cpu",
        "actions_per_window <= max_actions_per_window",
        "not is_duplicate or executed_delta == 0",
    ]
    assert set(spec.verdicts) == {"PASS", "FAIL", "DEFERRED"}
    assert {"counterexample_got_through", "deferred", "clean"} <= set(spec.next_steps)


def test_expression_lines_point_at_their_keys() -> None:
    spec = shipped()
    allowed = spec.derivation("allowed_delta")
    assert allowed is not None
    assert allowed.expression.line == line_of(SHIPPED, "allowed_delta:")
    quota = spec.diagnostic("QUOTA_EXCEEDED_AFTER_CLAMP")
    assert quota is not None
    assert quota.when.line == line_of(SHIPPED, '"requested_delta > quota_delta"')
    assert spec.invariants[0].line == line_of(SHIPPED, '- "target_replicas <= max_replicas"')


# --- evaluation order ---------------------------------------------------------------------------


def test_tutorial_case_runs_in_t2_order() -> None:
    run = shipped().run(TUTORIAL_GIVEN, {"source_service": "grafana", "scale_up_percent": 200})
    assert run.blocked is None
    assert run.diagnostic is not None and run.diagnostic.code == "QUOTA_EXCEEDED_AFTER_CLAMP"
    b = run.bindings
    assert (b["requested_delta"], b["quota_delta"], b["headroom_delta"]) == (24, 3, 3)
    assert (b["allowed_delta"], b["is_duplicate"], b["halted"]) == (3, False, True)
    # derive_after reads `halted`: the halted action executes nothing.
    assert (b["executed_delta"], b["target_replicas"]) == (0, 12)
    assert b["actions_per_window"] == 1  # default
    assert b["duplicate_within_seconds"] is None  # absent optional, no default
    assert [c.status for c in run.invariants] == [InvariantStatus.SATISFIED] * 4


def test_first_matching_diagnostic_wins() -> None:
    # Both the duplicate and the quota diagnostics hold; the duplicate comes first.
    run = shipped().run(TUTORIAL_GIVEN, {"scale_up_percent": 200, "duplicate_within_seconds": 0.5})
    assert run.diagnostic is not None and run.diagnostic.code == "DUPLICATE_WEBHOOK_DEDUPED"
    assert run.bindings["diagnostic_code"] == "DUPLICATE_WEBHOOK_DEDUPED"
    assert run.bindings["halt_before"] == "execute_scale_action"


def test_no_diagnostic_binds_none_and_executes_allowed_delta() -> None:
    given = {**TUTORIAL_GIVEN, "remaining_quota": 100, "max_replicas": 100}
    run = shipped().run(given, {"scale_up_percent": 50})
    assert run.diagnostic is None
    b = run.bindings
    assert (b["diagnostic_code"], b["halt_before"], b["halted"]) == (None, None, False)
    assert (b["executed_delta"], b["target_replicas"]) == (6, 18)


def test_cannot_evaluate_in_derive_blocks_the_run(tmp_path: Path) -> None:
    path = variant(tmp_path, "floor(remaining_quota / pod_cpu)", "floor(remaining_quota / 0)")
    run = load_spec(path, "spec.yaml").run(TUTORIAL_GIVEN, {"scale_up_percent": 200})
    assert run.blocked is not None
    assert run.blocked.expression.text == "floor(remaining_quota / 0)"
    assert run.blocked.why == "division by zero"
    assert run.diagnostic is None
    assert {c.status for c in run.invariants} == {InvariantStatus.NOT_EVALUATED}


def test_non_boolean_diagnostic_condition_blocks_the_run(tmp_path: Path) -> None:
    path = variant(tmp_path, 'when: "is_duplicate"', 'when: "allowed_delta"')
    run = load_spec(path, "spec.yaml").run(TUTORIAL_GIVEN, {"scale_up_percent": 200})
    assert run.blocked is not None and "not a boolean" in run.blocked.why


def test_invariant_on_none_is_not_evaluated(tmp_path: Path) -> None:
    path = variant(
        tmp_path, '- "actions_per_window <= max_actions_per_window"', '- "source_service > 1"'
    )
    run = load_spec(path, "spec.yaml").run(TUTORIAL_GIVEN, {"scale_up_percent": 200})
    assert run.blocked is None
    check = run.invariants[2]
    assert check.status is InvariantStatus.NOT_EVALUATED
    assert check.why == "None operand for >"


def test_violated_invariant_keeps_the_values_it_read(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        'executed_delta: "0 if halted else allowed_delta"',
        'executed_delta: "requested_delta"',
    )
    run = load_spec(path, "spec.yaml").run(TUTORIAL_GIVEN, {"scale_up_percent": 200})
    check = run.invariants[0]
    assert check.status is InvariantStatus.VIOLATED
    assert check.values == {"target_replicas": 36, "max_replicas": 15}


# --- bad specs (C-3): one BadInput naming file, line and key ------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "needle", "field", "message"),
    [
        (
            '"floor(remaining_quota / pod_cpu)"',
            "\"__import__('os').system('true')\"",
            "quota_delta:",
            "then.derive.quota_delta",
            "not allowed",
        ),
        (
            '"max(0, max_replicas - current_replicas)"',
            '"max_replicas.__class__"',
            "headroom_delta:",
            "then.derive.headroom_delta",
            "attribute access is not allowed",
        ),
        (
            'when: "is_duplicate"',
            'when: "is_duplicate[0]"',
            'when: "is_duplicate[0]"',
            "diagnostics[0].when",
            "subscripts are not allowed",
        ),
        (
            '- "target_replicas <= max_replicas"',
            '- "target_replicas <= 2 ** 99"',
            "2 ** 99",
            "then.invariants[0]",
            "exponent 99 beyond bound",
        ),
        (
            "pod_cpu: number_positive",
            "pod_cpu: float",
            "pod_cpu: float",
            "given.pod_cpu",
            "unknown type 'float'",
        ),
        (
            "actions_per_window: {type: integer_min_0, default: 1}",
            "actions_per_window: {type: integer_min_0, default: true}",
            "actions_per_window:",
            "given.actions_per_window.default",
            "default True is not of type 'integer'",
        ),
        (
            "dedup_window_seconds: {type: integer_min_0, default: 0}",
            "dedup_window_seconds: {type: integer_min_0, default: 0, optional: true}",
            "dedup_window_seconds:",
            "given.dedup_window_seconds",
            "at most one of required, optional, default",
        ),
        (
            "    target_replicas:",
            "    current_replicas:",
            '    current_replicas: "current_replicas + executed_delta"',
            "then.derive_after.current_replicas",
            "already bound by given.current_replicas",
        ),
        (
            "    target_replicas:",
            "    halted:",
            "    halted:",
            "then.derive_after.halted",
            "already bound by diagnostics",
        ),
        (
            "  - code: NO_CAPACITY_LEFT",
            "  - code: MAX_REPLICAS_REACHED",
            "  - code: MAX_REPLICAS_REACHED",
            "diagnostics[4].code",
            "declared twice",
        ),
        (
            "spec_id: autoscale_v1",
            "spec_id: autoscale_v1\nextra_key: 1",
            "extra_key",
            "extra_key",
            "unknown field 'extra_key'",
        ),
    ],
)
def test_bad_spec_names_file_line_and_key(
    tmp_path: Path, old: str, new: str, needle: str, field: str, message: str
) -> None:
    path = variant(tmp_path, old, new)
    with pytest.raises(BadInput) as info:
        load_spec(path, "specs/bad.yaml")
    error = info.value
    assert error.source == "specs/bad.yaml"
    assert message in error.message
    assert (error.field or "") == field
    first_line = needle.splitlines()[0]
    if field:
        assert error.line == line_of(path, first_line)


def test_malformed_and_missing_spec(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("spec_id: [unclosed\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"^s\.yaml:\d+: malformed YAML"):
        load_spec(path, "s.yaml")
    with pytest.raises(BadInput, match="file not found"):
        load_spec(tmp_path / "nope.yaml", "nope.yaml")
