"""The fingerprint every court keys a finding by (B-3), so "the same finding" is recognised across
rounds — convergence counts NEW findings, and a refutation keeps applying while the finding is
raised again — whichever court raised it (the blind court's seats, the panel's findings and
failure scenarios). It hashes the normalised claim and the normalised location:

- claim (a finding's claim; a failure scenario's input): without the `[verifier:<rung>]` prefix
  of a fused seat's verifier finding (L-5: the finding is the seat's, whichever rung wrote it),
  then Unicode NFKC, case folded, backticks and quotes dropped, every run of whitespace one space,
  trailing `.`/`;`/`:` dropped. Line references inside the claim (`line 42`, `lines 3-5`, `L42`,
  `path:42`) become `line #`, because lines move as a fix lands. Other digits are kept: "HTTP 404"
  and "HTTP 500", "off by 1" and "off by 2" are different claims.
- location: the path only, `\\` as `/`, a leading `./` dropped, case kept (paths are case
  sensitive); the line is dropped for the same reason as above. A finding without a location is
  keyed by its claim alone.
- the lens is not part of it: two lenses raising one defect at one place raise one finding.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from tribunal.jury.seat.record import seat_claim

FINGERPRINT_CHARS = 16

_LINE_REFERENCE = re.compile(
    r"(?:\blines?\s*#?\s*\d+(?:\s*(?:-|–|to)\s*\d+)?|\bl\d+(?:-\d+)?\b|(?<=\S):\d+(?:-\d+)?\b)"
)
_QUOTES = re.compile(r"[`'\"‘’“”]")
_SPACE = re.compile(r"\s+")
_LOCATION_LINE = re.compile(r":\d+(?:-\d+)?\Z")


def normalise_claim(claim: str) -> str:
    """The claim as fingerprinted (see the module docstring)."""
    text = unicodedata.normalize("NFKC", seat_claim(claim)).casefold()
    text = _QUOTES.sub("", text)
    text = _LINE_REFERENCE.sub(" line #", text)
    text = _SPACE.sub(" ", text).strip()
    return text.rstrip(".;: ")


def normalise_location(location: str | None) -> str:
    """The location as fingerprinted: the path, without its line (see the module docstring)."""
    if not location:
        return ""
    path = _LOCATION_LINE.sub("", location.strip()).replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def fingerprint(claim: str, location: str | None) -> str:
    """B-3: 16 hex characters of sha256 over the normalised claim and location."""
    key = f"{normalise_claim(claim)}\n{normalise_location(location)}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:FINGERPRINT_CHARS]
