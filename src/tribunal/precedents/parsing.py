"""Reading precedents.md (R-2): the written form and the tutorial's list form, with file lines.

The written form is a `## PREC-NNN` heading followed by one fenced ```yaml block holding the
fields. The tutorial's form is a YAML list item `- case_id: "PREC-001"` with the same fields, in a
fenced yaml block or bare in the Markdown. Everything else is prose and is kept as written: each
entry records its byte span, so writers (add, renumber) touch nothing outside what they mean to.

Problems never stop the scan: every entry is checked and every problem is collected with its
file line (records check reports them all). `strict=False` is the bulk path (index rebuilds,
adds): PyYAML's C loader with the schema, falling back to the strict ruamel path for any block it
cannot accept, so messages and lines always come from the strict path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from tribunal.documents import parse_yaml, schema_errors
from tribunal.enums import PrecedentForm
from tribunal.errors import BadInput
from tribunal.precedents.entry import (
    Precedent,
    PrecedentsFile,
    id_number,
    id_problem,
    parse_id,
    plainly_valid,
)
from tribunal.precedents.plain_yaml import plain_mapping

_FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\r\n]*?)\s*$")
_HEADING = re.compile(r"^(?P<level>#{1,6})(?:[ \t]+(?P<text>.*?))?[ \t]*$")
_PREC_HEADING = re.compile(r"^(?P<id>PREC-\S*)(?:[ \t].*)?$")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)- case_id[ \t]*:")
_CASE_ID_LINE = re.compile(r"^[ \t]*(?:- )?[ \t]*case_id[ \t]*:")
_ID_NUMBER = re.compile(r"PREC-(?P<number>[0-9]+)")
_FORMS = (
    "an entry is a `## PREC-NNN` heading followed by its fenced yaml block, or a list item "
    "`- case_id: ...`"
)
_YAML_INFO = ("yaml", "yml")
_ID_FIELDS = ("case_id", "supersedes")


@dataclass
class _Lines:
    """The file split into lines, with each line's byte offset."""

    lines: list[str]
    offsets: list[int]  # offsets[i] = byte offset of line i; offsets[-1] = total

    @classmethod
    def of(cls, text: str) -> _Lines:
        lines = text.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line.encode("utf-8")))
        return cls(lines, offsets)


@dataclass
class _Section:
    case_id: str
    heading_index: int
    has_entry: bool = False
    misplaced: bool = False  # a PREC heading at another level: reported, its block not an entry


def parse_precedents(text: str, label: str, *, strict: bool = True) -> PrecedentsFile:
    """Parse precedents.md text. Never raises for bad content: problems are collected.

    Returns a PrecedentsFile whose `problems` name file lines (BadInput each).
    """
    return _Parser(text, label, strict).run()


def read_precedents(path: Any, label: str, *, strict: bool = True) -> PrecedentsFile:
    """Read and parse the precedents file at `path`; a missing file is BadInput.

    An empty file is a file with no entries (a fresh `tribunal init` writes only prose).
    """
    from pathlib import Path

    from tribunal.documents import read_text

    raw = Path(path)
    if raw.is_file() and raw.stat().st_size == 0:
        return PrecedentsFile(label=label, text="", entries=[], problems=[])
    try:
        text = read_text(raw, label)
    except BadInput as error:
        if error.message == "file is empty":  # whitespace only: still a file with no entries
            return PrecedentsFile(label=label, text=raw.read_text("utf-8"), entries=[], problems=[])
        raise
    return parse_precedents(text, label, strict=strict)


