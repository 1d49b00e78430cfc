"""One precedent: the five fields of R-2 (and `supersedes`), its ID, where it stands in the file.

IDs are `PREC-NNN`: at least three digits, zero-padded (`PREC-001` … `PREC-999`, `PREC-1000`).
The number is what orders and allocates IDs; the text form is canonical, so `PREC-0001` (a second
spelling of 1) is an error rather than a silent alias.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tribunal.enums import JudgmentVerdict, PrecedentForm
from tribunal.errors import BadInput

ID_PATTERN = re.compile(r"^PREC-(?P<number>[0-9]{3,})$")
SCOPE_KEYS = ("domains", "tiers", "modes")
ALL_SCOPE = "all"  # a scope value that matches anything
# the index keeps ID numbers as SQLite integers (signed 64-bit), so no ID goes beyond this.
MAX_NUMBER = 2**63 - 1


def format_id(number: int) -> str:
    """The canonical ID of `number`: `PREC-007`, `PREC-1000`."""
    return f"PREC-{number:03d}"


def id_number(digits: str) -> int:
    """The number the digits of an ID stand for; MAX_NUMBER + 1 for any number beyond
    MAX_NUMBER (so a number too long for int() is never converted)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_NUMBER)):
        return MAX_NUMBER + 1
    return min(int(significant), MAX_NUMBER + 1)


def parse_id(text: str) -> int | None:
    """The number of a canonical ID (`PREC-007` -> 7), or None for anything else (a number
    beyond MAX_NUMBER among them)."""
    match = ID_PATTERN.match(text)
    if match is None:
        return None
    number = id_number(match["number"])
    if not 1 <= number <= MAX_NUMBER or format_id(number) != text:
        return None
    return number


def id_problem(text: str) -> str | None:
    """Why `text` is not a canonical precedent ID, or None when it is one."""
    if parse_id(text) is not None:
        return None
    match = ID_PATTERN.match(text)
    if match is None:
        return f"{text!r} is not a precedent ID (PREC- and at least three digits)"
    number = id_number(match["number"])
    if number < 1:
        return f"{text} is not a precedent ID: numbers start at PREC-001"
    if number > MAX_NUMBER:
        shown = text if len(text) <= 40 else text[:40] + "..."
        return f"{shown} is not a precedent ID: the highest is {format_id(MAX_NUMBER)}"
    return f"{text} is not canonical: write {format_id(number)}"


@dataclass(frozen=True)
class Precedent:
    """A parsed, schema-valid precedents.md entry.

    `span` is the entry's byte range in the file ([start, end)): the heading through the closing
    fence, or the list item's lines. Everything outside the spans is prose and is never rewritten.
    """

    case_id: str
    number: int
    fields: dict[str, Any]
    form: PrecedentForm
    line: int  # the heading, or the list item's first line
    id_line: int  # the line holding `case_id:`
    span: tuple[int, int]
    field_lines: dict[str, int] = field(default_factory=dict, compare=False)  # dotted paths

    @property
    def verdict(self) -> JudgmentVerdict:
        """The precedent's verdict."""
        return JudgmentVerdict(self.fields["verdict"])

    @property
    def evidence_refs(self) -> list[str]:
        """`evidence_ref` as a list (it may be written as one string)."""
        refs = self.fields["evidence_ref"]
        return [refs] if isinstance(refs, str) else list(refs)

    @property
    def supersedes(self) -> str | None:
        """The ID this entry retires, if any."""
        value = self.fields.get("supersedes")
        return value if isinstance(value, str) else None

    @property
    def applies_to_text(self) -> str:
        """The prose of `applies_to` (its `text` when it is a mapping)."""
        value = self.fields["applies_to"]
        return value if isinstance(value, str) else str(value.get("text", ""))

    @property
    def next_check_text(self) -> str:
        """The prose of `next_check` (its `text` when it is `{when, text}`)."""
        value = self.fields["next_check"]
        return value if isinstance(value, str) else str(value["text"])

    @property
    def next_check_when(self) -> str | None:
        """The T-2 expression of `next_check`, stored as text; None when it is prose only."""
        value = self.fields["next_check"]
        return None if isinstance(value, str) else str(value["when"])

    def scope(self, key: str) -> list[str] | None:
        """The declared `domains`/`tiers`/`modes` values, or None when the scope is silent."""
        value = self.fields["applies_to"]
        if isinstance(value, str) or key not in value:
            return None
        declared = value[key]
        return [declared] if isinstance(declared, str) else list(declared)

    def line_of(self, name: str) -> int:
        """The line of field `name` (dotted for nested: `evidence_ref.1`), else of its nearest
        parent, else the entry's line."""
        while name:
            if name in self.field_lines:
                return self.field_lines[name]
            name = name.rpartition(".")[0]
        return self.line


