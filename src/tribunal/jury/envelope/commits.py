"""The change under review as git objects: `base...head` of one repository (E-1, B-6).

Everything is read from commit and blob objects, never from the working tree, so edits to the
checkout cannot change what is judged. GitPython is imported inside `CommitRange.open` (C-1);
blobs come through its one persistent `git cat-file --batch` process, not one process per file
(X-2).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from tribunal.errors import BadInput

# E-1: the receipt is `git diff --binary --full-index base...head` as git's DEFAULT
# configuration prints it, so the same range gives the same receipt on every machine and at any
# time. `--full-index` because abbreviated blob ids grow with the repository's object count
# (core.abbrev=auto) and with the user's core.abbrev. User settings that change the bytes
# (diff.noprefix, diff.mnemonicPrefix, prefixes, diff.renames, diff.algorithm, diff.context,
# diff.orderFile, diff.submodule, core.quotePath, colour, external and textconv drivers) are
# overridden: reset by `-c`, then pinned again on the command line.
RECEIPT_CONFIG = (
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.renames=true",
    "diff.algorithm=myers",
    "diff.indentHeuristic=true",
    "diff.context=3",
    "diff.interHunkContext=0",
    "diff.suppressBlankEmpty=false",
    "diff.submodule=short",
    "diff.ignoreSubmodules=none",
    "diff.external=",
    "core.quotePath=true",
    "color.diff=false",
    "color.ui=false",
)
RECEIPT_OPTIONS = (
    "--binary",
    "--full-index",  # whole blob ids on every index line, whatever core.abbrev says
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--find-renames",  # git's default (diff.renames=true, 50% similarity)
    "--diff-algorithm=myers",
    "--indent-heuristic",
    "--unified=3",
    "--inter-hunk-context=0",
    "--submodule=short",
    "--ignore-submodules=none",
    "--no-relative",
    f"-O{os.devnull}",  # an empty order file: git's own path order, whatever diff.orderFile says
)

GITLINK_MODE = "160000"  # a submodule: the entry names a commit, not a blob
SYMLINK_MODE = "120000"  # the blob holds the link target


@dataclass(frozen=True)
class TreeEntry:
    """One path of a commit's tree (or of the change) with its mode and object id."""

    path: str  # repository-relative, `/`-separated
    mode: str  # octal text as git prints it: 100644, 100755, 120000, 160000
    sha: str  # hex object id


@dataclass(frozen=True)
class Touched:
    """One path the change touched: `status` A, M, T (then `entry` is the head side) or D."""

    path: str
    status: str
    entry: TreeEntry | None  # None when deleted

    @property
    def deleted(self) -> bool:
        """True when the change deleted this path."""
        return self.entry is None


@dataclass(frozen=True)
class Identity:
    """A name or e-mail address of a commit in the range (E-3); `kind` is `name` or `email`."""

    kind: str
    text: str


