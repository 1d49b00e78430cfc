"""The text of `envelope.md` (E-1): the review contract, then every file whole and verbatim.

The text is built as segments that remember where their words came from (a file and its first
line, a contract field, or the envelope's own structure), so the identity scan (E-3) can name
`path:line` for any hit anywhere in the envelope.

E-5: every line of a file is shown after its line number and a bar (`  6 | return -x`), so a
juror can read the number it cites instead of counting. The gutter is how the file is shown, not
what it is: the manifest hashes the file's own bytes, citations are checked against them, and
`number_lines` / `unnumber_lines` are exact inverses (read.py cuts files back out with the
latter). A line is what ends at a newline (`file_lines`): the gutter and the citation check count
the same lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tribunal.enums import FileRole
from tribunal.jury.envelope.contract import Contract, is_conventional_test_file

ENVELOPE_NAME = "envelope.md"
NO_NEWLINE_NOTE = "(no newline at end of file)\n"

_BACKTICK_RUN = re.compile(r"`+")
_PREAMBLE = """\
# Envelope

The change under review, read from commit objects. Every file below is the whole file as it
stands after the change, verbatim between fences, each line shown after its line number and a
bar (line 12 starts with `  12 | `): the number and the bar are not part of the file. Deleted
files are listed by path only.
"""
# E-5: the line number is right-aligned in at least this many columns (wider for longer files).
GUTTER_WIDTH = 4
# A gutter as a juror may carry it into a quote: `6 | `, `  6 |     `, `6|` (spaces optional).
QUOTED_GUTTER = re.compile(r"^[ \t]*[0-9]+[ \t]*\|[ \t]?", re.M)
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


@dataclass(frozen=True)
class ExampleCitation:
    """A real line of the envelope, shown by the output protocol as its example citation (E-5):
    `quote` is that line's text without its indentation."""

    path: str
    line: int
    quote: str

    @property
    def location(self) -> str:
        """`path:line`, as a juror writes it."""
        return f"{self.path}:{self.line}"


# E-5: the longest line the protocol's example quotes; a longer line is passed over.
_EXAMPLE_QUOTE_CHARS = 60
_EXAMPLE_UNQUOTABLE = frozenset('"\\`')


def example_citation(files: Sequence[EnvelopeFile]) -> ExampleCitation | None:
    """The line the output protocol shows as its example citation, or None when no file of the
    envelope has a line fit to show (then the protocol shows no citation at all, never a
    placeholder).

    The line is chosen so that copying it costs an honest juror nothing. Small models copy the
    example: in the live-juror research, a 0.5B coder model cited the example's own line in 8 of
    8 seats. Such a copy is never counted (V-4 `example_copied`), and neither is an honest
    citation of that line, so it must be a line no review needs: the first plain line of a test
    file (usually an import) — never the changed code, which is what every juror should cite.
    Failing a test file, the first plain line of the first file that has one. Plain: not blank,
    at most 60 characters, with a letter or digit and no quote mark, backslash or backtick, so it
    reads the same as a JSON string and as text."""
    # A path shown JSON-quoted (a control character in it) is not one a juror writes back.
    with_text = [
        file for file in files if file.text is not None and shown_path(file.path) == file.path
    ]
    tests = [file for file in with_text if _is_test(file)]
    for file in [*tests, *(file for file in with_text if file not in tests)]:
        assert file.text is not None
        for number, line in enumerate(file_lines(file.text), 1):
            quote = line.strip()
            if _quotable(quote):
                return ExampleCitation(file.path, number, quote)
    return None


def _is_test(file: EnvelopeFile) -> bool:
    return file.role is FileRole.TEST or is_conventional_test_file(file.path)


def _quotable(quote: str) -> bool:
    return (
        0 < len(quote) <= _EXAMPLE_QUOTE_CHARS
        and any(char.isalnum() for char in quote)
        and not _EXAMPLE_UNQUOTABLE.intersection(quote)
        and quote.isprintable()
    )


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
    yield Segment(number_lines(file.text), file.path, 1)
    ends_cleanly = file.text == "" or file.text.endswith("\n")
    yield Segment(f"{'' if ends_cleanly else chr(10)}{fence}\n")
    if not ends_cleanly:
        yield Segment(NO_NEWLINE_NOTE)


def file_text(path: str, text: str) -> str:
    """`text`, the whole of the file at `path`, as the envelope shows a file: `### path`, then
    the text between fences, each line after its number and a bar (E-5). For material that is
    not a change (P-11: a plan and its criteria), shown the way every juror reads files."""
    file = EnvelopeFile(path, FileRole.CHANGED, None, text)
    return "".join(segment.text for segment in _file(file))


def shown_path(path: str) -> str:
    """How `path` is written in envelope.md: as is, or JSON-quoted when it holds a control
    character (a newline in a path could otherwise fake a header)."""
    return json.dumps(path, ensure_ascii=False) if any(ord(c) < 32 for c in path) else path


def _path_segment(path: str) -> Segment:
    return Segment(shown_path(path), path, None, "path")


def file_lines(text: str) -> list[str]:
    """The lines of a file's `text`, each without its newline: a line is what ends at a newline
    (or at the end of the text). Other characters Python's `splitlines` breaks at (form feed,
    U+2028, ...) stay inside their line, as git and editors count them."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ends with a newline (or is empty): no line after it
    return lines


def number_lines(text: str) -> str:
    """`text` as the envelope shows it (E-5): each line after its number and a bar."""
    lines = file_lines(text)
    width = _gutter_width(len(lines))
    shown = [f"{number:>{width}} |" + (f" {line}" if line else "") for number, line in
             enumerate(lines, 1)]  # fmt: skip
    return "".join(f"{line}\n" for line in shown) if text.endswith("\n") else "\n".join(shown)


def unnumber_lines(shown: str) -> str | None:
    """The file text `number_lines` showed as `shown`, or None when `shown` is not exactly
    such a text (a gutter missing, a wrong number, a missing space after the bar)."""
    lines = file_lines(shown)
    width = _gutter_width(len(lines))
    content: list[str] = []
    for number, line in enumerate(lines, 1):
        gutter = f"{number:>{width}} |"
        rest = line[len(gutter) :]
        if not line.startswith(gutter) or rest == " " or (rest and not rest.startswith(" ")):
            return None
        content.append(rest[1:])
    text = "\n".join(content)
    return text + "\n" if shown.endswith("\n") else text


def _gutter_width(count: int) -> int:
    return max(GUTTER_WIDTH, len(str(count)))
