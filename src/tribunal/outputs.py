"""Output files of commands: checked before any work, written atomically (C-3, C-4).

The one output-path check: a command writes only regular files, or creates them. A directory,
a symbolic link, a FIFO, a device or a socket at an output path is bad usage — one line, exit
2, and nothing is replaced (an atomic write renames a new file over whatever node is there: a
symlink would be swapped for a file, a device replaced, a FIFO's reader left waiting). So is a
path the system refuses (a parent that is a file, a NUL byte, a name too long) — never a
traceback (C-2). A directory an output goes into (`--out DIR`, `--dir`) may be absent or a
directory, never a symbolic link or another node.

`check_output_path` and `check_output_dir` are called by every command before its work;
`atomic.write_atomic` asks `output_problem` again just before its rename, and `append_line`
opens without following a link, so a node that appears in between is not replaced either.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import os_refusal

_PARENT_IS_A_FILE = "cannot write: a parent of this path is a file, not a directory"
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def node_kind(mode: int) -> str:
    """What kind of file-system node `mode` (from lstat) describes, in words."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _lstat(path: Path) -> os.stat_result | str | None:
    """lstat of `path`; None when nothing is there; the problem's words when it cannot be
    looked at."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return _PARENT_IS_A_FILE
    except (OSError, ValueError) as error:
        return f"cannot write: {os_refusal(error)}"


def output_problem(path: Path) -> str | None:
    """Why `path` cannot be written as an output file, or None: nothing is there, or a regular
    file (the symbolic link itself is looked at, never followed)."""
    found = _lstat(Path(path))
    if found is None or isinstance(found, str):
        return found
    if stat.S_ISREG(found.st_mode):
        return None
    if stat.S_ISDIR(found.st_mode):
        return "is a directory, expected a file path"
    return f"is {node_kind(found.st_mode)}, not a regular file: nothing was written"


def check_output_path(path: Path, option: str | None = "--out", label: str | None = None) -> None:
    """Raise BadInput (naming `label`, default the path, and `option`) when `path` cannot be an
    output file: see `output_problem`."""
    problem = output_problem(path)
    if problem is not None:
        raise BadInput(problem, source=label if label is not None else str(path), field=option)


def check_output_dir(
    path: Path, option: str = "--out", label: str | None = None, files: tuple[str, ...] = ()
) -> None:
    """Raise BadInput when `path` cannot be an output directory — it must be absent or a
    directory, not a symbolic link or another node — or when one of the `files` the command
    writes into it is no regular file (`output_problem`)."""
    shown = label if label is not None else str(path)
    found = _lstat(Path(path))
    if isinstance(found, str):
        raise BadInput(found, source=shown, field=option)
    if found is None:
        return
    if not stat.S_ISDIR(found.st_mode):
        kind = node_kind(found.st_mode)
        raise BadInput(
            f"is {kind}, not a directory: nothing was written", source=shown, field=option
        )
    for name in files:
        check_output_path(Path(path) / name, option, f"{shown.rstrip('/')}/{name}")


@contextmanager
def output_errors(path: Path, option: str = "--out") -> Iterator[None]:
    """Turn an OSError raised while writing `path` (given by `option`) into BadInput."""
    try:
        yield
    except (FileExistsError, NotADirectoryError):
        # Creating the parents met a file where a directory must be (`afile/out.json`).
        raise BadInput(_PARENT_IS_A_FILE, source=str(path), field=option) from None
    except OSError as error:
        raise BadInput(
            f"cannot write: {os_refusal(error)}", source=str(path), field=option
        ) from None


def write_output(path: Path, document: Any, option: str = "--out") -> None:
    """Write `document` as JSON to `path` atomically; a path that is no output (see
    `check_output_path`) or an OSError becomes BadInput."""
    from tribunal.atomic import write_json

    check_output_path(path, option)
    with output_errors(path, option):
        write_json(path, document)


def write_output_text(path: Path, text: str, option: str = "--out") -> None:
    """Write `text` to `path` atomically; as `write_output`."""
    from tribunal.atomic import write_atomic

    check_output_path(path, option)
    with output_errors(path, option):
        write_atomic(path, text)


def append_line(path: Path, line: str, option: str) -> None:
    """Append `line` and a newline to `path` (created when absent) and flush it to disk (C-4).

    The file is opened without following a symbolic link and without waiting on a FIFO, and is
    written only when it is a regular file; otherwise BadInput naming `option`, nothing written.
    """
    check_output_path(path, option)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    with output_errors(path, option):
        try:
            descriptor = os.open(path, flags, 0o644)
        except OSError as error:
            raise BadInput(
                output_problem(path) or f"cannot write: {os_refusal(error)}",
                source=str(path),
                field=option,
            ) from None
        with os.fdopen(descriptor, "ab") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise BadInput(output_problem(path) or "not a regular file", source=str(path))
            handle.write(line.encode("utf-8") + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
