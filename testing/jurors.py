"""A fault-injecting juror server on 127.0.0.1 that speaks the openai, anthropic and ollama
protocols for real (S-1).

Script it per request with canned behaviours; each is rendered in the server's protocol:

    with JurorServer("openai") as server:
        server.script(reply('{"verdict": "pass"}'), status(500), slow(2.0))
        server.when('"lens": "defect"', length())   # requests whose prompt holds this text
        server.always(reply(VALID))                  # once the script is used up
        config = server.rung(api_key_env="JUROR_KEY")

A request takes the first `when` rule whose text its prompt contains, else the next scripted
behaviour, else the `always` behaviour, else a 500 naming the unscripted request (so a test
never passes by accident). `server.requests` records what arrived (path, headers, JSON body).

Structured output (L-7): `structured(document)` answers as each protocol does when asked for one
— an Anthropic `tool_use` block of the verdict tool whose `input` is the document, the document
as the content of an OpenAI or Ollama reply — and `rejects_format()` answers as servers do that
cannot give the response format asked for (llama-cpp-python's HTTP 500 naming `response_format`,
Anthropic's 400 naming `tool_choice`, an old Ollama's 400 naming `format`).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tribunal.jury.transports import TransportConfig

PROTOCOLS = ("openai", "anthropic", "ollama")
CHAT_PATHS = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages", "ollama": "/api/chat"}
LENGTH_WORD = {"openai": "length", "anthropic": "max_tokens", "ollama": "length"}
STOP_WORD = {"openai": "stop", "anthropic": "end_turn", "ollama": "stop"}
CONTEXT_ERRORS = {
    "openai": {
        "error": {
            "message": "This model's maximum context length is 8192 tokens. However, your"
            " messages resulted in 9100 tokens. Please reduce the length of the messages.",
            "type": "invalid_request_error",
            "code": "context_length_exceeded",
        }
    },
    "anthropic": {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "prompt is too long: 201234 tokens > 200000 maximum",
        },
    },
    "ollama": {"error": "the input length exceeds the context length"},
}

# How each protocol's servers reject a response format they cannot give (status, body): the
# OpenAI one is llama-cpp-python 0.3's answer to `{"type": "json_schema", ...}`, verbatim but
# for its file path.
FORMAT_REJECTIONS: dict[str, tuple[int, dict[str, Any]]] = {
    "openai": (
        500,
        {
            "error": {
                "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body',"
                " 'response_format', 'type'), 'msg': \"Input should be 'text' or"
                " 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or"
                ' \'json_object\'"}}\n\n  File "llama_cpp/server/app.py", line 376, in'
                " create_chat_completion\n    POST /v1/chat/completions",
                "type": "internal_server_error",
                "param": None,
                "code": None,
            }
        },
    ),
    "anthropic": (
        400,
        {
            "type": "error",
            "error": {
                "type": "invalid_request_error",
                "message": "Thinking may not be enabled when tool_choice forces tool use.",
            },
        },
    ),
    "ollama": (
        400,
        {"error": "json: cannot unmarshal object into Go struct field ChatRequest.format"},
    ),
}
TOOL_NAME = "verdict"  # the forced tool an Anthropic rung's schema forms send

# S-1 reply texts: each is a REPLY at the transport level; the verdict parser makes it malformed.
GARBAGE = "\x00\x07 ÿþ ]]}{ \ufffd lorem %% \x1b[31m"
NON_JSON = "The change looks fine to me. I would pass it."
REFUSAL = "I'm sorry, but I can't help with reviewing this change."
VALID = '{"verdict": "pass", "lens": "defect", "findings": []}'
KEY_MARK = "{key}"  # in a behaviour's text or body: replaced by the API key the request carried


def verdict(
    lens: str | None,
    verdict: str = "pass",
    findings: list[Any] | None = None,
    checked: list[Any] | None = None,
) -> str:
    """A V-1 verdict as reply text; `lens=None` leaves `lens` out. For the S-1 rows: wrong lens
    (`verdict("other")`), no lens, contradictory pass (`findings=[{"severity": "blocker", ...}]`),
    string findings (`findings=["[major] a.py:3 claim"]`)."""
    document: dict[str, Any] = {"verdict": verdict}
    if lens is not None:
        document["lens"] = lens
    document["findings"] = findings or []
    if checked is not None:
        document["checked"] = checked
    return json.dumps(document)


@dataclass(frozen=True)
class Behaviour:
    """One canned answer to one request (see the constructors below)."""

    kind: str  # reply | structured | raw | rejects_format | slow | huge | hang_up
    text: str = ""  # reply content (KEY_MARK is replaced by the received key)
    finish: str | None = None  # the protocol's finish word; None: its normal stop
    status: int = 200
    body: str = ""  # raw: the exact body (KEY_MARK replaced)
    extra: dict[str, Any] = field(default_factory=dict)  # merged into the reply object; None drops
    delay_s: float = 0.0
    size: int = 0
    fill: str = "x"  # huge: the content repeated to fill the body (KEY_MARK replaced)
    then: Behaviour | None = None
    gate: threading.Event | None = field(default=None, compare=False)  # held: opened by the test


def reply(text: str, *, extra: dict[str, Any] | None = None) -> Behaviour:
    """A well-formed reply whose content is `text`."""
    return Behaviour("reply", text=text, extra=extra or {})


def structured(document: Any, *, finish: str | None = None) -> Behaviour:
    """A structured-output reply carrying `document` (a JSON value): the `input` of a `tool_use`
    block for anthropic, the JSON text of the content for openai and ollama."""
    return Behaviour("structured", text=json.dumps(document), finish=finish)


def rejects_format() -> Behaviour:
    """The protocol's own rejection of a response format it cannot give (FORMAT_REJECTIONS)."""
    return Behaviour("rejects_format")


