"""T-7: the tier-pair matrix — verifier rules, kept duel verdicts, signal, --pairs, exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.duel_data import checkout, tutorial_case, write_case

from tribunal.cli import cli
from tribunal.documents import first_schema_error
from tribunal.enums import CaseVerdict, EvidenceFormat
from tribunal.evidence.cases import CaseChecker
from tribunal.evidence.duel import judge_case
from tribunal.evidence.matrix import Tier, produce_evidence, verify
from tribunal.spec.load import load_spec

UNRECOGNISED = (
    "verifier does not recognise evidence_format=extended_form, knows only [minimal_form]"
)


def with_tiers(root: Path, tiers: dict[str, Any] | None = None) -> Path:
    (root / "matrix").mkdir(exist_ok=True)
    if tiers is None:
        shutil.copy2(REPO / "matrix" / "tiers.json", root / "matrix" / "tiers.json")
    else:
        (root / "matrix" / "tiers.json").write_text(json.dumps(tiers), encoding="utf-8")
    return root


def matrix(root: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> Result:
    monkeypatch.chdir(root)
    args = ["matrix", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases/"]
    args += ["--tiers", "matrix/tiers.json", "--out", "out/matrix.json", *extra]
    return CliRunner().invoke(cli, args)


def output(root: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((root / "out" / "matrix.json").read_text("utf-8"))
    assert first_schema_error(document, "matrix") is None
    return document


def cells(document: dict[str, Any], pair_id: str) -> dict[str, dict[str, Any]]:
    pair = next(p for p in document["pairs"] if p["pair_id"] == pair_id)
    return {c["counterexample_id"]: c for c in pair["cases"]}


def test_shipped_matrix_is_tier_dependent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = with_tiers(checkout(tmp_path / "repo"))
    result = matrix(root, monkeypatch)
    assert result.exit_code == 1
    assert result.stderr == (
        "PASS      C1 local-coder -> frontier-reviewer (4/4 cases pass)\n"
        "FAIL      C2 frontier-reviewer -> local-coder (0/4 cases pass)\n"
        "PASS      C3 local-coder -> local-coder (4/4 cases pass)\n"
        "PASS      C4 frontier-reviewer -> frontier-reviewer (4/4 cases pass)\n"
        "signal: tier_dependent_spec\n"
    )
    document = output(root)
    assert list(document) == ["spec_id", "total_pairs", "summary", "pairs"]
    assert (document["spec_id"], document["total_pairs"]) == ("autoscale_v1", 4)
    assert document["summary"] == {
        "signal": "tier_dependent_spec",
        "pass_pairs": ["C1", "C3", "C4"],
        "fail_pairs": ["C2"],
        "diverging": True,
    }
    pairs = {p["pair_id"]: (p["impl"], p["verifier"], p["verdict"]) for p in document["pairs"]}
    assert pairs == {
        "C1": ("local-coder", "frontier-reviewer", "PASS"),
        "C2": ("frontier-reviewer", "local-coder", "FAIL"),
        "C3": ("local-coder", "local-coder", "PASS"),
        "C4": ("frontier-reviewer", "frontier-reviewer", "PASS"),
    }
    for cell in cells(document, "C2").values():
        assert cell["evidence_format"] == "extended_form"
        assert (cell["verdict"], cell["reasons"]) == ("FAIL", [UNRECOGNISED])
    assert {c["evidence_format"] for c in cells(document, "C1").values()} == {"minimal_form"}


def test_pairs_option_selects_listed_pairs_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = with_tiers(checkout(tmp_path / "repo"))
    result = matrix(
        root, monkeypatch, "--pairs", "local-coder/local-coder, local-coder/frontier-reviewer"
    )
    assert result.exit_code == 0  # uniform_pass
    document = output(root)
    assert [p["pair_id"] for p in document["pairs"]] == ["C3", "C1"]
    assert document["total_pairs"] == 2
    assert document["summary"] == {
        "signal": "uniform_pass",
        "pass_pairs": ["C3", "C1"],
        "fail_pairs": [],
        "diverging": False,
    }


def test_only_failing_pair_is_uniform_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = with_tiers(checkout(tmp_path / "repo"))
    assert matrix(root, monkeypatch, "--pairs", "frontier-reviewer/local-coder").exit_code == 1
    assert output(root)["summary"]["signal"] == "uniform_fail"
    assert output(root)["summary"]["diverging"] is False


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        (
            "local-coder/nobody",
            "--pairs: pair 'local-coder/nobody' names unknown tier 'nobody' "
            "(known: local-coder, frontier-reviewer)",
        ),
        ("local-coder", "--pairs: pair 'local-coder' is not of the form impl/verifier"),
        (
            "frontier-reviewer/frontier-reviewer",
            "--pairs: pair 'frontier-reviewer/frontier-reviewer' is not a pair listed in "
            "matrix/tiers.json",
        ),
        # T-7: a value that selects no pair (or has a hole) would give a vacuous uniform_pass.
        (",", "--pairs: pair list ',' has an empty item; name impl/verifier"),
        ("", "--pairs: pair list '' has an empty item; name impl/verifier"),
        (" ", "--pairs: pair list ' ' has an empty item; name impl/verifier"),
        (
            "local-coder/local-coder,",
            "--pairs: pair list 'local-coder/local-coder,' has an empty item; name impl/verifier",
        ),
    ],
)
def test_bad_pairs_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pairs: str, message: str
) -> None:
    shipped = json.loads((REPO / "matrix" / "tiers.json").read_text(encoding="utf-8"))
    shipped["pairs"] = [p for p in shipped["pairs"] if p["id"] != "C4"]
    root = with_tiers(checkout(tmp_path / "repo"), shipped)
    result = matrix(root, monkeypatch, "--pairs", pairs)
    assert result.exit_code == 2
    assert result.stderr == f"tribunal: error: {message}\n"
    assert not (root / "out").exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda t: t["pairs"][1].update(verifier="mid-tier"),
            "matrix/tiers.json:1: pairs[1].verifier: pair 'C2' names unknown tier 'mid-tier'",
        ),
        (
            lambda t: t.update(spec_id="rate_limit_v1"),
            "matrix/tiers.json:1: spec_id: spec_id 'rate_limit_v1' differs from the spec's "
            "'autoscale_v1'",
        ),
        (
            lambda t: t["tiers"]["local-coder"].update(impl_produces="tiny_form"),
            "matrix/tiers.json:1: tiers.local-coder.impl_produces: 'tiny_form' is not one of "
            "['minimal_form', 'extended_form']",
        ),
    ],
)
def test_bad_tiers_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Any, message: str
) -> None:
    tiers = json.loads((REPO / "matrix" / "tiers.json").read_text(encoding="utf-8"))
    change(tiers)
    root = with_tiers(checkout(tmp_path / "repo"), tiers)
    result = matrix(root, monkeypatch)
    assert result.exit_code == 2
    assert result.stderr == f"tribunal: error: {message}\n"
    assert not (root / "out").exists()


def test_minimal_form_with_no_code_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The duel PASSes a case that expects no code and gets none; a minimal_form carries nothing.
    root = with_tiers(checkout(tmp_path / "repo", shipped_cases=False))
    quiet = tutorial_case(
        counterexample_id="quiet",
        given_snapshot__remaining_quota=100,
        given_snapshot__max_replicas=100,
        expected_failure={"diagnostic_code": None},
    )
    write_case(root / "cases", "quiet.json", quiet)
    assert matrix(root, monkeypatch).exit_code == 1
    document = output(root)
    for pair_id in ("C1", "C3"):
        cell = cells(document, pair_id)["quiet"]
        assert (cell["evidence_format"], cell["verdict"]) == ("minimal_form", "FAIL")
        assert cell["reasons"] == ["minimal_form evidence has no diagnostic_code"]
    assert cells(document, "C4")["quiet"]["verdict"] == "PASS"
    assert document["summary"]["pass_pairs"] == ["C4"]


def test_non_pass_duel_verdicts_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = with_tiers(checkout(tmp_path / "repo", shipped_cases=False))
    through = tutorial_case(
        counterexample_id="through",
        given_snapshot__remaining_quota=100,
        given_snapshot__max_replicas=100,
    )  # expects QUOTA_EXCEEDED_AFTER_CLAMP, nothing fires: the duel FAILs it
    write_case(root / "cases", "a.json", through)
    mismatched = tutorial_case(
        counterexample_id="mismatched", expected_failure={"diagnostic_code": "MAX_REPLICAS_REACHED"}
    )  # a different code fires: the duel DEFERs it
    write_case(root / "cases", "b.json", mismatched)
    assert matrix(root, monkeypatch).exit_code == 1
    document = output(root)
    assert document["summary"]["signal"] == "uniform_fail"
    for pair_id in ("C1", "C2", "C3", "C4"):
        found = cells(document, pair_id)
        assert found["through"]["verdict"] == "FAIL"
        assert found["through"]["reasons"] == [
            "diagnostic_code: expected QUOTA_EXCEEDED_AFTER_CLAMP, got none",
            "allowed_delta=24 exceeds upper_bound=3",
        ]
        assert found["mismatched"]["verdict"] == "DEFERRED"
        assert found["mismatched"]["reasons"] == [
            "diagnostic_code: expected MAX_REPLICAS_REACHED, got QUOTA_EXCEEDED_AFTER_CLAMP"
        ]


def test_extended_form_with_a_violated_invariant_fails(tmp_path: Path) -> None:
    # A spec whose halted action still executes violates invariants; an extended_form shows it.
    text = (REPO / "specs" / "autoscale_spec.yaml").read_text(encoding="utf-8")
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(text.replace('"0 if halted else allowed_delta"', '"requested_delta"'))
    spec = load_spec(spec_path, "spec.yaml")
    case_path = write_case(tmp_path, "c.json", tutorial_case())
    result = judge_case(spec, CaseChecker(spec).load(case_path, "c.json"))
    evidence = produce_evidence(result, EvidenceFormat.EXTENDED_FORM)
    assert evidence["evidence_by_invariant"][0] == {
        "statement": "target_replicas <= max_replicas",
        "status": "violated",
        "actual": {"target_replicas": 36, "max_replicas": 15},
    }
    frontier = Tier("frontier-reviewer", EvidenceFormat.EXTENDED_FORM, tuple(EvidenceFormat))
    assert verify(evidence, frontier) == (
        CaseVerdict.FAIL,
        [
            "extended_form evidence has a violated invariant: target_replicas <= max_replicas",
            "extended_form evidence has a violated invariant: "
            "executed_delta <= remaining_quota / pod_cpu",
        ],
    )
    minimal = produce_evidence(result, EvidenceFormat.MINIMAL_FORM)
    assert minimal == {
        "evidence_format": "minimal_form",
        "diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP",
        "allowed_delta": 3,
    }
    assert verify(minimal, frontier) == (CaseVerdict.PASS, [])


def test_script_matches_command_and_is_byte_identical_across_checkouts(tmp_path: Path) -> None:
    roots = [with_tiers(checkout(tmp_path / "a" / "repo")), with_tiers(checkout(tmp_path / "b"))]
    outputs = []
    for root in (*roots, roots[0]):
        command = [sys.executable, str(REPO / "scripts" / "matrix.py"), "--spec"]
        command += ["specs/autoscale_spec.yaml", "--cases", "cases/", "--tiers"]
        command += ["matrix/tiers.json", "--out", "out/matrix.json"]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
        assert done.returncode == 1, done.stderr  # tier_dependent_spec
        outputs.append(((root / "out" / "matrix.json").read_bytes(), done.stderr))
    assert outputs[0] == outputs[1] == outputs[2]
