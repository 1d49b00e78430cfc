"""The local server the speed benchmarks time tribunal against: it speaks the OpenAI chat
protocol on 127.0.0.1 only, answers every request after a fixed delay with the text its
`answer` function gives for the prompt, and counts how many requests it is answering at once —
per kind of request, as its `kind` function names them (the panel's phases) — so a benchmark
can tell seats asked together from seats asked one after another."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[str], str]  # prompt -> the reply's content
Kind = Callable[[str], str]  # prompt -> what the counts are kept by


@dataclass
class InFlight:
    """Requests being answered now, and the most ever at once, per kind."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    now: dict[str, int] = field(default_factory=dict)
    peak: dict[str, int] = field(default_factory=dict)

    def enter(self, kind: str) -> None:
        with self.lock:
            self.now[kind] = self.now.get(kind, 0) + 1
            self.peak[kind] = max(self.peak.get(kind, 0), self.now[kind])

    def leave(self, kind: str) -> None:
        with self.lock:
            self.now[kind] -= 1


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay_s = 1.0
    answer: Answer
    kind: Kind
    counts: InFlight

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        prompt = body["messages"][-1]["content"]
        kind = type(self).kind(prompt)
        self.counts.enter(kind)
        try:
            time.sleep(self.delay_s)
        finally:
            self.counts.leave(kind)
        reply = {
            "choices": [
                {"message": {"role": "assistant", "content": type(self).answer(prompt)},
                 "finish_reason": "stop"}
            ]
        }  # fmt: skip
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    # Many requests arrive at once: the default listen backlog (5) can drop a connection, and
    # the client's SYN retry then adds a whole second that is the server's, not the seats'.
    request_queue_size = 64


@contextmanager
def slow_server(
    delay_s: float, answer: Answer, kind: Kind = lambda prompt: "any"
) -> Iterator[tuple[str, InFlight]]:
    """A server answering every chat request after `delay_s` with `answer(prompt)`; yields its
    endpoint (with `/v1`) and its in-flight counts."""
    counts = InFlight()
    attributes = {"delay_s": delay_s, "answer": staticmethod(answer),
                  "kind": staticmethod(kind), "counts": counts}  # fmt: skip
    server = _Server(("127.0.0.1", 0), type("SlowHandler", (_Slow,), attributes))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}/v1", counts
    finally:
        server.shutdown()
        server.server_close()
