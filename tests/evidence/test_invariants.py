"""T-5: anti-Goodhart invariants: declared thresholds, missing_metric, unchecked, corruption."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from testing import REPO

from tribunal.cli import cli
from tribunal.documents import Document, first_schema_error, load_json
from tribunal.errors import BadInput
from tribunal.evidence.invariants import check_invariants

SHIPPED = REPO / "metrics" / "validation_metrics.json"


def metrics_doc(data: Any, label: str = "metrics/m.json") -> Document:
    return Document(path=Path(label), label=label, data=data, text=json.dumps(data, indent=2))


def run(data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    report = check_invariants(metrics_doc(data), **kwargs)
    assert first_schema_error(report, "invariants") is None
    return report


def test_shipped_metrics_pass_with_the_five_thresholds() -> None:
    report = check_invariants(load_json(SHIPPED, "metrics/validation_metrics.json"))
    assert report["verdict"] == "PASS" and report["failed"] == 0
    assert [(c["metric"], c["op"], c["threshold"]) for c in report["checks"]] == [
        ("false_escalation_rate", "<=", 0.05),
        ("silent_p0_ratio", "<=", 0),
        ("rollback_flapping_per_hour", "<=", 3),
        ("audit_trace_coverage", ">=", 0.95),
        ("mttr_p95_minutes", "<=", 6),
    ]
    assert report["unchecked"], "the shipped metrics exercise `unchecked`"
    assert report["session_id"] == "tribunal-2026-05-17"
    assert report["window"] and report["corruption"] is None
    assert first_schema_error(report, "invariants") is None


def test_checks_follow_the_order_of_the_thresholds_keys_not_a_fixed_list() -> None:
    report = run(
        {
            "a": 1,
            "queue_depth": 10,
            "zeta": 5,
            "thresholds": {"zeta_min": 1, "queue_depth_max": 20, "a_max": 2},
        }
    )
    assert [c["metric"] for c in report["checks"]] == ["zeta", "queue_depth", "a"]
    assert report["verdict"] == "PASS"


def test_max_is_at_most_and_min_is_at_least_including_the_bound() -> None:
    report = run({"x": 3, "y": 3, "thresholds": {"x_max": 3, "y_min": 3}})
    assert [(c["op"], c["ok"]) for c in report["checks"]] == [("<=", True), (">=", True)]
    report = run({"x": 3.5, "y": 2, "thresholds": {"x_max": 3, "y_min": 3}})
    assert [(c["ok"], c["reason"]) for c in report["checks"]] == [
        (False, "above_max"),
        (False, "below_min"),
    ]
    assert report["failed"] == 2 and report["verdict"] == "FAIL"
    assert "reason" not in report


@pytest.mark.parametrize("value", [None, True, False, "0.01", [0.01], {"v": 0}])
def test_missing_or_non_number_metric_fails_with_missing_metric(value: Any) -> None:
    data: dict[str, Any] = {"thresholds": {"silent_p0_ratio_max": 0}}
    if value is not None:
        data["silent_p0_ratio"] = value
    report = run(data)
    (check,) = report["checks"]
    assert check["ok"] is False and check["reason"] == "missing_metric"
    assert check["value"] == value
    assert report["verdict"] == "FAIL" and report["failed"] == 1


def test_unchecked_lists_metrics_without_a_threshold_in_file_order() -> None:
    report = run(
        {
            "session_id": "s",
            "window": "w",
            "zz": 1,
            "checked": 1,
            "aa": "note",
            "thresholds": {"checked_max": 1},
        }
    )
    assert report["unchecked"] == ["zz", "aa"]


def test_integral_floats_print_as_integers() -> None:
    report = run({"x": 2.0, "y": 0.5, "thresholds": {"x_max": 3.0, "y_max": 1}})
    text = json.dumps(report["checks"])
    assert '"value": 2,' in text and '"threshold": 3,' in text
    assert '"value": 0.5' in text


def test_session_and_window_are_null_when_absent() -> None:
    report = run({"x": 1, "thresholds": {"x_max": 1}})
    assert report["session_id"] is None and report["window"] is None


GUARDED = {
    "mttr_p95_minutes": 2,
    "false_escalation_rate": 0.2,
    "silent_p0_ratio": 0,
    "thresholds": {
        "mttr_p95_minutes_max": 6,
        "false_escalation_rate_max": 0.05,
        "silent_p0_ratio_max": 0,
    },
}


def test_improved_target_with_a_breached_guard_is_metric_corruption() -> None:
    baseline = metrics_doc({"mttr_p95_minutes": 6.0}, "metrics/before.json")
    report = run(GUARDED, baseline=baseline, target="mttr_p95_minutes")
    assert report["baseline"] == "metrics/before.json"
    assert report["corruption"] == {
        "target": "mttr_p95_minutes",
        "baseline_value": 6,
        "value": 2,
        "improved": True,
        "breached": ["false_escalation_rate"],
    }
    assert report["verdict"] == "FAIL" and report["reason"] == "metric_corruption"
    assert list(report)[-2:] == ["reason", "corruption"]


def test_improvement_without_breach_passes_and_breach_without_improvement_is_no_corruption() -> (
    None
):
    clean = {**GUARDED, "false_escalation_rate": 0.01}
    report = run(clean, baseline=metrics_doc({"mttr_p95_minutes": 6}), target="mttr_p95_minutes")
    assert report["verdict"] == "PASS" and report["corruption"]["improved"] is True
    assert "reason" not in report
    report = run(GUARDED, baseline=metrics_doc({"mttr_p95_minutes": 1}), target="mttr_p95_minutes")
    assert report["corruption"]["improved"] is False
    assert report["verdict"] == "FAIL" and "reason" not in report


def test_min_target_improves_upwards() -> None:
    data = {"coverage": 0.99, "flaps": 9, "thresholds": {"coverage_min": 0.9, "flaps_max": 3}}
    report = run(data, baseline=metrics_doc({"coverage": 0.95}), target="coverage")
    assert report["corruption"]["improved"] is True
    assert report["reason"] == "metric_corruption"
    report = run(data, baseline=metrics_doc({"coverage": 0.995}), target="coverage")
    assert report["corruption"]["improved"] is False


def test_target_without_a_threshold_is_bad_input() -> None:
    with pytest.raises(BadInput, match="no threshold") as info:
        run(GUARDED, baseline=metrics_doc({"x": 1}), target="unchecked_metric")
    assert info.value.source == "metrics/m.json"


def test_baseline_without_the_target_is_bad_input() -> None:
    with pytest.raises(BadInput, match="missing") as info:
        run(GUARDED, baseline=metrics_doc({"x": 1}, "b.json"), target="mttr_p95_minutes")
    assert info.value.source == "b.json" and info.value.field == "mttr_p95_minutes"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "must be a JSON object"),
        ({"x": 1}, "'thresholds' is required"),
        ({"x": 1, "thresholds": {"x_limit": 1}}, "does not match"),
        ({"x": 1, "thresholds": {"x_max": True}}, "is not of type 'number'"),
        ({"x": 1, "thresholds": {"x_max": float("nan")}}, "not a finite number: nan"),
        ({"x": 1, "thresholds": {"x_min": float("-inf")}}, "not a finite number: -inf"),
        ({"session_id": 7, "thresholds": {}}, "is not of type 'string'"),
    ],
)
def test_bad_metrics(data: Any, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        run(data)


@given(
    st.dictionaries(
        st.from_regex(r"[a-z]{1,6}", fullmatch=True),
        st.tuples(
            st.sampled_from(["max", "min"]),
            st.integers(-50, 50) | st.floats(-50, 50, allow_nan=False),
            st.none() | st.booleans() | st.integers(-50, 50) | st.floats(-50, 50, allow_nan=False),
        ),
        max_size=6,
    )
)
def test_every_threshold_is_checked_and_only_numbers_can_pass(
    spec: dict[str, tuple[str, float, Any]],
) -> None:
    data: dict[str, Any] = {"thresholds": {}}
    for metric, (bound, limit, value) in spec.items():
        data["thresholds"][f"{metric}_{bound}"] = limit
        if value is not None:
            data[metric] = value
    report = check_invariants(metrics_doc(data))
    assert len(report["checks"]) == len(spec)
    for check, (metric, (bound, limit, value)) in zip(report["checks"], spec.items(), strict=True):
        assert check["metric"] == metric
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        holds = numeric and (value <= limit if bound == "max" else value >= limit)
        assert check["ok"] is holds
    assert report["verdict"] == ("PASS" if all(c["ok"] for c in report["checks"]) else "FAIL")


# --- the command -------------------------------------------------------------------------------


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "metrics").mkdir()
    monkeypatch.chdir(root)
    return root


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_cli_pass_writes_invariants_json_with_c8_paths(repo: Path) -> None:
    write(repo / "metrics" / "m.json", {"x": 1, "thresholds": {"x_max": 1}})
    result = CliRunner().invoke(
        cli, ["invariants", "--metrics", str(repo / "metrics" / "m.json"), "--out", "out/i.json"]
    )
    assert result.exit_code == 0, result.output
    written = json.loads((repo / "out" / "i.json").read_text(encoding="utf-8"))
    assert written["metrics"] == "metrics/m.json" and written["verdict"] == "PASS"
    assert result.stderr.splitlines()[-1] == "invariants: PASS (0 of 1 failed)"


def test_cli_fail_exits_1(repo: Path) -> None:
    write(repo / "m.json", {"x": 2, "thresholds": {"x_max": 1}})
    result = CliRunner().invoke(cli, ["invariants", "--metrics", "m.json", "--out", "o.json"])
    assert result.exit_code == 1
    assert json.loads((repo / "o.json").read_text(encoding="utf-8"))["verdict"] == "FAIL"


def test_cli_corruption_exits_1_and_names_the_baseline(repo: Path) -> None:
    write(repo / "m.json", GUARDED)
    write(repo / "b.json", {"mttr_p95_minutes": 6})
    args = ["--metrics", "m.json", "--out", "o.json", "--baseline", "b.json"]
    result = CliRunner().invoke(cli, ["invariants", *args, "--target", "mttr_p95_minutes"])
    assert result.exit_code == 1
    written = json.loads((repo / "o.json").read_text(encoding="utf-8"))
    assert written["baseline"] == "b.json" and written["reason"] == "metric_corruption"
    assert "metric_corruption" in result.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    ("content", "extra", "expected"),
    [
        ("[1, 2]", [], "tribunal: error: m.json: metrics must be a JSON object\n"),
        ('{"x": 1,', [], "tribunal: error: m.json:1: malformed JSON: Expecting property name"),
        (None, [], "tribunal: error: m.json: file not found\n"),
        (
            '{"x": 1, "thresholds": {"x_max": 1}}',
            ["--baseline", "m.json", "--target", "y"],
            "tribunal: error: m.json:1: thresholds: --target 'y' has no threshold",
        ),
    ],
)
def test_cli_bad_input_is_one_line_exit_2_nothing_written(
    repo: Path, content: str | None, extra: list[str], expected: str
) -> None:
    if content is not None:
        (repo / "m.json").write_text(content, encoding="utf-8")
    args = ["invariants", "--metrics", "m.json", "--out", "out/o.json", *extra]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith(expected) and result.stderr.count("\n") == 1
    assert not (repo / "out").exists()


def test_cli_target_needs_baseline(repo: Path) -> None:
    write(repo / "m.json", {"x": 1, "thresholds": {"x_max": 1}})
    args = ["invariants", "--metrics", "m.json", "--out", "o.json", "--target", "x"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "--baseline and --target go together" in result.stderr
    assert not (repo / "o.json").exists()


def test_cli_path_outside_root_is_written_as_given(repo: Path, tmp_path: Path) -> None:
    outside = write(tmp_path / "elsewhere" / "m.json", {"x": 1, "thresholds": {"x_max": 1}})
    result = CliRunner().invoke(cli, ["invariants", "--metrics", str(outside), "--out", "o.json"])
    assert result.exit_code == 0
    assert json.loads((repo / "o.json").read_text(encoding="utf-8"))["metrics"] == str(outside)


def test_output_is_byte_identical_across_checkout_locations(tmp_path: Path) -> None:
    outputs = []
    for name in ("one", "two"):
        root = tmp_path / name
        (root / ".git").mkdir(parents=True)
        write(root / "metrics" / "m.json", json.loads(SHIPPED.read_text(encoding="utf-8")))
        subprocess.run(
            [sys.executable, str(REPO / "scripts" / "check_invariants.py"),
             "--metrics", "metrics/m.json", "--out", "out/i.json"],
            cwd=root, check=True, capture_output=True,
        )  # fmt: skip
        outputs.append((root / "out" / "i.json").read_bytes())
    assert outputs[0] == outputs[1]


def test_script_runs_from_a_clone_like_the_command(tmp_path: Path) -> None:
    out = tmp_path / "i.json"
    result = subprocess.run(
        [sys.executable, "scripts/check_invariants.py",
         "--metrics", "metrics/validation_metrics.json", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["metrics"] == "metrics/validation_metrics.json"


@pytest.mark.parametrize(
    "script", ["check_invariants.py", "write_judgment.py", "run_duel.py", "matrix.py"]
)
def test_script_without_dependencies_prints_the_install_command(
    tmp_path: Path, script: str
) -> None:
    # `-S` skips site-packages: click and the rest are missing, as on a fresh machine (C-10).
    result = subprocess.run(
        [sys.executable, "-S", f"scripts/{script}",
         "--metrics", "metrics/validation_metrics.json", "--out", str(tmp_path / "i.json")],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == (
        f"{script}: error: missing dependency 'click'; install with: python3 -m pip install -e .\n"
    )
    assert not (tmp_path / "i.json").exists()


def _strict(constant: str) -> object:
    raise AssertionError(f"invariants.json holds {constant}, which is not JSON")


@pytest.mark.parametrize(
    ("written", "shown"),
    [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"), ("1e999", "Infinity")],
)
def test_a_metric_that_is_not_a_finite_number_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    # T-5: a metric value is not a setting — NaN fails its threshold as missing_metric (it once
    # was bad input), never a pass; the target's NaN is never an improvement.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(
        '{"x": ' + written + ', "y": 1, "thresholds": {"x_max": 1, "y_max": 2}}', encoding="utf-8"
    )
    (tmp_path / "b.json").write_text('{"x": 5, "thresholds": {}}', encoding="utf-8")
    args = ["invariants", "--metrics", "m.json", "--out", "out/i.json"]
    result = CliRunner().invoke(cli, [*args, "--baseline", "b.json", "--target", "x"])
    assert result.exit_code == 1, result.output
    text = (tmp_path / "out" / "i.json").read_text(encoding="utf-8")
    report = json.loads(text, parse_constant=_strict)
    assert report["checks"][0] == {
        "metric": "x", "value": shown, "threshold": 1, "op": "<=", "ok": False,
        "reason": "missing_metric",
    }  # fmt: skip
    assert report["checks"][1]["ok"] is True
    assert report["corruption"]["value"] == shown and report["corruption"]["improved"] is False
    assert first_schema_error(report, "invariants") is None


@pytest.mark.parametrize("written", ["NaN", "Infinity"])
def test_a_baseline_target_that_is_not_a_finite_number_is_bad_input(written: str) -> None:
    value = float(written.lower().replace("infinity", "inf"))
    baseline = metrics_doc({"mttr_p95_minutes": value}, "b.json")
    with pytest.raises(BadInput, match="the --target metric is not a finite number") as info:
        run(GUARDED, baseline=baseline, target="mttr_p95_minutes")
    assert info.value.source == "b.json"
