"""`tribunal records check` (R-6): every judgment and precedents.md, checked like code.

A malformed record is a problem to report, not bad input: the check collects every problem as
`file:line: message` and never stops at the first one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tribunal.errors import BadInput, BrokenRef
from tribunal.frontmatter import read_judgment
from tribunal.paths import display_path, inside
from tribunal.precedents.entry import PrecedentsFile
from tribunal.precedents.next_check import when_problems
from tribunal.precedents.parsing import read_precedents
from tribunal.records.walk import find_records
from tribunal.refs import evidence_base, resolve_ref


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in one record file."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"

    @classmethod
    def of(cls, error: BadInput, path: str) -> Problem:
        """A problem from a BadInput about the file shown as `path`."""
        message = f"{error.field}: {error.message}" if error.field else error.message
        return cls(path, error.line or 1, message)


@dataclass
class CheckReport:
    """What `records check` found."""

    problems: list[Problem] = field(default_factory=list)
    judgments: int = 0
    precedents_files: int = 0
    precedents: int = 0

    @property
    def summary(self) -> str:
        """The one-line summary printed at the end."""
        counted = (
            f"{self.judgments} judgment(s), {self.precedents_files} precedents file(s) "
            f"({self.precedents} precedent(s))"
        )
        if not self.problems:
            return f"records check: {counted}: no problems"
        return f"records check: {counted}: {len(self.problems)} problem(s)"


def check_records(
    path: Path,
    root: Path,
    *,
    excludes: tuple[str, ...] = (),
    extra_precedents: tuple[Path, ...] = (),
) -> CheckReport:
    """Check every record under `path` (R-6) and return the report; raises only TribunalError
    when the files cannot be listed. `extra_precedents` (e.g. the configured precedents file)
    count as known IDs for `linked_precedents`."""
    root = root.resolve()
    records = find_records(path, root, excludes)
    for extra in extra_precedents:
        listed = {file.resolve() for file in records.precedents}
        if extra.is_file() and extra.resolve() not in listed and inside(extra, path):
            records.precedents.append(extra.resolve())
    report = CheckReport()
    known_ids: set[str] = set()
    for file in records.precedents:
        parsed = _check_precedents(file, root, report)
        known_ids.update(entry.case_id for entry in parsed.entries)
    # Linked precedents may live in a precedents file outside PATH (the root's, the configured).
    if path.resolve() != root:
        for file in find_records(root, root, excludes).precedents:
            known_ids.update(_ids_of(file, root))
    for file in extra_precedents:
        if file.is_file():
            known_ids.update(_ids_of(file, root))
    for file in records.judgments:
        _check_judgment(file, root, known_ids, report)
    report.problems.sort()
    return report


def _check_precedents(file: Path, root: Path, report: CheckReport) -> PrecedentsFile:
    label = display_path(file, root)
    report.precedents_files += 1
    try:
        parsed = read_precedents(file, label)
    except BadInput as error:
        report.problems.append(Problem.of(error, label))
        return PrecedentsFile(label, "", [], [])
    report.precedents += len(parsed.entries)
    for problem in [*parsed.problems, *parsed.duplicate_problems(), *when_problems(parsed)]:
        report.problems.append(Problem.of(problem, label))
    ids = {entry.case_id for entry in parsed.entries}
    for entry in parsed.entries:
        for index, ref in enumerate(entry.evidence_refs):
            line = entry.line_of(f"evidence_ref.{index}")
            _check_ref(ref, root, root, label, line, report)
        if entry.supersedes is not None and entry.supersedes not in ids:
            message = f"supersedes: no entry {entry.supersedes} in this file"
            report.problems.append(Problem(label, entry.line_of("supersedes"), message))
    return parsed


def _ids_of(file: Path, root: Path) -> set[str]:
    try:
        parsed = read_precedents(file, display_path(file, root), strict=False)
    except BadInput:
        return set()
    return {entry.case_id for entry in parsed.entries}


def _check_judgment(file: Path, root: Path, known_ids: set[str], report: CheckReport) -> None:
    label = display_path(file, root)
    report.judgments += 1
    try:
        judgment = read_judgment(file, label)
    except BadInput as error:
        report.problems.append(Problem.of(error, label))
        return
    front = judgment.front
    refs = judgment.fields["evidence_ref"]
    base = evidence_base(file, root)
    for index, ref in enumerate([refs] if isinstance(refs, str) else refs):
        where = ("evidence_ref", index) if isinstance(refs, list) else ("evidence_ref",)
        _check_ref(ref, base, root, label, front.line_of(where) or 1, report)
    for index, case_id in enumerate(judgment.fields.get("linked_precedents", [])):
        if case_id not in known_ids:
            line = front.line_of(("linked_precedents", index)) or 1
            report.problems.append(
                Problem(label, line, f"linked_precedents: {case_id} is in no precedents.md")
            )


def _check_ref(
    ref: str, base: Path, root: Path, label: str, line: int, report: CheckReport
) -> None:
    try:
        resolve_ref(ref, base=base, root=root)
    except BrokenRef as error:
        report.problems.append(Problem(label, line, f"evidence_ref: {error}"))
