"""The first hour: `tribunal init` on a user's own repository, then `tribunal envelope` with the
starter contract and `tribunal convene` with the starter fleet, exactly as written — they run
without an error, say that the jurors are recorded, never LAND, and say what to do next."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.workflows.init import STARTER_NOTE

MODULE = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
FIRST_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def convene(base: str, *extra: str) -> Result:
    return run(
        "convene", "--repo", ".", "--base", base, "--contract", "contract.yaml",
        "--fleet", "fleet.yaml", "--builder", "my-builder", "--out", "out/run", *extra,
    )  # fmt: skip


@pytest.fixture
def users_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """A repository of the user's own: a module, and in a second commit a change with its first
    test; `tribunal init` run in it afterwards, its files not committed."""
    repo = GitRepo(tmp_path / "mine")
    repo.commit("a module", {"calc.py": MODULE})
    repo.commit(
        "fix add, with the first test", {"calc.py": FIXED, "tests/test_calc.py": FIRST_TEST}
    )
    monkeypatch.chdir(repo.path)
    initialised = run("init")
    assert initialised.exit_code == 0, initialised.output
    assert initialised.stdout.splitlines()[-1] == STARTER_NOTE
    return repo


def test_the_starter_layout_runs_on_a_users_repository_and_says_what_it_is(
    users_repo: GitRepo,
) -> None:
    envelope = run(
        "envelope", "--repo", ".", "--base", "HEAD~1", "--contract", "contract.yaml",
        "--out", "out/envelope",
    )  # fmt: skip
    assert envelope.exit_code == 0, envelope.output
    ladder = run("ladder", "--fleet", "fleet.yaml", "--builder", "my-builder")
    assert ladder.exit_code == 0, ladder.output
    assert "all 8 lenses seated" in ladder.stdout

    convened = convene("HEAD~1")
    assert convened.exit_code == 3, convened.output
    summary = json.loads((users_repo.path / "out/run/summary.json").read_text())
    assert summary["outcome"] == "HOLD"
    assert "every pass was bare (low_information)" in summary["reasons"]
    # The repository's first test: an empty baseline at base, not INVALID.
    regression = next(proof for proof in summary["proofs"] if proof["name"] == "regression")
    assert regression["ok"] is True and "an empty baseline" in regression["detail"]
    assert set(summary["recorded"]) == {seat["lens"] for seat in summary["seats"]}
    assert {seat["family"] for seat in summary["seats"]}.isdisjoint({"my-builder"})
    out = convened.stdout
    assert "recorded answers (replay, not live models)" in out
    assert "Every juror here is recorded (replay)" in out
    assert "name it as red: in contract.yaml" in out
    assert out.endswith("run dir: out/run\njudgment: out/run/judgment.md\n")
    judgment = (users_repo.path / "out/run/judgment.md").read_text()
    assert "## What to do next" in judgment and "Every juror here is recorded" in judgment


def test_with_red_named_every_proof_holds_and_the_recorded_jury_still_cannot_land(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo(tmp_path / "mine")
    repo.commit("a module", {"calc.py": MODULE})
    red = repo.commit("the first test, red", {"tests/test_calc.py": FIRST_TEST})
    repo.commit("fix add", {"calc.py": FIXED})
    monkeypatch.chdir(repo.path)
    assert run("init").exit_code == 0
    contract = yaml.safe_load((repo.path / "contract.yaml").read_text())
    contract["red"] = red
    (repo.path / "contract.yaml").write_text(yaml.safe_dump(contract))

    convened = convene("HEAD~2")
    assert convened.exit_code == 3, convened.output
    summary = json.loads((repo.path / "out/run/summary.json").read_text())
    assert {proof["name"]: proof["ok"] for proof in summary["proofs"]} == dict.fromkeys(
        ("red_first", "tests_unchanged", "green", "regression", "fake_green"), True
    )
    assert (summary["outcome"], summary["reasons"]) == (
        "HOLD",
        ["every pass was bare (low_information)"],
    )


def test_the_starter_jury_never_lands_even_when_the_contract_is_part_of_the_change(
    users_repo: GitRepo,
) -> None:
    # The starter files committed with the change: the contract is shown as the review
    # contract, never as a file of the change, so its citations make no pass non-bare.
    users_repo.commit("the starter layout")
    convened = convene("HEAD~2", "--no-proofs")
    assert convened.exit_code == 3, convened.output
    summary = json.loads((users_repo.path / "out/run/summary.json").read_text())
    assert summary["outcome"] == "HOLD"
    assert all(seat["low_information"] for seat in summary["seats"])
