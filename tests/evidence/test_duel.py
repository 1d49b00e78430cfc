"""T-3, T-4: the duel — verdicts, reason forms, evidence_ref, duel.json, stderr and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.duel_data import (
    DROP,
    TUTORIAL_CASE_TEXT,
    checkout,
    tutorial_case,
    write_case,
)

from tribunal.cli import cli
from tribunal.documents import first_schema_error


def spec_line(root: Path, needle: str) -> str:
    lines = (root / "specs" / "autoscale_spec.yaml").read_text(encoding="utf-8").splitlines()
    return f"specs/autoscale_spec.yaml:{next(n for n, x in enumerate(lines, 1) if needle in x)}"


def edit_spec(root: Path, old: str, new: str) -> None:
    path = root / "specs" / "autoscale_spec.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def duel(root: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> Result:
    monkeypatch.chdir(root)
    args = ["duel", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases/"]
    return CliRunner().invoke(cli, [*args, "--out", "out/duel.json", *extra])


def results(root: Path) -> dict[str, dict[str, Any]]:
    document = json.loads((root / "out" / "duel.json").read_text(encoding="utf-8"))
    return {r["counterexample_id"]: r for r in document["results"]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return checkout(tmp_path / "repo", shipped_cases=False)


# --- the shipped data -------------------------------------------------------------------------


def test_shipped_cases_all_pass_one_per_reachable_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = checkout(tmp_path / "repo")
    result = duel(root, monkeypatch)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == (
        "PASS      autoscale_counter_200pct\n"
        "PASS      autoscale_duplicate_webhook\n"
        "PASS      autoscale_hard_block_overshoot\n"
        "PASS      autoscale_max_replicas\n"
    )
    document = json.loads((root / "out" / "duel.json").read_text(encoding="utf-8"))
    assert first_schema_error(document, "duel") is None
    assert list(document) == [
        "spec_id", "spec", "cases", "total", "pass", "fail", "deferred",
        "unexercised_diagnostics", "results",
    ]  # fmt: skip
    assert (document["spec_id"], document["spec"], document["cases"]) == (
        "autoscale_v1",
        "specs/autoscale_spec.yaml",
        "cases",
    )
    assert (document["total"], document["pass"], document["fail"], document["deferred"]) == (
        4, 4, 0, 0,
    )  # fmt: skip
    assert document["unexercised_diagnostics"] == ["NO_CAPACITY_LEFT"]
    codes = {r["counterexample_id"]: r["actual"]["diagnostic_code"] for r in document["results"]}
    assert codes == {
        "autoscale_counter_200pct": "QUOTA_EXCEEDED_AFTER_CLAMP",
        "autoscale_duplicate_webhook": "DUPLICATE_WEBHOOK_DEDUPED",
        "autoscale_hard_block_overshoot": "HARD_BLOCK_REQUESTED_OVERSHOOT",
        "autoscale_max_replicas": "MAX_REPLICAS_REACHED",
    }
    assert any(path.suffix in (".yaml", ".yml") for path in (REPO / "cases").iterdir())


def test_tutorial_case_loads_unchanged(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_case(repo / "cases", "autoscale_counter_200pct.json", TUTORIAL_CASE_TEXT)
    assert duel(repo, monkeypatch).exit_code == 0
    result = results(repo)["autoscale_counter_200pct"]
    assert result["verdict"] == "PASS"
    assert result["actual"] == {
        "diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP",
        "halt_before": "execute_scale_action",
        "allowed_delta": 3,
        "requested_delta": 24,
        "executed_delta": 0,
    }
    assert result["expected"] == json.loads(TUTORIAL_CASE_TEXT)["expected_failure"]
    assert result["evidence_ref"] == ["cases/autoscale_counter_200pct.json"]
    assert (result["reasons"], result["not_evaluated"]) == ([], [])


def test_duplicate_webhook_inside_the_window(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = tutorial_case(
        counterexample_id="dup",
        when_payload__duplicate_within_seconds=1.5,
        expected_failure={"diagnostic_code": "DUPLICATE_WEBHOOK_DEDUPED"},
    )
    write_case(repo / "cases", "dup.json", case)
    outside = tutorial_case(
        counterexample_id="dup_outside",
        when_payload__duplicate_within_seconds=2,  # not < dedup_window_seconds
        expected_failure={"diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP"},
    )
    write_case(repo / "cases", "dup_outside.json", outside)
    assert duel(repo, monkeypatch).exit_code == 0
    found = results(repo)
    assert found["dup"]["verdict"] == "PASS"
    assert found["dup"]["actual"]["diagnostic_code"] == "DUPLICATE_WEBHOOK_DEDUPED"
    assert found["dup_outside"]["actual"]["diagnostic_code"] == "QUOTA_EXCEEDED_AFTER_CLAMP"


# --- reason forms and verdicts -----------------------------------------------------------------


def test_diagnostic_code_mismatch_with_a_code_fired_is_deferred(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = tutorial_case(expected_failure={"diagnostic_code": "MAX_REPLICAS_REACHED"})
    write_case(repo / "cases", "c.json", case)
    result = duel(repo, monkeypatch)
    assert result.exit_code == 0  # DEFERRED is not FAIL
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "DEFERRED"
    assert found["reasons"] == [
        "diagnostic_code: expected MAX_REPLICAS_REACHED, got QUOTA_EXCEEDED_AFTER_CLAMP"
    ]
    # The pointer is the `when` of the diagnostic that fired.
    assert found["evidence_ref"] == [
        "cases/c.json",
        spec_line(repo, '"requested_delta > quota_delta"'),
    ]
    assert result.stderr == (
        "DEFERRED  autoscale_counter_200pct\n"
        "          diagnostic_code: expected MAX_REPLICAS_REACHED, got QUOTA_EXCEEDED_AFTER_CLAMP\n"
    )


def test_no_code_fired_but_one_expected_is_fail_and_exit_1(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = tutorial_case(
        given_snapshot__remaining_quota=100,
        given_snapshot__max_replicas=100,
        expected_failure={"diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP"},
    )
    write_case(repo / "cases", "c.json", case)
    result = duel(repo, monkeypatch)
    assert result.exit_code == 1
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "FAIL"
    assert found["reasons"] == ["diagnostic_code: expected QUOTA_EXCEEDED_AFTER_CLAMP, got none"]
    assert found["actual"]["diagnostic_code"] is None
    # Nothing fired: the pointer is the expected diagnostic's `when`.
    assert found["evidence_ref"][1] == spec_line(repo, '"requested_delta > quota_delta"')


def test_expected_none_but_a_code_fired(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_case(repo / "cases", "c.json", tutorial_case(expected_failure={"diagnostic_code": None}))
    duel(repo, monkeypatch)
    found = results(repo)["autoscale_counter_200pct"]
    assert found["reasons"] == ["diagnostic_code: expected none, got QUOTA_EXCEEDED_AFTER_CLAMP"]
    assert found["verdict"] == "DEFERRED"


def test_halt_before_mismatch(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = tutorial_case(expected_failure={"halt_before": "plan_scale_action"})
    write_case(repo / "cases", "c.json", case)
    duel(repo, monkeypatch)
    found = results(repo)["autoscale_counter_200pct"]
    assert found["reasons"] == [
        "halt_before: expected plan_scale_action, spec halts before execute_scale_action"
    ]
    assert found["verdict"] == "DEFERRED"
    assert found["evidence_ref"] == [
        "cases/c.json",
        spec_line(repo, '"requested_delta > quota_delta"'),
    ]


def test_halt_before_not_compared_when_nothing_fired(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = tutorial_case(
        given_snapshot__remaining_quota=100,
        given_snapshot__max_replicas=100,
        expected_failure={"halt_before": "plan_scale_action"},
    )
    write_case(repo / "cases", "c.json", case)
    assert duel(repo, monkeypatch).exit_code == 0
    assert results(repo)["autoscale_counter_200pct"]["verdict"] == "PASS"


def test_allowed_delta_exceeds_upper_bound(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = tutorial_case(expected_failure__executed_delta_upper_bound=2)
    write_case(repo / "cases", "c.json", case)
    duel(repo, monkeypatch)
    found = results(repo)["autoscale_counter_200pct"]
    assert found["reasons"] == ["allowed_delta=3 exceeds upper_bound=2"]
    assert found["evidence_ref"] == ["cases/c.json", spec_line(repo, "allowed_delta:")]
    assert found["verdict"] == "DEFERRED"


def test_absent_expected_keys_are_not_checked(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_case(repo / "cases", "c.json", tutorial_case(expected_failure={"verdict": "FAIL"}))
    assert duel(repo, monkeypatch).exit_code == 0
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "PASS"  # `verdict` is informational, never compared
    assert found["expected"] == {"verdict": "FAIL"}


def test_invariant_violated_without_a_diagnostic_is_fail(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = tutorial_case(
        given_snapshot__remaining_quota=100,
        given_snapshot__max_replicas=100,
        given_snapshot__actions_per_window=5,
        expected_failure={},
    )
    write_case(repo / "cases", "c.json", case)
    result = duel(repo, monkeypatch)
    assert result.exit_code == 1
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "FAIL"
    assert found["reasons"] == [
        "invariant violated: actions_per_window <= max_actions_per_window "
        "(actions_per_window=5, max_actions_per_window=4)"
    ]
    assert found["evidence_ref"] == [
        "cases/c.json",
        spec_line(repo, '- "actions_per_window <= max_actions_per_window"'),
    ]


def test_invariants_violated_with_a_diagnostic_are_deferred(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A spec whose halted action still executes: the diagnostic fires, invariants break.
    edit_spec(repo, '"0 if halted else allowed_delta"', '"requested_delta"')
    write_case(repo / "cases", "c.json", tutorial_case(expected_failure={}))
    duel(repo, monkeypatch)
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "DEFERRED"
    assert found["reasons"] == [
        "invariant violated: target_replicas <= max_replicas (target_replicas=36, max_replicas=15)",
        "invariant violated: executed_delta <= remaining_quota / pod_cpu "
        "(executed_delta=24, remaining_quota=3, pod_cpu=1)",
    ]
    assert found["evidence_ref"] == [
        "cases/c.json",
        spec_line(repo, '- "target_replicas <= max_replicas"'),
        spec_line(repo, '- "executed_delta <= remaining_quota / pod_cpu"'),
    ]


def test_cannot_evaluate_in_derive_is_deferred(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edit_spec(
        repo, '"floor(remaining_quota / pod_cpu)"', '"floor(remaining_quota / (pod_cpu - 1))"'
    )
    write_case(repo / "cases", "c.json", tutorial_case())
    result = duel(repo, monkeypatch)
    assert result.exit_code == 0
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "DEFERRED"
    assert found["reasons"] == [
        "cannot evaluate floor(remaining_quota / (pod_cpu - 1)): division by zero"
    ]
    assert found["evidence_ref"] == ["cases/c.json", spec_line(repo, "quota_delta:")]
    # The invariants were never reached: each says where the case stopped, not why it did.
    stopped = "not evaluated: the case stopped at floor(remaining_quota / (pod_cpu - 1))"
    assert found["not_evaluated"] == [
        f"target_replicas <= max_replicas: {stopped}",
        f"executed_delta <= remaining_quota / pod_cpu: {stopped}",
        f"actions_per_window <= max_actions_per_window: {stopped}",
        f"not is_duplicate or executed_delta == 0: {stopped}",
    ]


def test_cannot_evaluate_wins_over_no_diagnostic(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An unbound name in derive_after: no diagnostic fired, yet DEFERRED, not FAIL.
    edit_spec(repo, '"current_replicas + executed_delta"', '"current_replicas + executed"')
    case = tutorial_case(given_snapshot__remaining_quota=100, given_snapshot__max_replicas=100)
    write_case(repo / "cases", "c.json", case)
    assert duel(repo, monkeypatch).exit_code == 0
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "DEFERRED"
    assert found["reasons"] == [
        "cannot evaluate current_replicas + executed: name 'executed' is not bound"
    ]
    assert found["evidence_ref"][1] == spec_line(repo, "target_replicas:")


def test_invariant_on_none_is_not_evaluated_and_never_a_reason(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit_spec(
        repo,
        '- "actions_per_window <= max_actions_per_window"',
        '- "duplicate_within_seconds >= 0"',
    )
    write_case(repo / "cases", "c.json", tutorial_case())
    assert duel(repo, monkeypatch).exit_code == 0
    found = results(repo)["autoscale_counter_200pct"]
    assert found["verdict"] == "PASS"
    assert found["not_evaluated"] == ["duplicate_within_seconds >= 0: None operand for >="]


# --- determinism (C-6, C-8) -----------------------------------------------------------------------


def run_script(root: Path, *, python: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [*(python or [sys.executable]), str(REPO / "scripts" / "run_duel.py")]
    command += ["--spec", "specs/autoscale_spec.yaml", "--cases", "cases/", "--out", "out/d.json"]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)


def test_byte_identical_across_runs_and_checkouts(tmp_path: Path) -> None:
    first = checkout(tmp_path / "one" / "repo")
    second = checkout(tmp_path / "elsewhere" / "deeper" / "clone")
    write_case(first / "cases", "z_fail.json", tutorial_case(
        counterexample_id="z_fail", expected_failure={"diagnostic_code": None}))  # fmt: skip
    write_case(second / "cases", "z_fail.json", tutorial_case(
        counterexample_id="z_fail", expected_failure={"diagnostic_code": None}))  # fmt: skip
    outputs = []
    for root in (first, second, first):
        done = run_script(root)
        assert done.returncode == 0, done.stderr
        outputs.append(((root / "out" / "d.json").read_bytes(), done.stderr))
    assert outputs[0] == outputs[1] == outputs[2]
    assert b"/tmp" not in outputs[0][0] and str(tmp_path).encode() not in outputs[0][0]


def test_script_is_the_same_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = checkout(tmp_path / "repo")
    done = run_script(root)
    assert done.returncode == 0
    assert duel(root, monkeypatch).exit_code == 0
    assert (root / "out" / "d.json").read_bytes() == (root / "out" / "duel.json").read_bytes()


def test_script_without_dependencies_says_how_to_install(tmp_path: Path) -> None:
    # `-S` leaves site-packages (click, jsonschema, ...) out, as on a clone before install.
    root = checkout(tmp_path / "repo")
    done = run_script(root, python=[sys.executable, "-S"])
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("run_duel.py: error: missing dependency 'click'; install with: ")
    assert lines[0].endswith(f"python3 -m pip install -e {os.path.relpath(REPO, root)}")
    assert not (root / "out").exists()


def test_out_parent_directories_are_created(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_case(repo / "cases", "c.json", tutorial_case())
    monkeypatch.chdir(repo)
    args = [
        "duel",
        "--spec",
        "specs/autoscale_spec.yaml",
        "--cases",
        "cases",
        "--out",
        "a/b/c.json",
    ]
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert (repo / "a" / "b" / "c.json").is_file()


def test_case_with_missing_keys_stays_valid_output(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `description` is optional; optional fields without defaults may be absent.
    case = tutorial_case(when_payload__source_service=DROP, given_snapshot__clamp_policy=DROP)
    write_case(repo / "cases", "c.json", case)
    assert duel(repo, monkeypatch).exit_code == 0
    assert results(repo)["autoscale_counter_200pct"]["verdict"] == "PASS"
