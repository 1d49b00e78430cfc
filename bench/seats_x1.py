"""X-1: eight seats against a local server that answers each request after 1 s; the wall time of
all eight, dispatched in parallel (L-9), against one seat's (target <= 1.3x; a serial loop: 8x).

Run through `python3 bench/run.py --only X-1`. The server listens on 127.0.0.1 only and speaks
the OpenAI chat protocol, answering each lens with a pass for that lens.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

TARGET_RATIO = 1.3
_LENS = re.compile(r'"lens": "([A-Za-z0-9_.-]+)"')
_ENVELOPE = "### calc.py\n\n```\ndef sub(a, b):\n    return max(a - b, 0)\n```\n"
_FLEET = """\
rungs:
  - {{id: bench-a, family: vendor-a, transport: openai, endpoint: "{endpoint}", model: a-1,
     max_concurrency: 8}}
  - {{id: bench-b, family: vendor-b, transport: openai, endpoint: "{endpoint}", model: b-1,
     max_concurrency: 8}}
tiers:
  deep_state: [bench-a, bench-b]
  operator_safety: [bench-b, bench-a]
  generalist: [bench-a, bench-b]
  fast_structural: {{primary: [bench-a], verifier: [bench-b]}}
"""


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay_s = 1.0

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        found = _LENS.search(body["messages"][-1]["content"])
        lens = found.group(1) if found else "unknown"
        time.sleep(self.delay_s)
        verdict = {"verdict": "pass", "lens": lens, "findings": []}
        reply = {
            "choices": [
                {"message": {"role": "assistant", "content": json.dumps(verdict)},
                 "finish_reason": "stop"}
            ]
        }  # fmt: skip
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def slow_server(delay_s: float) -> Iterator[str]:
    """A server on 127.0.0.1 answering every chat request after `delay_s`; yields its endpoint."""
    handler = type("SlowHandler", (_Slow,), {"delay_s": delay_s})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}/v1"
    finally:
        server.shutdown()
        server.server_close()


def measure(quick: bool, work: Path) -> dict[str, float]:
    """Median wall times of one seat and of all eight default lenses, dispatched in parallel."""
    from tribunal.core.dispatch import SeatJob, dispatch_seats
    from tribunal.core.fleet import load_fleet
    from tribunal.core.routing import route
    from tribunal.core.seat import SeatContext, seat_prompt

    delay = 0.2 if quick else 1.0
    runs = 1 if quick else 3
    with slow_server(delay) as endpoint:
        path = work / "fleet.yaml"
        path.write_text(_FLEET.format(endpoint=endpoint), encoding="utf-8")
        fleet = load_fleet(path)
        routing = route(fleet, _outsider(), env={})
        jobs = [SeatJob(lens, seat_prompt(lens, _ENVELOPE)) for lens in routing.lenses]
        context = SeatContext.for_fleet(fleet, environ={})

        def wall(chosen: list[SeatJob]) -> float:
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                records = dispatch_seats(chosen, context, rungs=fleet.rungs.values())
                samples.append(time.perf_counter() - start)
                if any(record.verdict.value != "pass" for record in records):
                    raise SystemExit(f"bench X-1: a seat did not pass: {records}")
            return statistics.median(samples)

        one = wall(jobs[:1])
        eight = wall(jobs)
    return {"one_s": one, "eight_s": eight, "seats": float(len(jobs)), "delay_s": delay}


def _outsider() -> Any:
    """A builder of a family no bench rung has: every lens seats on the bench rungs."""
    from tribunal.core.builder import Builder
    from tribunal.enums import BuilderMatch

    return Builder("bench-builder", BuilderMatch.FAMILY, ("bench-builder",), (("bench",),))
