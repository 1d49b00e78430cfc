"""L-8, S-6: keys come only from the environment, and no key value reaches a reply, raw tail,
message or log — also when the server echoes the key back, in a reply or an error body."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from testing.gitrepo import GitRepo
from testing.jurors import (
    KEY_MARK,
    PROTOCOLS,
    Behaviour,
    JurorServer,
    echo_key,
    huge,
    raw,
    reply,
    status,
)

from tribunal.jury.redaction import REDACTED
from tribunal.jury.transports import (
    Checkout,
    NotAnswered,
    OverCapacity,
    Oversize,
    Reply,
    RungFailure,
    SeatRequest,
    TransportConfig,
    TransportContext,
    Unreadable,
    open_transport,
)

KEY = "sk-test/abc+def=0123456789XYZ"  # `/` and `+`: escaped differently in JSON and URLs
ESCAPED = KEY.replace("/", "\\/")
REQUEST = SeatRequest(prompt="Answer with one JSON verdict.", seat="defect")


@pytest.fixture(params=PROTOCOLS)
def server(request: pytest.FixtureRequest) -> Iterator[JurorServer]:
    with JurorServer(request.param) as juror:
        yield juror


def fragments(text: str, size: int = 6) -> list[str]:
    """Every piece of the key of `size` characters found in `text`."""
    # A run of digits only is left out: a float in a log line (`timeout=4.9970467390012345`)
    # holds one by chance, and is no part of a key; every window with a letter is checked.
    windows = [KEY[i : i + size] for i in range(len(KEY) - size + 1)]
    return [window for window in windows if not window.isdigit() and window in text]


def ask(server: JurorServer, behaviour: Behaviour) -> Reply:
    server.script(behaviour)
    config = server.rung(api_key_env="JUROR_KEY")
    return open_transport(config, TransportContext(environ={"JUROR_KEY": KEY})).answer(REQUEST)


def test_the_key_is_sent_from_the_environment(server: JurorServer) -> None:
    ask(server, reply("{}"))
    headers = server.chat_requests()[0].headers
    # it was really sent, so the echoes below are real echoes
    assert f"Bearer {KEY}" == headers.get("Authorization") or headers.get("x-api-key") == KEY


def test_an_echoed_key_never_reaches_the_reply(
    server: JurorServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answered = ask(server, echo_key())
    shown = f"{answered.text}|{answered.raw_tail}"
    assert REDACTED in answered.text
    assert fragments(shown) == []
    assert fragments(caplog.text) == []


@pytest.mark.parametrize(
    ("behaviour", "failure"),
    [
        (echo_key(401), NotAnswered),
        (echo_key(500), NotAnswered),
        (echo_key(429), NotAnswered),
        (status(400, f'{{"error": "context length exceeded for key {KEY_MARK}"}}'), OverCapacity),
        (raw(f"<html>proxy says: bad key {KEY_MARK}</html>"), Unreadable),
    ],
    ids=["401", "500", "429", "400-context", "non-protocol-200"],
)
def test_an_echoed_key_never_reaches_a_failure(
    server: JurorServer,
    behaviour: Behaviour,
    failure: type[RungFailure],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(failure) as caught:
        ask(server, behaviour)
    shown = f"{caught.value}|{caught.value.message}|{caught.value.raw_tail}"
    assert REDACTED in caught.value.raw_tail
    assert fragments(shown) == []
    assert fragments(caplog.text) == []


def test_a_json_escaped_echo_is_masked(server: JurorServer) -> None:
    with pytest.raises(NotAnswered) as caught:
        ask(server, status(401, f'{{"error": "bad key {ESCAPED}"}}'))
    assert fragments(caught.value.raw_tail.replace("\\/", "/")) == []


def test_a_key_cut_by_the_cap_leaves_no_piece(server: JurorServer) -> None:
    """A flood of echoed keys stops at 1 MiB, possibly inside a key: no piece of it is kept."""
    with pytest.raises(Oversize) as caught:
        ask(server, huge(3 * 1024 * 1024, fill=KEY_MARK + " "))
    assert fragments(caught.value.raw_tail, size=4) == []
    assert REDACTED in caught.value.raw_tail


def test_a_harness_echoing_its_key_is_redacted(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit("head", {"a.txt": "a\n"})
    code = (
        "import os, sys\n"
        "key = os.environ['HARNESS_KEY']\n"
        'print(\'{"verdict": "pass", "note": "\' + key + \'"}\')\n'
        "sys.stderr.write('debug: ' + key)\n"
        "sys.exit(int(sys.stdin.read() == 'fail'))\n"
    )
    config = TransportConfig(
        id="h",
        family="f",
        transport="command",
        command=(sys.executable, "-c", code),
        api_key_env="HARNESS_KEY",
    )
    transport = open_transport(config, TransportContext(environ={**os.environ, "HARNESS_KEY": KEY}))
    answered = transport.answer(
        SeatRequest(prompt="ok", seat="defect", checkout=Checkout(repo.path, "HEAD"))
    )
    assert fragments(f"{answered.text}|{answered.raw_tail}") == []
    assert REDACTED in answered.text
    with pytest.raises(NotAnswered) as caught:
        transport.answer(
            SeatRequest(prompt="fail", seat="defect", checkout=Checkout(repo.path, "HEAD"))
        )
    assert fragments(f"{caught.value}|{caught.value.raw_tail}") == []
    assert caught.value.raw_tail == f"debug: {REDACTED}"
