"""X-6: a whole `tribunal panel convene` of a three-lens panel that holds a synthesis phase,
against a local server answering each request after 1 s, timed against a one-lens panel (target
<= 2.6x; asked one after another, the three members' two phases would take 6x). Both run as
processes over a small real repository, so the figure holds everything a user waits for:
start-up, the envelope, tribunal's own verification, routing, the members and the records.

The server also counts how many requests it is answering at once in each phase: the three
members of a phase must be asked at the same time (3 at once, in both phases), else the ratio
could be met by luck. It listens on 127.0.0.1 only and speaks the OpenAI chat protocol: in the
score phase quality scores robustness 5 against the others' 8 (a spread of 3: one
synthesis), in the synthesis every member scores 8.

Run through `python3 bench/run.py --only X-6`.
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
from typing import Any

from slow_server import slow_server

TARGET_RATIO = 2.6
_LENS = re.compile(r'"lens": "([A-Za-z0-9_.-]+)"')
_SYNTHESIS = '"phase": "synthesis"'
_CODE = "def clamp(value, low, high):\n    return max(low, min(value, high))\n"
_QUOTE = {"quote": "return max(low, min(value, high))", "location": "clamp.py:2"}
_IDENTITY = {
    "GIT_AUTHOR_NAME": "Timing Rig",
    "GIT_AUTHOR_EMAIL": "rig@example.invalid",
    "GIT_COMMITTER_NAME": "Timing Rig",
    "GIT_COMMITTER_EMAIL": "rig@example.invalid",
}
_CRITERIA = """\
slice_id: clamp
request: "Add clamp(value, low, high)."
dimensions:
  - {{id: correctness, weight: 1}}
  - {{id: robustness, weight: 1}}
lenses: {lenses}
verification_commands: ["{{python}} -c 'print(1)'"]
"""
_REPORT = "status: DONE\naddress: HEAD\nexecutor: bench-builder-family\ncontext: plan\n"
# Three rungs of three families, remote (each its own bound), all on the one local server.
_FLEET = """\
rungs:
  - {{id: bench-a, family: vendor-a, transport: openai, endpoint: "{endpoint}", model: a-1,
     rank: 1}}
  - {{id: bench-b, family: vendor-b, transport: openai, endpoint: "{endpoint}", model: b-1,
     rank: 1}}
  - {{id: bench-c, family: vendor-c, transport: openai, endpoint: "{endpoint}", model: c-1,
     rank: 1}}
tiers:
  panel: [bench-a, bench-b, bench-c]
"""


def _card(lens: str, synthesis: bool) -> dict[str, Any]:
    """The card `lens` answers: 8s, but quality's robustness 5 in the score phase."""
    robustness = 5 if lens == "quality" and not synthesis else 8
    scores = {
        name: {"score": value, "confidence": 0.8, "evidence": [_QUOTE]}
        for name, value in (("correctness", 8), ("robustness", robustness))
    }
    scenarios = [
        {"input": "low above high", "wrong_behaviour": "returns low", "kind": "other", **_QUOTE}
    ]
    return {
        "lens": lens,
        "round": 1,
        "phase": "synthesis" if synthesis else "score",
        "scores": scores,
        "failure_scenarios": scenarios if lens == "adversary" else [],
        "findings": [],
        "top_concern": "none",
        "recommendation": "SHIP",
        "escalation": None,
    }


def _answer(prompt: str) -> str:
    """The card the prompt's member answers in the prompt's phase."""
    found = _LENS.search(prompt)
    return json.dumps(_card(found.group(1) if found else "unknown", _SYNTHESIS in prompt))


def _phase(prompt: str) -> str:
    return "synthesis" if _SYNTHESIS in prompt else "score"


def measure(quick: bool, work: Path) -> dict[str, float]:
    """Median wall times of a whole `tribunal panel convene` (a process) of three lenses with a
    synthesis phase and of one lens, and the most requests the server answered at once in each
    phase of the three-lens runs."""
    delay = 0.2 if quick else 1.0
    runs = 1 if quick else 3
    with slow_server(delay, _answer, _phase) as (endpoint, count):
        fleet = work / "fleet.yaml"
        fleet.write_text(_FLEET.format(endpoint=endpoint), encoding="utf-8")

        def wall(lenses: str, name: str, expected: str) -> float:
            repo = _repository(work / f"{name}-repo", _CRITERIA.format(lenses=lenses))
            report = work / f"{name}-report.yaml"
            report.write_text(_REPORT, encoding="utf-8")
            samples = []
            for index in range(runs):
                out = work / f"{name}-{index}"
                argv = [
                    sys.executable, "-m", "tribunal", "panel", "convene",
                    "--criteria", str(repo / "criteria.yaml"), "--report", str(report),
                    "--repo", str(repo), "--base", "HEAD~1", "--fleet", str(fleet),
                    "--out", str(out), "--ledger", str(work / f"{name}-{index}-ledger.json"),
                ]  # fmt: skip
                start = time.perf_counter()
                done = subprocess.run(argv, capture_output=True, text=True, check=False)
                samples.append(time.perf_counter() - start)
                summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
                if done.returncode != 0 or summary["outcome"] != expected:
                    raise SystemExit(
                        f"bench X-6: panel convene exited {done.returncode} "
                        f"({summary['outcome']}):\n{done.stdout}{done.stderr}"
                    )
                synthesis = bool(summary["triggers"])
                if synthesis != (name == "three"):
                    raise SystemExit(f"bench X-6: the {name}-lens panel's synthesis: {synthesis}")
            return statistics.median(samples)

        one_s = wall("[adversary]", "one", "SHIP")
        count.peak.clear()
        three_s = wall("[quality, fitness, adversary]", "three", "SHIP")
        peaks = dict(count.peak)
    return {
        "one_s": one_s,
        "three_s": three_s,
        "delay_s": delay,
        "peak_score": float(peaks.get("score", 0)),
        "peak_synthesis": float(peaks.get("synthesis", 0)),
    }


def _repository(path: Path, criteria: str) -> Path:
    """A repository whose base commits the criteria (frozen by it) and whose head adds the
    code the panel scores."""
    path.mkdir(parents=True)
    env = {**os.environ, **_IDENTITY}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=path, env=env, check=True, capture_output=True)

    git("init", "-q")
    (path / "criteria.yaml").write_text(criteria, encoding="utf-8")
    git("add", "-A")
    git("commit", "-q", "-m", "criteria")
    (path / "clamp.py").write_text(_CODE, encoding="utf-8")
    git("add", "-A")
    git("commit", "-q", "-m", "clamp")
    return path
