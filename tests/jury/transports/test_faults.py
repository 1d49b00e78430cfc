"""S-1 at the transport level (L-6, L-7): every fault of a real local server, for each protocol,
lands on its typed failure or on a reply. Garbage and refusal text are replies here — the verdict
parser makes them `malformed` later."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from testing.jurors import (
    GARBAGE,
    NON_JSON,
    PROTOCOLS,
    REFUSAL,
    VALID,
    Behaviour,
    JurorServer,
    closed_port,
    context_exceeded,
    empty,
    hang_up,
    huge,
    length,
    raw,
    reply,
    slow,
    status,
)

from tribunal.enums import ReasonCode
from tribunal.jury.transports import (
    NotAnswered,
    OverCapacity,
    Oversize,
    Reply,
    RungFailure,
    SeatRequest,
    Truncated,
    Unreadable,
    open_transport,
)
from tribunal.jury.transports.base import TransportContext
from tribunal.jury.verdict import MAX_REPLY_BYTES

KEY = "sk-juror-0123456789abcdef"
ENV = {"JUROR_KEY": KEY}
REQUEST = SeatRequest(prompt="Review the envelope. Answer with one JSON verdict.", seat="defect")


@pytest.fixture(params=PROTOCOLS)
def server(request: pytest.FixtureRequest) -> Iterator[JurorServer]:
    with JurorServer(request.param) as juror:
        yield juror


def ask(server: JurorServer, *behaviours: Behaviour, **fields: Any) -> Reply:
    server.script(*behaviours)
    config = server.rung(api_key_env="JUROR_KEY", **fields)
    return open_transport(config, TransportContext(environ=ENV)).answer(REQUEST)


@pytest.mark.parametrize(
    "text", [VALID, GARBAGE, NON_JSON, REFUSAL], ids=["valid", "garbage", "non-json", "refusal"]
)
def test_model_words_are_replies(server: JurorServer, text: str) -> None:
    """Whatever the model said is handed on as a reply: judging it is the parser's job."""
    answered = ask(server, reply(text))
    assert answered.text == text
    assert answered.rung == f"{server.protocol}-juror"
    assert answered.status == 200
    assert answered.recorded is False
    assert answered.usage.completion_tokens == 7
    assert answered.usage.prompt_tokens == 11
    assert answered.finish_reason in ("stop", "end_turn")


@pytest.mark.parametrize(
    ("behaviour", "failure", "code"),
    [
        (empty(), Truncated, 200),
        (reply("   \n"), Truncated, 200),
        (length(), Truncated, 200),
        (status(500), NotAnswered, 500),
        (status(503, "<html>upstream down</html>"), NotAnswered, 503),
        (status(429), NotAnswered, 429),
        (status(401), NotAnswered, 401),
        (status(404), NotAnswered, 404),
        (status(400, '{"error": "unknown field frobnicate"}'), NotAnswered, 400),
        (context_exceeded(), OverCapacity, 400),
        (raw("<html>a proxy page, not the protocol</html>"), Unreadable, 200),
        (raw('{"hello": "world"}'), Unreadable, 200),
        (raw("[1, 2, 3]"), Unreadable, 200),
        (raw("[" * 200_000), Unreadable, 200),
    ],
    ids=[
        "empty",
        "blank",
        "finish-length",
        "http-500",
        "http-503",
        "http-429",
        "http-401",
        "http-404",
        "http-400-other",
        "http-400-context",
        "non-json-body",
        "json-not-protocol",
        "json-array",
        "json-too-deep",
    ],
)
def test_faults_land_on_their_failure(
    server: JurorServer, behaviour: Behaviour, failure: type[RungFailure], code: int
) -> None:
    with pytest.raises(failure) as caught:
        ask(server, behaviour)
    assert type(caught.value) is failure
    assert caught.value.status == code
    assert caught.value.rung == f"{server.protocol}-juror"


def test_reason_codes_are_the_l6_words() -> None:
    assert Truncated.reason is ReasonCode.TRUNCATED
    assert NotAnswered.reason is ReasonCode.NOT_ANSWERED
    assert OverCapacity.reason is ReasonCode.CAPACITY
    assert Unreadable.reason is ReasonCode.MALFORMED
    assert Oversize.reason is ReasonCode.MALFORMED  # L-6: a reply over 1 MiB is malformed


