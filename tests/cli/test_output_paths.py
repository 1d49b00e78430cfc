"""C-2, C-3: an output path that cannot be written is bad usage (exit 2), never an internal error.

Every output of the tutorial commands goes through `tribunal.outputs`; here each is given a
path under a regular file (`afile/...`), which the operating system refuses.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing import REPO

from tribunal.cli import cli

DUEL = [
    "duel",
    "--spec",
    "specs/autoscale_spec.yaml",
    "--cases",
    "cases/",
    "--out",
    "out/duel.json",
]
INVARIANTS = ["invariants", "--metrics", "metrics/validation_metrics.json"]
JUDGMENT = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]
NEW = [
    "judgment", "new", "--verdict", "DEFERRED", "--reason", "manual:no_backup",
    "--evidence-ref", "fixtures/readiness_block_stateful.json",
]  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name in ("specs", "cases", "metrics", "fixtures"):
        shutil.copytree(REPO / name, root / name)
    (root / "afile").write_text("a regular file, not a directory\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(result: Result, path: str, option: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        f"tribunal: error: {path}: {option}: cannot write: "
        "a parent of this path is a file, not a directory"
    )


def test_invariants_out(repo: Path) -> None:
    refused(run(*INVARIANTS, "--out", "afile/i.json"), "afile/i.json", "--out")


def test_judgment_to(repo: Path) -> None:
    assert run(*DUEL).exit_code == 0
    assert run(*INVARIANTS, "--out", "out/invariants.json").exit_code == 0
    refused(run(*JUDGMENT, "--to", "afile/j.md"), "afile/j.md", "--to")


def test_judgment_new_to(repo: Path) -> None:
    refused(run(*NEW, "--to", "afile/j.md"), "afile/j.md", "--to")


def test_judgment_record_dir(repo: Path) -> None:
    assert run(*NEW, "--to", "out/judgment.md").exit_code == 0
    result = run("judgment", "record", "out/judgment.md", "--dir", "afile/judgments")
    refused(result, "afile/judgments", "--dir")
    assert not list(repo.glob("afile*/**/*.judgment.md"))


def test_readiness_out(repo: Path) -> None:
    result = run("readiness", "fixtures/readiness_block_stateful.json", "--out", "afile/r.json")
    refused(result, "afile/r.json", "--out")
