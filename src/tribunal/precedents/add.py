"""Writing precedents.md (R-3): append-only adds under a lock, crash-safe.

Concurrency (S-4): read, allocate (highest + 1) and append happen under one exclusive lock,
`.tribunal/precedents.lock` at the root, so concurrent adds on one machine get distinct IDs.

Crash safety (C-4): the appended file is written whole to a temporary file, fsynced and renamed
over precedents.md. An O_APPEND write would be cheaper, but a process killed (or a disk filled)
in the middle of the write leaves a partial entry behind, and nothing could tell it apart from
a hand edit; with the rename a crash leaves either the old file or the new one, never half an
entry. Before the rename the file's bytes are compared with what was read: an edit made without
the lock (an editor) is never overwritten.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.atomic import write_atomic
from tribunal.errors import BadInput, BrokenRef, TribunalError
from tribunal.faults import pause_here, pause_point
from tribunal.frontmatter import JudgmentFile, dump_mapping, read_judgment
from tribunal.outputs import check_output_path
from tribunal.paths import display_path, inside
from tribunal.precedents.entry import SCOPE_KEYS, PrecedentsFile, format_id, id_problem
from tribunal.precedents.next_check import compile_when
from tribunal.precedents.parsing import parse_precedents
from tribunal.refs import evidence_base, parse_ref, resolve_ref

LOCK_NAME = "precedents.lock"
LOCK_TIMEOUT_S = 120.0
STARTER = (
    "# Precedents\n\n"
    "Recurring disputes and how they were decided. Add entries with\n"
    "`tribunal precedent add`; an entry's bytes are never edited — a newer entry `supersedes`\n"
    "an older one.\n"
)


@dataclass(frozen=True)
class NewPrecedent:
    """What `precedent add` is told beyond the judgment (R-3)."""

    applies_to: str
    next_check: str
    next_check_when: str | None = None
    scope: dict[str, tuple[str, ...]] = field(default_factory=dict)  # domains/tiers/modes
    supersedes: str | None = None


@contextmanager
def precedents_lock(root: Path) -> Iterator[None]:
    """Hold the exclusive lock `.tribunal/precedents.lock` under `root` (R-3)."""
    from filelock import FileLock, Timeout

    lock_dir = root / ".tribunal"
    lock_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(lock_dir / LOCK_NAME), timeout=LOCK_TIMEOUT_S)
    try:
        with lock:
            yield
    except Timeout:
        raise TribunalError(
            f"another process has held {lock_dir / LOCK_NAME} for {LOCK_TIMEOUT_S:.0f} s"
        ) from None


def add_precedent(file: Path, root: Path, judgment: Path, new: NewPrecedent) -> str:
    """Append the next precedent to `file`, taken from `judgment`; return its ID.

    Raises BadInput (nothing written) for a bad judgment, option or precedents file, and
    TribunalError when the file changes under us.
    """
    root = root.resolve()
    label = display_path(file, root)
    check_output_path(file, "--file", label)  # C-3: never a link, FIFO or device replaced
    require_inside(file, root, label)
    fields = _fields_from(judgment, root, new)
    target = file.resolve()
    with precedents_lock(root):
        old = target.read_bytes() if target.exists() else b""
        parsed = parse_for_write(old, label)
        if new.supersedes is not None and not parsed.with_id(new.supersedes):
            raise BadInput(f"no entry {new.supersedes} to supersede", source=label)
        case_id = format_id(parsed.next_numbers()[0])
        pause_here("precedent-add:allocated")
        entry_fields = {"case_id": case_id, **fields}
        entry = render_entry(entry_fields)
        prefix = old if old else STARTER.encode("utf-8")
        joined = prefix + (b"" if prefix.endswith(b"\n") else b"\n") + b"\n" + entry.encode()
        _verify_append(prefix, joined, entry, entry_fields, len(parsed.entries), label)
        commit_bytes(target, old, joined, label, midway="precedent-add:mid-write")
    return case_id


def require_inside(file: Path, root: Path, label: str) -> None:
    """Raise BadInput (--file) when the precedents file lies outside the repository `root`.

    C-3: a reference outside the repository is bad input. The lock and the index live under
    the root's `.tribunal/`, so a file elsewhere would be written without the lock that
    guards it (R-3) and with directories created outside the repository."""
    if not inside(file, root):
        raise BadInput(f"{label} is outside the repository ({root})", field="--file")


def render_entry(fields: dict[str, Any]) -> str:
    """One entry in the written form: `## PREC-NNN` and a fenced yaml block (R-2)."""
    return f"## {fields['case_id']}\n\n```yaml\n{dump_mapping(fields)}```\n"


def commit_bytes(target: Path, expected: bytes, data: bytes, label: str, *, midway: str) -> None:
    """Replace `target` by `data` atomically, unless it no longer holds `expected` (C-4)."""
    current = target.read_bytes() if target.exists() else b""
    if current != expected:
        raise TribunalError(f"{label} changed while the lock was held; nothing written, retry")
    sweep_stale_temporaries(target)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
    write_atomic(target, data, mode=mode, midway=pause_point(midway))


def sweep_stale_temporaries(target: Path) -> list[Path]:
    """Remove the temporary files of `target` left by writers killed mid-write; return them.

    C-4: `write_atomic` writes `.<name>.<8 random chars>.tmp` beside the target and renames it;
    a `kill -9` before the rename leaves it behind (half an entry), where `git add -A` would
    commit it. Call only under the precedents lock: every writer of the file (add, renumber)
    holds it, so no temporary file of the target belongs to a write still in progress.
    """
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.tmp$")
    swept = []
    for candidate in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        if pattern.match(candidate.name) and candidate.is_file() and not candidate.is_symlink():
            candidate.unlink(missing_ok=True)
            swept.append(candidate)
    return swept


def parse_for_write(old: bytes, label: str) -> PrecedentsFile:
    """Parse the bytes a writer read (bulk path); BadInput when the file has any problem."""
    if b"\0" in old:
        raise BadInput("binary file, expected UTF-8 text", source=label)
    try:
        text = old.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadInput(f"not UTF-8 text (byte {error.start})", source=label) from None
    parsed = parse_precedents(text, label, strict=False)
    parsed.require_clean()  # never append to a file that does not parse (run records check)
    return parsed


def _verify_append(
    prefix: bytes, joined: bytes, entry: str, fields: dict[str, Any], count: int, label: str
) -> None:
    """The new file keeps every old byte, the entry reads back as written, and it is the file's
    last entry (not swallowed by an unclosed fence in the prose above it)."""
    case_id = fields["case_id"]
    if not joined.startswith(prefix):
        raise TribunalError(f"{label}: refusing to write: existing bytes would change")
    alone = parse_precedents(entry, label)
    if alone.problems or [e.fields for e in alone.entries] != [fields]:
        raise TribunalError(f"{label}: the new entry {case_id} does not read back; not written")
    whole = parse_precedents(joined.decode("utf-8"), label, strict=False)
    if len(whole.entries) != count + 1 or whole.entries[-1].case_id != case_id:
        raise TribunalError(
            f"{label}: the new entry {case_id} would not be read as an entry (an unclosed fence "
            "above it?); not written"
        )


def _fields_from(judgment: Path, root: Path, new: NewPrecedent) -> dict[str, Any]:
    """The entry's fields (without case_id), validated before anything is locked or written."""
    from tribunal.documents import first_schema_error

    label = display_path(judgment, root)
    read = read_judgment(judgment, label)
    refs = read.fields["evidence_ref"]
    base = evidence_base(judgment, root)
    _check_refs(read, base, root, label)
    rebased = [_rebase(ref, base, root) for ref in ([refs] if isinstance(refs, str) else refs)]
    applies_to: Any = new.applies_to
    if any(new.scope.get(key) for key in SCOPE_KEYS):
        applies_to = {key: list(new.scope[key]) for key in SCOPE_KEYS if new.scope.get(key)}
        applies_to["text"] = new.applies_to
    next_check: Any = new.next_check
    if new.next_check_when is not None:
        # the condition is a T-2 expression; a bad one is bad input, nothing appended.
        compile_when(new.next_check_when, field="--next-check-when")
        next_check = {"when": new.next_check_when, "text": new.next_check}
    fields: dict[str, Any] = {
        "verdict": read.fields["verdict"],
        "evidence_ref": rebased[0] if len(rebased) == 1 else rebased,
        "applies_to": applies_to,
        "next_check": next_check,
    }
    if new.supersedes is not None:
        problem = id_problem(new.supersedes)
        if problem is not None:
            raise BadInput(problem, field="--supersedes")
        fields["supersedes"] = new.supersedes
    error = first_schema_error({"case_id": "PREC-001", **fields}, "precedent")
    if error is not None:
        message, where = error
        raise BadInput(message, field=_option_of(where))
    return fields


