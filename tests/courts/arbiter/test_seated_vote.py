"""L-11, A-2, V-4: a seated vote cites only what the one citation checker verified, read by the
one location reader (any form a juror writes)."""

from __future__ import annotations

from pathlib import Path

from tribunal.courts.arbiter.seated_vote import VoteTarget
from tribunal.enums import CitationReason, CitationStatus, SeatVerdict, Severity
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Finding

MANIFEST = "../../out/envelope/manifest.json"


def target(tmp_path: Path) -> VoteTarget:
    (tmp_path / "calc.py").write_text("def sub(a, b):\n    return max(a - b, 0)\n")
    (tmp_path / "out" / "envelope").mkdir(parents=True)
    (tmp_path / "out" / "envelope" / "manifest.json").write_text("{}\n")
    dispute = tmp_path / "disputes" / "d"
    dispute.mkdir(parents=True)
    return VoteTarget(dispute / "votes" / "R1-verifier.yaml", dispute, tmp_path, MANIFEST, tmp_path)


def finding(location: str, citation: CitationStatus, reason: CitationReason | None = None):
    return Finding(Severity.MAJOR, f"about {location}", None, location, citation, reason)


def test_a_verified_location_in_any_form_is_cited(tmp_path: Path) -> None:
    record = SeatRecord(
        "verifier", "generalist", "r1", "f", SeatVerdict.REFUSE,
        findings=(
            finding("calc.py, line 2", CitationStatus.VERIFIED),
            finding("`./calc.py#L1`", CitationStatus.VERIFIED),
            finding("calc.py:2-2", CitationStatus.VERIFIED),
        ),
    )  # fmt: skip
    assert target(tmp_path).refs(record) == ["../../calc.py:2", "../../calc.py:1"]


def test_a_location_the_checker_did_not_verify_cites_the_manifest(tmp_path: Path) -> None:
    record = SeatRecord(
        "verifier", "generalist", "r1", "f", SeatVerdict.REFUSE,
        findings=(
            finding("path:line", CitationStatus.UNLOCATED, CitationReason.PLACEHOLDER),
            finding("calc.py:1", CitationStatus.UNLOCATED, CitationReason.EXAMPLE_COPIED),
            finding("calc.py:2", CitationStatus.EVIDENCE_NOT_FOUND),
            finding("calc.py:9", CitationStatus.NO_SUCH_LINE),
        ),
    )  # fmt: skip
    assert target(tmp_path).refs(record) == [MANIFEST]
