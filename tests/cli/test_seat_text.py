"""L-11: the text `tribunal seat` prints names the verifier, UNVERIFIED holds and bare passes."""

from __future__ import annotations

from tribunal.cli.seat_text import render_seat
from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.seat.record import RejectedRung, SeatRecord, VerifierSeat


def test_fused_pass_names_its_verifier_and_bare_pass() -> None:
    record = SeatRecord(
        "boundary_condition",
        "fast_structural",
        "local",
        "qwen",
        SeatVerdict.PASS,
        verified=True,
        low_information=True,
        verifier=VerifierSeat("cloud", "vendor-v", SeatVerdict.PASS),
    )
    assert render_seat(record) == (
        "lens: boundary_condition (tier fast_structural)\n"
        "seated: local [qwen]\n"
        "verifier: cloud [vendor-v]: pass (verified: true)\n"
        "verdict: PASS (low information: a bare pass, it names nothing it checked)\n"
    )


def test_unverified_hold_says_no_verifier_answered() -> None:
    record = SeatRecord(
        "boundary_condition",
        "fast_structural",
        "local",
        "qwen",
        SeatVerdict.HOLD,
        verified=False,
        note="UNVERIFIED: the primary passed and no verifier rung answered",
        rejected_rungs=(
            RejectedRung("cloud", ReasonCode.NOT_ANSWERED, detail="verifier: HTTP 500"),
        ),
    )
    assert render_seat(record) == (
        "lens: boundary_condition (tier fast_structural)\n"
        "seated: local [qwen]\n"
        "verifier: none answered (verified: false)\n"
        "verdict: HOLD\n"
        "note: UNVERIFIED: the primary passed and no verifier rung answered\n"
        "rejected rungs:\n"
        "  cloud: not_answered (verifier: HTTP 500)\n"
    )


def test_a_solo_seat_names_the_weakened_gate() -> None:
    record = SeatRecord(
        "defect", "generalist", "own", "vendor-a", SeatVerdict.PASS, builder_family_seated=True
    )
    assert "seated: own [vendor-a] builder_family_seated\n" in render_seat(record)
    assert "DEGRADED: graded same-family-blind, not cross-family\n" in render_seat(record)
