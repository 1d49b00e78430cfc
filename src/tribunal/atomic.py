"""C-4: every write is atomic — temporary file, fsync, rename — so nothing is half-written."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tribunal.jsontext import indented_json


def write_atomic(
    path: Path,
    data: str | bytes,
    *,
    mode: int = 0o644,
    dir_mode: int = 0o755,
    midway: Callable[[], None] | None = None,
) -> None:
    """Write `data` to `path` atomically, creating parent directories (T-1).

    The file appears whole or not at all, even after a crash or `kill -9`. `midway` (crash
    tests only) is called when half of the payload is in the temporary file. Raises BadInput,
    nothing replaced, when `path` is no regular file (C-3: `outputs.output_problem`), looked
    at before anything is created and again just before the rename.
    """
    path = Path(path)
    _refuse_non_regular(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=dir_mode)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if midway is not None:
                handle.write(payload[: len(payload) // 2])
                handle.flush()
                midway()
                payload = payload[len(payload) // 2 :]
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        _refuse_non_regular(path)  # a node that appeared meanwhile is not replaced either
        os.replace(tmp_name, path)
    except BaseException:
        # Never leave the temporary file behind, whatever interrupted us.
        Path(tmp_name).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _refuse_non_regular(path: Path) -> None:
    from tribunal.errors import BadInput
    from tribunal.outputs import output_problem

    problem = output_problem(path)
    if problem is not None:
        raise BadInput(problem, source=str(path))


def dump_json(document: Any) -> str:
    """The one JSON form of every output file (C-6: byte-identical for the same inputs):
    `json.dumps(document, indent=2, ensure_ascii=False)` and a newline, written fast (X-4)."""
    return indented_json(document) + "\n"


def write_json(path: Path, document: Any, *, mode: int = 0o644) -> None:
    """Write `document` as JSON atomically."""
    write_atomic(path, dump_json(document), mode=mode)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the rename is still atomic
    finally:
        os.close(fd)
