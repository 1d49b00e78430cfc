"""L-7: one wall-clock budget per call, held on every read — a server that sends its headers
just before the deadline and then stalls cannot stretch the call to a second `timeout_s`."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tribunal.jury.transports import NotAnswered, SeatRequest, TransportConfig, open_transport
from tribunal.jury.transports.base import TransportContext

TIMEOUT_S = 1.0
HEADERS_AFTER_S = 0.8  # just before the deadline
REQUEST = SeatRequest(prompt="Review the envelope.", seat="defect")


class _Stalling(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    release: threading.Event

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        time.sleep(HEADERS_AFTER_S)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b'{"choices": ')  # a body begun, never finished
        self.wfile.flush()
        self.release.wait(10)  # stall until the test is over


@pytest.fixture
def stalling() -> Iterator[str]:
    release = threading.Event()
    handler = type("Handler", (_Stalling,), {"release": release})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}/v1"
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_server_stalling_after_its_headers_is_cut_at_the_deadline(stalling: str) -> None:
    config = TransportConfig.from_mapping(
        {
            "id": "staller",
            "family": "vendor-s",
            "transport": "openai",
            "endpoint": stalling,
            "model": "m",
            "timeout_s": TIMEOUT_S,
        }
    )
    started = time.monotonic()
    with pytest.raises(NotAnswered, match="no answer within 1 s"):
        open_transport(config, TransportContext(environ={})).answer(REQUEST)
    elapsed = time.monotonic() - started
    # One budget: the call ends at the deadline, not a whole read timeout after the headers
    # (which would be HEADERS_AFTER_S + TIMEOUT_S = 1.8 s).
    assert elapsed < TIMEOUT_S + 0.4
