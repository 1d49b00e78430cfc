"""A separate, detached worktree of one commit for a harness juror (L-7), hashed before and after.

Nothing else may write into the tribunal's checkout while it sits (source 000): a harness runs in
its own worktree of `head`, in a temporary directory, and every byte of that worktree is hashed
before and after. Any change — a file edited, added, removed, re-moded, or HEAD moved — annuls
the verdict (L-6 `annulled`), naming the changed paths. The worktree is always removed.
GitPython is imported inside the functions (C-1).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import BadInput

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


@contextlib.contextmanager
def detached_worktree(repo: Path, commit: str) -> Iterator[DetachedWorktree]:
    """A detached worktree of `commit` of the repository at `repo`, in a new temporary
    directory; it is removed (and pruned from the repository) when the context ends, whatever
    happened inside. Raises BadInput when `repo` is no git repository or `commit` names no
    commit."""
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
        holder = Path(tempfile.mkdtemp(prefix="tribunal-seat-"))
        tree = holder / "tree"
        try:
            repository.git.worktree("add", "--detach", "--quiet", str(tree), sha)
            yield DetachedWorktree(path=tree, commit=sha)
        finally:
            # `remove` fails when the harness broke the worktree; the directory goes anyway and
            # `prune` then drops git's record of it.
            with contextlib.suppress(git.GitCommandError):
                repository.git.worktree("remove", "--force", "--force", str(tree))
            shutil.rmtree(holder, ignore_errors=True)
            repository.git.worktree("prune")


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