class _Parser:
    def __init__(self, text: str, label: str, strict: bool) -> None:
        self.text = text
        self.label = label
        self.strict = strict
        self.at = _Lines.of(text)
        self.entries: list[Precedent] = []
        self.problems: list[BadInput] = []
        self.seen: set[int] = set()  # entry-like ID numbers that are not (valid) entries

    def run(self) -> PrecedentsFile:
        lines = self.at.lines
        section: _Section | None = None
        index = 0
        while index < len(lines):
            line = lines[index].rstrip("\r\n")
            fence = _FENCE_OPEN.match(line)
            if fence is not None:
                end = self._fence_end(index, fence["fence"])
                section = self._fenced(index, end, fence["info"].split(" ")[0].lower(), section)
                index = end + 1
                continue
            heading = _HEADING.match(line)
            if heading is not None:
                section = self._heading(
                    index, len(heading["level"]), heading["text"] or "", section
                )
                index += 1
                continue
            item = _ITEM.match(line)
            if item is not None:
                end = self._item_end(index, len(item["indent"]))
                self._item(index, end, len(item["indent"]), section)
                section = None  # a heading waiting for its fields takes this item as them
                index = end + 1
                continue
            if section is None and _CASE_ID_LINE.match(line):
                self._stray_case_id(index, "a YAML mapping holding case_id outside an entry")
            index += 1
        self._close(section)
        self.problems.sort(key=lambda problem: problem.line or 0)
        return PrecedentsFile(self.label, self.text, self.entries, self.problems, self.seen)

    # --- structure -------------------------------------------------------------------------

    def _fence_end(self, start: int, fence: str) -> int:
        """Index of the closing fence line (CommonMark: an unclosed fence runs to the end)."""
        closing = _closing_fence(fence)
        for index in range(start + 1, len(self.at.lines)):
            if closing.match(self.at.lines[index].rstrip("\r\n")):
                return index
        return len(self.at.lines) - 1

    def _closed(self, start: int, end: int) -> bool:
        return end > start and _FENCE_OPEN.match(self.at.lines[end].rstrip("\r\n")) is not None

    def _heading(
        self, index: int, level: int, text: str, section: _Section | None
    ) -> _Section | None:
        match = _PREC_HEADING.match(text)
        entry_like = match is not None and _ID_NUMBER.fullmatch(match["id"]) is not None
        if level > 2 and not entry_like:
            return section  # a level-3+ heading inside a section is prose and ends nothing
        self._close(section)
        if match is None or (level != 2 and not entry_like):
            return None  # any other level-1/2 heading is prose and ends the section
        case_id = match["id"]
        self._note_ids(case_id)
        if level != 2:
            # a PREC heading at another level looks like an entry but is none; silently
            # treating it as prose hid it from search and let add reuse its ID.
            self._problem(index + 1, f"heading: {case_id} is a level-{level} heading; {_FORMS}")
            return _Section(case_id=case_id, heading_index=index, misplaced=True)
        problem = id_problem(case_id)
        if problem is not None:
            self._problem(index + 1, f"heading: {problem}")
            return None
        return _Section(case_id=case_id, heading_index=index)

    def _close(self, section: _Section | None) -> None:
        if section is not None and not section.has_entry and not section.misplaced:
            self._problem(
                section.heading_index + 1,
                f"{section.case_id}: no fenced yaml block with its fields under the heading",
            )

    def _fenced(self, start: int, end: int, info: str, section: _Section | None) -> _Section | None:
        """Handle a fenced block; return the section still waiting for its yaml block, if any."""
        if info not in _YAML_INFO:
            return section  # code in prose
        body_start = start + 1
        body_end = end if self._closed(start, end) else end + 1
        body = self.at.lines[body_start:body_end]
        if section is not None and section.misplaced:
            section.has_entry = True  # its heading was reported: the block is not an entry
            self._note_ids("".join(body))
            return None
        if section is not None:
            # The first yaml block after the heading is the entry; what follows it is prose.
            section.has_entry = True
            if not self._closed(start, end):
                self._problem(start + 1, f"{section.case_id}: the yaml block is not closed")
                return None
            span = (self.at.offsets[section.heading_index], self.at.offsets[end + 1])
            self._entry(
                "".join(body),
                body_start,
                span,
                PrecedentForm.SECTION,
                section.heading_index + 1,
                heading_id=section.case_id,
            )
            return None
        first = next((ln for ln in body if ln.strip() and not ln.lstrip().startswith("#")), "")
        if _ITEM.match(first) is None:
            # A yaml example in prose, not the tutorial's list: unless it holds case_id, when it
            # looks like an entry that is in no recognised form.
            for index in range(body_start, body_end):
                if _CASE_ID_LINE.match(self.at.lines[index]):
                    self._stray_case_id(
                        index, "a fenced yaml block holding case_id outside an entry"
                    )
            return None
        for item_start, item_end, indent in self._items_in(body_start, body_end):
            self._item(item_start, item_end, indent)
        return None

    def _items_in(self, start: int, stop: int) -> Iterator[tuple[int, int, int]]:
        """(first, last line index, indent) of each list item in a fenced list block."""
        index = start
        while index < stop:
            match = _ITEM.match(self.at.lines[index])
            if match is None:
                if self.at.lines[index].strip() and not self.at.lines[index].lstrip().startswith(
                    "#"
                ):
                    self._problem(index + 1, "expected a list item '- case_id: ...'")
                index += 1
                continue
            end = min(self._item_end(index, len(match["indent"])), stop - 1)
            yield index, end, len(match["indent"])
            index = end + 1

    def _item_end(self, start: int, indent: int) -> int:
        """Last line index of the list item starting at `start` (trailing blanks excluded)."""
        last = start
        for index in range(start + 1, len(self.at.lines)):
            line = self.at.lines[index]
            if not line.strip():
                continue
            width = len(line) - len(line.lstrip(" \t"))
            if width <= indent:
                break
            last = index
        return last

    def _item(self, start: int, end: int, indent: int, section: _Section | None = None) -> None:
        chunk = "".join(
            line[indent:] if line.strip() else "\n" for line in self.at.lines[start : end + 1]
        )
        if section is not None and section.misplaced:  # reported with its heading
            self._note_ids(chunk)
            return
        if section is not None:  # `## PREC-NNN` then a bare item: the heading's entry
            section.has_entry = True
            first = section.heading_index
            span = (self.at.offsets[first], self.at.offsets[end + 1])
            self._entry(
                chunk, start, span, PrecedentForm.SECTION, first + 1, heading_id=section.case_id
            )
            return
        span = (self.at.offsets[start], self.at.offsets[end + 1])
        self._entry(chunk, start, span, PrecedentForm.LIST_ITEM, start + 1, heading_id=None)

    # --- one entry ---------------------------------------------------------------------------

    def _entry(
        self,
        yaml_text: str,
        first_index: int,
        span: tuple[int, int],
        form: PrecedentForm,
        line: int,
        *,
        heading_id: str | None,
    ) -> None:
        """Load, check and record one entry whose YAML starts at line index `first_index`."""
        if not self.strict:
            fast = _fast_load(yaml_text)
            if fast is not None and _acceptable(fast, heading_id):
                self._add(fast, {}, yaml_text, first_index, span, form, line)
                return
        self._note_ids(heading_id or "")
        for text in yaml_text.splitlines():
            if _CASE_ID_LINE.match(text):
                self._note_ids(text)
        try:
            data, lines = parse_yaml(yaml_text, self.label)
        except BadInput as error:
            self._problem(first_index + (error.line or 1), error.message)
            return
        skip = 0
        if isinstance(data, list) and len(data) == 1:
            data, skip = data[0], 1  # the tutorial's one-item list under a heading
        field_lines = {
            ".".join(str(part) for part in path[skip:]): first_index + number
            for path, number in lines.items()
            if len(path) > skip
        }
        if not isinstance(data, dict):
            self._problem(line, "an entry is a mapping of case_id, verdict, evidence_ref, ...")
            return
        before = len(self.problems)
        for message, where in schema_errors(data, "precedent"):
            name = str(where[0]) if where else ""
            if name in _ID_FIELDS and isinstance(data.get(name), str):
                continue  # said better below
            field = ".".join(str(part) for part in where)
            prefixed = field and message != f"unknown field {field!r}"
            self._problem(
                field_lines.get(name, line), f"{field}: {message}" if prefixed else message
            )
        case_id = data.get("case_id")
        for name in _ID_FIELDS:
            value = data.get(name)
            problem = id_problem(value) if isinstance(value, str) else None
            if problem is None and name == "supersedes" and value is not None and value == case_id:
                problem = "an entry cannot supersede itself"
            if problem is not None:
                self._problem(field_lines.get(name, line), f"{name}: {problem}")
        if heading_id is not None and isinstance(case_id, str) and case_id != heading_id:
            self._problem(
                field_lines.get("case_id", line),
                f"case_id: {case_id} disagrees with the heading {heading_id} (line {line})",
            )
        if len(self.problems) == before:
            self._add(data, field_lines, yaml_text, first_index, span, form, line)

    def _add(
        self,
        data: dict[str, Any],
        field_lines: dict[str, int],
        yaml_text: str,
        first_index: int,
        span: tuple[int, int],
        form: PrecedentForm,
        line: int,
    ) -> None:
        id_line = field_lines.get("case_id")
        if id_line is None:
            offset = next(
                (n for n, text in enumerate(yaml_text.splitlines()) if _CASE_ID_LINE.match(text)),
                0,
            )
            id_line = first_index + offset + 1
        case_id = str(data["case_id"])
        number = parse_id(case_id)
        assert number is not None  # checked by the caller
        self.entries.append(
            Precedent(
                case_id=case_id,
                number=number,
                fields=data,
                form=form,
                line=line,
                id_line=id_line,
                span=span,
                field_lines=field_lines,
            )
        )

    def _stray_case_id(self, index: int, what: str) -> None:
        """R-2: a `case_id:` line outside any entry is a problem naming its line."""
        self._note_ids(self.at.lines[index])
        self._problem(index + 1, f"{what}; {_FORMS}")

    def _note_ids(self, text: str) -> None:
        """R-3: remember every PREC number in `text`, so allocation never reuses it."""
        self.seen.update(id_number(match["number"]) for match in _ID_NUMBER.finditer(text))

    def _problem(self, line: int, message: str) -> None:
        self.problems.append(BadInput(message, source=self.label, line=line))


@cache
def _closing_fence(fence: str) -> re.Pattern[str]:
    """CommonMark: a closing fence is the same character, at least as long, nothing after."""
    return re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")


def _fast_load(yaml_text: str) -> dict[str, Any] | None:
    """The bulk path (SPEC §1: PyYAML, C loader when available); None when it cannot decide.

    X-3: text in the plain subset most entries are written in is read without the YAML library
    (`plain_mapping`, exactly what a safe load gives); anything else goes to PyYAML.
    """
    plain = plain_mapping(yaml_text)
    if plain is not None:
        return plain
    from tribunal.yaml_input import load_bulk

    try:
        # C-5, S-5: the one bulk loader — safe, duplicate keys and anchors/aliases refused.
        data = load_bulk(yaml_text, "")
    except BadInput:  # the strict path reports it with its line
        return None
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    return data if isinstance(data, dict) else None


def _acceptable(data: dict[str, Any], heading_id: str | None) -> bool:
    """True when the bulk-loaded entry needs no message: valid, and agreeing with its heading."""
    if not plainly_valid(data):
        return False
    supersedes = data.get("supersedes")
    return (
        bool(heading_id is None or data["case_id"] == heading_id) and supersedes != data["case_id"]
    )