# the option a field of the new entry came from, so a bad value names what the user typed.
_OPTIONS = {
    ("applies_to", "domains"): "--domain",
    ("applies_to", "tiers"): "--tier",
    ("applies_to", "modes"): "--mode",
    ("applies_to",): "--applies-to",
    ("next_check", "when"): "--next-check-when",
    ("next_check",): "--next-check",
    ("supersedes",): "--supersedes",
}


def _option_of(where: tuple[str | int, ...]) -> str | None:
    """The option behind the schema error at `where` (longest known prefix), else the field."""
    for size in (2, 1):
        option = _OPTIONS.get(tuple(str(part) for part in where[:size]))
        if option is not None:
            return option
    return ".".join(str(part) for part in where) or None


def _check_refs(read: JudgmentFile, base: Path, root: Path, label: str) -> None:
    """R-2, C-3: a precedent's refs resolve inside the repository, checked as records check does
    (relative to the root, or to a run-dir judgment's own dir) before anything is appended; an
    absolute path, a `..` escape or a missing file or pointer is BadInput naming the line."""
    refs = read.fields["evidence_ref"]
    for index, ref in enumerate([refs] if isinstance(refs, str) else refs):
        try:
            resolve_ref(ref, base=base, root=root)
        except BrokenRef as broken:
            where: tuple[str | int, ...] = (
                ("evidence_ref", index) if isinstance(refs, list) else ("evidence_ref",)
            )
            raise BadInput(
                str(broken), source=label, line=read.front.line_of(where), field="evidence_ref"
            ) from None


def _rebase(ref: str, base: Path, root: Path) -> str:
    """A run-dir judgment's ref (relative to its own dir) as a ref relative to the root."""
    if base == root:
        return ref
    parsed = parse_ref(ref)
    target = Path(os.path.normpath(base / parsed.path))
    try:
        path = target.relative_to(root).as_posix()
    except ValueError:
        return ref  # records check reports it
    if parsed.pointer is not None:
        return f"{path}#{parsed.pointer}"
    if parsed.line is not None:
        return f"{path}:{parsed.line}"
    return path
