"""V-4: citations are checked against the envelope and marked, never dropped."""

from __future__ import annotations

import pytest

from tribunal.enums import CitationStatus, SeatVerdict, Severity
from tribunal.jury.citations import check_citations, cite
from tribunal.jury.verdict import Checked, Finding, Verdict

ENVELOPE = {"src/a.py": "def f(n):\n    return range(n)\n", "tests/test_a.py": "import a\n"}


@pytest.mark.parametrize(
    ("location", "evidence", "status"),
    [
        ("src/a.py:2", None, CitationStatus.VERIFIED),
        ("src/a.py:2", "return range(n)", CitationStatus.VERIFIED),
        ("src/a.py:1-2", "def f(n):\n    return", CitationStatus.VERIFIED),
        ("./src/a.py:1", "`def f(n):`", CitationStatus.VERIFIED),
        ("src/a.py:2:5", '"range(n)"', CitationStatus.VERIFIED),
        ("src/a.py:2", "return range(n + 1)", CitationStatus.EVIDENCE_NOT_FOUND),
        ("src/a.py:2", "``", CitationStatus.EVIDENCE_NOT_FOUND),
        ("src/a.py:3", None, CitationStatus.NO_SUCH_LINE),
        ("src/a.py:0", None, CitationStatus.NO_SUCH_LINE),
        ("src/a.py:2-1", None, CitationStatus.NO_SUCH_LINE),
        ("src/b.py:1", None, CitationStatus.OUTSIDE_ENVELOPE),
        ("lib/other.py", None, CitationStatus.OUTSIDE_ENVELOPE),
        ("src/a.py", None, CitationStatus.UNLOCATED),
        (None, "range(n)", CitationStatus.UNLOCATED),
        ("", None, CitationStatus.UNLOCATED),
    ],
)
def test_cite(location: str | None, evidence: str | None, status: CitationStatus) -> None:
    assert cite(location, evidence, ENVELOPE) is status


def test_every_entry_is_marked_and_none_dropped() -> None:
    verdict = Verdict(
        verdict=SeatVerdict.REFUSE,
        lens="defect",
        findings=(
            Finding(Severity.MINOR, "off by one", "range(n)", "src/a.py:2"),
            Finding(Severity.MAJOR, "about a file never shown", None, "src/secret.py:9"),
        ),
        checked=(Checked("tests import a", "tests/test_a.py:1", "import b"),),
    )
    checked = check_citations(verdict, ENVELOPE)
    assert [f.citation for f in checked.findings] == [
        CitationStatus.VERIFIED,
        CitationStatus.OUTSIDE_ENVELOPE,
    ]
    assert [c.citation for c in checked.checked] == [CitationStatus.EVIDENCE_NOT_FOUND]
    assert [f.claim for f in checked.findings] == ["off by one", "about a file never shown"]


def test_a_pass_is_bare_until_a_citation_verifies() -> None:
    bare = Verdict(
        verdict=SeatVerdict.PASS,
        lens="defect",
        checked=(Checked("bounds", "src/a.py:2", "range(n)"),),
    )
    assert bare.low_information is True  # not checked yet
    assert check_citations(bare, ENVELOPE).low_information is False
    assert check_citations(bare, {"src/a.py": "other\n"}).low_information is True
