"""`tribunal precedent renumber` (R-3): the one audited rewrite of precedents.md.

Two branches that each added an entry merge into two whole entries with the same ID. The entry
added by the later commit gets the next ID (highest + 1); only its heading and its `case_id`
line change. Which entry is later comes from git: `git blame` names the commit that added each
entry's `case_id` line; a descendant is later than its ancestor, otherwise the later committer
time; uncommitted lines are the latest; ties and files outside git fall back to file order.
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import PrecedentForm
from tribunal.errors import BadInput, TribunalError
from tribunal.outputs import check_output_path
from tribunal.paths import display_path
from tribunal.precedents.add import (
    commit_bytes,
    parse_for_write,
    precedents_lock,
    require_inside,
)
from tribunal.precedents.entry import Precedent, format_id

_UNCOMMITTED = "0" * 40


@dataclass(frozen=True)
class Renumbering:
    """One entry that got a new ID."""

    old_id: str
    new_id: str
    line: int
    commit: str | None  # the commit that added it (None: not committed, or not in git)


@dataclass(frozen=True)
class RenumberReport:
    """What `renumber` did, and which judgments cite the ID (they are not rewritten)."""

    file: str
    kept_line: int
    renumbered: list[Renumbering]
    citing: list[str]


def renumber_precedent(
    file: Path, root: Path, case_id: str, *, judgments: Sequence[Path] = ()
) -> RenumberReport:
    """Give every later copy of `case_id` in `file` the next free ID; return what changed, and
    which of `judgments` (the repository's judgment files) cite `case_id`.

    Raises BadInput when `case_id` is not duplicated in the file.
    """
    root = root.resolve()
    target = file.resolve()
    label = display_path(file, root)
    check_output_path(file, "--file", label)  # C-3, as precedent add
    require_inside(file, root, label)
    with precedents_lock(root):
        if not target.is_file():
            raise BadInput("file not found", source=label)
        old = target.read_bytes()
        parsed = parse_for_write(old, label)
        copies = parsed.with_id(case_id)
        if len(copies) < 2:
            raise BadInput(
                f"{case_id} occurs {len(copies)} time(s); only a duplicated ID is renumbered",
                source=label,
            )
        commits = {copy.line: _added_by(root, target, copy) for copy in copies}
        ordered = sorted(copies, key=functools.cmp_to_key(_age(root, commits)))
        data = old
        done: list[Renumbering] = []
        numbers = parsed.next_numbers(len(ordered) - 1)
        # Later entries first in byte order from the end, so earlier spans stay valid.
        for entry, number in zip(
            sorted(ordered[1:], key=lambda e: e.span[0]), numbers, strict=True
        ):
            done.append(Renumbering(case_id, format_id(number), entry.line, commits[entry.line]))
        by_line = {r.line: r.new_id for r in done}
        for entry in sorted(ordered[1:], key=lambda e: e.span[0], reverse=True):
            data = _rewrite_id(data, entry, by_line[entry.line])
        _verify(old, data, parsed.entries, by_line, label)
        commit_bytes(target, old, data, label, midway="precedent-renumber:mid-write")
    return RenumberReport(label, ordered[0].line, done, _citing(root, case_id, judgments))


def _rewrite_id(data: bytes, entry: Precedent, new_id: str) -> bytes:
    """Rewrite the ID on the heading line and the case_id line of `entry`, nothing else."""
    lines = data.splitlines(keepends=True)
    targets = {entry.id_line}
    if entry.form is PrecedentForm.SECTION:
        targets.add(entry.line)
    old_id = entry.case_id.encode()
    pattern = re.compile(rb"(?<![\w-])" + re.escape(old_id) + rb"(?!\w)")
    for number in targets:
        rewritten, count = pattern.subn(new_id.encode(), lines[number - 1], count=1)
        if count != 1:
            raise TribunalError(f"line {number} does not hold {entry.case_id}; not rewritten")
        lines[number - 1] = rewritten
    return b"".join(lines)


def _verify(
    old: bytes, new: bytes, before: list[Precedent], by_line: dict[int, str], label: str
) -> None:
    """Only the renumbered lines differ, and the file reads back with the new IDs."""
    old_lines, new_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    changed = {n + 1 for n, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b}
    allowed = {e.line for e in before if e.line in by_line} | {
        e.id_line for e in before if e.line in by_line
    }
    after = parse_for_write(new, label)
    expected = [by_line.get(e.line, e.case_id) for e in before]
    if not changed <= allowed or [e.case_id for e in after.entries] != expected:
        raise TribunalError(f"{label}: renumbering would change more than the IDs; not written")


def _added_by(root: Path, target: Path, entry: Precedent) -> str | None:
    """The commit that added `entry`'s case_id line, or None (uncommitted, or not in git)."""
    if not (root / ".git").exists():
        return None
    done = subprocess.run(
        [
            "git",
            "blame",
            "--porcelain",
            "-L",
            f"{entry.id_line},{entry.id_line}",
            "--",
            str(target),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout:
        return None
    commit = done.stdout.split(" ", 1)[0]
    return None if commit == _UNCOMMITTED else commit


def _age(root: Path, commits: dict[int, str | None]) -> functools.partial[int]:
    return functools.partial(_compare, root, commits)


def _compare(root: Path, commits: dict[int, str | None], a: Precedent, b: Precedent) -> int:
    """<0 when `a` was added before `b`."""
    first, second = commits[a.line], commits[b.line]
    if first != second:
        if first is None:
            return 1  # uncommitted: the newest
        if second is None:
            return -1
        if _is_ancestor(root, first, second):
            return -1
        if _is_ancestor(root, second, first):
            return 1
        times = _commit_time(root, first), _commit_time(root, second)
        if times[0] != times[1]:
            return -1 if times[0] < times[1] else 1
    return -1 if a.span[0] < b.span[0] else 1


def _is_ancestor(root: Path, older: str, newer: str) -> bool:
    done = subprocess.run(
        ["git", "merge-base", "--is-ancestor", older, newer], cwd=root, capture_output=True
    )
    return done.returncode == 0


def _commit_time(root: Path, commit: str) -> int:
    done = subprocess.run(
        ["git", "show", "-s", "--format=%ct", commit], cwd=root, capture_output=True, text=True
    )
    return int(done.stdout.strip() or 0)


def _citing(root: Path, case_id: str, judgments: Sequence[Path]) -> list[str]:
    """The `judgments` that mention `case_id` (listed, never rewritten: R-1)."""
    pattern = re.compile(r"(?<![\w-])" + re.escape(case_id) + r"(?!\w)")
    found = []
    for judgment in judgments:
        try:
            text = judgment.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if pattern.search(text):
            found.append(display_path(judgment, root))
    return found
