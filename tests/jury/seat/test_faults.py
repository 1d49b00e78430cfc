"""S-1 through the whole walk (L-6): every fault of a real local juror server, for each protocol,
lands in its row of the L-6 table — the verdict or reason recorded, and whether the walk went on
to the next rung or stopped — memory stays bounded, and none ever becomes a pass.

The ladder is [faulty, fallback]: `fallback` always answers a valid REFUSE, so a row that walks
on ends on it (never a pass), and a row that stops never asks it.
"""

from __future__ import annotations

import json
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import pytest
from testing.juror_fleets import ENV, KEY, PROMPT, lens_route, server_rung, write_fleet
from testing.jurors import (
    GARBAGE,
    NON_JSON,
    PROTOCOLS,
    REFUSAL,
    Behaviour,
    JurorServer,
    closed_port,
    context_exceeded,
    echo_key,
    empty,
    huge,
    length,
    reply,
    slow,
    status,
    verdict,
)

from tribunal.documents import first_schema_error
from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.seat.walk import SeatContext, walk_seat
from tribunal.jury.verdict import MAX_REPLY_BYTES

ENVELOPE = {"calc.py": "def sub(a, b):\n    return max(a - b, 0)\n"}
BLOCKER = {"severity": "blocker", "claim": "overflows", "location": "calc.py:2"}
FALLBACK = verdict("defect", "refuse", findings=[{"severity": "minor", "claim": "fallback"}])


@dataclass(frozen=True)
class Row:
    """One S-1 fault and the L-6 row it must land in."""

    behaviour: Behaviour | None  # None: nothing listens (connection refused)
    verdict: SeatVerdict | None  # the seat's verdict when the walk stops on the faulty rung
    reason: ReasonCode | None  # the reason recorded (on the record, or on the rejected rung)
    walks_on: bool


ROWS: dict[str, Row] = {
    "garbage": Row(reply(GARBAGE), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
    "non-json": Row(reply(NON_JSON), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
    "refusal-text": Row(reply(REFUSAL), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
    "wrong-lens": Row(reply(verdict("telemetry")), None, ReasonCode.WRONG_LENS, True),
    "no-lens": Row(reply(verdict(None)), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
    "contradictory-pass": Row(
        reply(verdict("defect", findings=[BLOCKER])),
        SeatVerdict.REFUSE,
        ReasonCode.CONTRADICTORY_PASS,
        False,
    ),
    "string-findings": Row(
        reply(verdict("defect", findings=["[major] calc.py:2 no upper bound"])),
        SeatVerdict.REFUSE,
        ReasonCode.CONTRADICTORY_PASS,
        False,
    ),
    "empty-content": Row(empty(), None, ReasonCode.TRUNCATED, True),
    "finish-length": Row(length(), None, ReasonCode.TRUNCATED, True),
    "http-500": Row(status(500), None, ReasonCode.NOT_ANSWERED, True),
    "http-429": Row(status(429), None, ReasonCode.NOT_ANSWERED, True),
    "http-401": Row(status(401), None, ReasonCode.NOT_ANSWERED, True),
    "timeout": Row(slow(3.0), None, ReasonCode.NOT_ANSWERED, True),
    "connection-refused": Row(None, None, ReasonCode.NOT_ANSWERED, True),
    "400-context-exceeded": Row(context_exceeded(), None, ReasonCode.CAPACITY, True),
    "10-mb-reply": Row(huge(10 * 1024 * 1024), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
    "key-echoed": Row(echo_key(), SeatVerdict.REFUSE, ReasonCode.MALFORMED, False),
}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("fault", list(ROWS))
def test_every_fault_lands_in_its_l6_row(tmp_path: Path, protocol: str, fault: str) -> None:
    row = ROWS[fault]
    with JurorServer(protocol) as faulty, JurorServer(protocol) as fallback:
        fallback.always(reply(FALLBACK))
        first = server_rung("faulty", "vendor-a", faulty, timeout_s=0.5)
        if row.behaviour is None:
            endpoint = str(first["endpoint"])
            first["endpoint"] = endpoint.replace(faulty.url, f"http://127.0.0.1:{closed_port()}")
        else:
            faulty.script(row.behaviour)
        rungs = [first, server_rung("fallback", "vendor-b", fallback)]
        fleet = write_fleet(tmp_path, rungs, {"generalist": ["faulty", "fallback"]})
        context = SeatContext.for_fleet(fleet, environ=ENV, envelope_files=ENVELOPE)
        tracemalloc.start()
        try:
            record = walk_seat(lens_route(fleet), PROMPT, context)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        asked_fallback = len(fallback.chat_requests())
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert record.verdict is not SeatVerdict.PASS  # S-1: none ever becomes a pass
    assert peak < 6 * MAX_REPLY_BYTES  # memory stays bounded, whatever was sent
    assert KEY not in json.dumps(data)
    if row.walks_on:
        assert (record.rung, asked_fallback) == ("fallback", 1)
        assert [(r.rung, r.reason) for r in record.rejected_rungs] == [("faulty", row.reason)]
        if fault.startswith("http-"):  # L-6: the status is recorded
            assert f"HTTP {fault.removeprefix('http-')}" in record.rejected_rungs[0].detail
    else:
        assert (record.rung, asked_fallback) == ("faulty", 0)  # stop — one shot, no retries
        assert (record.verdict, record.reason) == (row.verdict, row.reason)
        assert record.rejected_rungs == ()
    if row.reason is ReasonCode.MALFORMED:
        assert record.findings[0].claim == "malformed verdict from faulty"
        assert record.findings[0].severity == "blocker"
