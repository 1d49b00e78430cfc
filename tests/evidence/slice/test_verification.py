"""P-5: tribunal runs every verification command itself, at head, in a temporary worktree, under
the cap — a failure is recorded, the cap or a signal makes the run unclean."""

from __future__ import annotations

import subprocess
from pathlib import Path

from testing.gitrepo import GitRepo

from tribunal.evidence.slice.verification import OUTPUT_TAIL_BYTES, run_verification


def repo_with_head(tmp_path: Path) -> tuple[GitRepo, str]:
    repo = GitRepo(tmp_path / "repo")
    repo.commit("base", {"limiter.py": "LIMIT = 9\n"})
    head = repo.commit("fix", {"limiter.py": "LIMIT = 10\n"})
    repo.write("limiter.py", "LIMIT = 'uncommitted'\n")  # never what is verified
    return repo, head


def test_commands_run_at_head_in_a_worktree_that_is_removed(tmp_path: Path) -> None:
    repo, head = repo_with_head(tmp_path)
    commands = [
        "{python} -c \"import limiter; print('limit', limiter.LIMIT)\"",
        "{python} -c 'import sys; sys.exit(3)'",
    ]
    verification = run_verification(repo.path, head, commands, timeout_s=30)
    passed, failed = verification.runs
    assert (passed.exit_code, passed.failed, passed.output) == (0, False, "limit 10\n")
    assert (failed.exit_code, failed.failed, failed.invalid) == (3, True, None)
    assert verification.failed == (failed,) and verification.invalid is None
    assert verification.output_of(commands[0]) == "limit 10\n"
    assert verification.to_dict()["commands"][0] == {
        "command": commands[0], "exit_code": 0, "ok": True, "invalid": None, "output": "limit 10\n"
    }  # fmt: skip
    worktrees = repo.git("worktree", "list", "--porcelain").count("worktree ")
    assert worktrees == 1  # only the repository's own


def test_the_cap_and_a_signal_make_a_run_unclean(tmp_path: Path) -> None:
    repo, head = repo_with_head(tmp_path)
    commands = ["sleep 30", "kill -TERM $$"]
    verification = run_verification(repo.path, head, commands, timeout_s=1)
    capped, signalled = verification.runs
    assert capped.exit_code is None and "timeout_s cap of 1 s" in str(capped.invalid)
    assert signalled.exit_code is None and "SIGTERM" in str(signalled.invalid)
    assert not capped.failed and not signalled.failed
    assert verification.invalid is not None and verification.invalid.startswith("sleep 30:")


def test_the_output_tail_is_the_last_8_kb(tmp_path: Path) -> None:
    repo, head = repo_with_head(tmp_path)
    command = "{python} -c \"print('x' * 20000 + 'END')\""
    (run,) = run_verification(repo.path, head, [command], timeout_s=30).runs
    assert len(run.output.encode()) == OUTPUT_TAIL_BYTES and run.output.endswith("END\n")


def test_no_command_no_worktree(tmp_path: Path) -> None:
    repo, head = repo_with_head(tmp_path)
    assert run_verification(repo.path, head, [], timeout_s=1).runs == ()
    listed = subprocess.run(
        ["git", "worktree", "list"], cwd=repo.path, capture_output=True, text=True, check=True
    )
    assert len(listed.stdout.splitlines()) == 1
