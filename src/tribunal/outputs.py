"""Output files of commands: checked before any work, written atomically (C-3, C-4).

An output path the user got wrong (a directory, a file where a parent directory should be, an
unwritable place) is bad usage: one line, exit 2, never a traceback (C-2). Every output of a
command goes through here, so no command maps OSError by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import os_refusal


def check_output_path(path: Path, option: str = "--out") -> None:
    """Raise BadInput when `path` cannot be an output file (it is a directory)."""
    if path.is_dir():
        raise BadInput("is a directory, expected a file path", source=str(path), field=option)


@contextmanager
def output_errors(path: Path, option: str = "--out") -> Iterator[None]:
    """Turn an OSError raised while writing `path` (given by `option`) into BadInput."""
    try:
        yield
    except (FileExistsError, NotADirectoryError):
        # Creating the parents met a file where a directory must be (`afile/out.json`).
        raise BadInput(
            "cannot write: a parent of this path is a file, not a directory",
            source=str(path),
            field=option,
        ) from None
    except (OSError, ValueError) as error:
        raise BadInput(
            f"cannot write: {os_refusal(error)}", source=str(path), field=option
        ) from None


def write_output(path: Path, document: Any, option: str = "--out") -> None:
    """Write `document` as JSON to `path` atomically; an OSError becomes BadInput."""
    from tribunal.atomic import write_json

    with output_errors(path, option):
        write_json(path, document)


def write_output_text(path: Path, text: str, option: str = "--out") -> None:
    """Write `text` to `path` atomically; an OSError becomes BadInput."""
    from tribunal.atomic import write_atomic

    with output_errors(path, option):
        write_atomic(path, text)
