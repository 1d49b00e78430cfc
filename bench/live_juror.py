"""The live check: a whole convening of the blind demo heard from two real small models.

Not part of the test suite: it needs the live-juror server (Qwen2.5-Coder 0.5B and SmolLM2 135M,
served by llama-cpp-python's OpenAI-compatible server on 127.0.0.1):

    bash ../shared/live-juror/serve.sh start      # builds once (about 10 minutes), then seconds
    python3 bench/live_juror.py                   # a convening; prints per seat and the totals
    python3 bench/live_juror.py --save-fixtures   # also saves the replies for the test suite

It writes the fleet of `serve.sh fleet` with `response_format: json_object_schema` on its rungs
(the form llama-cpp-python's server constrains decoding by), builds the demo change of
`examples/blind/make_demo_repo.py`, and runs `tribunal convene ... --builder vendor-a
--no-proofs` through a recording proxy in front of the server, which measures each call and
keeps each reply. It prints per seat the rung, the verdict, the citation marks and the latency,
then the totals: protocol failures (malformed, wrong lens, truncated — primary and verifier
replies both count) and the seats with a verified citation. The target on this demo: no protocol
failure, and at least 3 of 8 seats with a verified citation.

With `--save-fixtures` the replies, what each came to, and the envelope's files are written to
`tests/jury/fixtures/live_convening.json`, which the suite replays through the parse, normalise
and citation path (`tests/jury/test_live_convening.py`), so CI checks real models' answers.

With `--panel` it runs a panel court round instead: round 1 of the golden slice of
`examples/panel/` (frozen criteria, the rate limiter with its window-edge bug) on the same live
fleet, and prints per member its card's fate — in protocol or not (and why), the scores kept and
those refuted with the reason — and the outcome. The target: every card in protocol, and at least
one score of 8 or more surviving its citation check. `--panel --save-fixtures` writes
`tests/courts/panel/fixtures/live_panel.json`, replayed by `tests/courts/panel/test_live_panel.py`.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import http.server
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import yaml

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO / "src"))

from tribunal.enums import CitationStatus, ReasonCode  # noqa: E402 - bench/ is not a package

SERVE = REPO.parent / "shared" / "live-juror" / "serve.sh"
FIXTURE = REPO / "tests" / "jury" / "fixtures" / "live_convening.json"
PANEL_FIXTURE = REPO / "tests" / "courts" / "panel" / "fixtures" / "live_panel.json"
HIGH_SCORE = 8  # a score of 8 or more needs a verbatim quote that checks
PROTOCOL_FAILURES = (ReasonCode.MALFORMED, ReasonCode.WRONG_LENS, ReasonCode.TRUNCATED)
TARGET_VERIFIED = 3
MALFORMED_FROM = "malformed verdict from "
CALL_TIMEOUT_S = 900


class Recorder:
    """A proxy in front of the live server that measures each call and keeps its reply."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.calls: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                start = time.monotonic()
                request = urllib.request.Request(
                    recorder.upstream + self.path.removeprefix("/v1"),
                    data=body,
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=CALL_TIMEOUT_S) as response:
                        status, answer = response.status, response.read()
                except urllib.error.HTTPError as error:
                    status, answer = error.code, error.read()
                recorder.record(body, answer, status, time.monotonic() - start)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def record(self, body: bytes, answer: bytes, status: int, seconds: float) -> None:
        request = json.loads(body)
        prompt = request["messages"][-1]["content"]
        try:
            choice = json.loads(answer)["choices"][0]
            text, finish = choice["message"]["content"], choice.get("finish_reason")
        except (ValueError, KeyError, IndexError, TypeError):
            text, finish = answer.decode("utf-8", "replace"), None
        with self.lock:
            self.calls.append(
                {
                    "model": request.get("model"),
                    "lens": _lens_of(prompt),
                    "status": status,
                    "latency_s": round(seconds, 1),
                    "prompt": prompt,
                    "reply": text,
                    "finish_reason": finish,
                }
            )


def _lens_of(prompt: str) -> str | None:
    marker = '"lens": "'
    at = prompt.rfind(marker)
    return prompt[at + len(marker) : prompt.index('"', at + len(marker))] if at >= 0 else None


def server_url() -> str:
    return f"http://127.0.0.1:{os.environ.get('LIVE_JUROR_PORT', '8089')}/v1"


def answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url + "/models", timeout=5).read()
    except OSError:
        return False
    return True


def write_fleet(work: Path, proxy: str) -> Path:
    """`serve.sh fleet` with every live rung sending json_object_schema through the proxy."""
    printed = subprocess.run(["bash", str(SERVE), "fleet"], capture_output=True, text=True)
    fleet = yaml.safe_load(printed.stdout)
    for rung in fleet["rungs"]:
        if rung.get("endpoint", "").startswith(server_url().rsplit("/v1", 1)[0]):
            rung["endpoint"] = proxy
            rung["response_format"] = "json_object_schema"
    path = work / "fleet.yaml"
    path.write_text(yaml.safe_dump(fleet, sort_keys=False), encoding="utf-8")
    return path


