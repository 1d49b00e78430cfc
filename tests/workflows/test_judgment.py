"""T-6: `tribunal judgment` — verdict, reason order, evidence_ref, next_step, reproduce, body."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.judgment_repos import METRICS, Repo, make_repo, result

from tribunal.cli import cli
from tribunal.frontmatter import parse_judgment

BAD_METRICS = {
    **METRICS,
    "false_escalation_rate": 0.2,
    "mttr_p95_minutes": 2,
    "thresholds": {**METRICS["thresholds"], "audit_trace_coverage_min": 0.95},
}  # two failed invariants: false_escalation_rate (above), audit_trace_coverage (missing)


@pytest.fixture
def chdir(monkeypatch: pytest.MonkeyPatch) -> Any:
    return monkeypatch.chdir


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def judge(repo: Repo, *extra: str, baseline: bool = False) -> Result:
    """Run invariants then judgment inside `repo`; return the judgment's result."""
    inv = ["invariants", "--metrics", "metrics/validation_metrics.json"]
    inv += ["--out", "out/invariants.json"]
    if baseline:
        inv += ["--baseline", "metrics/baseline.json", "--target", "mttr_p95_minutes"]
    assert invoke(*inv).exit_code in (0, 1)
    args = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]
    return invoke(*args, "--to", "out/judgment.md", *extra)


def front(repo: Repo) -> dict[str, Any]:
    fields: dict[str, Any] = parse_judgment(repo.read("out/judgment.md"), "j").fields
    return fields


def test_counterexample_got_through_comes_first_and_refs_list_every_cause_in_order(
    tmp_path: Path, chdir: Any
) -> None:
    results = [
        result("a_ok"),
        result("b_deferred", "DEFERRED", spec_line=7),
        result("c_fail", "FAIL", spec_line=5),
        result("d_fail", "FAIL", spec_line=6),
    ]
    repo = make_repo(tmp_path, results, BAD_METRICS, baseline={"mttr_p95_minutes": 6})
    chdir(repo.root)
    outcome = judge(repo, baseline=True)
    assert outcome.exit_code == 0, outcome.output  # a record writer exits 0 whatever the verdict
    fields = front(repo)
    assert fields["verdict"] == "DENY"
    assert fields["reason"] == "counterexample_got_through:c_fail"
    metrics = "metrics/validation_metrics.json"
    assert fields["evidence_ref"] == [
        "cases/c_fail.json",
        "specs/autoscale_spec.yaml:5",
        "cases/d_fail.json",
        "specs/autoscale_spec.yaml:6",
        f"{metrics}#/mttr_p95_minutes",  # metric_corruption: target, baseline, breached guards
        "metrics/baseline.json#/mttr_p95_minutes",
        f"{metrics}#/false_escalation_rate",
        f"{metrics}#/thresholds/audit_trace_coverage_min",
        "cases/b_deferred.json",  # violates_invariant refs were cited already; then deferred
        "specs/autoscale_spec.yaml:7",
    ]
    assert fields["next_step"] == "Implementor adds a diagnostic that halts the case"
    assert invoke("judgment", "--check", "out/judgment.md").exit_code == 1


def test_metric_corruption_before_violates_invariant(tmp_path: Path, chdir: Any) -> None:
    repo = make_repo(
        tmp_path,
        [result("a_ok"), result("b_deferred", "DEFERRED")],
        BAD_METRICS,
        baseline={"mttr_p95_minutes": 6},
    )
    chdir(repo.root)
    assert judge(repo, baseline=True).exit_code == 0
    fields = front(repo)
    assert (fields["verdict"], fields["reason"]) == ("DENY", "metric_corruption")
    assert fields["next_step"] == "Fix validation.md before claiming the gain"
    assert fields["reproduce"][1] == (
        "python3 scripts/check_invariants.py --metrics metrics/validation_metrics.json"
        " --out out/invariants.json --baseline metrics/baseline.json --target mttr_p95_minutes"
    )


def test_violates_invariant_names_the_first_failed_metric_in_threshold_order(
    tmp_path: Path, chdir: Any
) -> None:
    repo = make_repo(tmp_path, [result("a_ok"), result("b_deferred", "DEFERRED")], BAD_METRICS)
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    fields = front(repo)
    assert fields["verdict"] == "DENY"
    assert fields["reason"] == "violates_invariant:false_escalation_rate"
    assert fields["evidence_ref"] == [
        "metrics/validation_metrics.json#/false_escalation_rate",
        "metrics/validation_metrics.json#/thresholds/audit_trace_coverage_min",
        "cases/b_deferred.json",
        "specs/autoscale_spec.yaml:6",
    ]
    body = parse_judgment(repo.read("out/judgment.md"), "j").body
    assert "| false_escalation_rate | 0.2 | <= | 0.05 | FAIL (above_max) |" in body
    assert "| audit_trace_coverage | missing | >= | 0.95 | FAIL (missing_metric) |" in body
    # every pointer resolves, the missing metric's pointing at its threshold
    assert invoke("judgment", "--check", "out/judgment.md").exit_code == 1


