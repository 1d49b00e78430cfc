"""Tribunal's own git worktrees — the proofs' (B-4) and the harness seats' (L-7) — named after the
run that owns them, locked by their owner while they live, and pruned only once abandoned.

- Every worktree lives in a holder directory of its own, `<tmp>/tribunal-<owner>-<random>/`, and
  is named `tribunal-<owner>.<role>` (the owner is the convening's run_id), so git registers it
  under a name that says whose it is.
- The holder's `owner.lock` is an exclusive file lock, taken before the first worktree is added
  and released only after the last one is removed. A lock dies with its process: a convening
  killed with -9 leaves its worktrees registered, and their lock free to take.
- `prune_abandoned` removes the tribunal-named worktrees of a repository whose owner is gone:
  their holder directory no longer exists, or its lock can be taken. A worktree whose lock is
  held — a concurrent convening's — is never touched; one without an owner lock, or not named
  by tribunal, is not ours and is left alone.
- Worktrees are removed one by one, never by `git worktree prune`, which would also drop the
  stale registrations of the user's own worktrees.

Hooks are switched off for every checkout made here: a worktree must not run repository code.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.errors import NotFinished

OWNER_LOCK = "owner.lock"
_PREFIX = "tribunal-"
_OWNER = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")  # a run_id (B-5)
_ROLE = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")
_NAME = re.compile(r"tribunal-(?P<owner>[A-Za-z0-9_-]{1,64})\.(?P<role>[a-z][a-z0-9_-]{0,31})\Z")
_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
_OWNER_BYTES = 8


def worktree_name(owner: str, role: str) -> str:
    """`tribunal-<owner>.<role>`: the name of a worktree `owner` made for `role`. Raises
    ValueError for an owner that is not a run id or a role that is not a short lowercase word."""
    if not _OWNER.match(owner) or not _ROLE.match(role):
        raise ValueError(f"not a worktree owner and role: {owner!r}, {role!r}")
    return f"{_PREFIX}{owner}.{role}"


def owner_of(tree: Path) -> str | None:
    """The owner (run_id) a tribunal-named worktree path carries, or None when it is not one."""
    match = _NAME.match(Path(tree).name)
    return match["owner"] if match else None


@dataclass(frozen=True)
class Pruned:
    """One abandoned worktree removed: its path and the run that had made it."""

    path: Path
    owner: str


class WorktreeHolder:
    """The worktrees one owner keeps in one repository: a temporary holder directory whose
    `owner.lock` this process holds until `close()`. Safe to close from any thread, twice."""

    def __init__(self, repo: Path, owner: str | None = None, *, label: str | None = None) -> None:
        from filelock import FileLock

        self.repo = Path(repo)
        self.owner = owner if owner is not None else secrets.token_hex(_OWNER_BYTES)
        worktree_name(self.owner, "check")  # ValueError now, not after a directory is made
        self.label = label if label is not None else str(repo)
        self.path = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{self.owner}-"))
        self._lock = FileLock(str(self.path / OWNER_LOCK), timeout=0, thread_local=False)
        try:
            self._lock.acquire()  # a fresh directory: nobody else can hold it
        except BaseException:
            shutil.rmtree(self.path, ignore_errors=True)
            raise
        self._trees: list[Path] = []
        self._guard = threading.Lock()
        self._closed = False

    def add(self, role: str, commit: str) -> Path:
        """A fresh detached worktree of `commit` named for `role`; returns its path. Raises
        NotFinished when git cannot add it (or the holder was closed meanwhile)."""
        tree = self.path / worktree_name(self.owner, role)
        with self._guard:
            if self._closed:
                raise NotFinished(f"{self.label}: the worktrees of run {self.owner} were removed")
            # Registered before it exists: whatever interrupts `add`, close() removes it.
            self._trees.append(tree)
        failed = _git(self.repo, "worktree", "add", "--detach", "--quiet", str(tree), commit)
        if failed is not None:
            raise NotFinished(f"{self.label}: git worktree failed: {failed}")
        return tree

    def close(self) -> None:
        """Remove every worktree made here, release the owner lock, delete the holder."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            trees = list(self._trees)
        for tree in trees:
            remove_worktree(self.repo, tree)
        with contextlib.suppress(OSError):
            self._lock.release()
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> WorktreeHolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def remove_worktree(repo: Path, tree: Path) -> None:
    """Remove the worktree at `tree` and its registration. A worktree its user broke (its `.git`
    link deleted) is deleted by hand first, then unregistered. Raises nothing."""
    if _git(repo, "worktree", "remove", "--force", "--force", str(tree)) is None:
        return
    shutil.rmtree(tree, ignore_errors=True)
    _git(repo, "worktree", "remove", "--force", "--force", str(tree))


def prune_abandoned(repo: Path) -> list[Pruned]:
    """Remove the tribunal-named worktrees of `repo` whose owner is gone (see the module doc).

    Returns what was removed, in the order git lists it; raises nothing (a repository git cannot
    list has nothing pruned)."""
    from filelock import FileLock, Timeout

    holders: dict[Path, list[Path]] = {}
    for tree in _registered(Path(repo)):
        if owner_of(tree) is not None:
            holders.setdefault(tree.parent, []).append(tree)
    pruned: list[Pruned] = []
    for holder, trees in holders.items():
        gone = [Pruned(tree, owner_of(tree) or "") for tree in trees]
        if not holder.exists():  # a temporary directory cleaned since: nobody works in it
            for tree in trees:
                remove_worktree(repo, tree)
            pruned += gone
            continue
        lock_file = holder / OWNER_LOCK
        if not _is_holder(holder, trees) or not lock_file.is_file():
            continue  # not a holder tribunal made, or no owner lock: not provably ours
        lock = FileLock(str(lock_file), timeout=0, thread_local=False)
        try:
            lock.acquire()
        except Timeout:
            continue  # its owner is alive
        try:
            for tree in trees:
                remove_worktree(repo, tree)
        finally:
            with contextlib.suppress(OSError):
                lock.release()
        shutil.rmtree(holder, ignore_errors=True)
        pruned += gone
    return pruned


def _is_holder(holder: Path, trees: list[Path]) -> bool:
    """True when `holder` is named like the holder of its worktrees' owner (never delete a
    directory tribunal did not make)."""
    owners = {owner_of(tree) for tree in trees}
    return len(owners) == 1 and holder.name.startswith(f"{_PREFIX}{owners.pop()}-")


def _registered(repo: Path) -> list[Path]:
    """Every worktree path git has registered for `repo` (the main one included)."""
    done = _run(repo, "worktree", "list", "--porcelain")
    if done is None or done.returncode != 0:
        return []
    lines = done.stdout.decode("utf-8", "surrogateescape").splitlines()
    return [Path(line[len("worktree ") :]) for line in lines if line.startswith("worktree ")]


def _git(repo: Path, *args: str) -> str | None:
    """Run git in `repo`, hooks off; None on success, else the first line git said."""
    done = _run(repo, *args)
    if done is None:
        return "git could not be run"
    if done.returncode == 0:
        return None
    return _first_line(done.stderr.decode("utf-8", "replace"))


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess[Any] | None:
    try:
        return subprocess.run(
            ["git", "-C", str(repo), *_NO_HOOKS, *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError:
        return None


def _first_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip().removeprefix("fatal:").strip()
        if line:
            return line
    return "no message"
