"""L-1, L-7, L-6: what each HTTP transport sends for each `response_format`, how it reads a
structured reply, and how a server that rejects the form is told apart — against real local
servers speaking each protocol."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from testing.jurors import (
    PROTOCOLS,
    JurorServer,
    rejects_format,
    reply,
    status,
    structured,
)

from tribunal.enums import ReasonCode, ResponseFormat, SeatVerdict
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.transports import (
    FormatUnsupported,
    NotAnswered,
    SeatRequest,
    TransportContext,
    Truncated,
    open_transport,
)
from tribunal.jury.verdict import Verdict
from tribunal.jury.verdict_schema import strict_verdict_schema

ENVELOPE = {"calc.py": "def sub(a, b):\n    return max(a - b, 0)\n"}
SCHEMA = strict_verdict_schema("defect", ENVELOPE)
PROMPT = "Judge the change. " * 20  # longer than the juror server's prompt_eval_count
REQUEST = SeatRequest(prompt=PROMPT, seat="defect", response_schema=SCHEMA)
VERDICT = {
    "lens": "defect",
    "checked": [{"location": "calc.py:2", "evidence": "max(a - b, 0)", "claim": "clamps"}],
    "findings": [],
    "verdict": "pass",
}
FORMS = [form.value for form in ResponseFormat]


@pytest.fixture(params=PROTOCOLS)
def server(request: pytest.FixtureRequest) -> Iterator[JurorServer]:
    with JurorServer(request.param) as juror:
        yield juror


def ask(server: JurorServer, form: str, request: SeatRequest = REQUEST) -> str:
    """Ask the server once with a rung of `response_format: form`; the reply text."""
    config = server.rung(response_format=form)
    return open_transport(config, TransportContext(environ={})).answer(request).text


def sent(server: JurorServer) -> dict[str, Any]:
    body: dict[str, Any] = server.chat_requests()[-1].body
    return body


# -- what each transport sends ------------------------------------------------------------------

OPENAI_FORMS: dict[str, dict[str, Any] | None] = {
    "json_schema": {
        "type": "json_schema",
        "json_schema": {"name": "verdict", "strict": True, "schema": SCHEMA},
    },
    "json_object_schema": {"type": "json_object", "schema": SCHEMA},
    "json_object": {"type": "json_object"},
    "none": None,
}


@pytest.mark.parametrize("form", FORMS)
def test_openai_sends_each_form(form: str) -> None:
    with JurorServer("openai") as server:
        server.always(reply(json.dumps(VERDICT)))
        ask(server, form)
        body = sent(server)
    assert body.get("response_format") == OPENAI_FORMS[form]
    assert ("response_format" in body) is (form != "none")


OLLAMA_FORMS: dict[str, object] = {
    "json_schema": SCHEMA,
    "json_object_schema": SCHEMA,
    "json_object": "json",
    "none": None,
}


@pytest.mark.parametrize("form", FORMS)
def test_ollama_sends_each_form_as_its_format(form: str) -> None:
    with JurorServer("ollama") as server:
        server.always(reply(json.dumps(VERDICT)))
        ask(server, form)
        body = sent(server)
    assert body.get("format") == OLLAMA_FORMS[form]
    assert ("format" in body) is (form != "none")


@pytest.mark.parametrize("form", FORMS)
def test_anthropic_forces_the_verdict_tool_for_the_schema_forms(form: str) -> None:
    with JurorServer("anthropic") as server:
        server.always(structured(VERDICT) if form.endswith("schema") else reply("{}"))
        ask(server, form)
        body = sent(server)
    if form in ("json_schema", "json_object_schema"):
        [tool] = body["tools"]
        assert tool["name"] == "verdict" and tool["description"]
        assert tool["input_schema"] == SCHEMA
        assert body["tool_choice"] == {"type": "tool", "name": "verdict"}
    else:
        assert "tools" not in body and "tool_choice" not in body


def test_a_call_without_a_schema_sends_json_object_for_a_schema_form(server: JurorServer) -> None:
    """A schema form asked for a call that carries no schema sends what json_object sends."""
    server.always(reply(json.dumps(VERDICT)))
    without = SeatRequest(prompt=PROMPT, seat="defect")
    ask(server, "json_schema", without)
    body = sent(server)
    if server.protocol == "openai":
        assert body["response_format"] == {"type": "json_object"}
    elif server.protocol == "ollama":
        assert body["format"] == "json"
    else:
        assert "tools" not in body


def test_params_still_have_the_last_word(server: JurorServer) -> None:
    server.always(structured(VERDICT))
    name = {"openai": "response_format", "ollama": "format", "anthropic": "tool_choice"}
    config = server.rung(response_format="json_schema", params={name[server.protocol]: "own"})
    open_transport(config, TransportContext(environ={})).answer(REQUEST)
    assert sent(server)[name[server.protocol]] == "own"


# -- reading a structured reply -----------------------------------------------------------------


def test_a_structured_reply_is_read_as_a_verdict(server: JurorServer) -> None:
    """The tool_use input (anthropic) or the content (openai, ollama) is what the parser reads;
    nothing skips it: the citation is checked against the envelope."""
    server.always(structured(VERDICT))
    text = ask(server, "json_object_schema")
    assert json.loads(text) == VERDICT
    verdict = read_reply(text, lens="defect", rung="r", envelope=ENVELOPE)
    assert isinstance(verdict, Verdict)
    assert verdict.verdict is SeatVerdict.PASS and not verdict.low_information


def test_a_schema_sent_is_not_a_schema_obeyed(server: JurorServer) -> None:
    """A structured reply for another lens, or with a citation the envelope does not hold, is
    still what V-2..V-4 make of it."""
    server.script(structured({**VERDICT, "lens": "proportion"}))
    outcome = read_reply(ask(server, "json_schema"), lens="defect", rung="r", envelope=ENVELOPE)
    assert not isinstance(outcome, Verdict) and outcome.reason is ReasonCode.WRONG_LENS
    wrong = [{"location": "calc.py:9", "evidence": "", "claim": "x"}]
    server.script(structured({**VERDICT, "checked": wrong}))
    outcome = read_reply(ask(server, "json_schema"), lens="defect", rung="r", envelope=ENVELOPE)
    assert isinstance(outcome, Verdict) and outcome.low_information  # a bare pass, no citation


def test_anthropic_reads_every_tool_input_and_ignores_prose_beside_it() -> None:
    with JurorServer("anthropic") as server:
        refuse = {**VERDICT, "verdict": "refuse"}
        tool = {"type": "tool_use", "id": "t", "name": "verdict"}
        blocks = [
            {"type": "text", "text": "Here is my verdict."},
            {**tool, "input": VERDICT},
            {**tool, "input": refuse},
            {**tool, "name": "other", "input": {"verdict": "pass"}},
        ]
        server.always(reply("", extra={"content": blocks, "stop_reason": "tool_use"}))
        text = ask(server, "json_schema")
    assert [json.loads(line) for line in text.splitlines()] == [VERDICT, refuse]
    outcome = read_reply(text, lens="defect", rung="r")  # V-2: they disagree
    assert isinstance(outcome, Verdict) and outcome.reason is ReasonCode.MALFORMED


def test_anthropic_without_a_tool_block_reads_the_text() -> None:
    with JurorServer("anthropic") as server:
        server.always(reply(json.dumps(VERDICT)))
        assert json.loads(ask(server, "json_schema")) == VERDICT


def test_a_cut_structured_reply_is_truncated(server: JurorServer) -> None:
    server.always(structured(VERDICT, finish="length"))
    with pytest.raises(Truncated):
        ask(server, "json_schema")


# -- a server that rejects the form -------------------------------------------------------------

FIX = {
    ("openai", "json_schema"): "set response_format: json_object (or json_object_schema for"
    " llama.cpp) on rung openai-juror",
    ("openai", "json_object_schema"): "set response_format: json_object (or json_schema for"
    " OpenAI) on rung openai-juror",
    ("openai", "json_object"): "set response_format: none on rung openai-juror",
    ("ollama", "json_schema"): "set response_format: json_object on rung ollama-juror (a schema"
    " format needs Ollama 0.5 or later)",
    ("ollama", "json_object"): "set response_format: none on rung ollama-juror",
    ("anthropic", "json_object_schema"): "set response_format: json_object on rung"
    " anthropic-juror (no tool is sent then)",
}


@pytest.mark.parametrize(("protocol", "form"), list(FIX))
def test_a_rejected_form_is_response_format_unsupported_and_names_the_fix(
    protocol: str, form: str
) -> None:
    with JurorServer(protocol) as server:
        server.always(rejects_format())
        with pytest.raises(FormatUnsupported) as raised:
            ask(server, form)
    failure = raised.value
    assert failure.reason is ReasonCode.RESPONSE_FORMAT_UNSUPPORTED
    assert failure.status == (500 if protocol == "openai" else 400)
    assert failure.message == f"the server rejected response_format {form}: {FIX[protocol, form]}"
    assert failure.raw_tail  # the server's own words are kept


@pytest.mark.parametrize(
    ("protocol", "form", "code", "body"),
    [
        ("openai", "json_schema", 500, '{"error": "out of memory"}'),  # names no format
        ("openai", "json_schema", 401, '{"error": "bad key for response_format"}'),
        ("openai", "json_schema", 429, '{"error": "slow down, response_format or not"}'),
        ("openai", "none", 500, '{"error": "response_format is required"}'),  # none was sent
        ("ollama", "json_schema", 500, '{"error": "format went wrong"}'),  # Ollama: a 400 only
        ("ollama", "none", 400, '{"error": "bad format"}'),
        ("anthropic", "json_object", 400, '{"error": {"message": "tools are off"}}'),
    ],
)
def test_other_errors_are_not_answered(protocol: str, form: str, code: int, body: str) -> None:
    with JurorServer(protocol) as server:
        server.always(status(code, body))
        with pytest.raises(NotAnswered) as raised:
            ask(server, form)
    assert raised.value.reason is ReasonCode.NOT_ANSWERED and raised.value.status == code


def test_a_config_with_an_unknown_response_format_is_bad_input() -> None:
    from tribunal.errors import BadInput
    from tribunal.jury.transports import TransportConfig

    values = {"id": "r1", "family": "f", "transport": "openai", "response_format": "yaml"}
    with pytest.raises(BadInput, match="unknown response_format 'yaml' of rung 'r1'") as raised:
        TransportConfig.from_mapping(values)
    assert raised.value.field == "response_format"
    assert TransportConfig.from_mapping({**values, "response_format": "none"}).response_format is (
        ResponseFormat.NONE
    )
