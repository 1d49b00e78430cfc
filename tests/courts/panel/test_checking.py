"""P-6: the citation check a panel's cards are held to — the one checker of every court over
what the members were shown (the envelope's files, the references, the request, tribunal's own
verification output), the protocol's example never counting."""

from __future__ import annotations

import pytest

from tribunal.courts.panel import CommandEvidence, QuoteEvidence
from tribunal.courts.panel.checking import command_spellings, evidence_checker
from tribunal.evidence.slice.verification import render_command
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.text import ExampleCitation

LIMITER = "class RateLimiter:\n    def allow(self, now):\n        return self.count <= self.limit\n"
FILES = {"limiter.py": LIMITER, "docs/limits.md": "At most `limit` calls per window.\n"}
EXAMPLE = ExampleCitation("tests/test_limiter.py", 1, "import limiter")
COMMAND = "{python} -m pytest -q tests/test_limiter.py"
OUTPUT = "...\n3 passed in 0.01s\n"


def check(evidence: QuoteEvidence | CommandEvidence) -> str | None:
    files = {**FILES, "tests/test_limiter.py": "import limiter\n"}
    outputs = dict.fromkeys(command_spellings(COMMAND, render_command(COMMAND)), OUTPUT)
    sources = CitationSources(files, example=EXAMPLE)
    return evidence_checker(sources, outputs, "Limit each client.")(evidence)


@pytest.mark.parametrize(
    "evidence",
    [
        QuoteEvidence("return self.count <= self.limit", "limiter.py:3"),
        QuoteEvidence("return self.count <= self.limit", "limiter.py, line 3"),
        QuoteEvidence(None, "limiter.py:2"),
        QuoteEvidence("At most `limit` calls per window.", "docs/limits.md:1"),
        QuoteEvidence("def allow(self, now):"),
        QuoteEvidence("Limit each client."),
        CommandEvidence(COMMAND, "3 passed"),
        CommandEvidence("python -m pytest -q tests/test_limiter.py", "3 passed"),
        CommandEvidence("python3  -m pytest -q tests/test_limiter.py", "3 passed"),
    ],
)
def test_what_checks(evidence: QuoteEvidence | CommandEvidence) -> None:
    assert check(evidence) is None


@pytest.mark.parametrize(
    ("evidence", "reason"),
    [
        (QuoteEvidence("def reset(self):", "limiter.py:2"), "the quote does not occur"),
        (QuoteEvidence("class RateLimiter:", "limiter.py:9"), "a line its file does not have"),
        (QuoteEvidence("class RateLimiter:", "other.py:1"), "a file the panel was not shown"),
        (QuoteEvidence("x", "path:line"), "(placeholder)"),
        (
            QuoteEvidence("import limiter", "tests/test_limiter.py:1"),
            "the protocol's own example (tests/test_limiter.py:1)",
        ),
        (QuoteEvidence("def reset(self):"), "occurs nowhere the panel was shown"),
        (CommandEvidence(COMMAND, "4 passed"), "does not occur in that command's fresh output"),
        (CommandEvidence("pytest -q", "3 passed"), "is not a verification command tribunal ran"),
    ],
)
def test_what_does_not_check_says_why(
    evidence: QuoteEvidence | CommandEvidence, reason: str
) -> None:
    why = check(evidence)
    assert why is not None and reason in why
