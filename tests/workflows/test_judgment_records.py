"""T-6: `judgment --check`, `judgment record`, `judgment new`, and the body templates."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.judgment_repos import make_repo, result

from tribunal.cli import cli
from tribunal.frontmatter import parse_judgment, render_judgment
from tribunal.records.filing import file_judgment, judgment_stem


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def repo_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "metrics").mkdir()
    (root / "metrics" / "m.json").write_text('{"silent_p0_ratio": 0}\n', encoding="utf-8")
    (root / "cases").mkdir()
    (root / "cases" / "a.json").write_text("{\n}\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def write_judgment(path: Path, **fields: Any) -> Path:
    base: dict[str, Any] = {
        "verdict": "APPROVE",
        "reason": "clean",
        "evidence_ref": ["cases/a.json"],
    }
    base.update(fields)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_judgment(base, "# Judgment\n"), encoding="utf-8")
    return path


# --- --check --------------------------------------------------------------------------------


@pytest.mark.parametrize(("verdict", "code"), [("APPROVE", 0), ("DENY", 1), ("DEFERRED", 3)])
def test_check_exits_by_verdict(repo_root: Path, verdict: str, code: int) -> None:
    write_judgment(repo_root / "j.md", verdict=verdict)
    before = sorted(p.name for p in repo_root.iterdir())
    outcome = invoke("judgment", "--check", "j.md")
    assert outcome.exit_code == code
    assert outcome.stderr == f"j.md: {verdict} clean\n"
    assert sorted(p.name for p in repo_root.iterdir()) == before  # writes nothing


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("cases/missing.json", "tribunal: error: j.md:6: evidence_ref[1]: cases/missing.json: no"),
        ("metrics/m.json#/nope", "tribunal: error: j.md:6: evidence_ref[1]: metrics/m.json#/nope"),
        ("cases/a.json:9", "tribunal: error: j.md:6: evidence_ref[1]: cases/a.json:9: line 9"),
        ("../outside.json", "tribunal: error: j.md:6: evidence_ref[1]: ../outside.json: escapes"),
    ],
)
def test_check_broken_ref_is_bad_input(repo_root: Path, ref: str, message: str) -> None:
    write_judgment(repo_root / "j.md", evidence_ref=["metrics/m.json#/silent_p0_ratio", ref])
    outcome = invoke("judgment", "--check", "j.md")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(message) and outcome.stderr.count("\n") == 1


def test_check_single_string_ref_and_schema_errors(repo_root: Path) -> None:
    write_judgment(repo_root / "ok.md", evidence_ref="cases/a.json:2")
    assert invoke("judgment", "--check", "ok.md").exit_code == 0
    (repo_root / "bad.md").write_text("---\nverdict: DENY\nreason: clean\n---\n", "utf-8")
    outcome = invoke("judgment", "--check", "bad.md")
    assert outcome.exit_code == 2 and "'evidence_ref' is required" in outcome.stderr
    assert invoke("judgment", "--check", "absent.md").exit_code == 2


# --- record ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "stem"),
    [
        ({"session_id": "tribunal-2026-05-18", "spec_id": "autoscale_v1"}, "tribunal-2026-05-18-"
         "autoscale_v1"),
        ({"session_id": "s1", "run_id": "run-7"}, "run-7"),
        ({"spec_id": "autoscale_v1"}, "clean"),
        ({"reason": "violates_invariant:silent_p0_ratio"}, "violates_invariant-silent_p0_ratio"),
        ({"run_id": "../../etc/x y"}, "etc-x-y"),
    ],
)  # fmt: skip
def test_record_stem(fields: dict[str, Any], stem: str) -> None:
    assert judgment_stem({"reason": "clean", **fields}) == stem


def test_record_files_with_numeric_suffix_and_never_overwrites(repo_root: Path) -> None:
    source = write_judgment(
        repo_root / "out" / "judgment.md", session_id="tribunal-2026-05-18", spec_id="autoscale_v1"
    )
    first = invoke("judgment", "record", "out/judgment.md")
    assert first.exit_code == 0
    assert first.stdout == "judgments/tribunal-2026-05-18-autoscale_v1.judgment.md\n"
    filed = repo_root / "judgments" / "tribunal-2026-05-18-autoscale_v1.judgment.md"
    assert filed.read_bytes() == source.read_bytes()
    original = filed.read_bytes()
    write_judgment(source, verdict="DENY", session_id="tribunal-2026-05-18", spec_id="autoscale_v1")
    second = invoke("judgment", "record", "out/judgment.md")
    assert second.stdout == "judgments/tribunal-2026-05-18-autoscale_v1-2.judgment.md\n"
    assert filed.read_bytes() == original  # a recorded judgment is never rewritten
    third = invoke("judgment", "record", "out/judgment.md", "--dir", "capstone")
    assert third.stdout == "capstone/tribunal-2026-05-18-autoscale_v1.judgment.md\n"
    assert not [p for p in (repo_root / "judgments").iterdir() if p.name.endswith(".tmp")]


def test_record_refuses_an_invalid_judgment(repo_root: Path) -> None:
    write_judgment(repo_root / "j.md", evidence_ref=["cases/gone.json"])
    outcome = invoke("judgment", "record", "j.md")
    assert outcome.exit_code == 2 and "cases/gone.json" in outcome.stderr
    assert not (repo_root / "judgments").exists()


def test_file_judgment_skips_a_name_taken_meanwhile(tmp_path: Path) -> None:
    (tmp_path / "x.judgment.md").write_text("taken", encoding="utf-8")
    (tmp_path / "x-2.judgment.md").write_text("taken too", encoding="utf-8")
    filed = file_judgment("new\n", tmp_path, "x")
    path = filed.path
    assert path.name == "x-3.judgment.md" and path.read_text(encoding="utf-8") == "new\n"
    assert not filed.already
    assert (tmp_path / "x.judgment.md").read_text(encoding="utf-8") == "taken"
    assert sorted(os.listdir(tmp_path)) == ["x-2.judgment.md", "x-3.judgment.md", "x.judgment.md"]


# --- new ------------------------------------------------------------------------------------


def test_new_writes_a_hand_made_judgment_that_checks(repo_root: Path) -> None:
    outcome = invoke(
        "judgment", "new", "--verdict", "DEFERRED",
        "--reason", "manual:stateful_without_backup",
        "--evidence-ref", "metrics/m.json#/silent_p0_ratio",
        "--reason-text", "readiness passes by score, but stateful blocker has no backup evidence",
        "--next-step", "add backup_verified evidence or keep remediation manual",
        "--to", "capstone/judgment.md",
    )  # fmt: skip
    assert outcome.exit_code == 0, outcome.output
    text = (repo_root / "capstone" / "judgment.md").read_text(encoding="utf-8")
    parsed = parse_judgment(text, "j")
    assert parsed.fields == {
        "verdict": "DEFERRED",
        "reason": "manual:stateful_without_backup",
        "evidence_ref": "metrics/m.json#/silent_p0_ratio",
        "reason_text": "readiness passes by score, but stateful blocker has no backup evidence",
        "next_step": "add backup_verified evidence or keep remediation manual",
    }
    assert "readiness passes by score" in parsed.body
    assert invoke("judgment", "--check", "capstone/judgment.md").exit_code == 3


def test_new_with_several_refs_writes_a_list(repo_root: Path) -> None:
    args = ["--evidence-ref", "cases/a.json", "--evidence-ref", "metrics/m.json"]
    outcome = invoke("judgment", "new", "--verdict", "DENY", "--reason",
                     "violates_invariant:silent_p0_ratio", *args, "--to", "j.md")  # fmt: skip
    assert outcome.exit_code == 0
    fields = parse_judgment((repo_root / "j.md").read_text("utf-8"), "j").fields
    assert fields["evidence_ref"] == ["cases/a.json", "metrics/m.json"]


@pytest.mark.parametrize(
    ("reason", "ref", "message"),
    [
        ("manual:ok", "cases/missing.json", "cases/missing.json: no such file"),
        ("manual:ok", "/etc/passwd", "absolute path"),
        ("because I said so", "cases/a.json", "neither a reason code"),
        ("manual:Not A Slug", "cases/a.json", "neither a reason code"),
        ("violates_invariant", "cases/a.json", "neither a reason code"),
    ],
)
def test_new_refuses_bad_refs_and_reasons(
    repo_root: Path, reason: str, ref: str, message: str
) -> None:
    outcome = invoke("judgment", "new", "--verdict", "DENY", "--reason", reason,
                     "--evidence-ref", ref, "--to", "out/j.md")  # fmt: skip
    assert outcome.exit_code == 2 and message in outcome.stderr
    assert outcome.stderr.count("\n") == 1
    assert not (repo_root / "out").exists()


# --- templates ------------------------------------------------------------------------------


def test_repository_templates_equal_the_packaged_defaults() -> None:
    top = REPO / "templates"
    packaged = REPO / "src" / "tribunal" / "templates"
    names = sorted(p.name for p in top.glob("*.j2"))
    assert names == sorted(p.name for p in packaged.glob("*.j2"))
    assert names, "templates/ holds the judgment bodies"
    _, mismatch, errors = filecmp.cmpfiles(top, packaged, names, shallow=False)
    assert (mismatch, errors) == ([], [])


def judged_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = make_repo(tmp_path / "r", [result("a_ok")])
    monkeypatch.chdir(repo.root)
    assert invoke("invariants", "--metrics", "metrics/validation_metrics.json",
                  "--out", "out/invariants.json").exit_code == 0  # fmt: skip
    return repo.root


JUDGE = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]


def test_templates_option_selects_another_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = judged_repo(tmp_path, monkeypatch)
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "judgment.md.j2").write_text("Custom: {{ verdict }} for {{ spec_id }}\n", "utf-8")
    outcome = invoke(*JUDGE, "--to", "out/j.md", "--templates", str(custom))
    assert outcome.exit_code == 0, outcome.output
    parsed = parse_judgment((root / "out" / "j.md").read_text("utf-8"), "j")
    assert parsed.body == "Custom: APPROVE for autoscale_v1\n"
    assert parsed.fields["reason"] == "clean"  # front matter is not the template's business


def test_templates_are_not_picked_up_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = judged_repo(tmp_path, monkeypatch)
    (root / "templates").mkdir()
    (root / "templates" / "judgment.md.j2").write_text("hijacked\n", "utf-8")
    assert invoke(*JUDGE, "--to", "out/j.md").exit_code == 0
    assert "## Round 1" in (root / "out" / "j.md").read_text("utf-8")


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ no_such_variable }}\n", "unknown variable"),
        ("{% if %}\n", "template syntax"),
    ],
)
def test_bad_template_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str, message: str
) -> None:
    root = judged_repo(tmp_path, monkeypatch)
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "judgment.md.j2").write_text(template, "utf-8")
    outcome = invoke(*JUDGE, "--to", "out/j.md", "--templates", str(custom))
    assert outcome.exit_code == 2 and message in outcome.stderr
    assert not (root / "out" / "j.md").exists()


def test_missing_templates_dir_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = judged_repo(tmp_path, monkeypatch)
    outcome = invoke(*JUDGE, "--to", "out/j.md", "--templates", str(tmp_path / "nope"))
    assert outcome.exit_code == 2
    assert not (root / "out" / "j.md").exists()


def test_writers_never_rewrite_a_recorded_judgment(repo_root: Path) -> None:
    recorded = write_judgment(repo_root / "capstone" / "judgment.md")
    before = recorded.read_bytes()
    args = ["--verdict", "DENY", "--reason", "manual:x", "--evidence-ref", "cases/a.json"]
    outcome = invoke("judgment", "new", *args, "--to", "capstone/judgment.md")
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(
        "tribunal: error: capstone/judgment.md: --to: is a recorded judgment (under capstone/)"
    )
    assert recorded.read_bytes() == before
    # scratch files under out/ are overwritten by the commands that own them (T-1)
    for _ in range(2):
        assert invoke("judgment", "new", *args, "--to", "out/judgment.md").exit_code == 0


def test_check_resolves_a_run_dir_judgment_relative_to_its_own_dir(tmp_path: Path) -> None:
    """R-6, B-1: a convening's judgment cites files of its run dir (`summary.json`), which
    `judgment --check` resolves from that dir, as `records check` does."""
    (tmp_path / ".git").mkdir()
    run = tmp_path / "out" / "blind"
    run.mkdir(parents=True)
    (run / ".tribunal-stamp").write_text('{"tool": "tribunal", "run_id": "abc"}\n')
    (run / "summary.json").write_text('{"outcome": "LAND"}\n')
    judgment = run / "judgment.md"
    judgment.write_text(
        "---\nverdict: APPROVE\nreason: outcome:land\nevidence_ref:\n- summary.json#/outcome\n"
        "court: blind\n---\n# Judgment\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "tribunal", "judgment", "--check", "out/blind/judgment.md"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
