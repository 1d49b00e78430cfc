"""B-3: every court keys a finding by one fingerprint (`tribunal.courts.fingerprints`). The
expected values were computed with the blind court's function before the panel court shared it:
a normalisation that drifts fails here, and ledgers of earlier rounds would stop matching."""

from __future__ import annotations

import pytest

from tribunal.courts.fingerprints import fingerprint, normalise_claim, normalise_location

KNOWN = [
    ("Empty  list\ncrashes `parse`.", "src/a.py:3", "a50c70f6cb671296"),
    ("crash at line 3", "./src\\a.py:12", "c7e7a967bdfa3589"),
    ("L12 drops the error", None, "78f5fc825caede75"),
    ("returns HTTP 404", None, "51f547f5bf9ceb4c"),
    ("The window start never advances", "limiter.py:14", "8f602ef38521fb12"),
    ("see lines 3-5 “now”", "src/A.py:3-9", "b9d0ca6950f9047e"),
]


@pytest.mark.parametrize(("claim", "location", "expected"), KNOWN)
def test_fingerprints_are_stable(claim: str, location: str | None, expected: str) -> None:
    assert fingerprint(claim, location) == expected


def test_lines_move_and_case_spacing_quotes_do_not_matter() -> None:
    assert fingerprint("crash at line 3", "a.py:3") == fingerprint("Crash at  line 9.", "a.py:40")
    assert fingerprint("off by 1", None) != fingerprint("off by 2", None)
    assert normalise_claim("  The “guard” is   MISSING. ") == "the guard is missing"
    assert normalise_location("./src\\a.py:3-9") == "src/a.py"
    assert normalise_location(None) == ""


def test_a_verifier_prefix_is_the_seats_finding() -> None:
    assert fingerprint("[verifier:r-b] Empty list crashes", "a.py:3") == fingerprint(
        "empty list crashes", "a.py:9"
    )
