"""A separate, detached worktree of one commit for a harness juror (L-7), hashed before and after.

Nothing else may write into the tribunal's checkout while it sits (source 000): a harness runs in
its own worktree of `head`, in a temporary directory, and every byte of that worktree is hashed
before and after. Any change — a file edited, added, removed, re-moded, or HEAD moved — annuls
the verdict (L-6 `annulled`), naming the changed paths. The worktree is always removed: when the
seat ends, or — for a seat a Ctrl-C abandoned — when the sitting is abandoned (`Sitting`), which
also ends the harness's process group (it runs in a session of its own, out of Ctrl-C's reach).
Its name carries the convening's run_id and its owner lock (`tribunal.worktrees`). GitPython is
imported inside the functions (C-1).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import BadInput, NotFinished
from tribunal.worktrees import WorktreeHolder

SEAT_ROLE = "seat"
ABANDONED = "the sitting was interrupted"

HEAD_ENTRY = "HEAD"  # the fingerprint also holds the commit the worktree is on


@dataclass(frozen=True)
class DetachedWorktree:
    """A worktree of `commit` at `path` (temporary; removed when its context ends)."""

    path: Path
    commit: str  # the full commit id checked out

    def fingerprint(self) -> dict[str, str]:
        """Every path under the worktree (but git's own `.git` link) with what it holds:
        `file:<x|->:<sha256>`, `link:<target>`, `dir` or `other`; plus `HEAD`: its commit."""
        import git

        try:
            with git.Repo(self.path) as linked:
                head = linked.git.rev_parse("HEAD")
        except (git.InvalidGitRepositoryError, git.GitCommandError):
            head = "unreadable"  # the harness broke the worktree's link to its repository
        prints: dict[str, str] = {HEAD_ENTRY: head}
        for folder, dirs, files in os.walk(self.path):
            here = Path(folder)
            if here == self.path:
                dirs[:] = [name for name in dirs if name != ".git"]
                files = [name for name in files if name != ".git"]
            for name in dirs + files:
                full = here / name
                prints[full.relative_to(self.path).as_posix()] = _entry(full)
        return prints

    def changed_since(self, before: dict[str, str]) -> list[str]:
        """The paths whose entry differs from `before` (added, removed or changed), sorted."""
        after = self.fingerprint()
        names = before.keys() | after.keys()
        return sorted(name for name in names if before.get(name) != after.get(name))


class InFlight:
    """One harness run of a sitting: its worktrees and, once started, its process group."""

    def __init__(self, sitting: Sitting) -> None:
        self._sitting = sitting
        self.holder: WorktreeHolder | None = None
        self.pid: int | None = None

    def hold(self, holder: WorktreeHolder) -> None:
        """Track `holder`; when the sitting was abandoned meanwhile, close it and raise
        NotFinished."""
        with self._sitting.guard:
            self.holder = holder
            abandoned = self._sitting.abandoned
        if abandoned:
            holder.close()
            raise NotFinished(ABANDONED)

    def started(self, pid: int) -> None:
        """Track the harness process group `pid`; when the sitting was abandoned meanwhile,
        kill it at once."""
        with self._sitting.guard:
            self.pid = pid
            abandoned = self._sitting.abandoned
        if abandoned:
            _kill_group(pid)

    def exited(self) -> None:
        """The process group is over: called before its leader is reaped, so that `end` can
        never signal a later process given the same id."""
        with self._sitting.guard:
            self.pid = None

    def end(self) -> None:
        """Kill the process group (if any), then remove the worktrees (if any)."""
        with self._sitting.guard:
            pid = self.pid
        if pid is not None:
            _kill_group(pid)
        if self.holder is not None:
            self.holder.close()


class Sitting:
    """The harness runs of one sitting still in flight (L-7, S-3). Ctrl-C abandons the seats
    still sitting (the process exits without joining them): `abandon()` ends each harness run
    they started — process group killed, worktree removed — and every run started later."""

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.abandoned = False
        self._runs: list[InFlight] = []

    @contextlib.contextmanager
    def run(self) -> Iterator[InFlight]:
        """Track one harness run for as long as the block lasts. Raises NotFinished when the
        sitting was abandoned."""
        flight = InFlight(self)
        with self.guard:
            if self.abandoned:
                raise NotFinished(ABANDONED)
            self._runs.append(flight)
        try:
            yield flight
        finally:
            with self.guard:
                self._runs.remove(flight)

    def abandon(self) -> None:
        """End every harness run in flight, and refuse any later one. Raises nothing."""
        with self.guard:
            self.abandoned = True
            runs = list(self._runs)
        for flight in runs:
            flight.end()


@contextlib.contextmanager
def detached_worktree(
    repo: Path, commit: str, *, owner: str | None = None, flight: InFlight | None = None
) -> Iterator[DetachedWorktree]:
    """A detached worktree of `commit` of the repository at `repo`, in a new temporary
    directory, named after `owner` (the run_id; None: a fresh one) and tracked by `flight`; it
    is removed from the repository when the context ends, whatever happened inside. Raises
    BadInput when `repo` is no git repository or `commit` names no commit; NotFinished when git
    cannot add the worktree or the sitting was abandoned."""
    import git

    try:
        repository = git.Repo(repo)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise BadInput("not a git repository", source=str(repo), field="--repo") from None
    with repository:
        try:
            sha = repository.commit(commit).hexsha
        except (git.BadName, ValueError):
            raise BadInput(f"{commit!r} names no commit", source=str(repo), field="head") from None
        top = Path(repository.working_dir)
    with WorktreeHolder(top, owner, label=str(repo)) as holder:
        if flight is not None:
            flight.hold(holder)
        yield DetachedWorktree(path=holder.add(SEAT_ROLE, sha), commit=sha)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _entry(path: Path) -> str:
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        return f"link:{os.readlink(path)}"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISREG(mode):
        with path.open("rb") as handle:
            digest = hashlib.file_digest(handle, "sha256").hexdigest()
        executable = "x" if mode & stat.S_IXUSR else "-"
        return f"file:{executable}:{digest}"
    return "other"
