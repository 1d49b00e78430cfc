"""C-8: the repository root and how paths are written into outputs."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from pathlib import Path


def os_refusal(error: OSError | ValueError) -> str:
    """C-3: what the operating system refused about a path, in a few words — the one wording for
    every read, write and look-up of a path the user gave. A ValueError is Python refusing the
    path before the system sees it: a NUL byte, or a surrogate no file name can hold."""
    if isinstance(error, ValueError):
        return "the path holds a NUL byte" if "null" in str(error) else f"not a path: {error}"
    return error.strerror or type(error).__name__


def find_root(start: Path | None = None) -> Path:
    """Return the git top level of `start` (default: the working directory), else `start` itself.

    Walks up looking for `.git` (a directory, or a file in a worktree) so that no git
    library is imported just to start a command (C-1).
    """
    here = Path(start if start is not None else os.getcwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return here


def display_path(given: str | os.PathLike[str], root: Path) -> str:
    """C-8: relative to `root` with `/` when inside it, else exactly as given. A symbolic link
    at the last component is named, not followed: the path shown is the one the user gave."""
    given_text = os.fspath(given)
    path = Path(given_text)
    if path.name in ("", ".", ".."):
        resolved = path.resolve()
    else:
        resolved = path.absolute().parent.resolve() / path.name
    try:
        relative = resolved.relative_to(root.resolve())
    except ValueError:
        return given_text
    text = relative.as_posix()
    return "." if text == "" else text


def inside(path: Path, root: Path) -> bool:
    """True when `path` (resolved, symlinks followed) lies inside `root`."""
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


# T-1, R-1: scratch directories at the root; the commands that own them overwrite what is there,
# and evidence never points into them.
SCRATCH_DIRS = ("out",)


def is_scratch(relative: str, dirs: Sequence[str] = SCRATCH_DIRS) -> bool:
    """True when the root-relative path `relative` (with `/`) lies in one of the scratch `dirs`."""
    return scratch_dir_of(relative, dirs) is not None


def scratch_dir_of(relative: str, dirs: Sequence[str] = SCRATCH_DIRS) -> str | None:
    """The scratch directory of `dirs` that the root-relative `relative` lies in, or None.

    `./out/x` and `cases/../out/x` are in `out` too.
    """
    normal = posixpath.normpath(relative)
    for directory in dirs:
        if normal == directory or normal.startswith(directory + "/"):
            return directory
    return None