@dataclass
class PrecedentsFile:
    """A parsed precedents.md: its entries in file order and every problem found on the way."""

    label: str
    text: str
    entries: list[Precedent]
    problems: list[BadInput]
    # the numbers of every entry-like ID in the file — entries with problems, PREC headings
    # at another level, `case_id:` outside an entry — so allocation never hands one out again.
    seen_numbers: set[int] = field(default_factory=set)

    @property
    def highest(self) -> int:
        """The highest ID number in the file, counting entry-like IDs that are not entries
        (0 when it has none)."""
        return max([*(entry.number for entry in self.entries), *self.seen_numbers], default=0)

    def next_numbers(self, count: int = 1) -> list[int]:
        """The `count` numbers allocated next (highest + 1 onwards, R-3). Raises BadInput when
        they would go beyond MAX_NUMBER, the highest the index holds."""
        first = self.highest + 1
        if first + count - 1 > MAX_NUMBER:
            raise BadInput(
                f"no precedent ID is left after {format_id(min(self.highest, MAX_NUMBER))}",
                source=self.label,
            )
        return list(range(first, first + count))

    def with_id(self, case_id: str) -> list[Precedent]:
        """Every entry whose case_id is `case_id`, in file order."""
        return [entry for entry in self.entries if entry.case_id == case_id]

    def require_clean(self) -> None:
        """Raise the first problem (BadInput, with file and line) when the file has any."""
        if self.problems:
            raise self.problems[0]

    def duplicate_problems(self) -> list[BadInput]:
        """R-6: one problem per repeated ID, naming the line of each copy."""
        problems: list[BadInput] = []
        seen: dict[str, list[Precedent]] = {}
        for entry in self.entries:
            seen.setdefault(entry.case_id, []).append(entry)
        for case_id, copies in seen.items():
            if len(copies) < 2:
                continue
            lines = ", ".join(str(copy.line) for copy in copies)
            problems.append(
                BadInput(
                    f"duplicate precedent ID {case_id} (lines {lines}); "
                    f"run `tribunal precedent renumber {case_id}`",
                    source=self.label,
                    line=copies[1].line,
                )
            )
        return problems

    def superseded_ids(self) -> set[str]:
        """IDs retired by a later entry's `supersedes` (R-2)."""
        return {entry.supersedes for entry in self.entries if entry.supersedes is not None}


_FIELDS = frozenset(
    {"case_id", "verdict", "evidence_ref", "applies_to", "next_check", "supersedes"}
)
_REQUIRED = _FIELDS - {"supersedes"}
_VERDICTS = frozenset(verdict.value for verdict in JudgmentVerdict)
_APPLIES_KEYS = frozenset({*SCOPE_KEYS, "text"})


def plainly_valid(data: Any) -> bool:
    """The bulk path's check of an entry (index rebuilds of 100,000 entries, X-3): True only for
    entries the `precedent` schema accepts with canonical IDs — it may refuse more than the
    schema (those entries then go through the schema, which names the problem), never less;
    tests/records/test_precedents_file.py holds it to that."""
    if type(data) is not dict or not _REQUIRED <= data.keys() <= _FIELDS:
        return False
    verdict = data["verdict"]
    if type(verdict) is not str or verdict not in _VERDICTS:
        return False
    if not _nonempty_or_list(data["evidence_ref"]):
        return False
    case_id = data["case_id"]
    if type(case_id) is not str or parse_id(case_id) is None:
        return False
    if "supersedes" in data and (
        type(data["supersedes"]) is not str or parse_id(data["supersedes"]) is None
    ):
        return False
    applies, check = data["applies_to"], data["next_check"]
    if type(applies) is dict:
        if not applies or not applies.keys() <= _APPLIES_KEYS:
            return False
        if "text" in applies and not _nonempty(applies["text"]):
            return False
        if not all(_nonempty_or_list(applies[key]) for key in SCOPE_KEYS if key in applies):
            return False
    elif not _nonempty(applies):
        return False
    if type(check) is dict:
        return check.keys() == {"when", "text"} and all(map(_nonempty, check.values()))
    return _nonempty(check)


def _nonempty(value: Any) -> bool:
    return type(value) is str and value != ""


def _nonempty_or_list(value: Any) -> bool:
    if type(value) is list:
        return bool(value) and all(map(_nonempty, value))
    return _nonempty(value)
