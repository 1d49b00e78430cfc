"""V-4: check what a verdict cites against the envelope the juror was shown.

Every finding and `checked` entry is marked (`CitationStatus`), never dropped: a finding about a
file the envelope never held is `outside_envelope` (fix the envelope, not the code), and only a
`verified` citation keeps a pass from being bare (V-3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from tribunal.enums import CitationStatus
from tribunal.jury.verdict import Verdict

# V-1 `location`: path:line, path:line-line, or path:line:column (ASCII digits) — the one
# grammar every reader of a location uses (the seated vote's evidence_ref too).
LOCATION = re.compile(r"(?P<path>.+?):(?P<line>[0-9]+)(?:-(?P<end>[0-9]+)|:[0-9]+)?")
_QUOTES = ("```", "`", '"', "'")


def check_citations(verdict: Verdict, envelope: Mapping[str, str]) -> Verdict:
    """The verdict with every finding and `checked` entry marked against `envelope`
    (path -> the whole text the juror was shown). Raises nothing."""
    return replace(
        verdict,
        findings=tuple(
            replace(f, citation=cite(f.location, f.evidence, envelope)) for f in verdict.findings
        ),
        checked=tuple(
            replace(c, citation=cite(c.location, c.evidence, envelope)) for c in verdict.checked
        ),
    )


def cite(location: str | None, evidence: str | None, envelope: Mapping[str, str]) -> CitationStatus:
    """The V-4 mark for one citation: the file must be in the envelope, the line must exist, and
    quoted `evidence` must occur verbatim in that file."""
    if not location:
        return CitationStatus.UNLOCATED
    match = LOCATION.fullmatch(location.strip())
    if match is None:
        # A bare path still tells us whether the envelope held the file.
        path = _envelope_path(location.strip(), envelope)
        return CitationStatus.UNLOCATED if path is not None else CitationStatus.OUTSIDE_ENVELOPE
    path = _envelope_path(match["path"], envelope)
    if path is None:
        return CitationStatus.OUTSIDE_ENVELOPE
    text = envelope[path]
    count = len(text.splitlines())
    first = int(match["line"])
    last = int(match["end"]) if match["end"] else first
    if not 1 <= first <= last <= count:
        return CitationStatus.NO_SUCH_LINE
    if evidence is not None and evidence.strip() and not _occurs(evidence.strip(), text):
        return CitationStatus.EVIDENCE_NOT_FOUND
    return CitationStatus.VERIFIED


def _envelope_path(path: str, envelope: Mapping[str, str]) -> str | None:
    """The envelope's key for `path` as a juror may write it (`./src/a.py`, `/src/a.py`)."""
    for candidate in (path, path.removeprefix("./"), path.lstrip("/")):
        if candidate in envelope:
            return candidate
    return None


def _occurs(evidence: str, text: str) -> bool:
    """Verbatim, or verbatim once one layer of quotes or backticks around it is taken off."""
    if evidence in text:
        return True
    for quote in _QUOTES:
        if (
            len(evidence) > 2 * len(quote)
            and evidence.startswith(quote)
            and evidence.endswith(quote)
        ):
            inner = evidence[len(quote) : -len(quote)].strip()
            return bool(inner) and inner in text
    return False
