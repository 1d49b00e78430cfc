"""L-11, §1: the SeatRecord shape and its shipped schema."""

from __future__ import annotations

import json

from tribunal.documents import first_schema_error
from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.seat.record import SAME_FAMILY, RejectedRung, SeatRecord, VerifierSeat
from tribunal.jury.verdict import Verdict


def test_seated_record_from_a_verdict_matches_the_schema() -> None:
    text = json.dumps(
        {
            "verdict": "pass",
            "lens": "defect",
            "findings": ["[minor] a.py:1 nit"],
            "checked": [{"claim": "bounds", "location": "a.py:1", "evidence": "x = 1"}],
        }
    )
    verdict = read_reply(text, lens="defect", rung="r1", envelope={"a.py": "x = 1\n"})
    assert isinstance(verdict, Verdict)
    rejected = (RejectedRung("r0", ReasonCode.WRONG_LENS, "tail", "x", answered_lens="telemetry"),)
    record = SeatRecord.seated(
        verdict, tier="generalist", rung="r1", family="vendor-a", rejected_rungs=rejected
    )
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert list(data) == [
        "lens", "tier", "rung", "family", "verdict", "verified", "low_information", "findings",
        "checked", "rejected_rungs", "reason", "note", "raw_tail", "builder_family_seated",
        "verifier", "recorded",
    ]  # fmt: skip
    assert data["verdict"] == "pass" and data["low_information"] is False
    assert data["findings"][0]["citation"] == "verified"
    assert data["checked"][0]["citation"] == "verified"
    assert data["rejected_rungs"] == [
        {
            "rung": "r0",
            "reason": "wrong_lens",
            "raw_tail": "tail",
            "detail": "x",
            "answered_lens": "telemetry",
        }
    ]


def test_malformed_record_keeps_reason_and_tail() -> None:
    verdict = read_reply("no json", lens="defect", rung="r1")
    assert isinstance(verdict, Verdict)
    data = SeatRecord.seated(verdict, tier="generalist", rung="r1", family="f").to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["verdict"], data["reason"], data["raw_tail"]) == ("refuse", "malformed", "no json")
    assert data["findings"][0]["claim"] == "malformed verdict from r1"


def test_hold_record_has_no_rung() -> None:
    rejected = (RejectedRung("local", ReasonCode.BUILDER_FAMILY, detail="family qwen"),)
    data = SeatRecord.hold(lens="defect", tier="generalist", rejected_rungs=rejected).to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["rung"], data["family"], data["verdict"]) == (None, None, "hold")
    assert data["rejected_rungs"][0]["reason"] == "builder_family"


def test_fused_record_with_same_family_verifier() -> None:
    record = SeatRecord(
        lens="boundary_condition",
        tier="fast_structural",
        rung="local",
        family="qwen",
        verdict=SeatVerdict.PASS,
        verified=SAME_FAMILY,
        builder_family_seated=True,
        verifier=VerifierSeat("local-2", "qwen", SeatVerdict.PASS),
    )
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert data["verified"] == "same-family"
    assert data["verifier"] == {"rung": "local-2", "family": "qwen", "verdict": "pass"}


def test_schema_rejects_an_unknown_verdict() -> None:
    data = SeatRecord.hold(lens="d", tier="t").to_dict()
    assert first_schema_error({**data, "verdict": "maybe"}, "seat_record") is not None
    assert first_schema_error({**data, "verified": "yes"}, "seat_record") is not None
