"""The text of `envelope.md` (E-1): the review contract, then every file whole and verbatim.

The text is built as segments that remember where their words came from (a file and its first
line, a contract field, or the envelope's own structure), so the identity scan (E-3) can name
`path:line` for any hit anywhere in the envelope.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from tribunal.enums import FileRole
from tribunal.jury.envelope.contract import Contract

ENVELOPE_NAME = "envelope.md"
NO_NEWLINE_NOTE = "(no newline at end of file)\n"

_BACKTICK_RUN = re.compile(r"`+")
_PREAMBLE = """\
# Envelope

The change under review, read from commit objects. Every file below is the whole file as it
stands after the change, verbatim between fences: line 1 is the first line after the opening
fence. Deleted files are listed by path only.
"""
_SECTIONS = (
    (FileRole.CHANGED, "Changed files"),
    (FileRole.TEST, "Test files"),
    (FileRole.DELETED, "Deleted files"),
)


@dataclass(frozen=True)
class Segment:
    """A run of envelope text and its origin.

    `source` None means the envelope's own words (reported as `envelope.md:line`); otherwise
    the file or contract the text came from, `line` the line of `source` it starts on (None when
    the text is a path, not content), and `field` the contract field or `path`."""

    text: str
    source: str | None = None
    line: int | None = None
    field: str | None = None


@dataclass(frozen=True)
class EnvelopeFile:
    """One file of the envelope: `text` is its whole content when it is UTF-8 text, None when it
    is deleted, binary or a submodule (then `note` says why there is no content)."""

    path: str
    role: FileRole
    sha256: str | None
    text: str | None
    note: str | None = None


def render(contract: Contract, files: list[EnvelopeFile]) -> list[Segment]:
    """The segments of `envelope.md`, in order: preamble, contract, changed, test, deleted."""
    segments = [Segment(_PREAMBLE), *_contract(contract)]
    for role, title in _SECTIONS:
        chosen = [file for file in files if file.role is role]
        segments.append(Segment(f"\n## {title} ({len(chosen)})\n"))
        if not chosen:
            segments.append(Segment("\nNone.\n"))
        elif role is FileRole.DELETED:
            segments.append(Segment("\n"))
            for file in chosen:
                segments += [Segment("- "), _path_segment(file.path), Segment("\n")]
        else:
            for file in chosen:
                segments += list(_file(file))
    return segments


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in `text`, so `text` cannot close it."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def _contract(contract: Contract) -> Iterator[Segment]:
    yield Segment("\n## Review contract\n\nIntent: ")
    yield Segment(contract.intent, contract.label, contract.line_of(("intent",)), "intent")
    yield Segment("\n\nCriteria:\n\n")
    for index, criterion in enumerate(contract.criteria):
        where = ("criteria", index)
        yield Segment(f"{index + 1}. ")
        # Continuation lines are indented so a multi-line criterion stays one list item.
        text = "\n   ".join(criterion.strip().splitlines())
        yield Segment(text, contract.label, contract.line_of(where), f"criteria[{index}]")
        yield Segment("\n")


def _file(file: EnvelopeFile) -> Iterator[Segment]:
    yield Segment("\n### ")
    yield _path_segment(file.path)
    yield Segment("\n\n")
    if file.text is None:
        yield Segment(f"({file.note})\n")
        return
    fence = fence_for(file.text)
    yield Segment(f"{fence}\n")
    yield Segment(file.text, file.path, 1)
    ends_cleanly = file.text == "" or file.text.endswith("\n")
    yield Segment(f"{'' if ends_cleanly else chr(10)}{fence}\n")
    if not ends_cleanly:
        yield Segment(NO_NEWLINE_NOTE)


def shown_path(path: str) -> str:
    """How `path` is written in envelope.md: as is, or JSON-quoted when it holds a control
    character (a newline in a path could otherwise fake a header)."""
    return json.dumps(path, ensure_ascii=False) if any(ord(c) < 32 for c in path) else path


def _path_segment(path: str) -> Segment:
    return Segment(shown_path(path), path, None, "path")
