"""E-5, V-4 properties (hypothesis): every location form checks exactly as its plain form; no
placeholder and no copy of the protocol's example is ever `verified`; the gutter never changes
what verifies; whitespace runs compare equal and nothing else does."""

from __future__ import annotations

import re

from hypothesis import assume, given
from hypothesis import strategies as st

from tribunal.enums import CitationReason, CitationStatus, FileRole
from tribunal.jury.citations import CitationSources, normalise_location, quote_occurs, read_location
from tribunal.jury.envelope.text import (
    EnvelopeFile,
    example_citation,
    file_lines,
    number_lines,
    unnumber_lines,
)

PATHS = ["calc.py", "src/pkg/mod.py", "tests/test_calc.py", "docs/a b.md", "lib/x-y_z.rs"]
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_=+-*().,", min_size=1, max_size=8)
LINE = st.lists(WORD, min_size=0, max_size=6).map(" ".join).map(lambda text: text.strip())
INDENT = st.sampled_from(["", "    ", "\t", "        "])
FILE = st.lists(st.tuples(INDENT, LINE).map("".join), min_size=1, max_size=12).map(
    lambda lines: "\n".join(lines) + "\n"
)


@st.composite
def envelopes(draw: st.DrawFn) -> dict[str, str]:
    chosen = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=4, unique=True))
    return {path: draw(FILE) for path in chosen}


def forms(path: str, first: int, last: int | None = None) -> list[str]:
    """Every spelling of `path:first[-last]` a juror may write (E-5)."""
    if last is not None and last != first:
        return [
            f"{path}:{first}-{last}", f"{path}#L{first}-L{last}", f"{path}#L{first}-{last}",
            f"{path}, lines {first}-{last}", f"{path} lines {first} to {last}",
            f"`{path}:{first}-{last}`", f"./{path}:{first} - {last}",
        ]  # fmt: skip
    return [
        f"{path}:{first}", f"{path}, line {first}", f"{path} line {first}", f"{path}#L{first}",
        f"`{path}:{first}`", f'"{path}:{first}"', f"'{path}:{first}'", f"./{path}:{first}",
        f"{path}:{first}:7", f"{path} (line {first})", f"{path}:L{first}", f"{path}, line: {first}",
        f"{path}:{first}.", f"`{path}`:{first}",
    ]  # fmt: skip


@st.composite
def citations(draw: st.DrawFn, files: dict[str, str]) -> tuple[str, int, int, str | None]:
    """(path, first, last, quote): lines in and around the file, quotes real or not."""
    path = draw(st.sampled_from(sorted(files)))
    count = len(file_lines(files[path]))
    first = draw(st.integers(0, count + 2))
    last = draw(st.one_of(st.just(first), st.integers(first, count + 3)))
    lines = file_lines(files[path])
    real = [line for line in lines if line.strip()]
    quote = draw(
        st.one_of(
            st.none(),
            st.sampled_from(real) if real else st.none(),
            st.text(max_size=12),
            LINE,
        )
    )
    return path, first, last, quote


@given(st.data())
def test_every_form_checks_exactly_as_the_plain_form(data: st.DataObject) -> None:
    files = data.draw(envelopes())
    path, first, last, quote = data.draw(citations(files))
    sources = CitationSources(files)
    plain = f"{path}:{first}" if first == last else f"{path}:{first}-{last}"
    expected = sources.mark(plain, quote)
    for written in forms(path, first, last):
        assert normalise_location(written) == plain, written
        assert sources.mark(written, quote) == expected, written


PLACEHOLDER_PATHS = st.sampled_from(
    ["path", "file", "<path>", "<file>", "file.py", "file.txt", "filename.py", "path/to/file.py",
     "path/to/calc.py", "<path/to/file>", "...", "<filename>", "FILE", "Path"]
)  # fmt: skip
PLACEHOLDER_LINES = st.sampled_from(["line", "N", "<line>", "line1", "line:1", "1", "12", "n"])


@st.composite
def placeholders(draw: st.DrawFn) -> str:
    path = draw(PLACEHOLDER_PATHS)
    line = draw(PLACEHOLDER_LINES)
    shape = draw(
        st.sampled_from(["{p}:{l}", "{p}, line {l}", "`{p}:{l}`", "{p}#L{l}", "{p}", "path:{p}"])
    )
    return shape.format(p=path, l=line)


