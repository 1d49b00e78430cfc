"""C-3: NaN and the infinities are bad input wherever a setting is read against a schema — a
timeout, a cost, a threshold, a score, a case field — with file, line and field, exit 2, nothing
written. (A metric value that is not a finite number is no setting: it fails its threshold with
missing_metric, tests/evidence/test_invariants.py.)

Once, a NaN `timeout_s` passed every bound (NaN fails no comparison): a rung waited "nan s", and
a contract's NaN removed the proof cap.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.fleets import SPEC_FLEET, write_fleet
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.schemas import validator_for

NON_FINITE_YAML = [(".nan", "nan"), (".inf", "inf"), ("-.inf", "-inf"), (".NaN", "nan")]
NON_FINITE_JSON = [("NaN", "nan"), ("Infinity", "inf"), ("-Infinity", "-inf"), ("1e999", "inf")]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(result: Result, where: str, shown: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        f"tribunal: error: {where}: not a finite number: {shown}"
    )


@pytest.mark.parametrize(("written", "shown"), NON_FINITE_YAML)
@pytest.mark.parametrize(
    ("setting", "where"),
    [
        ("    timeout_s: 120", "fleet.yaml:23: rungs[3].timeout_s"),
        (
            "    cost: {input_per_mtok: 0.15, output_per_mtok: 0.6}",
            "fleet.yaml:21: rungs[3].cost.output_per_mtok",
        ),
    ],
)
def test_a_fleet_setting_must_be_finite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, where: str, written: str,
    shown: str,
) -> None:  # fmt: skip
    value = setting.rsplit(" ", 1)[1].rstrip("}")
    edited = SPEC_FLEET.replace(setting, setting.replace(value, written))
    assert edited != SPEC_FLEET
    write_fleet(tmp_path, edited)
    monkeypatch.chdir(tmp_path)
    refused(invoke("ladder", "--fleet", "fleet.yaml", "--builder", "vendor-b"), where, shown)


@pytest.mark.parametrize(("written", "shown"), NON_FINITE_YAML)
def test_a_contract_timeout_must_be_finite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    # A NaN proof cap once let every proof run unbounded and the change LAND.
    repo = GitRepo(tmp_path / "repo")
    base = repo.commit("base", {"calc.py": "x = 1\n"})
    repo.commit("change", {"calc.py": "x = 2\n"})
    contract = tmp_path / "contract.yaml"
    contract.write_text(
        f"intent: x is two\ncriteria: [x == 2]\ntimeout_s: {written}\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "envelope", "--repo", "repo", "--base", base, "--contract", "contract.yaml",
        "--out", "out/envelope",
    )  # fmt: skip
    refused(result, "contract.yaml:3: timeout_s", shown)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("written", "shown"), NON_FINITE_JSON)
def test_a_threshold_must_be_finite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.json").write_text(
        '{\n  "x": 1,\n  "thresholds": {\n    "x_max": ' + written + "\n  }\n}\n", encoding="utf-8"
    )
    result = invoke("invariants", "--metrics", "m.json", "--out", "out/i.json")
    refused(result, "m.json:4: thresholds.x_max", shown)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("written", "shown"), NON_FINITE_JSON)
def test_a_readiness_coverage_must_be_finite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    record = (REPO / "fixtures" / "readiness_block_stateful.json").read_text(encoding="utf-8")
    edited = record.replace('"audit_trace_coverage": 1.0', f'"audit_trace_coverage": {written}')
    assert edited != record
    (tmp_path / "r.json").write_text(edited, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke("readiness", "r.json", "--out", "out/r.json")
    refused(result, "r.json:11: audit_trace_coverage", shown)


@pytest.mark.parametrize(("written", "shown"), NON_FINITE_YAML)
def test_a_case_number_must_be_finite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    for name in ("specs", "cases"):
        shutil.copytree(REPO / name, tmp_path / name)
    case = tmp_path / "cases" / "autoscale_duplicate_webhook.yaml"
    text = case.read_text(encoding="utf-8")
    case.write_text(text.replace("  pod_cpu: 1\n", f"  pod_cpu: {written}\n"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "duel", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases/", "--out", "out/d.json"
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].startswith(
        f"tribunal: error: cases/autoscale_duplicate_webhook.yaml:8: given_snapshot.pod_cpu: "
        f"not a finite number: {shown}"
    )


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_every_schema_refuses_a_non_finite_number(value: float) -> None:
    # The rule sits in the one validator every shipped schema is read with.
    errors = list(validator_for("fleet").iter_errors(json.loads(json.dumps(
        {"rungs": [{"use": "openai/m", "timeout_s": value}], "tiers": {"t": ["openai/m"]}}
    ))))  # fmt: skip
    assert f"not a finite number: {value!r}" in [error.message for error in errors]
