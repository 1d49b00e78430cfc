"""evidence_ref: a pointer at committed evidence — `path`, `path#/json/pointer` or `path:line`.

T-6 and R-6: every evidence_ref must resolve inside the repository — no absolute paths, no `..`
escapes, the file present, the JSON pointer or line present in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput, BrokenRef
from tribunal.paths import SCRATCH_DIRS, inside, os_refusal, scratch_dir_of

_LINE_FORM = re.compile(r"^(?P<path>.+):(?P<line>[0-9]+)$")
_LONGEST_LINE_NUMBER = 18  # digits: no file has more lines (and int() refuses thousands)


@dataclass(frozen=True)
class EvidenceRef:
    """A parsed evidence_ref: a path, optionally a JSON pointer or a 1-based line in it."""

    path: str
    pointer: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        if self.pointer is not None:
            return f"{self.path}#{self.pointer}"
        if self.line is not None:
            return f"{self.path}:{self.line}"
        return self.path


def distinct_refs(refs: Iterable[str]) -> list[str]:
    """`refs` without repeats, first occurrence first: a judgment cites each evidence_ref once."""
    return list(dict.fromkeys(refs))


def parse_ref(text: str) -> EvidenceRef:
    """Split an evidence_ref into path and pointer/line. Raises BrokenRef when it has no path."""
    text = text.strip()
    if "#" in text:
        path, _, pointer = text.partition("#")
        if pointer and not pointer.startswith("/"):
            raise BrokenRef(f"{text}: a JSON pointer starts with '/'")
        ref = EvidenceRef(path=path, pointer=pointer)
    elif (match := _LINE_FORM.match(text)) is not None:
        if len(match["line"]) > _LONGEST_LINE_NUMBER:
            raise BrokenRef(f"{match['path']}:{match['line'][:12]}...: line number too large")
        ref = EvidenceRef(path=match["path"], line=int(match["line"]))
    else:
        ref = EvidenceRef(path=text)
    if not ref.path:
        raise BrokenRef(f"{text!r}: names no file")
    return ref


def resolve_ref(text: str, *, base: Path, root: Path) -> Path:
    """Check that `text` resolves to evidence inside `root`; return the file it names.

    `base` is the directory relative paths start from (the root, or a run dir's own dir).
    Raises BrokenRef saying what does not resolve.
    """
    ref = parse_ref(text)
    if Path(ref.path).is_absolute():
        raise BrokenRef(f"{text}: absolute path; evidence_ref must be relative to the repository")
    try:
        target = (base / ref.path).resolve()
        if not inside(target, root):
            raise BrokenRef(f"{text}: escapes the repository")
        if not target.is_file():
            raise BrokenRef(f"{text}: no such file")
        if ref.line is not None:
            _check_line(text, target, ref.line)
    except (OSError, ValueError) as error:
        # C-3: a NUL byte, a name too long, a file that cannot be read: the system's refusal
        # is the ref's problem, never an internal error.
        raise BrokenRef(f"{text!r}: not a path that can be opened ({os_refusal(error)})") from None
    if ref.pointer is not None:
        _check_pointer(text, target, ref.pointer)
    return target


def admit_evidence_ref(
    text: str,
    *,
    root: Path | None,
    scratch: Sequence[str] = SCRATCH_DIRS,
    base: Path | None = None,
) -> None:
    """T-6: the one check that an evidence_ref points at a committed input — never into a
    scratch directory of `scratch` (those files are reproduced, not cited), and, with `root`,
    resolving inside it (relative to `base`, default the root). Raises BrokenRef saying which."""
    directory = scratch_dir_of(text.strip(), scratch)
    if directory is not None:
        raise BrokenRef(
            f"{text!r} points at scratch output under {directory}/; "
            "evidence must be committed inputs"
        )
    if root is not None:
        resolve_ref(text, base=base if base is not None else root, root=root)


def _check_line(text: str, target: Path, line: int) -> None:
    count = len(target.read_bytes().splitlines())
    if not 1 <= line <= count:
        raise BrokenRef(f"{text}: line {line} does not exist ({count} lines)")


def _check_pointer(text: str, target: Path, pointer: str) -> None:
    from tribunal.documents import load_any

    try:
        node: Any = load_any(target, str(target)).data
    except BadInput as exc:
        raise BrokenRef(f"{text}: cannot read the target: {exc.message}") from None
    for token in pointer.split("/")[1:]:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise BrokenRef(f"{text}: pointer does not resolve at {key!r}")


RUN_STAMP = ".tribunal-stamp"  # B-5: a directory holding it is a run dir


def evidence_base(document: Path, root: Path) -> Path:
    """The directory a record's evidence_refs start from (R-6).

    A judgment inside a run dir (a directory holding `.tribunal-stamp`, itself or an ancestor
    below the root) resolves relative to its own directory; every other record, to the root.
    """
    directory = document.resolve().parent
    root = root.resolve()
    for candidate in (directory, *directory.parents):
        if (candidate / RUN_STAMP).is_file():
            return directory
        if candidate == root:
            break
    return root
