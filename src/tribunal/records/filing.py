"""Recorded judgments (R-1) and `tribunal judgment record` (T-6): which judgments are records,
the one guard every judgment writer goes through, and filing a scratch judgment into the
repository.

A judgment is *recorded* when git tracks it or it lies under `judgments/` or `capstone/`;
`out/` (and the `out_dir` setting), stamped run dirs and `.tribunal/` are scratch, whatever git
says. No command rewrites a recorded judgment: a re-run that would write the same bytes writes
nothing and succeeds; any other content is bad input naming `--to`. The decision trace beside a
judgment (A-6) is held to the same rule.

Filing names the file `<dir>/<stem>.judgment.md` — `<stem>` is `<session_id>-<spec_id>` when
both are present, else the `run_id`, else a slug of the `reason` — with a numeric suffix when the
name is taken; filing never overwrites, even when two filings race (the name is claimed with an
atomic hard link, which fails if it exists). Content already filed there under the stem (the
same bytes) is not filed twice: its path is the answer, and nothing is written.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import is_scratch
from tribunal.records.ledger import STATE_DIR
from tribunal.records.rundir import STAMP_NAME
from tribunal.settings import scratch_dirs

SUFFIX = ".judgment.md"
RECORD_DIRS = ("judgments", "capstone")  # whatever lies under these is a record
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Filed:
    """Where a judgment was filed; `already`: those bytes were filed there before, and nothing
    was written."""

    path: Path
    already: bool = False


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


def file_judgment(text: str, directory: Path, stem: str) -> Filed:
    """File `text` as `directory/<stem>[-N].judgment.md`, the first free name; return where.

    When a file of the stem already holds exactly `text`, that is where it was filed: nothing
    is written (`already`). Never overwrites: the content is written and fsynced under a
    temporary name, then linked to the chosen name (which fails atomically when taken), then
    the temporary name is removed.
    """
    payload = text.encode("utf-8")
    earlier = _filed_before(directory, stem, payload)
    if earlier is not None:
        return Filed(earlier, already=True)
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{stem}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o644)
        number = 1
        while True:
            target = directory / _filed_name(stem, number)
            try:
                os.link(tmp_name, target)
            except FileExistsError:
                if _holds(target, payload):  # a filing racing ours filed the same bytes
                    return Filed(target, already=True)
                number += 1
                continue
            return Filed(target)
    finally:
        Path(tmp_name).unlink(missing_ok=True)


def _filed_name(stem: str, number: int) -> str:
    return f"{stem}{SUFFIX}" if number == 1 else f"{stem}-{number}{SUFFIX}"


def _filed_before(directory: Path, stem: str, payload: bytes) -> Path | None:
    """The file of `stem` (`<stem>.judgment.md`, `<stem>-N.judgment.md`) in `directory` that
    holds exactly `payload`, the lowest number first; None when there is none."""
    pattern = re.compile(rf"{re.escape(stem)}(?:-(\d+))?{re.escape(SUFFIX)}\Z")
    try:
        names = [(pattern.match(entry.name), entry) for entry in directory.iterdir()]
    except (FileNotFoundError, NotADirectoryError):
        return None
    found = sorted((int(match[1] or 1), entry) for match, entry in names if match)
    return next((entry for _, entry in found if _holds(entry, payload)), None)


def _holds(path: Path, payload: bytes) -> bool:
    try:
        return (
            path.is_file()
            and path.stat().st_size == len(payload)
            and (path.read_bytes() == payload)
        )
    except OSError:
        return False


def is_recorded(path: Path, root: Path) -> str | None:
    """R-1: why `path` is a recorded judgment — `tracked by git` or `under judgments/` — or
    None when it is not one: outside the repository `root`, in a scratch place (`out/`, the
    `out_dir` setting, a stamped run dir, `.tribunal/`), or neither tracked nor under a record
    dir. Raises BadInput for a malformed project configuration."""
    try:
        relative = Path(path).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return None
    parts = relative.parts
    if not parts or STATE_DIR in parts or is_scratch(relative.as_posix(), scratch_dirs(root)):
        return None
    if _in_run_dir(Path(root).resolve(), relative):
        return None
    if parts[0] in RECORD_DIRS and len(parts) > 1:
        return f"under {parts[0]}/"
    return "tracked by git" if _tracked(Path(root), relative.as_posix()) else None


def _in_run_dir(root: Path, relative: Path) -> bool:
    """True when a directory holding `relative` (the root included) is a stamped run dir."""
    return any((root / parent / STAMP_NAME).is_file() for parent in relative.parents)


def _tracked(root: Path, relative: str) -> bool:
    """True when git tracks `relative` in the repository at `root` (False without git)."""
    if not (root / ".git").exists():
        return False
    try:
        done = subprocess.run(
            ["git", "--literal-pathspecs", "ls-files", "--error-unmatch", "--", relative],
            cwd=root,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0


def needs_writing(target: Path, text: str, root: Path, label: str) -> bool:
    """R-1, the guard of every judgment writer: False when `target` already holds exactly
    `text` (a re-run: nothing to write), True when it does not exist or is not a record (it may
    be written). Raises BadInput naming `--to` when `target` is a recorded judgment that would
    change."""
    if not target.exists():
        return True
    if _holds(target, text.encode("utf-8")):
        return False
    why = is_recorded(target, root)
    if why is None:
        return True
    raise BadInput(
        f"is a recorded judgment ({why}), which no command rewrites, and this run would change "
        "it; give --to a scratch path (out/...) and file the result with "
        "`tribunal judgment record`",
        source=label,
        field="--to",
    )
