"""A Markdown page read the way a CommonMark renderer (GitHub's) reads it, for tests of the docs.

The code blocks a test runs or quotes are the fences markdown-it-py finds, never a regular
expression's guess. `Page.problems()` names what a renderer does to a page that its author did not
mean: a fence that never closes (it runs on, and everything after it is shown as code) and a
heading that did not survive as a heading.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

SHELLS = frozenset({"bash", "sh"})
# A `##`/`###` ATX heading line of the source (up to three spaces of indent, CommonMark 4.2).
HEADING = re.compile(r"^ {0,3}#{2,3}(?:[ \t]|$)")
# Inside a fence of these languages a heading line is a sample of a Markdown file, not lost.
MARKDOWN_SAMPLES = frozenset({"markdown", "md"})
# The blockquote markers in front of a fence line that sits inside a quote.
QUOTE_PREFIX = re.compile(r"^(?: {0,3}> ?)*")


@dataclass(frozen=True)
class Fence:
    """One fenced code block. Lines are 1-based lines of the source: `line` is the opening line,
    `end_line` the last line the block holds (its closing marker when it has one)."""

    language: str
    body: str
    marker: str
    line: int
    end_line: int
    closed: bool
    swallowed: tuple[int, ...]  # opening lines of other fences read as this one's text

    @property
    def intact(self) -> bool:
        """True when the block ends at its own closing marker and holds no other fence."""
        return self.closed and not self.swallowed


@dataclass(frozen=True)
class Page:
    """A parsed Markdown page: its name (for messages), its source, its fences and the lines of
    the `##`/`###` headings the parser found."""

    name: str
    source: str
    fences: tuple[Fence, ...]
    heading_lines: frozenset[int]

    @classmethod
    def read(cls, path: Path, root: Path | None = None) -> Page:
        """The page at `path`, named relative to `root` when given."""
        name = path.relative_to(root).as_posix() if root is not None else path.name
        return cls.parse(path.read_text(encoding="utf-8"), name=name)

    @classmethod
    def parse(cls, source: str, name: str = "<page>") -> Page:
        """The page of Markdown text `source`."""
        lines = source.splitlines()
        fences: list[Fence] = []
        headings: set[int] = set()
        for token in MarkdownIt("commonmark").parse(source):
            if token.map is None:
                continue
            if token.type == "fence":
                fences.append(_fence(token.info, token.content, token.markup, token.map, lines))
            elif token.type == "heading_open" and token.tag in ("h2", "h3"):
                headings.add(token.map[0] + 1)
        return cls(name, source, tuple(fences), frozenset(headings))

    def blocks(self, languages: Collection[str]) -> list[Fence]:
        """The fences whose language (the info string's first word) is one of `languages`."""
        return [fence for fence in self.fences if fence.language in languages]

    def shell_blocks(self) -> list[Fence]:
        """The `bash` and `sh` fences, in page order: what a reader pastes into a shell."""
        return self.blocks(SHELLS)

    def problems(self) -> list[str]:
        """Every fence that does not close where its author meant it to, and every `##`/`###`
        heading line of the source the parser did not read as a heading; `name:line: message`
        each, in page order."""
        found: list[tuple[int, str]] = []
        for fence in self.fences:
            opening = f"the {fence.marker}{fence.language} fence opened here never closes"
            if not fence.closed:
                found.append((fence.line, f"{opening}: it runs on to line {fence.end_line}"))
            elif fence.swallowed:
                where = ", ".join(str(line) for line in fence.swallowed)
                where = f"line {where}" if len(fence.swallowed) == 1 else f"lines {where}"
                found.append(
                    (
                        fence.line,
                        f"{opening}: it takes the fence opening at {where} as its text,"
                        f" and line {fence.end_line} closes it",
                    )
                )
        samples = [
            range(fence.line, fence.end_line + 1)
            for fence in self.fences
            if fence.intact and fence.language in MARKDOWN_SAMPLES
        ]
        for number, text in enumerate(self.source.splitlines(), start=1):
            if HEADING.match(text) is None or number in self.heading_lines:
                continue
            if any(number in sample for sample in samples):
                continue
            found.append((number, f"the heading {text.strip()!r} is not rendered as a heading"))
        return [f"{self.name}:{line}: {message}" for line, message in sorted(found)]


def _fence(info: str, body: str, marker: str, span: list[int], lines: list[str]) -> Fence:
    """A Fence from a markdown-it fence token's fields. The parser gives no sign of a missing
    closing marker — an unclosed fence just ends with its container, often the document — so the
    source is read: the block's last line must be a closing marker (CommonMark 4.5: the fence's
    character at least as many times, nothing else, indented less than a code block), and no
    line inside may open a fence with the same marker (only a closing marker ends a fence, so such
    a line means an earlier fence never closed and took this one's opening line as its text)."""
    start, end = span  # 0-based, end exclusive
    indent = _indent(lines[start])
    last = lines[end - 1] if start < end - 1 <= len(lines) else None
    closed = last is not None and _closes(last, marker, indent)
    inside = range(start + 1, min(end - 1 if closed else end, len(lines)))
    swallowed = tuple(n + 1 for n in inside if _opens(lines[n], marker, indent))
    words = info.split()
    return Fence(words[0] if words else "", body, marker, start + 1, end, closed, swallowed)


def _indent(line: str) -> int:
    """Columns of indentation after any blockquote markers."""
    text = QUOTE_PREFIX.sub("", line, count=1)
    return len(text) - len(text.lstrip(" "))


def _marker_line(line: str, marker: str, indent: int) -> str | None:
    """The line's text from its marker on, when it starts with `marker` at most three columns
    deeper than the opening fence (deeper is the text of an indented code block); else None."""
    text = QUOTE_PREFIX.sub("", line, count=1)
    stripped = text.lstrip(" ")
    if len(text) - len(stripped) > indent + 3 or not stripped.startswith(marker):
        return None
    return stripped


def _closes(line: str, marker: str, indent: int) -> bool:
    text = _marker_line(line, marker, indent)
    return text is not None and set(text.rstrip()) == {marker[0]}


def _opens(line: str, marker: str, indent: int) -> bool:
    return _marker_line(line, marker, indent) is not None
