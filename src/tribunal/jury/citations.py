"""V-4: check what a juror cites against the texts it was shown — one checker for every court.

Every finding and `checked` entry is marked (`CitationStatus`), never dropped: a finding about a
file the envelope never held is `outside_envelope` (fix the envelope, not the code), and only a
`verified` citation keeps a pass from being bare (V-3). An `unlocated` mark carries a
`CitationReason` when the reason is known: `placeholder` (the juror wrote the form's `path:line`
instead of filling it in) or `example_copied` (it repeated the output protocol's own example).

Every court reads locations and matches quotes here and nowhere else: the blind seats
(`check_citations`), the arbiter's seated votes (`read_location`), and — when it comes — the
panel's scorecards, whose quotes may also come from the request, the references or a command's
fresh output: `CitationSources` takes those as named `texts`, `holder` finds where a quote
without a location occurs, and `occurs_in` checks one named text.

The calls made, and why:

- Location forms (E-5). Before the check, `calc.py, line 5`, `calc.py line 5`, `calc.py (line
  5)`, `calc.py#L5`, `calc.py:L5`, `calc.py:5:3` (a column), `./calc.py:5` and the same inside
  backticks or quotes all read as `calc.py:5`; a range (`calc.py:5-7`, `calc.py#L5-L7`,
  `calc.py, lines 5 to 7`) keeps its range (`calc.py:5-7`).
- Placeholders. A location whose path is the form's own word (`path`, `file`, `file.py`,
  `path/to/...`, `<...>`, an ellipsis) and no file of the envelope, or whose line is a word
  (`calc.py:N`, `calc.py:line`), is `unlocated` (`placeholder`), never `outside_envelope`: what
  needs fixing is the answer, not the envelope.
- Whitespace. A quote matches when the file holds the same characters in the same order, every
  run of whitespace (spaces, tabs, newlines) in either counting as equal to any other run — never
  to no whitespace at all. Small models quote two lines joined by one space (`def add(a, b):
  return a + b`); V-4's "verbatim" is about the text, not its layout. A quote that differs in
  anything but the width of its whitespace never matches.
- The gutter. A quote that carries the envelope's line-number gutter (`6 | return -x`) is
  matched without it: the gutter is how the envelope shows a line, not part of the file.
- The example. A citation of the protocol's example line — its file and that line (a range
  starting there too), or its file and its very quote — is `unlocated` (`example_copied`)
  whatever else it says. The quote need not match: small models reuse the example's location
  with a longer quote of their own (`calc.py:1`, `def add(a, b): return a + b`), which would
  otherwise verify. The example's line is chosen so that an honest juror loses nothing by it
  (`example_citation` in the envelope's text module).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from tribunal.enums import CitationReason, CitationStatus
from tribunal.jury.envelope.text import QUOTED_GUTTER, ExampleCitation, file_lines
from tribunal.jury.verdict import Verdict

# E-5: the location forms read before V-4 (see the module docstring): a path, then a line in one
# of the forms jurors write; the path is the shortest prefix after which one of them ends the text.
_LOCATION = re.compile(
    r"""(?P<path>.+?)
    (?:
        :[ ]?L?(?P<colon>[0-9]+)(?:[ ]?[-–][ ]?L?(?P<colon_end>[0-9]+)|:[0-9]+)?
      | \#L(?P<anchor>[0-9]+)(?:-L?(?P<anchor_end>[0-9]+))?
      | [ ]*(?:[,:][ ]*)?(?:\([ ]*)?lines?[ ]?[:#]?[ ]?(?P<word>[0-9]+)
        (?:[ ]?(?:-|–|to)[ ]?(?P<word_end>[0-9]+))?[ ]?\)?
    )
    [.,;]?""",
    re.X | re.I,
)
# One layer a juror may put around a quote or a location: backticks, quote marks, a code fence.
_WRAPPERS = (("```", "```"), ("`", "`"), ('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"))
_FENCED = re.compile(r"\A(?P<fence>`{3,}|~{3,})[^\n`]*\n(?P<inner>.*?)\n?(?P=fence)\Z", re.S)
_WHITESPACE = re.compile(r"\s+")
# A copied placeholder: the form's own words where a path or a line should be.
_PLACEHOLDER_PATHS = frozenset(
    {"path", "file", "filename", "filepath", "file_path", "file-path", "path_to_file", "your_file"}
)
_PLACEHOLDER_LINES = frozenset(
    {"line", "lines", "l", "n", "m", "x", "no", "num", "number", "lineno", "line_no",
     "linenumber", "line_number", "?", "...", "…"}
)  # fmt: skip
_ANGLED = re.compile(r"<[^<>]*>")
_AFTER_PATH = frozenset(":#,( \t")
# A location longer than this is prose, not a location (and never costs the reader more).
_MAX_LOCATION_CHARS = 512


@dataclass(frozen=True)
class Location:
    """A location as read (E-5): a path as the juror wrote it and the lines it names."""

    path: str
    first: int
    last: int

    def __str__(self) -> str:
        lines = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"{self.path}:{lines}"


@dataclass(frozen=True)
class CitationMark:
    """The V-4 mark of one citation, and why when it is `unlocated` for a known reason."""

    status: CitationStatus
    reason: CitationReason | None = None


def read_location(text: str) -> Location | None:
    """The location `text` names in any form of the module docstring, or None when it names
    no line (a bare path, a placeholder, prose). The path keeps the juror's spelling, less a
    wrapping layer and a leading `./`."""
    written = _unwrap(text.strip())
    match = _LOCATION.fullmatch(written) if len(written) <= _MAX_LOCATION_CHARS else None
    if match is None:
        return None
    path = _unwrap(match["path"].strip())
    while path.startswith("./"):
        path = path[2:]
    if not path:
        return None
    first = match["colon"] or match["anchor"] or match["word"]
    last = match["colon_end"] or match["anchor_end"] or match["word_end"] or first
    return Location(path, int(first), int(last))


def normalise_location(text: str) -> str | None:
    """E-5: `text` in the one form V-4 checks (`calc.py, line 5` -> `calc.py:5`, `calc.py#L5-L7`
    -> `calc.py:5-7`), or None when it names no line."""
    location = read_location(text)
    return None if location is None else str(location)


def quote_occurs(quote: str, text: str) -> bool:
    """V-4: True when `quote` occurs in `text` — as written, or without one wrapping layer
    (quotes, backticks, a code fence) or the envelope's gutter, whitespace runs counting equal
    (the calls of the module docstring). A quote of whitespace only occurs nowhere."""
    return _occurs(quote, _collapse(text))


@dataclass(frozen=True)
class CitationSources:
    """The texts a court checks citations against: `files` (path -> whole text: the envelope's
    files, and for the panel its references) that a location may name; `texts` (name -> text:
    the panel's request, a command's fresh output) that only a quote without a location may
    be found in; and `example`, the output protocol's example citation, which never counts."""

    files: Mapping[str, str]
    texts: Mapping[str, str] = field(default_factory=dict)
    example: ExampleCitation | None = None
    _collapsed: dict[tuple[str, str], str] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def mark(self, location: str | None, quote: str | None) -> CitationMark:
        """V-4 for one citation: the file must be one of `files`, the lines must exist, and a
        quote must occur in that file. Raises nothing."""
        if location is None or not location.strip():
            return CitationMark(CitationStatus.UNLOCATED)
        written = _unwrap(location.strip())
        place = read_location(written)
        path = self._path(place.path) if place is not None else None
        if place is None or path is None:
            return self._unread(written, place)
        example = self.example
        if example is not None and path == example.path:
            copied = place.first == example.line or (
                quote is not None and _same_quote(quote, example.quote)
            )
            if copied:
                return CitationMark(CitationStatus.UNLOCATED, CitationReason.EXAMPLE_COPIED)
        if not 1 <= place.first <= place.last <= len(file_lines(self.files[path])):
            return CitationMark(CitationStatus.NO_SUCH_LINE)
        if quote is not None and _quotes(quote) and not self.occurs_in_file(path, quote):
            return CitationMark(CitationStatus.EVIDENCE_NOT_FOUND)
        return CitationMark(CitationStatus.VERIFIED)

    def occurs_in_file(self, path: str, quote: str) -> bool:
        """True when `quote` occurs in the file `path` of `files` (`quote_occurs`)."""
        return _occurs(quote, self._haystack("file", path, self.files[path]))

    def occurs_in(self, name: str, quote: str) -> bool:
        """True when `quote` occurs in the named text (a command's fresh output); False
        when there is no text of that name."""
        text = self.texts.get(name)
        return text is not None and _occurs(quote, self._haystack("text", name, text))

    def holder(self, quote: str) -> str | None:
        """The first file path, else text name, whose text holds `quote` (a citation
        without a location), or None when none does."""
        for path in self.files:
            if self.occurs_in_file(path, quote):
                return path
        return next((name for name in self.texts if self.occurs_in(name, quote)), None)

    def _haystack(self, kind: str, name: str, text: str) -> str:
        key = (kind, name)
        if key not in self._collapsed:
            self._collapsed[key] = _collapse(text)
        return self._collapsed[key]

    def _path(self, path: str) -> str | None:
        """The key of `files` for `path` as a juror may write it (`./src/a.py`, `/src/a.py`)."""
        for candidate in (path, path.lstrip("/")):
            if candidate in self.files:
                return candidate
        return None

    def _unread(self, written: str, place: Location | None) -> CitationMark:
        """The mark of a location that names no line we can check: a placeholder, an envelope
        file without a readable line, or a file the envelope never held."""
        named = self._named_file(written)
        if named is not None:
            reason = CitationReason.PLACEHOLDER if _placeholder_line(named[1]) else None
            return CitationMark(CitationStatus.UNLOCATED, reason)
        if _placeholder_path(place.path if place is not None else written):
            return CitationMark(CitationStatus.UNLOCATED, CitationReason.PLACEHOLDER)
        return CitationMark(CitationStatus.OUTSIDE_ENVELOPE)

    def _named_file(self, written: str) -> tuple[str, str] | None:
        """The longest path of `files` that `written` is, or starts with before a separator,
        and what follows it in `written`; None when it names none."""
        found: tuple[str, str] | None = None
        for candidate in _path_spellings(written):
            for path in self.files:
                fits = candidate == path or (
                    candidate.startswith(path) and candidate[len(path)] in _AFTER_PATH
                )
                if fits and (found is None or len(path) > len(found[0])):
                    found = path, candidate[len(path) :]
        return found


def check_citations(verdict: Verdict, sources: CitationSources | Mapping[str, str]) -> Verdict:
    """The verdict with every finding and `checked` entry marked against `sources` (or a plain
    mapping of path -> the whole text of each file the juror was shown). Raises nothing."""
    if not isinstance(sources, CitationSources):
        sources = CitationSources(sources)
    findings = []
    for finding in verdict.findings:
        mark = sources.mark(finding.location, finding.evidence)
        findings.append(replace(finding, citation=mark.status, citation_reason=mark.reason))
    checked = []
    for entry in verdict.checked:
        mark = sources.mark(entry.location, entry.evidence)
        checked.append(replace(entry, citation=mark.status, citation_reason=mark.reason))
    return replace(verdict, findings=tuple(findings), checked=tuple(checked))


def _occurs(quote: str, haystack: str) -> bool:
    return any(reading in haystack for reading in _readings(quote))


def _readings(quote: str) -> Iterator[str]:
    """The readings of a quote, whitespace collapsed: as written, without one wrapping layer,
    and each of those without a gutter; empty readings are none."""
    written = quote.strip()
    unwrapped = _unwrap(written)
    forms = [written] if unwrapped == written else [written, unwrapped]
    for form in forms:
        for reading in (form, QUOTED_GUTTER.sub("", form)):
            collapsed = _collapse(reading).strip()
            if collapsed:
                yield collapsed


def _quotes(quote: str) -> bool:
    """True when `quote` quotes anything: not blank once a gutter is taken off (a citation
    with a blank quote is checked by its location alone)."""
    return bool(QUOTED_GUTTER.sub("", quote).strip())


def _same_quote(quote: str, example: str) -> bool:
    return _collapse(example).strip() in set(_readings(quote))


def _collapse(text: str) -> str:
    return _WHITESPACE.sub(" ", text)


def _unwrap(text: str) -> str:
    """`text` without one wrapping layer (a code fence, backticks, quote marks), stripped; as
    it came when it has none (or nothing inside it)."""
    fenced = _FENCED.match(text)
    if fenced is not None and fenced["inner"].strip():
        return fenced["inner"].strip()
    for opening, closing in _WRAPPERS:
        wide = len(text) > len(opening) + len(closing)
        if wide and text.startswith(opening) and text.endswith(closing):
            inner = text[len(opening) : -len(closing)].strip()
            return inner if inner else text
    return text


def _path_spellings(written: str) -> Iterable[str]:
    yield written
    stripped = written
    while stripped.startswith("./"):
        stripped = stripped[2:]
    yield stripped
    yield written.lstrip("/")


def _placeholder_path(path: str) -> bool:
    """True when the path part of a location is the form's own word (`path`, `file`, `file.py`,
    `path/to/...`, `path:line`), an angled placeholder (`<path>`) or an ellipsis."""
    lowered = _unwrap(path.strip()).lower()
    head = re.split(r"[:#,(\s]", lowered, maxsplit=1)[0]
    if _ANGLED.search(lowered) or not head.strip(".…"):
        return True
    first = head.split("/", 1)[0]
    return first in _PLACEHOLDER_PATHS or (
        "/" not in head and head.rsplit(".", 1)[0] in _PLACEHOLDER_PATHS
    )


def _placeholder_line(rest: str) -> bool:
    """True when what follows a real path is the form's word for a line (`:N`, `:line`,
    `, line <n>`), not a number."""
    words = [word for word in re.split(r"[\s:#,()\-]+", rest.lower()) if word]
    return bool(words) and all(
        word in _PLACEHOLDER_LINES or _ANGLED.fullmatch(word) for word in words
    )
