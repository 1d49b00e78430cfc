"""L-8, S-6: a rung may name the header its key travels in (`api_key_header: api-key`, Azure
OpenAI's); the key still comes only from the environment, is sent bare in that header instead
of the provider's own, and is redacted everywhere — also when a server echoes it back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from testing.fleets import SPEC_FLEET, fleet_from
from testing.juror_fleets import server_rung, sit, write_fleet
from testing.jurors import (
    KEY_MARK,
    PROTOCOLS,
    Behaviour,
    JurorServer,
    echo_key,
    reply,
    status,
)

from tribunal.errors import BadInput
from tribunal.jury.redaction import REDACTED
from tribunal.jury.transports import (
    FormatUnsupported,
    NotAnswered,
    Reply,
    SeatRequest,
    TransportContext,
    open_transport,
)

KEY = "azure-0123456789abcdef/XYZ+"
HEADER = "api-key"
REQUEST = SeatRequest(prompt="Answer with one JSON verdict. " * 20, seat="defect")
OWN_HEADERS = ("Authorization", "x-api-key")


@pytest.fixture(params=PROTOCOLS)
def server(request: pytest.FixtureRequest) -> Iterator[JurorServer]:
    with JurorServer(request.param, key_header=HEADER) as juror:
        yield juror


def ask(server: JurorServer, behaviour: Behaviour, **fields: object) -> Reply:
    server.script(behaviour)
    config = server.rung(api_key_env="JUROR_KEY", api_key_header=HEADER, **fields)
    return open_transport(config, TransportContext(environ={"JUROR_KEY": KEY})).answer(REQUEST)


def leaks(text: str) -> bool:
    return any(KEY[i : i + 6] in text for i in range(len(KEY) - 5))


def test_the_key_travels_in_the_named_header_only(server: JurorServer) -> None:
    ask(server, reply("{}"))
    headers = {name.casefold(): value for name, value in server.chat_requests()[0].headers.items()}
    assert headers[HEADER] == KEY  # bare: no "Bearer "
    assert not [name for name in OWN_HEADERS if name.casefold() in headers]
    assert not leaks(json.dumps(server.chat_requests()[0].body))


def test_without_a_header_named_the_providers_own_carries_it() -> None:
    with JurorServer("openai") as server:
        server.script(reply("{}"))
        config = server.rung(api_key_env="JUROR_KEY")
        open_transport(config, TransportContext(environ={"JUROR_KEY": KEY})).answer(REQUEST)
        headers = server.chat_requests()[0].headers
    assert headers["Authorization"] == f"Bearer {KEY}" and HEADER not in headers


def test_an_echoed_key_is_redacted_in_the_reply(server: JurorServer) -> None:
    answered = ask(server, echo_key())
    assert REDACTED in answered.text
    assert not leaks(f"{answered.text}|{answered.raw_tail}")


@pytest.mark.parametrize("code", [401, 500])
def test_an_echoed_key_is_redacted_in_a_failure(server: JurorServer, code: int) -> None:
    with pytest.raises(NotAnswered) as caught:
        ask(server, echo_key(code))
    failure = caught.value
    assert REDACTED in failure.raw_tail
    assert not leaks(f"{failure}|{failure.message}|{failure.raw_tail}")


def test_an_echoed_key_is_redacted_in_a_format_rejection(server: JurorServer) -> None:
    words = {"openai": "response_format", "ollama": "format", "anthropic": "tool_choice"}
    body = json.dumps({"error": f"{words[server.protocol]} rejected for key {KEY_MARK}"})
    with pytest.raises(FormatUnsupported) as caught:
        _ask_with_schema(server, status(400, body))
    assert REDACTED in caught.value.raw_tail
    assert not leaks(f"{caught.value}|{caught.value.raw_tail}")


def _ask_with_schema(server: JurorServer, behaviour: Behaviour) -> Reply:
    server.script(behaviour)
    config = server.rung(
        api_key_env="JUROR_KEY", api_key_header=HEADER, response_format="json_object_schema"
    )
    request = SeatRequest(prompt=REQUEST.prompt, seat="defect", response_schema={"type": "object"})
    return open_transport(config, TransportContext(environ={"JUROR_KEY": KEY})).answer(request)


def test_no_key_value_reaches_a_seat_record(tmp_path: Path) -> None:
    """S-6: a seat walked on a rung whose server echoes the key in its reply."""
    with JurorServer("openai", key_header=HEADER) as server:
        server.always(echo_key())
        rung = server_rung("azure", "openai", server, api_key_header=HEADER)
        record = sit(
            write_fleet(tmp_path, [rung], {"generalist": ["azure"]}), environ={"JUROR_KEY": KEY}
        )
        assert server.chat_requests()[0].headers[HEADER] == KEY
    written = json.dumps(record.to_dict())
    assert REDACTED in written and not leaks(written)


# -- the fleet file -----------------------------------------------------------------------------


def test_a_key_header_on_a_shorthand_and_a_long_rung(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace(
        "  - use: openai/gpt-mini-x\n", "  - use: openai/gpt-mini-x\n    api_key_header: api-key\n"
    ).replace(
        "    api_key_env: GATEWAY_KEY\n",
        "    api_key_env: GATEWAY_KEY\n    api_key_header: X-Key\n",
    )
    fleet = fleet_from(tmp_path, text)
    assert fleet.rungs["openai/gpt-mini-x"].api_key_header == "api-key"
    assert fleet.rungs["gateway-b-long"].api_key_header == "X-Key"
    assert fleet.rungs["local-coder"].api_key_header is None


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("    api_key_env: GATEWAY_KEY\n", "    api_key_header: api-key\n"),
         "fleet.yaml:15: rungs[3].api_key_header: api_key_header needs api_key_env, the variable"
         " its key comes from"),
        (("    headers: {}\n", "    headers: {API-Key: x}\n    api_key_header: api-key\n"),
         "rungs[3].api_key_header: 'api-key' is both api_key_header and one of the headers"),
        (("    api_key_env: GATEWAY_KEY\n",
          "    api_key_env: GATEWAY_KEY\n    api_key_header: a key\n"),
         "rungs[3].api_key_header: 'a key' does not match"),
        (("    command: [\"vendor-cli\", \"-p\"]\n",
          "    command: [\"vendor-cli\", \"-p\"]\n    api_key_header: api-key\n"),
         "rungs[4].api_key_header: api_key_header applies to openai, anthropic and ollama rungs,"
         " not command"),
        (("    model: qwen2.5-coder:14b\n",
          "    model: qwen2.5-coder:14b\n    api_key_header: k\n"),
         "rungs[2].api_key_header: api_key_header needs api_key_env"),
    ],
)  # fmt: skip
def test_a_wrong_key_header_is_bad_input_naming_the_field(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    old, new = edit
    assert old in SPEC_FLEET
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET.replace(old, new, 1))
    assert message in str(info.value)