def length(text: str = '{"verdict": "pa') -> Behaviour:
    """A reply cut by the answer budget: `finish_reason: length` (stop_reason max_tokens)."""
    return Behaviour("reply", text=text, finish="length")


def empty() -> Behaviour:
    """A well-formed reply with empty content."""
    return reply("")


def status(code: int, body: str = "") -> Behaviour:
    """An HTTP error status with `body` (default: a small JSON error)."""
    return Behaviour("raw", status=code, body=body or json.dumps({"error": f"status {code}"}))


def raw(body: str, code: int = 200) -> Behaviour:
    """Exactly `body` with status `code` — e.g. a 200 that is not the protocol at all."""
    return Behaviour("raw", status=code, body=body)


def context_exceeded() -> Behaviour:
    """HTTP 400 whose body says the context is exceeded, in the protocol's own words."""
    return Behaviour("context_exceeded", status=400)


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Answer `then` (default: a valid reply) only after `seconds`."""
    return Behaviour("slow", delay_s=seconds, then=then or reply(VALID))


def held(gate: threading.Event, then: Behaviour | None = None, *, at_most: float = 60) -> Behaviour:
    """Answer `then` (default: a valid reply) once the test sets `gate` (at most `at_most` s):
    a seat that sits exactly as long as the test needs it to."""
    return Behaviour("held", delay_s=at_most, then=then or reply(VALID), gate=gate)


def huge(size: int = 10 * 1024 * 1024, fill: str = "x") -> Behaviour:
    """A well-formed reply whose content (`fill` repeated) makes the body `size` bytes,
    streamed in chunks."""
    return Behaviour("huge", size=size, fill=fill)


def together(parties: int, then: Behaviour | None = None) -> Behaviour:
    """Answer `then` (default: a valid reply) only once `parties` requests wait here at the same
    time; a 500 when they do not arrive within 5 s — so only concurrent callers get a reply."""
    return Behaviour("together", size=parties, then=then or reply(VALID))


def hang_up() -> Behaviour:
    """Close the connection without answering."""
    return Behaviour("hang_up")


def echo_key(code: int = 200) -> Behaviour:
    """The key the request carried, echoed back: in the reply (200) or an error body."""
    text = f'{{"verdict": "pass", "note": "your key is {KEY_MARK}"}}'
    if code == 200:
        return reply(text)
    return status(code, json.dumps({"error": {"message": f"bad key {KEY_MARK}"}}))


@dataclass(frozen=True)
class Received:
    """One request the server got."""

    path: str
    headers: dict[str, str]
    body: Any  # the parsed JSON body, or the raw text when it was not JSON

    @property
    def prompt(self) -> str:
        """The user message of a chat request ('' when there is none)."""
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return str(messages[-1].get("content", "")) if messages else ""


class JurorServer:
    """A real HTTP server on 127.0.0.1 speaking `protocol`. Use as a context manager."""

    def __init__(
        self,
        protocol: str,
        *,
        context_length: int | None = 32768,
        key_header: str | None = None,
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}")
        self.protocol = protocol
        self.key_header = key_header  # where KEY_MARK's key is read from (None: the protocol's)
        self.context_length = context_length  # ollama /api/show; None: not reported
        self.requests: list[Received] = []
        self._script: deque[Behaviour] = deque()
        self._rules: list[tuple[tuple[str, ...], Behaviour]] = []
        self._default: Behaviour | None = None
        self._lock = threading.Lock()
        self._barriers: dict[int, threading.Barrier] = {}
        self.in_flight = 0  # chat requests being answered now
        self.peak_in_flight = 0  # the most ever answered at once
        self.stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.juror = self
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    def __enter__(self) -> JurorServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()  # slow behaviours give up at once
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        """The server's base URL."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def endpoint(self) -> str:
        """The rung `endpoint` for this protocol (openai endpoints include `/v1`)."""
        return f"{self.url}/v1" if self.protocol == "openai" else self.url

    def rung(self, **fields: Any) -> TransportConfig:
        """A TransportConfig pointing at this server; `fields` override the defaults."""
        values: dict[str, Any] = {
            "id": f"{self.protocol}-juror",
            "family": f"{self.protocol}-family",
            "transport": self.protocol,
            "endpoint": self.endpoint,
            "model": "juror-1",
            "timeout_s": 5,
            **fields,
        }
        return TransportConfig.from_mapping(values)

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours: each answers one chat request, in order."""
        with self._lock:
            self._script.extend(behaviours)

    def when(
        self, text: str | tuple[str, ...], behaviour: Behaviour, *, first: bool = False
    ) -> None:
        """Answer every chat request whose prompt contains `text` (every one of the texts, for
        a tuple) with `behaviour`; `first` puts the rule before the earlier ones."""
        texts = (text,) if isinstance(text, str) else text
        with self._lock:
            self._rules.insert(0 if first else len(self._rules), (texts, behaviour))

    def always(self, behaviour: Behaviour) -> None:
        """The behaviour once the script is used up."""
        self._default = behaviour

    def chat_requests(self) -> list[Received]:
        """The chat requests received (not `/api/show`), in order."""
        return [r for r in self.requests if r.path.endswith(CHAT_PATHS[self.protocol])]

    def next_behaviour(self, received: Received) -> Behaviour:
        """The behaviour for `received` (rules, then script, then the default)."""
        with self._lock:
            self.requests.append(received)
            for texts, behaviour in self._rules:
                if all(text in received.prompt for text in texts):
                    return behaviour
            if self._script:
                return self._script.popleft()
        if self._default is not None:
            return self._default
        return status(500, f"juror server: no behaviour scripted for {received.path}")

    # -- rendering in the protocol ----------------------------------------------------------

    def reply_object(self, behaviour: Behaviour, text: str) -> dict[str, Any]:
        """The protocol's reply object carrying `text` (a `structured` behaviour's document, for
        anthropic, as a `tool_use` block)."""
        finish = (
            LENGTH_WORD[self.protocol]
            if behaviour.finish == "length"
            else behaviour.finish or STOP_WORD[self.protocol]
        )
        document: dict[str, Any]
        if self.protocol == "openai":
            document = {
                "id": "chatcmpl-juror",
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": finish,
                    }
                ],
                "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
            }
        elif self.protocol == "anthropic":
            content: list[dict[str, Any]] = [{"type": "text", "text": text}]
            if behaviour.kind == "structured":
                tool = {"type": "tool_use", "id": "toolu_juror", "name": TOOL_NAME}
                content = [{**tool, "input": json.loads(text)}]
                finish = finish if behaviour.finish else "tool_use"
            document = {
                "id": "msg_juror",
                "type": "message",
                "role": "assistant",
                "content": content,
                "stop_reason": finish,
                "usage": {"input_tokens": 11, "output_tokens": 7},
            }
        else:
            document = {
                "model": "juror-1",
                "message": {"role": "assistant", "content": text},
                "done": True,
                "done_reason": finish,
                "prompt_eval_count": 11,
                "eval_count": 7,
            }
        for name, value in behaviour.extra.items():
            if value is None:
                document.pop(name, None)
            else:
                document[name] = value
        return document

    def show_object(self) -> dict[str, Any]:
        """Ollama's `/api/show` answer."""
        info: dict[str, Any] = {"general.architecture": "qwen2"}
        if self.context_length is not None:
            info["qwen2.context_length"] = self.context_length
        return {"modelfile": "FROM juror-1", "model_info": info}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    juror: JurorServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    def do_POST(self) -> None:
        juror = self.server.juror
        data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        text = data.decode("utf-8", errors="replace")
        try:
            body: Any = json.loads(text)
        except ValueError:
            body = text
        received = Received(self.path, dict(self.headers.items()), body)
        try:
            if juror.protocol == "ollama" and self.path == "/api/show":
                with juror._lock:
                    juror.requests.append(received)
                self._send(200, json.dumps(juror.show_object()))
                return
            if juror.protocol == "ollama" and self.path == "/api/generate":
                with juror._lock:
                    juror.requests.append(received)
                self._send(200, json.dumps({"model": "juror-1", "done": True}))
                return
            self._perform(juror, juror.next_behaviour(received))
        except (BrokenPipeError, ConnectionResetError):
            return  # the client stopped reading (a cap or a timeout): that is the point

    def _perform(self, juror: JurorServer, behaviour: Behaviour) -> None:
        with juror._lock:
            juror.in_flight += 1
            juror.peak_in_flight = max(juror.peak_in_flight, juror.in_flight)
        try:
            self._answer(juror, behaviour)
        finally:
            with juror._lock:
                juror.in_flight -= 1

    def _answer(self, juror: JurorServer, behaviour: Behaviour) -> None:
        key = self._key()
        if behaviour.kind == "together":
            with juror._lock:
                barrier = juror._barriers.setdefault(
                    behaviour.size, threading.Barrier(behaviour.size)
                )
            try:
                barrier.wait(timeout=5)
            except threading.BrokenBarrierError:
                self._send(500, json.dumps({"error": "the other requests never came"}))
                return
            assert behaviour.then is not None
            behaviour = behaviour.then
        if behaviour.kind == "slow":
            if juror.stopping.wait(behaviour.delay_s):
                return
            assert behaviour.then is not None
            behaviour = behaviour.then
        if behaviour.kind == "held":
            assert behaviour.gate is not None and behaviour.then is not None
            deadline = time.monotonic() + behaviour.delay_s
            while not behaviour.gate.wait(0.05):
                if juror.stopping.is_set() or time.monotonic() > deadline:
                    return
            behaviour = behaviour.then
        if behaviour.kind == "hang_up":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if behaviour.kind == "raw":
            self._send(behaviour.status, behaviour.body.replace(KEY_MARK, key))
        elif behaviour.kind == "context_exceeded":
            self._send(400, json.dumps(CONTEXT_ERRORS[juror.protocol]))
        elif behaviour.kind == "rejects_format":
            code, error = FORMAT_REJECTIONS[juror.protocol]
            self._send(code, json.dumps(error))
        elif behaviour.kind in ("reply", "structured"):
            text = behaviour.text.replace(KEY_MARK, key)
            self._send(200, json.dumps(juror.reply_object(behaviour, text)))
        elif behaviour.kind == "huge":
            self._send_huge(juror, behaviour, behaviour.fill.replace(KEY_MARK, key))
        else:
            raise AssertionError(f"unknown behaviour {behaviour.kind}")

    def _key(self) -> str:
        own = self.server.juror.key_header
        if own is not None:
            return self.headers.get(own, "")
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            return authorization.removeprefix("Bearer ")
        return self.headers.get("x-api-key", "")

    def _send(self, code: int, body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_huge(self, juror: JurorServer, behaviour: Behaviour, fill: str) -> None:
        marker = "\u2063"  # split the reply object around a placeholder content
        head, tail = json.dumps(juror.reply_object(behaviour, marker)).split(
            json.dumps(marker)[1:-1]
        )
        head_b, tail_b = head.encode(), tail.encode()
        filler = behaviour.size - len(head_b) - len(tail_b)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(behaviour.size))
        self.end_headers()
        self.wfile.write(head_b)
        for piece in _pieces(filler, fill.encode()):
            if juror.stopping.is_set():
                return
            self.wfile.write(piece)
        self.wfile.write(tail_b)


def _pieces(total: int, fill: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    chunk = fill * max(1, size // len(fill))  # whole repetitions: no fill is split mid-way
    while total > 0:
        yield chunk[:total]
        total -= len(chunk)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released): connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


__all__ = [
    "FORMAT_REJECTIONS",
    "GARBAGE",
    "NON_JSON",
    "REFUSAL",
    "VALID",
    "Behaviour",
    "JurorServer",
    "Received",
    "closed_port",
    "context_exceeded",
    "echo_key",
    "empty",
    "hang_up",
    "huge",
    "length",
    "raw",
    "rejects_format",
    "reply",
    "slow",
    "status",
    "structured",
    "together",
    "verdict",
]
