"""`tribunal judgment record` (T-6, R-1): file a scratch judgment into the repository.

The file is named `<dir>/<stem>.judgment.md` — `<stem>` is `<session_id>-<spec_id>` when both
are present, else the `run_id`, else a slug of the `reason` — with a numeric suffix when the name
is taken. A recorded judgment is an audit artifact: filing never overwrites one, even when two
filings race (the name is claimed with an atomic hard link, which fails if it exists).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import is_scratch

SUFFIX = ".judgment.md"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def judgment_stem(fields: dict[str, Any]) -> str:
    """The file stem for a judgment with front matter `fields` (T-6)."""
    session_id, spec_id = fields.get("session_id"), fields.get("spec_id")
    if session_id and spec_id:
        stem = f"{session_id}-{spec_id}"
    elif fields.get("run_id"):
        stem = str(fields["run_id"])
    else:
        stem = str(fields["reason"]).lower()
    return _UNSAFE.sub("-", stem).strip("-.") or "judgment"


def file_judgment(text: str, directory: Path, stem: str) -> Path:
    """Write `text` as `directory/<stem>[-N].judgment.md`, the first free name; return the path.

    Never overwrites: the content is written and fsynced under a temporary name, then linked to
    the chosen name (which fails atomically when taken), then the temporary name is removed.
    """
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o644)
        number = 1
        while True:
            name = f"{stem}{SUFFIX}" if number == 1 else f"{stem}-{number}{SUFFIX}"
            target = directory / name
            try:
                os.link(tmp_name, target)
            except FileExistsError:
                number += 1
                continue
            return target
    finally:
        Path(tmp_name).unlink(missing_ok=True)


def refuse_rewriting_a_record(target: Path, root: Path, label: str) -> None:
    """R-1: raise BadInput when writing `target` would rewrite a recorded judgment.

    A file that exists inside the repository outside the scratch dirs is a record; scratch
    files and paths outside the repository may be overwritten.
    """
    if not target.exists():
        return
    try:
        relative = target.resolve().relative_to(root.resolve())
    except ValueError:
        return
    if is_scratch(relative.as_posix()):
        return
    raise BadInput(
        "exists and is a recorded judgment, which no command rewrites; "
        "write to out/ and file it with `tribunal judgment record`",
        source=label,
    )