def test_deferred_when_otherwise_clean(tmp_path: Path, chdir: Any) -> None:
    results = [result("a_ok"), result("b_def", "DEFERRED"), result("c_def", "DEFERRED")]
    repo = make_repo(tmp_path, results)
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    fields = front(repo)
    assert (fields["verdict"], fields["reason"]) == ("DEFERRED", "deferred:b_def")
    assert "next_step" not in fields  # the spec's next_steps lacks `deferred`
    assert "none given" in repo.read("out/judgment.md")
    assert invoke("judgment", "--check", "out/judgment.md").exit_code == 3


def test_clean_cites_every_case_file_in_name_order_then_the_metrics_file(
    tmp_path: Path, chdir: Any
) -> None:
    repo = make_repo(tmp_path, [result("b_second"), result("a_first")])
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    text = repo.read("out/judgment.md")
    fields = front(repo)
    assert list(fields) == [
        "verdict",
        "reason",
        "evidence_ref",
        "session_id",
        "spec_id",
        "next_step",
        "linked_precedents",
        "reproduce",
    ]
    assert fields["verdict"] == "APPROVE" and fields["reason"] == "clean"
    assert fields["evidence_ref"] == [
        "cases/a_first.json",
        "cases/b_second.json",
        "metrics/validation_metrics.json",
    ]
    assert fields["session_id"] == "tribunal-2026-05-18" and fields["spec_id"] == "autoscale_v1"
    assert fields["linked_precedents"] == []
    assert fields["reproduce"] == [
        "python3 scripts/run_duel.py --spec specs/autoscale_spec.yaml --cases cases/"
        " --out out/duel.json",
        "python3 scripts/check_invariants.py --metrics metrics/validation_metrics.json"
        " --out out/invariants.json",
    ]
    assert "out/" not in " ".join(fields["evidence_ref"])
    assert "## Round 1" in text and "## Round 2" in text and "## Verdict: APPROVE" in text
    assert "The coordinator records APPROVE: all 2 cases" in text
    assert invoke("judgment", "--check", "out/judgment.md").exit_code == 0


def test_body_sections_per_case_with_expected_actual_deltas_and_reasons(
    tmp_path: Path, chdir: Any
) -> None:
    repo = make_repo(tmp_path, [result("a_ok"), result("c_fail", "FAIL")])
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    body = parse_judgment(repo.read("out/judgment.md"), "j").body
    section = body.split("### c_fail — FAIL\n", 1)[1].split("\n## ", 1)[0]
    assert section == (
        "\n"
        "- assertion: `allowed_delta_within_quota`\n"
        "- diagnostic code: expected `none`, actual `none`\n"
        "- halt before: expected `not checked`, actual `none`\n"
        "- deltas: requested 24, allowed 5 (upper bound: 3), executed 5\n"
        "- reasons:\n"
        "  - allowed_delta=5 exceeds upper_bound=3\n"
        "- evidence: `cases/c_fail.json`, `specs/autoscale_spec.yaml:6`\n"
    )
    assert "Next checkable step: Implementor adds a diagnostic that halts the case\n" in body


def test_session_id_is_omitted_when_the_metrics_have_none(tmp_path: Path, chdir: Any) -> None:
    metrics = {k: v for k, v in METRICS.items() if k != "session_id"}
    repo = make_repo(tmp_path, [result("a_ok")], metrics)
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    assert "session_id" not in front(repo)


def test_next_step_flag_overrides_and_needs_no_spec(tmp_path: Path, chdir: Any) -> None:
    repo = make_repo(tmp_path, [result("a_ok")])
    (repo.root / "specs" / "autoscale_spec.yaml").unlink()
    chdir(repo.root)
    assert judge(repo, "--next-step", "Ship it behind a flag").exit_code == 0
    assert front(repo)["next_step"] == "Ship it behind a flag"


def test_missing_spec_without_next_step_is_bad_input(tmp_path: Path, chdir: Any) -> None:
    repo = make_repo(tmp_path, [result("a_ok")])
    (repo.root / "specs" / "autoscale_spec.yaml").unlink()
    chdir(repo.root)
    outcome = judge(repo)
    assert outcome.exit_code == 2
    assert outcome.stderr == "tribunal: error: specs/autoscale_spec.yaml: file not found\n"
    assert not (repo.root / "out" / "judgment.md").exists()


