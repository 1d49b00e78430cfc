"""A Markdown page read the way a CommonMark renderer (GitHub's) reads it, for tests of the docs.

The code blocks a test runs or quotes are the fences markdown-it-py finds, never a regular
expression's guess. `Page.problems()` names what a renderer does to a page that its author did not
mean: a fence that never closes (it runs on, and everything after it is shown as code) and a
heading that did not survive as a heading. `Page.links` and `Page.anchors` are what a link between
pages points at and what it may land on.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

SHELLS = frozenset({"bash", "sh"})
# A `##`/`###` ATX heading line of the source (up to three spaces of indent, CommonMark 4.2).
HEADING = re.compile(r"^ {0,3}#{2,3}(?:[ \t]|$)")
# Inside a fence of these languages a heading line is a sample of a Markdown file, not lost.
MARKDOWN_SAMPLES = frozenset({"markdown", "md"})
# The blockquote markers in front of a fence line that sits inside a quote.
QUOTE_PREFIX = re.compile(r"^(?: {0,3}> ?)*")
# What GitHub drops from a heading's text to make its anchor: all but letters, digits, `-`, `_`
# and spaces (each space then becomes `-`).
NOT_IN_ANCHOR = re.compile(r"[^\w\- ]")


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
class Link:
    """One inline link of a page: where it points (`href`, as written) and its 1-based line."""

    href: str
    line: int


@dataclass(frozen=True)
class Page:
    """A parsed Markdown page: its name (for messages), its source, its fences, the lines of
    the `##`/`###` headings the parser found, its links, and the anchors its headings get."""

    name: str
    source: str
    fences: tuple[Fence, ...]
    heading_lines: frozenset[int]
    links: tuple[Link, ...] = ()
    anchors: frozenset[str] = frozenset()

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
        links: list[Link] = []
        anchors: list[str] = []
        anchor_counts: dict[str, int] = {}
        tokens = MarkdownIt("commonmark").parse(source)
        for index, token in enumerate(tokens):
            if token.map is None:
                continue
            if token.type == "fence":
                fences.append(_fence(token.info, token.content, token.markup, token.map, lines))
            elif token.type == "heading_open":
                if token.tag in ("h2", "h3"):
                    headings.add(token.map[0] + 1)
                base = _anchor(tokens[index + 1].children or [])
                seen = anchor_counts.get(base, 0)
                anchor_counts[base] = seen + 1
                anchors.append(f"{base}-{seen}" if seen else base)  # GitHub: foo, foo-1, ...
            elif token.type == "inline":
                links.extend(_links(token.children or [], token.map, lines))
        return cls(
            name, source, tuple(fences), frozenset(headings), tuple(links), frozenset(anchors)
        )

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


def _anchor(children: list[Token]) -> str:
    """The anchor GitHub gives the first heading of inline `children`: its text lower-cased,
    punctuation dropped, each space a `-`."""
    text = "".join(child.content for child in children if child.type in ("text", "code_inline"))
    return NOT_IN_ANCHOR.sub("", text.strip().lower()).replace(" ", "-")


def _links(children: list[Token], span: list[int], lines: list[str]) -> list[Link]:
    """The links among an inline token's `children`, each with the first line of the block's
    `span` that holds its target."""
    found: list[Link] = []
    for child in children:
        href = child.attrGet("href") if child.type == "link_open" else None
        if not isinstance(href, str):
            continue
        start, end = span
        line = next((n for n in range(start, end) if f"({href}" in lines[n]), start)
        found.append(Link(href, line + 1))
    return found


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
