"""R-1, T-6 on real git repositories: a judgment is recorded when git tracks it or it lies under
judgments/ or capstone/ (out/, stamped run dirs and .tribunal/ are scratch); no command rewrites
a recorded judgment — a byte-identical re-run is fine, anything else is exit 2 naming --to — and
`judgment record` never files the same judgment twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.disputes import make_dispute, vote
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.records.filing import is_recorded

NEW = ("judgment", "new", "--reason", "manual:x", "--evidence-ref", "cases/a.json")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    git = GitRepo(tmp_path / "repo")
    git.commit("base", {"cases/a.json": "{}\n"})
    monkeypatch.chdir(git.path)
    return git


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def new(verdict: str, to: str) -> Result:
    return invoke(*NEW, "--verdict", verdict, "--to", to)


def snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


@pytest.mark.parametrize(
    ("where", "recorded"),
    [
        ("notes/judgment.md", "tracked by git"),
        ("judgments/a.judgment.md", "under judgments/"),
        ("capstone/judgment.md", "under capstone/"),
        ("out/judgment.md", None),  # scratch, even committed
        (".tribunal/judgment.md", None),
        ("runs/blind/judgment.md", None),  # a stamped run dir, even committed
        ("drafts/judgment.md", None),  # neither tracked nor under a record dir
    ],
)
def test_which_judgments_are_recorded(repo: GitRepo, where: str, recorded: str | None) -> None:
    assert new("APPROVE", where).exit_code == 0
    repo.write("runs/blind/.tribunal-stamp", '{"tool": "tribunal", "run_id": "r1"}\n')
    if where != "drafts/judgment.md":
        repo.git("add", "-f", where, "runs/blind/.tribunal-stamp")
        repo.commit("record")
    assert is_recorded(repo.path / where, repo.path) == recorded
    before = snapshot(repo.path / where)
    # The same bytes again: fine, and nothing is written.
    assert new("APPROVE", where).exit_code == 0
    assert snapshot(repo.path / where) == before
    changed = new("DENY", where)
    if recorded is None:
        assert changed.exit_code == 0, changed.output  # scratch: its command overwrites it
        assert "verdict: DENY" in (repo.path / where).read_text(encoding="utf-8")
    else:
        assert changed.exit_code == 2
        assert changed.stderr == (
            f"tribunal: error: {where}: --to: is a recorded judgment ({recorded}), which no "
            "command rewrites, and this run would change it; give --to a scratch path (out/...) "
            "and file the result with `tribunal judgment record`\n"
        )
        assert snapshot(repo.path / where) == before


def test_arbitrate_never_rewrites_its_own_judgment_once_committed(repo: GitRepo) -> None:
    directory = make_dispute(repo.path)
    for role, verdict in (("verifier", "APPROVE"), ("implementor", "APPROVE")):
        vote(directory, 1, role, verdict)
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 0
    judgment = directory / "judgment.md"
    assert not is_recorded(judgment, repo.path)  # its own output, not yet recorded
    vote(directory, 1, "safety", "APPROVE")
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 0  # rewritten: scratch
    repo.commit("record the dispute and its judgment")
    assert is_recorded(judgment, repo.path) == "tracked by git"
    recorded = snapshot(judgment)
    trace = snapshot(directory / "decision_trace.json")
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 0  # the same bytes: fine
    assert snapshot(judgment) == recorded
    vote(directory, 1, "implementor", "DENY")
    vote(directory, 1, "safety", "DENY")
    changed = invoke("arbitrate", "disputes/rate-limit")
    assert changed.exit_code == 2
    assert changed.stderr.startswith(
        "tribunal: error: disputes/rate-limit/decision_trace.json: --to: is a recorded "
        "judgment (tracked by git), which no command rewrites"
    ), changed.stderr
    assert snapshot(judgment) == recorded and snapshot(directory / "decision_trace.json") == trace
    elsewhere = invoke("arbitrate", "disputes/rate-limit", "--to", "out/judgment.md")
    assert elsewhere.exit_code == 1, elsewhere.output
    assert "verdict: DENY" in (repo.path / "out/judgment.md").read_text(encoding="utf-8")


def test_recording_the_same_judgment_twice_files_it_once(repo: GitRepo) -> None:
    assert new("APPROVE", "out/judgment.md").exit_code == 0
    first = invoke("judgment", "record", "out/judgment.md")
    assert (first.exit_code, first.stdout, first.stderr) == (
        0, "judgments/manual-x.judgment.md\n", ""
    )  # fmt: skip
    filed = repo.path / "judgments" / "manual-x.judgment.md"
    before = snapshot(filed)
    again = invoke("judgment", "record", "out/judgment.md")
    assert (again.exit_code, again.stdout) == (0, "judgments/manual-x.judgment.md\n")
    assert again.stderr == "judgment: already filed; nothing written\n"
    assert sorted(path.name for path in filed.parent.iterdir()) == ["manual-x.judgment.md"]
    assert snapshot(filed) == before
    # Another judgment of the same stem is filed beside it, and recognised in turn.
    assert new("DENY", "out/judgment.md").exit_code == 0
    other = invoke("judgment", "record", "out/judgment.md")
    assert other.stdout == "judgments/manual-x-2.judgment.md\n" and other.stderr == ""
    assert invoke("judgment", "record", "out/judgment.md").stdout == other.stdout
    assert sorted(path.name for path in filed.parent.iterdir()) == [
        "manual-x-2.judgment.md",
        "manual-x.judgment.md",
    ]