def convene(work: Path, fleet: Path) -> tuple[int, Path, float]:
    demo = work / "demo"
    subprocess.run(
        [sys.executable, str(REPO / "examples" / "blind" / "make_demo_repo.py"), str(demo)],
        check=True,
        capture_output=True,
    )
    out = work / "run"
    argv = [
        sys.executable, "-m", "tribunal", "convene", "--repo", str(demo / "repo"), "--base",
        "base", "--contract", str(demo / "contract.yaml"), "--fleet", str(fleet), "--builder",
        "vendor-a", "--no-proofs", "--out", str(out), "--ledger", str(work / "ledger.json"),
    ]  # fmt: skip
    start = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    ran = subprocess.run(argv, cwd=work, capture_output=True, text=True, env=env)
    if not (out / "summary.json").is_file():
        raise SystemExit(f"live_juror: the convening did not finish:\n{ran.stderr}")
    return ran.returncode, out, time.monotonic() - start


def marks(record: dict[str, Any]) -> list[str]:
    """The citation marks of a seat record's findings and checked entries, in order."""
    shown = []
    for entry in [*record["findings"], *record["checked"]]:
        mark = entry["citation"]
        reason = entry.get("citation_reason")
        shown.append(f"{mark}({reason})" if reason else mark)
    return shown


def verified(record: dict[str, Any]) -> bool:
    entries = [*record["findings"], *record["checked"]]
    return any(entry["citation"] == CitationStatus.VERIFIED for entry in entries)


def protocol_failures(record: dict[str, Any]) -> list[str]:
    """Every protocol failure of a seat: its own malformed verdict, and each rung rejected as a
    wrong lens or truncated (primary and verifier ladders both)."""
    failures = [
        f"{item['rung']}: {item['reason']}"
        for item in record["rejected_rungs"]
        if item["reason"] in PROTOCOL_FAILURES
    ]
    # A rung that answered badly (primary or fused verifier) leaves the blocker finding
    # `malformed verdict from <rung>` (the verifier's prefixed with its rung).
    failures += [
        f"{finding['claim'].split(MALFORMED_FROM, 1)[1]}: malformed"
        for finding in record["findings"]
        if MALFORMED_FROM in finding["claim"]
    ]
    return failures


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def panel_round(work: Path, fleet: Path) -> tuple[int, Path, Path, float]:
    """Round 1 of the golden slice of examples/panel on the live fleet: its exit, run dir, the
    demo repository and the wall time."""
    demo = work / "panel-demo"
    subprocess.run(
        [sys.executable, str(REPO / "examples" / "panel" / "make_demo_repo.py"), str(demo)],
        check=True,
        capture_output=True,
    )
    out = work / "round1"
    argv = [
        sys.executable, "-m", "tribunal", "panel", "convene",
        "--criteria", str(demo / "repo" / "criteria.yaml"),
        "--report", str(REPO / "examples" / "panel" / "report-round1.yaml"),
        "--repo", str(demo / "repo"), "--base", "base", "--fleet", str(fleet),
        "--out", str(out), "--ledger", str(work / "panel-ledger.json"),
    ]  # fmt: skip
    start = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    ran = subprocess.run(argv, cwd=work, capture_output=True, text=True, env=env)
    if not (out / "summary.json").is_file():
        raise SystemExit(f"live_juror: the panel round did not finish:\n{ran.stderr}")
    return ran.returncode, out, demo / "repo", time.monotonic() - start


