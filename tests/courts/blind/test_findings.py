"""B-3 fingerprints: which differences make a different finding, and which do not."""

from __future__ import annotations

from tribunal.courts.blind.findings import harness_finding
from tribunal.courts.fingerprints import fingerprint, normalise_claim, normalise_location
from tribunal.enums import ProofName, Severity
from tribunal.jury.seat.record import verifier_claim


def test_case_whitespace_quotes_and_trailing_punctuation_do_not_matter() -> None:
    assert fingerprint("Empty  list\ncrashes `parse`.", "src/a.py:3") == fingerprint(
        "empty list crashes parse", "src/a.py:3"
    )
    assert normalise_claim("  The “guard” is   MISSING. ") == "the guard is missing"


def test_lines_move_as_the_fix_lands() -> None:
    assert fingerprint("crash", "src/a.py:3") == fingerprint("crash", "src/a.py:41")
    assert fingerprint("crash at line 3", "src/a.py") == fingerprint("crash at line 9", "src/a.py")
    assert fingerprint("see lines 3-5", None) == fingerprint("see lines 10 - 12", None)
    assert fingerprint("see src/a.py:3 first", None) == fingerprint("see src/a.py:8 first", None)
    assert fingerprint("L12 drops the error", None) == fingerprint("l40 drops the error", None)


def test_other_digits_are_kept() -> None:
    assert fingerprint("returns HTTP 404", None) != fingerprint("returns HTTP 500", None)
    assert fingerprint("off by 1", "a.py:1") != fingerprint("off by 2", "a.py:1")


def test_location_is_the_path_case_kept() -> None:
    assert normalise_location("./src\\a.py:12") == "src/a.py"
    assert normalise_location("src/a.py:3-9") == "src/a.py"
    assert normalise_location(None) == ""
    assert fingerprint("crash", "src/a.py:3") != fingerprint("crash", "src/b.py:3")
    assert fingerprint("crash", "src/A.py:3") != fingerprint("crash", "src/a.py:3")
    assert fingerprint("crash", None) != fingerprint("crash", "src/a.py:3")


def test_fingerprints_are_sixteen_hex_characters() -> None:
    key = fingerprint("crash", "src/a.py:3")
    assert len(key) == 16
    int(key, 16)


def test_a_false_proof_is_a_harness_blocker() -> None:
    item = harness_finding(ProofName.TESTS_UNCHANGED, "tests/test_a.py differs")
    assert item.lens == "harness"
    assert item.severity is Severity.BLOCKER
    assert item.finding.claim == "tests_changed"
    assert item.to_dict()["fingerprint"] == fingerprint("tests_changed", None)


def test_a_fused_seats_verifier_finding_is_fingerprinted_as_its_seats() -> None:
    # L-5, B-3: the `[verifier:<rung>]` prefix names who wrote it, not a different finding —
    # whichever rung of the verifier ladder sat this round.
    claim, location = "neg(-0.0) keeps the sign", "calc.py:6"
    primary = fingerprint(claim, location)
    assert fingerprint(verifier_claim("juror-c", claim), location) == primary
    assert fingerprint(verifier_claim("gateway/b-long", claim), "calc.py:9") == primary
    assert normalise_claim(verifier_claim("juror-c", "The GUARD is missing.")) == (
        "the guard is missing"
    )
    # Only the prefix goes: a claim that merely mentions a verifier keeps its words.
    assert fingerprint(f"see {verifier_claim('c', claim)}", location) != primary
    assert fingerprint("other claim", location) != primary
