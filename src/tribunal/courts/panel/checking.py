"""P-6: the citation check a panel's cards are held to — the one checker of every court
(`tribunal.jury.citations`) over what the members were shown.

- quote + location: the location must name a file of the envelope or of `references` and a line
  it has, and the quote must occur verbatim in that file (V-4's mark `verified`); the protocol's
  own example citation never counts (E-5);
- a quote alone: it must occur in the envelope's files, the references, or the request;
- a location alone: the file and the line must exist;
- command + output: the command must be one of the verification commands tribunal ran, and the
  output must occur verbatim in that command's fresh output (P-5) — never the executor's.

Each check returns None when the citation checks, else the reason, in the words the refuted log
shows.
"""

from __future__ import annotations

from collections.abc import Mapping

from tribunal.courts.panel.cards import CommandEvidence, Evidence
from tribunal.courts.panel.refutation import Checker
from tribunal.enums import CitationReason, CitationStatus
from tribunal.jury.citations import CitationSources, quote_occurs

PYTHON_MARK = "{python}"
PYTHON_SPELLINGS = ("python", "python3")

OUTSIDE = "names a file the panel was not shown"
REASONS = {
    CitationStatus.OUTSIDE_ENVELOPE: OUTSIDE,
    CitationStatus.NO_SUCH_LINE: "names a line its file does not have",
    CitationStatus.EVIDENCE_NOT_FOUND: "the quote does not occur in the file it names",
    CitationStatus.UNLOCATED: "names no line that can be checked",
}


def command_spellings(command: str, rendered: str) -> tuple[str, ...]:
    """The ways a member may write verification command `command` (as the criteria list it,
    `{python}` and all): as written, as run (`rendered`), and with `python` or `python3` for
    `{python}`."""
    spelled = [command, rendered]
    spelled += [command.replace(PYTHON_MARK, word) for word in PYTHON_SPELLINGS]
    return tuple(dict.fromkeys(" ".join(text.split()) for text in spelled))


def evidence_checker(
    sources: CitationSources, outputs: Mapping[str, str], request: str = ""
) -> Checker:
    """The P-6 check over `sources` (the envelope's files and the references, with the
    protocol's example), `outputs` (every spelling of each verification command -> its fresh
    output tail, see `command_spellings`) and the criteria's `request`."""

    def check(evidence: Evidence) -> str | None:
        if isinstance(evidence, CommandEvidence):
            output = outputs.get(" ".join(evidence.command.split()))
            if output is None:
                return f"{evidence.command!r} is not a verification command tribunal ran"
            if not quote_occurs(evidence.output, output):
                return "the output does not occur in that command's fresh output"
            return None
        quote, location = evidence.quote, evidence.location
        if location is not None and location.strip():
            mark = sources.mark(location, quote)
            if mark.status is CitationStatus.VERIFIED:
                return None
            if mark.reason is CitationReason.EXAMPLE_COPIED and sources.example is not None:
                example = sources.example
                return (
                    f"cites the protocol's own example ({example.path}:{example.line}), which "
                    "never counts"
                )
            if mark.reason is not None:
                return f"{REASONS[mark.status]} ({mark.reason.value.replace('_', ' ')})"
            return REASONS[mark.status]
        assert quote is not None  # QuoteEvidence holds a quote or a location
        if sources.holder(quote) is not None or quote_occurs(quote, request):
            return None
        return "the quote occurs nowhere the panel was shown"

    return check
