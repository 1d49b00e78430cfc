"""V-4, E-5: citations are read in every common form, checked against the envelope and marked,
never dropped; a copied placeholder or the protocol's own example never counts."""

from __future__ import annotations

import pytest

from tribunal.enums import CitationReason, CitationStatus, SeatVerdict, Severity
from tribunal.jury.citations import (
    CitationMark,
    CitationSources,
    check_citations,
    normalise_location,
    quote_occurs,
    read_location,
)
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.verdict import Checked, Finding, Verdict

ENVELOPE = {"src/a.py": "def f(n):\n    return range(n)\n", "tests/test_a.py": "import a\n"}
CALC = "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return -x\n"
DEMO = {"calc.py": CALC, "tests/test_neg.py": "import calc\n\n\ndef test_neg():\n    pass\n"}
EXAMPLE = ExampleCitation("tests/test_neg.py", 1, "import calc")

UNLOCATED = CitationStatus.UNLOCATED
PLACEHOLDER = CitationMark(UNLOCATED, CitationReason.PLACEHOLDER)
COPIED = CitationMark(UNLOCATED, CitationReason.EXAMPLE_COPIED)
VERIFIED = CitationMark(CitationStatus.VERIFIED)


def mark(location: str | None, evidence: str | None = None, files: dict[str, str] = ENVELOPE):
    return CitationSources(files).mark(location, evidence)


@pytest.mark.parametrize(
    ("location", "evidence", "status"),
    [
        ("src/a.py:2", None, CitationStatus.VERIFIED),
        ("src/a.py:2", "return range(n)", CitationStatus.VERIFIED),
        ("src/a.py:1-2", "def f(n):\n    return", CitationStatus.VERIFIED),
        ("./src/a.py:1", "`def f(n):`", CitationStatus.VERIFIED),
        ("/src/a.py:1", "def f(n):", CitationStatus.VERIFIED),
        ("src/a.py:2:5", '"range(n)"', CitationStatus.VERIFIED),
        ("src/a.py:2", "return range(n + 1)", CitationStatus.EVIDENCE_NOT_FOUND),
        ("src/a.py:2", "``", CitationStatus.EVIDENCE_NOT_FOUND),
        ("src/a.py:3", None, CitationStatus.NO_SUCH_LINE),
        ("src/a.py:0", None, CitationStatus.NO_SUCH_LINE),
        ("src/a.py:2-1", None, CitationStatus.NO_SUCH_LINE),
        ("src/b.py:1", None, CitationStatus.OUTSIDE_ENVELOPE),
        ("lib/other.py", None, CitationStatus.OUTSIDE_ENVELOPE),
        ("src/a.py", None, CitationStatus.UNLOCATED),
        ("src/a.py, near the top", None, CitationStatus.UNLOCATED),
        (None, "range(n)", CitationStatus.UNLOCATED),
        ("", None, CitationStatus.UNLOCATED),
    ],
)
def test_the_v4_marks(location: str | None, evidence: str | None, status: CitationStatus) -> None:
    assert mark(location, evidence) == CitationMark(status)


# --- E-5: the location forms read before V-4 ------------------------------------------------


@pytest.mark.parametrize(
    ("written", "normal"),
    [
        ("calc.py:5", "calc.py:5"),
        ("calc.py, line 5", "calc.py:5"),
        ("calc.py line 5", "calc.py:5"),
        ("calc.py, Line 5", "calc.py:5"),
        ("calc.py (line 5)", "calc.py:5"),
        ("calc.py, line: 5", "calc.py:5"),
        ("calc.py:line 5", "calc.py:5"),
        ("calc.py#L5", "calc.py:5"),
        ("calc.py:L5", "calc.py:5"),
        ("`calc.py:5`", "calc.py:5"),
        ('"calc.py:5"', "calc.py:5"),
        ("'calc.py:5'", "calc.py:5"),
        ("`calc.py`:5", "calc.py:5"),
        ("./calc.py:5", "calc.py:5"),
        ("calc.py:5:12", "calc.py:5"),
        ("calc.py:5.", "calc.py:5"),
        ("  calc.py:5  ", "calc.py:5"),
        ("calc.py:5-7", "calc.py:5-7"),
        ("calc.py:5 - 7", "calc.py:5-7"),
        ("calc.py#L5-L7", "calc.py:5-7"),
        ("calc.py#L5-7", "calc.py:5-7"),
        ("calc.py, lines 5-7", "calc.py:5-7"),
        ("calc.py lines 5 to 7", "calc.py:5-7"),
        ("calc.py:5-5", "calc.py:5"),
        ("src/deep dir/a b.py:3", "src/deep dir/a b.py:3"),
        ("tests/line5.py:3", "tests/line5.py:3"),
    ],
)
def test_location_forms_normalise(written: str, normal: str) -> None:
    assert normalise_location(written) == normal