class CommitRange:
    """An open repository and a resolved `base...head` range. Use as a context manager."""

    def __init__(self, repo: Any, label: str, base: str, head: str) -> None:
        self._repo = repo
        self.label = label  # the repository as named in messages and the manifest (C-8)
        self.base = base  # full commit ids
        self.head = head

    @classmethod
    def open(
        cls, path: Path, base: str, head: str = "HEAD", *, label: str | None = None
    ) -> CommitRange:
        """Open the repository at `path` and resolve `base` and `head` to commit ids.

        Returns a CommitRange; raises BadInput when `path` is not a git repository or a
        revision does not name a commit (field `--repo`, `--base`, `--head`).
        """
        import git

        label = label if label is not None else str(path)
        try:
            repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise BadInput("not a git repository", source=label, field="--repo") from None
        try:
            base_id = _resolve(repo, base, "--base", label)
            head_id = _resolve(repo, head, "--head", label)
            _shared_history(repo, base, head, label)
        except BaseException:
            repo.close()
            raise
        return cls(repo, label, base_id, head_id)

    def __enter__(self) -> CommitRange:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the persistent git processes."""
        self._repo.close()

    @property
    def top(self) -> Path | None:
        """The working tree's top directory, or None for a bare repository."""
        top = self._repo.working_tree_dir
        return Path(top) if top is not None else None

    def touched(self) -> list[Touched]:
        """Every path `base...head` touched, in git's (byte) order, renames split into a
        deletion and an addition. Raises BadInput when the commits share no history."""
        raw = self._git(
            "diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-relative",
            "--no-ext-diff", "--no-textconv", f"{self.base}...{self.head}", "--",
        )  # fmt: skip
        fields = raw.split(b"\0")
        touched: list[Touched] = []
        for meta, name in zip(fields[0::2], fields[1::2], strict=False):
            if not meta.startswith(b":"):
                continue
            _old_mode, new_mode, _old_sha, new_sha, status = meta[1:].decode("ascii").split()
            path = _path(name)
            kind = status[0]
            entry = None if kind == "D" else TreeEntry(path, new_mode, new_sha)
            touched.append(Touched(path, kind, entry))
        return touched

    def tree(self) -> dict[str, TreeEntry]:
        """Every file of the head commit (recursively), by path."""
        raw = self._git("ls-tree", "-r", "-z", "--full-tree", self.head)
        entries: dict[str, TreeEntry] = {}
        for record in raw.split(b"\0"):
            if not record:
                continue
            meta, _, name = record.partition(b"\t")
            mode, _kind, sha = meta.decode("ascii").split()
            path = _path(name)
            entries[path] = TreeEntry(path, mode, sha)
        return entries

    def blobs(self, shas: list[str]) -> Iterator[bytes]:
        """The content of each blob in `shas`, in order, through one `cat-file --batch`."""
        for sha in shas:
            _sha, _kind, _size, data = self._repo.git.get_object_data(sha)
            yield bytes(data)

    def receipt(self) -> str:
        """E-1: sha256 of `git diff --binary --full-index base...head` as git prints it with its
        default configuration (`RECEIPT_CONFIG`, `RECEIPT_OPTIONS`): the bytes a verdict is tied
        to, the same on every machine whatever the user's git configuration says."""
        pinned = [part for key in RECEIPT_CONFIG for part in ("-c", key)]
        diff = self._git_top(*pinned, "diff", *RECEIPT_OPTIONS, f"{self.base}...{self.head}", "--")
        return hashlib.sha256(diff).hexdigest()

    def identities(self) -> list[Identity]:
        """E-3: author and committer names and e-mail addresses of every commit in
        `base..head`, as written and as mapped by `.mailmap`, de-duplicated, in first-seen order."""
        # Every field ends in NUL, so field i of every commit sits at i % 8 of the split.
        fields = "%an %ae %cn %ce %aN %aE %cN %cE".replace(" ", "%x00") + "%x00"
        raw = self._git(
            "log", "--no-color", f"--format={fields}", f"{self.base}..{self.head}", "--"
        )
        seen: dict[tuple[str, str], None] = {}
        for index, value in enumerate(raw.split(b"\0")):
            text = value.decode("utf-8", "replace").strip()
            if text:
                seen.setdefault(("name" if index % 2 == 0 else "email", text), None)
        return [Identity(kind, text) for kind, text in seen]

    def is_dirty(self) -> bool:
        """True when tracked files in the working tree or index differ from HEAD (B-6)."""
        if self.top is None:
            return False
        return bool(self._repo.is_dirty(index=True, working_tree=True, untracked_files=False))

    def _git(self, *args: str) -> bytes:
        return self._git_top(*args)

    def _git_top(self, *args: str) -> bytes:
        """Run `git ARGS` (top-level options such as `-c` may lead) and return its stdout."""
        import git

        try:
            output = self._repo.git.execute(
                ["git", *args], stdout_as_string=False, strip_newline_in_stdout=False
            )
        except git.GitCommandError as error:
            detail = _first_line(error.stderr) or f"git {args[0]} failed"
            raise BadInput(detail, source=self.label, field="--repo") from None
        return bytes(output)


def _resolve(repo: Any, rev: str, flag: str, label: str) -> str:
    import git

    if not rev or rev.startswith("-"):
        raise BadInput(f"{rev!r} is not a revision", source=label, field=flag)
    try:
        sha = repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    except git.GitCommandError:
        raise BadInput(f"{rev!r} does not name a commit", source=label, field=flag) from None
    return str(sha).strip()


def _shared_history(repo: Any, base: str, head: str, label: str) -> None:
    """E-1 judges `base...head`: the two commits must have a merge base."""
    import git

    try:
        repo.git.merge_base(f"{base}^{{commit}}", f"{head}^{{commit}}")
    except git.GitCommandError:
        raise BadInput(
            f"{base!r} and {head!r} share no history (no merge base)", source=label, field="--base"
        ) from None


def _path(name: bytes) -> str:
    # Paths that are not UTF-8 stay readable in the envelope; blobs are read by id, not by path.
    return name.decode("utf-8", "backslashreplace")


def _first_line(text: Any) -> str:
    for line in str(text or "").splitlines():
        line = line.strip().removeprefix("stderr:").strip().strip("'").removeprefix("fatal:")
        line = line.strip()
        if line:
            return line
    return ""
