"""X-1: a whole `tribunal convene` of eight seats against a local server that answers each request
after 1 s, against a convening of one seat (target <= 1.3x; a serial loop: 8x). Both run as
processes with `--no-proofs` over a small real repository, so the figure includes everything a
user waits for: start-up, envelope, routing, the parallel seats (L-9), the reports.

Run through `python3 bench/run.py --only X-1`. The server listens on 127.0.0.1 only and speaks
the OpenAI chat protocol, answering each lens with a pass for that lens.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from slow_server import slow_server

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

TARGET_RATIO = 1.3
_LENS = re.compile(r'"lens": "([A-Za-z0-9_.-]+)"')
_BASE = "def sub(a, b):\n    return a - b\n"
_FIXED = "def sub(a, b):\n    return max(a - b, 0)\n"
_CONTRACT = "intent: Clamp subtraction at zero.\ncriteria:\n  - sub(1, 2) == 0\n"
_IDENTITY = {
    "GIT_AUTHOR_NAME": "Timing Rig",
    "GIT_AUTHOR_EMAIL": "rig@example.invalid",
    "GIT_COMMITTER_NAME": "Timing Rig",
    "GIT_COMMITTER_EMAIL": "rig@example.invalid",
}
# V-4: every pass cites the change, so a convening of passes LANDs (exit 0).
_CHECKED = [
    {"claim": "clamped at zero", "location": "calc.py:2", "evidence": "return max(a - b, 0)"}
]
_FLEET = """\
rungs:
  - {{id: bench-a, family: vendor-a, transport: openai, endpoint: "{endpoint}", model: a-1,
     max_concurrency: 8}}
  - {{id: bench-b, family: vendor-b, transport: openai, endpoint: "{endpoint}", model: b-1,
     max_concurrency: 8}}
  - {{id: bench-builder, family: bench-builder-family, transport: openai, endpoint: "{endpoint}",
     model: z-1}}
tiers:
  deep_state: [bench-a, bench-b]
  operator_safety: [bench-b, bench-a]
  generalist: [bench-a, bench-b]
  fast_structural: {{primary: [bench-a], verifier: [bench-b]}}
"""
_ONE_LENS = "lenses:\n  defect: {tier: generalist}\n"


def _pass(prompt: str) -> str:
    """A pass for the prompt's lens, citing the change."""
    found = _LENS.search(prompt)
    lens = found.group(1) if found else "unknown"
    return json.dumps({"verdict": "pass", "lens": lens, "findings": [], "checked": _CHECKED})


def measure(quick: bool, work: Path) -> dict[str, float]:
    """Median wall times of a whole `tribunal convene --no-proofs` (a process, as a user runs
    it) seating all eight default lenses, and of one seating a single lens."""
    delay = 0.2 if quick else 1.0
    runs = 1 if quick else 3
    repo = _repository(work / "repo")
    contract = work / "contract.yaml"
    contract.write_text(_CONTRACT, encoding="utf-8")
    with slow_server(delay, _pass) as (endpoint, _):
        eight = work / "fleet.yaml"
        eight.write_text(_FLEET.format(endpoint=endpoint), encoding="utf-8")
        one = work / "fleet-one.yaml"
        one.write_text(_FLEET.format(endpoint=endpoint) + _ONE_LENS, encoding="utf-8")

        def wall(fleet: Path, name: str) -> float:
            samples = []
            for index in range(runs):
                out = work / f"{name}-{index}"
                argv = [
                    sys.executable, "-m", "tribunal", "convene", "--repo", str(repo),
                    "--base", "HEAD~1", "--contract", str(contract), "--fleet", str(fleet),
                    "--builder", "bench-builder-family", "--out", str(out),
                    "--ledger", str(work / f"{name}-ledger.json"), "--no-proofs",
                ]  # fmt: skip
                start = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, text=True, check=False)
                samples.append(time.perf_counter() - start)
                if done.returncode != 0:
                    raise SystemExit(f"bench X-1: convene exited {done.returncode}:\n{done.stdout}")
            return statistics.median(samples)

        one_s = wall(one, "one")
        eight_s = wall(eight, "eight")
    return {"one_s": one_s, "eight_s": eight_s, "seats": 8.0, "delay_s": delay}


def _repository(path: Path) -> Path:
    """A two-commit repository whose change the jurors judge."""
    path.mkdir(parents=True)
    env = {**os.environ, **_IDENTITY}
    for argv in (
        ["git", "init", "-q"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", "base"],
    ):
        if argv[1] == "add":
            (path / "calc.py").write_text(_BASE, encoding="utf-8")
        subprocess.run(argv, cwd=path, env=env, check=True, capture_output=True)
    (path / "calc.py").write_text(_FIXED, encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "fix"], cwd=path, env=env, check=True)
    return path