@given(envelopes(), placeholders(), st.one_of(st.none(), LINE))
def test_a_placeholder_is_never_verified(
    files: dict[str, str], written: str, quote: str | None
) -> None:
    mark = CitationSources(files).mark(written, quote)
    assert mark.status is CitationStatus.UNLOCATED
    assert mark.reason is CitationReason.PLACEHOLDER


@given(st.data())
def test_a_real_path_with_a_placeholder_line_is_never_verified(data: st.DataObject) -> None:
    files = data.draw(envelopes())
    path = data.draw(st.sampled_from(sorted(files)))
    line = data.draw(st.sampled_from(["N", "line", "<line>", "n", "lineno", "<n>", "X"]))
    form = data.draw(st.sampled_from([form for form in forms(path, 1) if ":7" not in form]))
    mark = CitationSources(files).mark(form.replace("1", line, 1), None)
    assert mark.status is not CitationStatus.VERIFIED


@given(st.data())
def test_the_protocols_example_is_never_verified(data: st.DataObject) -> None:
    files = data.draw(envelopes())
    envelope = [EnvelopeFile(path, FileRole.CHANGED, None, text) for path, text in files.items()]
    example = example_citation(envelope)
    assume(example is not None)
    assert example is not None
    sources = CitationSources(files, example=example)
    count = len(file_lines(files[example.path]))
    last = data.draw(st.integers(example.line, count + 2))
    quote = data.draw(st.one_of(st.none(), st.just(example.quote), LINE))
    for written in forms(example.path, example.line) + forms(example.path, example.line, last):
        mark = sources.mark(written, quote)
        assert mark.status is not CitationStatus.VERIFIED, written
        assert mark.reason is CitationReason.EXAMPLE_COPIED
    # Its quote cited at any line of its file is the example too.
    line = data.draw(st.integers(1, count))
    assert sources.mark(f"{example.path}:{line}", example.quote).reason is (
        CitationReason.EXAMPLE_COPIED
    )


@given(st.data())
def test_the_gutter_never_changes_what_verifies(data: st.DataObject) -> None:
    files = data.draw(envelopes())
    path, first, _, quote = data.draw(citations(files))
    assume(quote is not None and "|" not in quote and "|" not in files[path])
    assert quote is not None
    sources = CitationSources(files)
    shown = number_lines(quote)  # the quote as the envelope shows it, numbers and bars
    renumbered = "\n".join(f"{first + n} | {line}" for n, line in enumerate(file_lines(quote)))
    expected = sources.mark(f"{path}:{first}", quote)
    assert sources.mark(f"{path}:{first}", shown) == expected
    assert sources.mark(f"{path}:{first}", renumbered) == expected


@given(st.text())
def test_the_gutter_comes_off_exactly(text: str) -> None:
    assert unnumber_lines(number_lines(text)) == text
    assert len(file_lines(number_lines(text))) == len(file_lines(text))


SPACES = st.text(alphabet=" \t\n", min_size=1, max_size=4)


@given(st.data())
def test_whitespace_runs_compare_equal_and_nothing_else_does(data: st.DataObject) -> None:
    text = data.draw(FILE)
    words = text.split()
    assume(len(words) >= 2)
    start = data.draw(st.integers(0, len(words) - 2))
    end = data.draw(st.integers(start + 2, len(words)))
    chosen = words[start:end]
    # The same words, in order, with any runs of whitespace between them.
    quote = chosen[0] + "".join(data.draw(SPACES) + word for word in chosen[1:])
    assert quote_occurs(quote, text)
    # Whitespace removed is not whitespace collapsed; a character changed never matches.
    glued = "".join(chosen)
    assume(glued not in re.sub(r"\s+", " ", text))
    assert not quote_occurs(glued, text)
    assert not quote_occurs(quote + "\N{SNOWMAN}", text)


@given(st.text(max_size=600))
def test_reading_a_location_never_raises(text: str) -> None:
    location = read_location(text)
    assert location is None or (location.path and location.first >= 0)
    CitationSources({"calc.py": "x\n"}).mark(text, text)