def test_a_failure_keeps_the_reply_tail(server: JurorServer) -> None:
    with pytest.raises(NotAnswered) as caught:
        ask(server, status(503, "upstream overloaded, try later " + "z" * 5000 + " END"))
    tail = caught.value.raw_tail
    assert tail.endswith(" END")
    assert len(tail.encode()) <= 2048
    assert str(caught.value).startswith(f"{server.protocol}-juror: not_answered (HTTP 503)")


def test_truncated_keeps_what_came(server: JurorServer) -> None:
    with pytest.raises(Truncated) as caught:
        ask(server, length('{"verdict": "pass", "lens": "def'))
    assert '\\"lens\\": \\"def' in caught.value.raw_tail


def test_slow_reply_is_not_answered(server: JurorServer) -> None:
    with pytest.raises(NotAnswered) as caught:
        ask(server, slow(3.0), timeout_s=0.3)
    assert caught.value.status is None
    assert "0.3 s" in caught.value.message


def test_hang_up_is_not_answered(server: JurorServer) -> None:
    with pytest.raises(NotAnswered):
        ask(server, hang_up())


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_connection_refused_is_not_answered(protocol: str) -> None:
    with JurorServer(protocol) as juror:
        config = juror.rung(endpoint=f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(NotAnswered) as caught:
        open_transport(config, TransportContext(environ={})).answer(REQUEST)
    assert caught.value.status is None
    assert "Connect" in caught.value.message


def test_ten_megabytes_are_read_no_further_than_one(server: JurorServer) -> None:
    """L-6: over 1 MiB is malformed and the body is never read in full — memory stays bounded."""
    server.script(huge(10 * 1024 * 1024))
    transport = open_transport(server.rung(), TransportContext(environ={}))
    tracemalloc.start()
    try:
        with pytest.raises(Oversize) as caught:
            transport.answer(REQUEST)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 6 * MAX_REPLY_BYTES  # far below the 10 MB sent
    assert caught.value.status == 200
    assert caught.value.reason is ReasonCode.MALFORMED
    assert len(caught.value.raw_tail.encode()) <= 2048


def test_just_under_the_cap_is_read(server: JurorServer) -> None:
    answered = ask(server, huge(MAX_REPLY_BYTES - 1024))
    assert len(answered.text) > MAX_REPLY_BYTES - 4096


def test_missing_usage_is_none_never_a_guess(server: JurorServer) -> None:
    drop = {"usage": None, "prompt_eval_count": None, "eval_count": None}
    answered = ask(server, reply(VALID, extra=drop))
    assert answered.usage.prompt_tokens is None
    assert answered.usage.completion_tokens is None
    assert answered.usage.cached_tokens is None
    assert answered.usage.prompt_eval_count is None


def test_capacity_is_checked_before_any_request(server: JurorServer) -> None:
    """L-3: a rung whose context cannot hold prompt + answer is refused before the call."""
    with pytest.raises(OverCapacity):
        ask(server, reply(VALID), context_tokens=1000, max_output_tokens=990)
    assert server.requests == []


def test_no_retries(server: JurorServer) -> None:
    """One shot per rung: a 500 is not asked again."""
    server.always(reply(VALID))
    with pytest.raises(NotAnswered):
        ask(server, status(500))
    assert len(server.chat_requests()) == 1


def test_the_juror_server_scripts_by_prompt_then_order_then_default(server: JurorServer) -> None:
    """The fault server the S-1 table reuses: `when` rules first, then the script, then
    `always`; an unscripted request is a 500, so no test passes by accident."""
    transport = open_transport(server.rung(), TransportContext(environ={}))
    server.when('"lens": "telemetry"', reply("telemetry words"))
    server.script(reply("first"), reply("second"))
    telemetry = SeatRequest(prompt='... "lens": "telemetry" ...', seat="telemetry")
    assert transport.answer(telemetry).text == "telemetry words"
    assert transport.answer(REQUEST).text == "first"
    assert transport.answer(telemetry).text == "telemetry words"
    assert transport.answer(REQUEST).text == "second"
    with pytest.raises(NotAnswered) as caught:
        transport.answer(REQUEST)
    assert "no behaviour scripted" in caught.value.raw_tail
    server.always(reply("again"))
    assert transport.answer(REQUEST).text == "again"
    assert [r.prompt for r in server.chat_requests()][:2] == [telemetry.prompt, REQUEST.prompt]