def test_extra_evidence_fail_ranks_after_invariants_before_deferred(
    tmp_path: Path, chdir: Any
) -> None:
    repo = make_repo(tmp_path, [result("a_ok"), result("b_def", "DEFERRED")])
    record = {
        "kind": "readiness",
        "verdict": "FAIL",
        "reason_code": "readiness_blocked:stateful_without_backup",
        "evidence_ref": ["fixtures/readiness.json#/stateful"],
    }
    repo.write("fixtures/readiness.json", {"stateful": True})
    repo.write("evidence/readiness.json", record)
    chdir(repo.root)
    assert judge(repo, "--evidence", "evidence/readiness.json").exit_code == 0
    fields = front(repo)
    assert fields["verdict"] == "DENY"
    assert fields["reason"] == "readiness_blocked:stateful_without_backup"
    assert fields["evidence_ref"][0] == "fixtures/readiness.json#/stateful"
    assert fields["evidence_ref"][1] == "cases/b_def.json"
    assert "## Other evidence" in repo.read("out/judgment.md")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("out/duel.json", "{", "tribunal: error: out/duel.json:1: malformed JSON"),
        ("out/duel.json", None, "tribunal: error: out/duel.json: file not found"),
        (
            "out/duel.json",
            json.dumps({"spec_id": "x"}),
            "tribunal: error: out/duel.json: 'spec' is required",
        ),
        ("out/invariants.json", "[]", "tribunal: error: out/invariants.json: [] is not of type"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, chdir: Any, name: str, content: str | None, message: str
) -> None:
    repo = make_repo(tmp_path, [result("a_ok")])
    chdir(repo.root)
    assert invoke("invariants", "--metrics", "metrics/validation_metrics.json",
                  "--out", "out/invariants.json").exit_code == 0  # fmt: skip
    if content is None:
        (repo.root / name).unlink()
    else:
        repo.write(name, content)
    args = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]
    outcome = invoke(*args, "--to", "out/judgment.md")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(message) and outcome.stderr.count("\n") == 1
    assert not (repo.root / "out" / "judgment.md").exists()


def test_duel_result_failing_its_schema_names_the_field(tmp_path: Path, chdir: Any) -> None:
    bad = result("a_ok")
    bad["verdict"] = "MAYBE"
    repo = make_repo(tmp_path, [bad])
    chdir(repo.root)
    outcome = judge(repo)
    assert outcome.exit_code == 2
    assert "out/duel.json:" in outcome.stderr and "results[0].verdict" in outcome.stderr


def test_evidence_pointing_into_out_is_refused(tmp_path: Path, chdir: Any) -> None:
    bad = result("a_ok")
    bad["evidence_ref"] = ["out/cases/a_ok.json"]
    repo = make_repo(tmp_path, [bad])
    chdir(repo.root)
    outcome = judge(repo)
    assert outcome.exit_code == 2 and "scratch output under out/" in outcome.stderr


def test_without_required_options_is_a_usage_error(tmp_path: Path, chdir: Any) -> None:
    chdir(tmp_path)
    outcome = invoke("judgment", "--duel-out", "d.json")
    assert outcome.exit_code == 2 and "missing --invariants-out, --to" in outcome.stderr


def test_byte_identical_across_runs_and_checkout_locations(tmp_path: Path) -> None:
    outputs = []
    for name in ("first", "second/deeper"):
        results = [result("a_ok"), result("b_def", "DEFERRED"), result("c_fail", "FAIL")]
        repo = make_repo(tmp_path / name, results, BAD_METRICS)
        for script, args in (
            ("check_invariants.py", ["--metrics", "metrics/validation_metrics.json"]),
            ("write_judgment.py", ["--duel-out", "out/duel.json", "--to", "out/judgment.md"]),
        ):
            out = ["--out", "out/invariants.json"] if script.startswith("check") else []
            inv = ["--invariants-out", "out/invariants.json"] if script.startswith("write") else []
            subprocess.run(
                [sys.executable, str(REPO / "scripts" / script), *args, *out, *inv],
                cwd=repo.root,
                capture_output=True,
                check=False,
            )
        outputs.append((repo.root / "out" / "judgment.md").read_bytes())
        # a second run in the same place gives the same bytes
        outcome = subprocess.run(
            [sys.executable, str(REPO / "scripts" / "write_judgment.py"),
             "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json",
             "--to", "out/again.md"],
            cwd=repo.root, capture_output=True, check=False,
        )  # fmt: skip
        assert outcome.returncode == 0
        assert (repo.root / "out" / "again.md").read_bytes() == outputs[-1]
    assert outputs[0] == outputs[1]
    assert b"DENY" in outputs[0]


def test_a_duel_ref_that_does_not_resolve_is_bad_input(tmp_path: Path, chdir: Any) -> None:
    repo = make_repo(tmp_path, [result("a_ok"), result("c_fail", "FAIL", spec_line=999)])
    chdir(repo.root)
    outcome = judge(repo)
    assert outcome.exit_code == 2
    assert "out/duel.json:" in outcome.stderr
    assert "results[1].evidence_ref[1]: specs/autoscale_spec.yaml:999: line 999" in outcome.stderr
    assert not (repo.root / "out" / "judgment.md").exists()


def test_a_metric_gone_since_the_invariants_ran_is_bad_input(tmp_path: Path, chdir: Any) -> None:
    repo = make_repo(tmp_path, [result("a_ok")])
    chdir(repo.root)
    assert judge(repo).exit_code == 0
    repo.write("metrics/validation_metrics.json", {"thresholds": {}})
    args = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]
    outcome = invoke(*args, "--to", "out/again.md")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("tribunal: error: out/invariants.json:")
    assert "metrics: metrics/validation_metrics.json#/false_escalation_rate" in outcome.stderr
    assert not (repo.root / "out" / "again.md").exists()
