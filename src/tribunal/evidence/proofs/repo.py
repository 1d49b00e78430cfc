"""Git access for the proofs (B-4): revisions, changed paths, blob ids, temporary worktrees.

Every run of the suite happens in a temporary `git worktree` of one commit — never in the user's
working tree (B-6) — named after the run that proves (`tribunal.worktrees`: its owner lock held
while the proving lasts), and every tree made here is removed again when the context closes,
whatever happened inside; a proving killed with -9 leaves them to the next convening's prune.
Hooks are switched off for the checkouts the harness makes: a proof must not run repository code
before its capped run does. GitPython is imported inside `open` (C-1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from tribunal.errors import BadInput, NotFinished
from tribunal.worktrees import WorktreeHolder

_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


@dataclass(frozen=True)
class PathChange:
    """One path two commits differ in: `status` A (added), M, T (type) or D (deleted)."""

    status: str
    path: str


class ProofRepo:
    """One repository opened for the proofs. Use as a context manager."""

    def __init__(self, repo: Any, label: str, owner: str | None = None) -> None:
        self._repo = repo
        self.label = label
        self._owner = owner
        self._holder: WorktreeHolder | None = None  # made with the first tree or scratch file

    @classmethod
    def open(cls, path: Path, label: str | None = None, *, owner: str | None = None) -> ProofRepo:
        """Open the repository at `path`; its worktrees are named after `owner` (the run_id;
        None: a fresh random one). Raises BadInput (field `--repo`) when it is no repository."""
        import git

        label = label if label is not None else str(path)
        try:
            repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise BadInput("not a git repository", source=label, field="--repo") from None
        return cls(repo, label, owner)

    def __enter__(self) -> ProofRepo:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Remove every worktree made here and the scratch directory; stop git processes.
        Raises nothing of its own: the error that ended the proving is never masked."""
        try:
            if self._holder is not None:
                self._holder.close()
        finally:
            self._holder = None
            self._repo.close()

    def resolve(self, rev: str) -> str | None:
        """The full commit id `rev` names, or None when it names no commit."""
        import git

        if not rev or rev.startswith("-"):
            return None
        try:
            sha = self._repo.git.rev_parse(
                "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
            )
        except git.GitCommandError:
            return None
        return str(sha).strip()

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when commit `ancestor` is `descendant` or one of its ancestors."""
        import git

        try:
            self._repo.git.merge_base("--is-ancestor", ancestor, descendant)
        except git.GitCommandError:
            return False
        return True

    def changes(self, old: str, new: str, *, since_merge_base: bool = False) -> list[PathChange]:
        """Paths that differ between commits `old` and `new` (renames split into D and A), in
        git's order; with `since_merge_base`, between their merge base and `new` (`old...new`)."""
        spec = [f"{old}...{new}"] if since_merge_base else [old, new]
        raw = self._bytes(
            "diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-relative",
            "--no-ext-diff", "--no-textconv", *spec, "--",
        )  # fmt: skip
        fields = raw.split(b"\0")
        found: list[PathChange] = []
        for meta, name in zip(fields[0::2], fields[1::2], strict=False):
            if meta.startswith(b":"):
                status = meta.decode("ascii").split()[-1][0]
                found.append(PathChange(status, _path(name)))
        return found

    def blob_ids(self, commit: str) -> dict[str, str]:
        """Every file of `commit`'s tree by path, with its blob (or gitlink) id."""
        raw = self._bytes("ls-tree", "-r", "-z", "--full-tree", commit)
        ids: dict[str, str] = {}
        for record in raw.split(b"\0"):
            if record:
                meta, _, name = record.partition(b"\t")
                ids[_path(name)] = meta.decode("ascii").split()[2]
        return ids

    def checkout(self, name: str, commit: str) -> Path:
        """A fresh detached worktree of `commit` for the proof step `name` (`red`, `head`, ...)
        under the scratch directory; returns its path. Raises NotFinished when git cannot."""
        return self._worktrees().add(name, commit)

    def restore(self, tree: Path, commit: str, changes: list[PathChange]) -> None:
        """B-4 fake_green: put every path of `changes` in `tree` back to its version at `commit`
        — a path added since `commit` is removed, any other is checked out from it."""
        added = [change.path for change in changes if change.status == "A"]
        others = [change.path for change in changes if change.status != "A"]
        if others:
            self._git_in(tree, "checkout", commit, "--", *others)
        if added:
            self._git_in(tree, "rm", "-q", "-f", "--", *added)

    def scratch_file(self, name: str) -> Path:
        """A path for a report file in the scratch directory, outside every worktree."""
        return self._worktrees().path / name

    def _worktrees(self) -> WorktreeHolder:
        if self._holder is None:
            self._holder = WorktreeHolder(
                Path(self._repo.working_dir), self._owner, label=self.label
            )
        return self._holder

    def _git_in(self, tree: Path | None, *args: str) -> None:
        import git

        where = ["-C", str(tree)] if tree is not None else []
        try:
            self._repo.git.execute(["git", *where, *_NO_HOOKS, *args])
        except git.GitCommandError as error:
            raise _failed(self.label, args[0], error) from None

    def _bytes(self, *args: str) -> bytes:
        import git

        try:
            output = self._repo.git.execute(
                ["git", *args], stdout_as_string=False, strip_newline_in_stdout=False
            )
        except git.GitCommandError as error:
            raise _failed(self.label, args[0], error) from None
        return bytes(output)


def _failed(label: str, command: str, error: Any) -> NotFinished:
    """A git step of the harness failed on resolved commits: no proof, so no verdict (exit 3)."""
    return NotFinished(f"{label}: git {command} failed: {_first_line(error.stderr)}")


def _path(name: bytes) -> str:
    return name.decode("utf-8", "backslashreplace")


def _first_line(text: Any) -> str:
    for line in str(text or "").splitlines():
        line = line.strip().removeprefix("stderr:").strip().strip("'").strip()
        if line:
            return line
    return "no message"