def panel_main(recorder: Recorder, save: bool) -> int:
    """The panel heard from real models: per member its card's fate, and the totals."""
    with tempfile.TemporaryDirectory(prefix="tribunal-live-panel-") as scratch:
        work = Path(scratch)
        code, out, repo, wall = panel_round(work, write_fleet(work, recorder.url))
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        seats = [json.loads(path.read_text(encoding="utf-8"))
                 for path in sorted(out.glob("scorecard_*.json"))]  # fmt: skip
        from tribunal.jury.envelope.read import read_envelope

        envelope = read_envelope(out, "round1")
        files = envelope.file_texts()
        example = envelope.example
        references = {"docs/limits.md": (repo / "docs" / "limits.md").read_text(encoding="utf-8")}
    refuted = summary["refuted"]
    print(f"Machine: {machine()}; outcome {summary['outcome']} (exit {code}) in {wall:.0f} s")
    print(
        "| member | phase | rung | card | scores kept | scores refuted (why) | replies cut short |"
    )
    print("|---|---|---|---|---|---|---|")
    in_protocol = 0
    truncated_total = 0
    surviving_high = 0
    for seat in sorted(seats, key=lambda s: (s["phase"] != "score", s["lens"])):
        lens, phase = seat["lens"], seat["phase"]
        card = seat["card"]
        fate = seat["verdict_source"]
        if seat["malformed"]:
            fate = f"malformed: {seat['malformed']['detail'] or seat['malformed']['reason']}"
        in_protocol += card is not None
        lost = [r for r in refuted if r["lens"] == lens and r["phase"] == phase
                and r["kind"] == "score"]  # fmt: skip
        lost_dims = {r["dimension"] for r in lost}
        kept = {d: s["score"] for d, s in (card or {}).get("scores", {}).items()
                if d not in lost_dims}  # fmt: skip
        surviving_high += sum(1 for value in kept.values() if value >= HIGH_SCORE)
        shown_lost = "; ".join(
            f"{r['dimension']} {r['item']['score']} ({r['reason']})" for r in lost
        )
        # A reply cut short is the transport's `truncated`: the walk went on to the next rung.
        synthesis = phase == "synthesis"
        cut = [call["model"] for call in recorder.calls
               if call["lens"] == lens and call["finish_reason"] == "length"
               and ('"phase": "synthesis"' in call["prompt"]) == synthesis]  # fmt: skip
        truncated_total += len(cut)
        print(
            f"| {lens} | {phase} | {seat['rung'] or '-'} | {fate} | "
            f"{', '.join(f'{d} {v}' for d, v in kept.items()) or '-'} | {shown_lost or '-'} | "
            f"{', '.join(cut) or '-'} |"
        )
    print(
        f"totals: cards in protocol {in_protocol} of {len(seats)} ({truncated_total} replies cut "
        f"short on the way); scores of {HIGH_SCORE} or more surviving their citation check "
        f"{surviving_high} (target: every card, and at least 1)"
    )
    if save:
        fixture = {
            "machine": machine(),
            "date": datetime.date.today().isoformat(),
            "models": sorted({call["model"] for call in recorder.calls if call["model"]}),
            "files": files,
            "references": references,
            "example": None if example is None else dataclasses.asdict(example),
            "verification": summary["verification"],
            "request": None,
            "outcome": summary["outcome"],
            "calls": [
                {
                    **call,
                    "phase": "synthesis" if '"phase": "synthesis"' in call["prompt"] else "score",
                }
                for call in recorder.calls
            ],
            "members": [
                {
                    "lens": seat["lens"],
                    "phase": seat["phase"],
                    "rung": seat["rung"],
                    "verdict_source": seat["verdict_source"],
                    "malformed": seat["malformed"],
                    "refuted": sorted(
                        r["dimension"]
                        for r in refuted
                        if r["lens"] == seat["lens"]
                        and r["phase"] == seat["phase"]
                        and r["kind"] == "score"
                    ),
                }
                for seat in seats
            ],
        }
        PANEL_FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        PANEL_FIXTURE.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
        print(f"saved {PANEL_FIXTURE.relative_to(REPO)}")
    return 0 if in_protocol == len(seats) and surviving_high >= 1 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="a convening heard from real small models")
    parser.add_argument("--save-fixtures", action="store_true", help="save the replies for CI")
    parser.add_argument("--panel", action="store_true", help="a panel court round instead")
    args = parser.parse_args(argv)
    upstream = server_url()
    if not answers(upstream):
        print(f"live_juror: no server answers at {upstream}; start it: bash {SERVE} start")
        return 2
    recorder = Recorder(upstream)
    if args.panel:
        return panel_main(recorder, args.save_fixtures)
    with tempfile.TemporaryDirectory(prefix="tribunal-live-") as scratch:
        work = Path(scratch)
        code, out, wall = convene(work, write_fleet(work, recorder.url))
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        from tribunal.jury.envelope.read import read_envelope

        envelope = read_envelope(out, "run")
        example = envelope.example
        files = envelope.file_texts()
    print(f"Machine: {machine()}; outcome {summary['outcome']} (exit {code}) in {wall:.0f} s")
    print("| lens | rung | verdict | citations | latency | protocol failures |")
    print("|---|---|---|---|---|---|")
    failures_total = 0
    verified_seats = 0
    for seat in summary["seats"]:
        calls = [call for call in recorder.calls if call["lens"] == seat["lens"]]
        latency = ", ".join(f"{call['latency_s']:g} s" for call in calls) or "-"
        failures = protocol_failures(seat)
        failures_total += len(failures)
        verified_seats += verified(seat)
        verdict = seat["verdict"] + (" (bare)" if seat["low_information"] else "")
        print(
            f"| {seat['lens']} | {seat['rung'] or '-'} | {verdict} | "
            f"{', '.join(marks(seat)) or '-'} | {latency} | {', '.join(failures) or '-'} |"
        )
    print(
        f"totals: protocol failures {failures_total}; seats with a verified citation "
        f"{verified_seats} of {len(summary['seats'])} (target: 0 and at least {TARGET_VERIFIED})"
    )
    if args.save_fixtures:
        fixture = {
            "machine": machine(),
            "date": datetime.date.today().isoformat(),
            "models": sorted({call["model"] for call in recorder.calls if call["model"]}),
            "receipt": manifest["receipt"],
            "files": files,
            "example": None if example is None else dataclasses.asdict(example),
            "outcome": summary["outcome"],
            "calls": recorder.calls,
            "seats": [
                {key: seat[key] for key in ("lens", "rung", "verdict", "low_information")}
                | {"marks": marks(seat), "protocol_failures": protocol_failures(seat)}
                for seat in summary["seats"]
            ],
        }
        FIXTURE.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
        print(f"saved {FIXTURE.relative_to(REPO)}")
    met = failures_total == 0 and verified_seats >= TARGET_VERIFIED
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
