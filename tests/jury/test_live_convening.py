"""E-5, L-7, V-2..V-4: a whole convening heard from real small models, replayed.

`fixtures/live_convening.json` holds what `bench/live_juror.py --save-fixtures` recorded: every
call a convening of the blind demo made to Qwen2.5-Coder 0.5B and SmolLM2 135M (llama-cpp-python's
server, each rung sending `response_format: json_object_schema`), with its prompt and reply, the
envelope's files, the protocol's example citation, and what each seat came to. Replaying each
reply through the parse, normalise and citation path must give exactly what the live run got —
so CI checks real models' answers, not only scripted ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.seat.record import RejectedRung
from tribunal.jury.verdict import Verdict

FIXTURE = Path(__file__).with_name("fixtures") / "live_convening.json"
LIVE = json.loads(FIXTURE.read_text(encoding="utf-8"))
RUNG_OF_MODEL = {
    "qwen2.5-coder-0.5b-instruct": "qwen-local",
    "smollm2-135m-instruct": "smollm-local",
}
PROTOCOL_FAILURES = (ReasonCode.MALFORMED, ReasonCode.WRONG_LENS, ReasonCode.TRUNCATED)


def sources() -> CitationSources:
    example = LIVE["example"]
    return CitationSources(
        LIVE["files"], example=ExampleCitation(**example) if example is not None else None
    )


def replay(call: dict[str, Any]) -> Verdict | RejectedRung:
    return read_reply(
        call["reply"],
        lens=call["lens"],
        rung=RUNG_OF_MODEL[call["model"]],
        envelope=sources(),
        shown=call["prompt"],
    )


def marks(verdicts: list[Verdict]) -> list[str]:
    """The marks as a seat record lists them: every finding (primary, then verifier), then every
    checked entry."""
    entries = [f for v in verdicts for f in v.findings] + [c for v in verdicts for c in v.checked]
    shown = []
    for entry in entries:
        mark = entry.citation.value
        shown.append(f"{mark}({entry.citation_reason.value})" if entry.citation_reason else mark)
    return shown


@pytest.mark.parametrize("seat", LIVE["seats"], ids=lambda seat: seat["lens"])
def test_each_seat_replays_to_what_the_live_run_got(seat: dict[str, Any]) -> None:
    calls = [call for call in LIVE["calls"] if call["lens"] == seat["lens"]]
    outcomes = [replay(call) for call in calls]
    assert all(isinstance(outcome, Verdict) for outcome in outcomes), outcomes
    verdicts = [outcome for outcome in outcomes if isinstance(outcome, Verdict)]
    # The seated rung's reply first; a fused seat's verifier second.
    seated = RUNG_OF_MODEL[calls[0]["model"]]
    assert seated == seat["rung"]
    assert marks(verdicts) == seat["marks"]
    passed = all(verdict.verdict is SeatVerdict.PASS for verdict in verdicts)
    assert (SeatVerdict.PASS if passed else SeatVerdict.REFUSE).value == seat["verdict"]
    assert not [v for v in verdicts if v.reason in PROTOCOL_FAILURES]


def test_the_live_run_had_no_protocol_failure() -> None:
    assert all(seat["protocol_failures"] == [] for seat in LIVE["seats"])
    assert all(call["status"] == 200 for call in LIVE["calls"])
    # A reply cut short (finish_reason "length") is a truncated rung, not a reply to replay.
    assert all(call["finish_reason"] == "stop" for call in LIVE["calls"])


def test_no_seat_of_the_live_run_verified_a_citation() -> None:
    # The figure docs/benchmarks.md reports: real small models never cited a line they quote.
    def verified(call: dict[str, Any]) -> bool:
        outcome = replay(call)
        return isinstance(outcome, Verdict) and "verified" in marks([outcome])

    assert not any(verified(call) for call in LIVE["calls"])
