"""L-6, L-7: a seat's walk sends each rung the strict verdict schema of its lens and envelope,
reads the structured reply like any other, and passes over a rung whose server rejects its
response format (`response_format_unsupported`) — against real local servers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from testing.juror_fleets import ENVELOPE, server_rung, sit, write_fleet
from testing.jurors import PROTOCOLS, JurorServer, rejects_format, reply, structured

from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.verdict_schema import SchemaDialect, strict_verdict_schema

CHECKED = [{"location": "calc.py:2", "evidence": "max(a - b, 0)", "claim": "clamps at zero"}]
PASS = {"lens": "defect", "checked": CHECKED, "findings": [], "verdict": "pass"}
PROMPT = 'Judge the envelope.\n"lens": "defect"\n' * 10  # longer than the servers' token counts


def schema_sent(server: JurorServer) -> object:
    body = server.chat_requests()[-1].body
    if server.protocol == "openai":
        form = body["response_format"]
        return form["json_schema"]["schema"] if form["type"] == "json_schema" else form["schema"]
    if server.protocol == "ollama":
        return body["format"]
    return body["tools"][0]["input_schema"]


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_the_walk_sends_the_seats_own_schema(tmp_path: Path, protocol: str) -> None:
    with JurorServer(protocol) as server:
        server.always(structured(PASS))
        rung = server_rung("r1", "vendor-a", server, response_format="json_object_schema")
        fleet = write_fleet(tmp_path, [rung], {"generalist": ["r1"]})
        record = sit(fleet, prompt=PROMPT)
        assert schema_sent(server) == strict_verdict_schema("defect", ENVELOPE)
    assert record.verdict is SeatVerdict.PASS and record.rung == "r1"
    assert [entry.citation.value for entry in record.checked] == ["verified"]


def test_openai_structured_outputs_get_their_dialect(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        server.always(structured(PASS))
        rung = server_rung("r1", "vendor-a", server, response_format="json_schema")
        sit(write_fleet(tmp_path, [rung], {"generalist": ["r1"]}), prompt=PROMPT)
        expected = strict_verdict_schema("defect", ENVELOPE, SchemaDialect.OPENAI_STRICT)
        assert schema_sent(server) == expected
    pattern = expected["properties"]["checked"]["items"]["properties"]["location"]["pattern"]
    assert re.fullmatch(pattern, "calc.py:2") and not re.fullmatch(pattern, "calc.py:3")


def test_a_rung_whose_server_rejects_its_form_is_passed_over(tmp_path: Path) -> None:
    """llama-cpp-python answers json_schema with a 500 naming response_format: the rung is
    recorded `response_format_unsupported` with the fix, and the walk goes on."""
    with JurorServer("openai") as llama, JurorServer("openai") as other:
        llama.always(rejects_format())
        other.always(structured(PASS))
        rungs = [
            server_rung("llama", "qwen", llama, response_format="json_schema"),
            server_rung("next", "vendor-b", other, response_format="json_object_schema"),
        ]
        record = sit(write_fleet(tmp_path, rungs, {"generalist": ["llama", "next"]}))
    assert record.verdict is SeatVerdict.PASS and record.rung == "next"
    [rejected] = record.rejected_rungs
    assert rejected.reason is ReasonCode.RESPONSE_FORMAT_UNSUPPORTED
    assert rejected.detail == (
        "the server rejected response_format json_schema: set response_format: json_object"
        " (or json_object_schema for llama.cpp) on rung llama (HTTP 500)"
    )
    assert rejected.raw_tail is not None and "response_format" in rejected.raw_tail
    assert record.to_dict()["rejected_rungs"][0]["reason"] == "response_format_unsupported"


def test_a_ladder_of_rejected_forms_holds(tmp_path: Path) -> None:
    with JurorServer("anthropic") as server:
        server.always(rejects_format())
        rung = server_rung("claude", "anthropic", server, response_format="json_schema")
        record = sit(write_fleet(tmp_path, [rung], {"generalist": ["claude"]}))
    assert record.verdict is SeatVerdict.HOLD
    assert [r.reason for r in record.rejected_rungs] == [ReasonCode.RESPONSE_FORMAT_UNSUPPORTED]


def test_a_structured_reply_that_disagrees_with_itself_refuses(tmp_path: Path) -> None:
    """V-2 on a structured reply: two tool_use verdicts that disagree are malformed."""
    with JurorServer("anthropic") as server:
        tool = {"type": "tool_use", "id": "t", "name": "verdict"}
        blocks = [{**tool, "input": PASS}, {**tool, "input": {**PASS, "verdict": "refuse"}}]
        server.always(reply("", extra={"content": blocks, "stop_reason": "tool_use"}))
        rung = server_rung("claude", "anthropic", server, response_format="json_schema")
        record = sit(write_fleet(tmp_path, [rung], {"generalist": ["claude"]}))
    assert record.verdict is SeatVerdict.REFUSE and record.reason is ReasonCode.MALFORMED
    assert record.note is not None and "contradictory reply" in record.note
    assert record.raw_tail is not None
    assert json.loads(record.raw_tail.splitlines()[0]) == PASS  # both verdicts are kept
