"""B-4, B-5, L-7: tribunal's own worktrees on real repositories — named after the run that owns
them, locked by their owner (a real process), pruned only once abandoned, and never by a
repository-wide `git worktree prune`."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from testing.gitrepo import GitRepo
from testing.proof_projects import alive

from tribunal.worktrees import OWNER_LOCK, Pruned, WorktreeHolder, owner_of, prune_abandoned

# A process that makes one tribunal worktree of HEAD and then sits in it until killed.
OWNER = """
import sys, time
from tribunal.worktrees import WorktreeHolder
holder = WorktreeHolder(sys.argv[1], sys.argv[2])
print(holder.add("red", "HEAD"), flush=True)
time.sleep(120)
"""


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    git = GitRepo(tmp_path / "repo")
    git.commit("one", {"a.txt": "a\n"})
    return git


def registered(repo: GitRepo) -> list[str]:
    listing = repo.git("worktree", "list", "--porcelain")
    return [line.removeprefix("worktree ") for line in listing.splitlines() if "worktree " in line]


@contextmanager
def owner_process(repo: GitRepo, owner: str) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """A real process holding a tribunal worktree of `repo` for the run `owner`."""
    process = subprocess.Popen(
        [sys.executable, "-c", OWNER, str(repo.path), owner], stdout=subprocess.PIPE, text=True
    )
    tree: Path | None = None
    try:
        assert process.stdout is not None
        tree = Path(process.stdout.readline().strip())
        yield process, tree
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
        if tree is not None and tree.parent.name.startswith(f"tribunal-{owner}-"):
            shutil.rmtree(tree.parent, ignore_errors=True)  # a killed owner leaves its holder


def test_a_worktree_carries_its_run_id_and_its_owner_holds_the_lock(repo: GitRepo) -> None:
    with WorktreeHolder(repo.path, "run42") as holder:
        tree = holder.add("red", "HEAD")
        assert tree.name == "tribunal-run42.red" and owner_of(tree) == "run42"
        assert holder.path.name.startswith("tribunal-run42-")
        assert (tree / "a.txt").read_text() == "a\n"
        assert str(tree) in registered(repo)
        # Another process cannot take the owner lock while this one holds it.
        taken = subprocess.run(
            [
                sys.executable, "-c",
                "import sys, filelock; filelock.FileLock(sys.argv[1], timeout=0).acquire()",
                str(holder.path / OWNER_LOCK),
            ],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert taken.returncode != 0 and "Timeout" in taken.stderr
        assert prune_abandoned(repo.path) == []  # its owner is alive: never touched
        assert tree.is_dir()
    assert registered(repo) == [str(repo.path)]
    assert not holder.path.exists()


def test_only_abandoned_tribunal_worktrees_are_pruned(repo: GitRepo, tmp_path: Path) -> None:
    # The user's own worktrees: one live, one whose directory is gone (a stale registration
    # that `git worktree prune` would drop), one that merely looks like ours.
    repo.git("worktree", "add", "-q", "--detach", str(tmp_path / "mine"))
    repo.git("worktree", "add", "-q", "--detach", str(tmp_path / "gone"))
    (tmp_path / "gone" / "a.txt").unlink()
    (tmp_path / "gone" / ".git").unlink()
    (tmp_path / "gone").rmdir()
    lookalike = tmp_path / "tribunal-x.red"
    repo.git("worktree", "add", "-q", "--detach", str(lookalike))
    with (
        owner_process(repo, "dead1") as (dead, dead_tree),
        owner_process(repo, "live1") as (
            _,
            live_tree,
        ),
    ):
        os.kill(dead.pid, signal.SIGKILL)
        dead.wait()
        assert not alive(dead.pid)
        assert str(dead_tree) in registered(repo)  # a kill -9 leaves it registered
        pruned = prune_abandoned(repo.path)
        assert pruned == [Pruned(dead_tree, "dead1")]
        assert not dead_tree.parent.exists()  # its holder directory too
        left = registered(repo)
        assert str(dead_tree) not in left
        assert str(live_tree) in left and live_tree.is_dir()  # a live owner's: untouched
        assert str(tmp_path / "gone") in left and str(tmp_path / "mine") in left
        assert str(lookalike) in left and lookalike.is_dir()


def test_a_holder_cleaned_from_tmp_leaves_a_registration_that_is_pruned(repo: GitRepo) -> None:
    with owner_process(repo, "dead2") as (dead, tree):
        os.kill(dead.pid, signal.SIGKILL)
        dead.wait()
        subprocess.run(["rm", "-rf", str(tree.parent)], check=True)  # e.g. tmp cleaned at boot
        assert prune_abandoned(repo.path) == [Pruned(tree, "dead2")]
    assert registered(repo) == [str(repo.path)]


def test_closing_removes_a_worktree_its_user_broke_and_nothing_else(
    repo: GitRepo, tmp_path: Path
) -> None:
    repo.git("worktree", "add", "-q", "--detach", str(tmp_path / "gone"))
    subprocess.run(["rm", "-rf", str(tmp_path / "gone")], check=True)
    holder = WorktreeHolder(repo.path)
    tree = holder.add("seat", "HEAD")
    (tree / ".git").unlink()  # a harness broke its worktree's link to the repository
    holder.close()
    holder.close()  # twice is fine
    assert registered(repo) == [str(repo.path), str(tmp_path / "gone")]
    assert not holder.path.exists()
