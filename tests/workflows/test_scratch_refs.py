"""T-6: no evidence_ref points at scratch output (`out/`, or the `out_dir` setting) — not in a
judgment `tribunal judgment` writes, nor in one `judgment new` writes or `judgment --check`
accepts. One check (`admit_evidence_ref`) serves all three."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tribunal.cli import cli
from tribunal.frontmatter import render_judgment


@pytest.fixture
def repo_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "cases").mkdir()
    (root / "cases" / "a.json").write_text("{\n}\n", encoding="utf-8")
    for scratch in ("out", "build/review"):
        (root / scratch).mkdir(parents=True)
        (root / scratch / "duel.json").write_text('{"total": 1}\n', encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def new(ref: str) -> Result:
    return invoke("judgment", "new", "--verdict", "DENY", "--reason", "manual:x",
                  "--evidence-ref", "cases/a.json", "--evidence-ref", ref,
                  "--to", "judged/j.md")  # fmt: skip


def hand_written(root: Path, ref: str) -> None:
    fields = {"verdict": "APPROVE", "reason": "clean", "evidence_ref": ["cases/a.json", ref]}
    (root / "j.md").write_text(render_judgment(fields, "# Judgment\n"), encoding="utf-8")


@pytest.mark.parametrize("ref", ["out/duel.json", "out/duel.json#/total", "./out/duel.json"])
def test_judgment_new_refuses_a_scratch_ref(repo_root: Path, ref: str) -> None:
    outcome = new(ref)
    assert outcome.exit_code == 2
    assert outcome.stderr == (
        f"tribunal: error: --evidence-ref: evidence_ref[1]: {ref!r} points at scratch output "
        "under out/; evidence must be committed inputs\n"
    )
    assert not (repo_root / "judged").exists()


@pytest.mark.parametrize("ref", ["out/duel.json", "cases/../out/duel.json:1"])
def test_check_reports_a_scratch_ref(repo_root: Path, ref: str) -> None:
    hand_written(repo_root, ref)
    outcome = invoke("judgment", "--check", "j.md")
    assert outcome.exit_code == 2
    assert outcome.stderr == (
        f"tribunal: error: j.md:6: evidence_ref[1]: {ref!r} points at scratch output under "
        "out/; evidence must be committed inputs\n"
    )


def test_the_out_dir_setting_is_scratch_too(repo_root: Path) -> None:
    assert new("build/review/duel.json").exit_code == 0  # not scratch unless configured
    (repo_root / "tribunal.toml").write_text('out_dir = "build/review"\n', encoding="utf-8")
    outcome = new("build/review/duel.json")
    assert outcome.exit_code == 2
    assert "points at scratch output under build/review/" in outcome.stderr
    hand_written(repo_root, "build/review/duel.json")
    assert invoke("judgment", "--check", "j.md").exit_code == 2


def test_a_court_judgment_follows_its_court_rules(repo_root: Path) -> None:
    # A seated vote may cite the envelope it read (out/envelope/manifest.json); `arbitrate`
    # writes such refs into a judgment with `court: arbiter`, which --check accepts.
    fields = {"verdict": "APPROVE", "reason": "clean", "evidence_ref": ["out/duel.json"]}
    (repo_root / "j.md").write_text(
        render_judgment({**fields, "court": "arbiter"}, "# Judgment\n"), encoding="utf-8"
    )
    assert invoke("judgment", "--check", "j.md").exit_code == 0