@pytest.mark.parametrize(
    "written", ["calc.py", "calc.py:N", "path:line", "<path>:<line>", "", "line 5", "x" * 600]
)
def test_a_location_without_a_line_reads_as_none(written: str) -> None:
    assert read_location(written) is None and normalise_location(written) is None


@pytest.mark.parametrize(
    "written",
    ["calc.py, line 6", "calc.py line 6", "calc.py#L6", "`calc.py:6`", "./calc.py:6",
     "calc.py:5-6", "calc.py (line 6)", "'calc.py:6'"],
)  # fmt: skip
def test_every_form_verifies_like_the_plain_one(written: str) -> None:
    assert mark(written, "return -x", DEMO) == VERIFIED
    assert mark(written, "return x", DEMO).status is CitationStatus.EVIDENCE_NOT_FOUND


# --- placeholders: the form's words copied instead of filled --------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "path:line", "path:calc.py", "path:line1", "path:line:1", "path:calc.py, line:1",
        "<path>:<line>", "<file>", "file.py:N", "file.py:12", "file:3", "filename.py:1",
        "path/to/file.py:10", "path/to/calc.py:2", "...", "…", "`path:line`", "calc.py:N",
        "calc.py:line", "calc.py:<line>", "calc.py, line N", "./calc.py:lineno", "calc.py#line",
    ],
)  # fmt: skip
def test_a_copied_placeholder_is_unlocated_for_that_reason(written: str) -> None:
    assert mark(written, "return -x", DEMO) == PLACEHOLDER


def test_a_placeholder_word_that_is_an_envelope_file_is_that_file() -> None:
    files = {"path": "one\ntwo\n", "file.py": "x = 1\n"}
    assert mark("path:2", "two", files) == VERIFIED
    assert mark("file.py:1", "x = 1", files) == VERIFIED
    assert mark("path:line:1", None, files) == VERIFIED  # `path` exists: `line:1` is its line 1


def test_a_real_file_outside_the_envelope_is_not_a_placeholder() -> None:
    assert mark("src/profile.py:3").status is CitationStatus.OUTSIDE_ENVELOPE
    assert mark("lib/filelock.py:1").status is CitationStatus.OUTSIDE_ENVELOPE


# --- the protocol's own example --------------------------------------------------------------


def sources_with_example() -> CitationSources:
    return CitationSources(DEMO, example=EXAMPLE)


@pytest.mark.parametrize(
    ("location", "evidence"),
    [
        ("tests/test_neg.py:1", "import calc"),
        ("tests/test_neg.py:1", None),
        ("tests/test_neg.py, line 1", "import calc"),
        ("./tests/test_neg.py#L1", "`import calc`"),
        ("tests/test_neg.py:1-4", "import calc\n\n\ndef test_neg():"),  # longer quote, same line
        ("tests/test_neg.py:4", "import calc"),  # the example's quote at another line
        ("tests/test_neg.py:1", "something else entirely"),
    ],
)
def test_a_citation_of_the_example_never_counts(location: str, evidence: str | None) -> None:
    assert sources_with_example().mark(location, evidence) == COPIED


def test_other_lines_of_the_example_file_still_count() -> None:
    sources = sources_with_example()
    assert sources.mark("tests/test_neg.py:4", "def test_neg():") == VERIFIED
    assert sources.mark("calc.py:1", "def add(a, b):") == VERIFIED  # a real line 1 elsewhere
    assert CitationSources(DEMO).mark("tests/test_neg.py:1", "import calc") == VERIFIED


# --- quotes: whitespace, wrappers and the gutter ---------------------------------------------


