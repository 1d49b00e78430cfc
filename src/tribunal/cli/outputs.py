"""Output files of commands: checked before any work, written atomically (C-3, C-4).

An output path the user got wrong (a directory, an unwritable place) is bad usage: one line,
exit 2, never a traceback (C-2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tribunal.errors import BadInput


def check_output_path(path: Path, option: str = "--out") -> None:
    """Raise BadInput when `path` cannot be an output file (it is a directory)."""
    if path.is_dir():
        raise BadInput("is a directory, expected a file path", source=str(path), field=option)


def write_output(path: Path, document: Any, option: str = "--out") -> None:
    """Write `document` as JSON to `path` atomically; an OSError becomes BadInput."""
    from tribunal.atomic import write_json

    try:
        write_json(path, document)
    except OSError as error:
        why = error.strerror or type(error).__name__
        raise BadInput(f"cannot write: {why}", source=str(path), field=option) from None