@pytest.mark.parametrize(
    "quote",
    [
        "def add(a, b): return a + b",  # two lines joined by one space (seen from qwen)
        "def add(a, b):\n    return a + b",
        "def  add(a,   b):",
        "   6 |     return -x",
        "6 | return -x",
        "6| return -x",
        "   1 | def add(a, b):\n   2 |     return a + b",
        "```python\ndef neg(x):\n    return -x\n```",
        "```\nreturn -x\n```",
        "“return -x”",
    ],
)
def test_quotes_that_match(quote: str) -> None:
    assert quote_occurs(quote, CALC)


@pytest.mark.parametrize(
    "quote",
    [
        "def add(a,b):",  # whitespace removed is not whitespace collapsed
        "defadd(a, b):",
        "def add(a, b): return a - b",  # one character differs
        "def add(a, b); return a + b",
        "return -y",
        "6 | return -y",
        "def neg(x): return x",
        "   ",
        "",
    ],
)
def test_quotes_that_do_not(quote: str) -> None:
    assert not quote_occurs(quote, CALC)


def test_a_gutter_inside_the_file_still_matches_as_written() -> None:
    table = "| n | sq |\n1 | 1 |\n2 | 4 |\n"
    assert quote_occurs("2 | 4 |", table)
    assert quote_occurs("   3 | 2 | 4 |", table)  # the envelope's gutter on the file's own bars


# --- the panel's interface (P-6): named texts beside the files -------------------------------


def test_named_texts_hold_quotes_without_a_location() -> None:
    sources = CitationSources(
        DEMO,
        texts={"request": "Make neg negate its argument.", "pytest -q": "2 passed in 0.01s\n"},
    )
    assert sources.holder("return -x") == "calc.py"
    assert sources.holder("negate its   argument") == "request"
    assert sources.holder("not anywhere") is None
    assert sources.occurs_in("pytest -q", "2 passed")
    assert not sources.occurs_in("pytest -q", "3 passed")
    assert not sources.occurs_in("no such command", "2 passed")
    # A location names a file, never a named text.
    assert sources.mark("request:1", "Make neg").status is CitationStatus.OUTSIDE_ENVELOPE


# --- whole verdicts ----------------------------------------------------------------------------


def test_every_entry_is_marked_and_none_dropped() -> None:
    verdict = Verdict(
        verdict=SeatVerdict.REFUSE,
        lens="defect",
        findings=(
            Finding(Severity.MINOR, "off by one", "range(n)", "src/a.py:2"),
            Finding(Severity.MAJOR, "about a file never shown", None, "src/secret.py:9"),
            Finding(Severity.MINOR, "copied the form", "x", "path:line"),
        ),
        checked=(Checked("tests import a", "tests/test_a.py:1", "import b"),),
    )
    checked = check_citations(verdict, ENVELOPE)
    assert [(f.citation, f.citation_reason) for f in checked.findings] == [
        (CitationStatus.VERIFIED, None),
        (CitationStatus.OUTSIDE_ENVELOPE, None),
        (CitationStatus.UNLOCATED, CitationReason.PLACEHOLDER),
    ]
    assert [c.citation for c in checked.checked] == [CitationStatus.EVIDENCE_NOT_FOUND]
    assert [f.claim for f in checked.findings] == [
        "off by one",
        "about a file never shown",
        "copied the form",
    ]
    # The record says why (verdict_<lens>.json): the reason only where there is one.
    assert checked.findings[2].to_dict()["citation_reason"] == "placeholder"
    assert "citation_reason" not in checked.findings[0].to_dict()


def test_a_pass_is_bare_until_a_citation_verifies() -> None:
    bare = Verdict(
        verdict=SeatVerdict.PASS,
        lens="defect",
        checked=(Checked("bounds", "src/a.py:2", "range(n)"),),
    )
    assert bare.low_information is True  # not checked yet
    assert check_citations(bare, ENVELOPE).low_information is False
    assert check_citations(bare, {"src/a.py": "other\n"}).low_information is True


def test_neither_a_placeholder_nor_the_example_makes_a_pass_non_bare() -> None:
    copied = Verdict(
        verdict=SeatVerdict.PASS,
        lens="defect",
        checked=(
            Checked("the import", "tests/test_neg.py:1", "import calc"),
            Checked("the form", "path:line", "return -x"),
        ),
    )
    marked = check_citations(copied, sources_with_example())
    assert [c.citation_reason for c in marked.checked] == [
        CitationReason.EXAMPLE_COPIED,
        CitationReason.PLACEHOLDER,
    ]
    assert marked.low_information is True
