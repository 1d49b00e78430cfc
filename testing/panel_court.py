"""A panel-court sitting for tests: a real repository (criteria committed at base, a rate limiter
at head), an executor's report, a fleet of three families whose rungs call a local scorecard
server on 127.0.0.1, and cards scripted per lens, round and phase (P-2..P-10); and a plan to vet
before the work, its three lenses answered with verdicts scripted per lens (P-11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from testing.gitrepo import GitRepo
from testing.jurors import JurorServer, reply

LENSES = ("quality", "fitness", "adversary")
DIMENSIONS = ("correctness", "robustness", "clarity")
EXECUTOR = "vendor-x"
CANARY = "CANARY-7f3a-never-in-a-prompt"

LIMITER = """\
import time


class RateLimiter:
    def __init__(self, limit, window):
        self.limit = limit
        self.window = window
        self.start = time.monotonic()
        self.count = 0

    def allow(self, now):
        if now - self.start > self.window:
            self.start = now
            self.count = 0
        self.count += 1
        return self.count <= self.limit
"""
CHECK = """\
from limiter import RateLimiter

limiter = RateLimiter(2, 60)
assert limiter.allow(0) and limiter.allow(1)
print("3 passed")
"""
# Lines of LIMITER a card may quote: (location, quote).
WINDOW_EDGE = ("limiter.py:12", "if now - self.start > self.window:")
COUNTS = ("limiter.py:16", "return self.count <= self.limit")
CHECK_COMMAND = "{python} check.py"
VET_LENSES = ("works", "followable", "cheapest")
PLAN = """\
# Plan: a limiter for each client

1. Write check.py: two calls in a window of 60 pass, and it prints 3 passed.
2. Write limiter.py: a RateLimiter(limit, window) that resets its count when the window ends.
3. Run python check.py; done when it prints 3 passed.
"""
# Lines of PLAN a verdict may cite: (location, quote).
PLAN_CHECK = ("plan.md:5", "3. Run python check.py; done when it prints 3 passed.")
PLAN_LIMITER = (
    "plan.md:4",
    "a RateLimiter(limit, window) that resets its count when the window ends.",
)


def criteria_text(**fields: Any) -> str:
    """The slice's criteria.yaml; `fields` override the defaults."""
    document: dict[str, Any] = {
        "slice_id": "limiter",
        "request": "Limit each client to `limit` calls per `window` seconds.",
        "dimensions": [{"id": name, "weight": 1} for name in DIMENSIONS],
        "target": 0.8,
        "verification_commands": [CHECK_COMMAND],
        "lenses": list(LENSES),
    }
    document.update(fields)
    return yaml.safe_dump(document, sort_keys=False)


def report_text(address: str | None, **fields: Any) -> str:
    """An executor's report.yaml; `fields` override the defaults."""
    document: dict[str, Any] = {
        "status": "DONE",
        "executor": EXECUTOR,
        "context": "plan-1",
        "diff_summary": f"added the limiter {CANARY}",
        "commands": [{"command": "python check.py", "exit_code": 0, "output": CANARY}],
    }
    if address is not None:
        document["address"] = address
    document.update(fields)
    return yaml.safe_dump(document, sort_keys=False)


def evidence(where: tuple[str, str]) -> dict[str, str]:
    """A quote+location evidence item."""
    location, quote = where
    return {"quote": quote, "location": location}


def output_evidence(output: str = "3 passed") -> dict[str, str]:
    """A command+output evidence item of the verification command."""
    return {"command": "python check.py", "output": output}


def score(value: int, confidence: float = 0.8, *cited: dict[str, str]) -> dict[str, Any]:
    """One dimension's score; a score of 8+ without `cited` quotes the window edge, one of 3 or
    less cites the verification output (so it survives P-6 unless a test says otherwise)."""
    if not cited:
        cited = (evidence(WINDOW_EDGE),) if value >= 8 else (output_evidence(),)
    return {"score": value, "confidence": confidence, "evidence": list(cited)}


def card(
    lens: str,
    scores: Mapping[str, int | dict[str, Any]],
    *,
    round_number: int = 1,
    phase: str = "score",
    scenarios: Sequence[dict[str, Any]] | None = None,
    findings: Sequence[dict[str, Any]] = (),
    recommendation: str = "SHIP",
    escalation: str | None = None,
) -> str:
    """A P-4 card as a member writes it. The adversary names an `other` scenario unless
    `scenarios` says otherwise (an adversary must oppose)."""
    if scenarios is None:
        scenarios = [scenario("other")] if lens == "adversary" else []
    document = {
        "lens": lens,
        "round": round_number,
        "phase": phase,
        "scores": {
            name: value if isinstance(value, dict) else score(value)
            for name, value in scores.items()
        },
        "failure_scenarios": list(scenarios),
        "findings": list(findings),
        "top_concern": "none",
        "recommendation": recommendation,
        "escalation": escalation,
    }
    return json.dumps(document)


def scenario(kind: str, where: tuple[str, str] = WINDOW_EDGE) -> dict[str, Any]:
    """A failure scenario at `where`."""
    location, quote = where
    return {
        "input": "a burst of calls straddling the window's edge",
        "wrong_behaviour": "twice the limit passes",
        "kind": kind,
        "location": location,
        "quote": quote,
    }


def finding(
    severity: str, *, fix: str | None = "advance the start", structural: bool = False
) -> dict[str, Any]:
    """A finding at the window edge."""
    location, quote = WINDOW_EDGE
    return {
        "severity": severity,
        "claim": "the window start never advances on a steady stream",
        "location": location,
        "quote": quote,
        "fix": fix,
        "structural": structural,
    }


def every(value: int) -> dict[str, int]:
    """The same score on every dimension."""
    return dict.fromkeys(DIMENSIONS, value)


def lens_text(lens: str) -> str:
    """The literal a prompt for `lens` carries."""
    return f'"lens": "{lens}"'


def phase_text(phase: str) -> str:
    """The literal a prompt for `phase` carries."""
    return f'"phase": "{phase}"'


def answer(
    server: JurorServer, lens: str, text: str, *, phase: str = "score", round_number: int = 1
) -> None:
    """Script `server` to answer `lens`'s prompt of `phase` in `round_number` with `text`.
    Synthesis rules are matched first (a synthesis prompt shows the member's own score card)."""
    texts = (lens_text(lens), phase_text(phase), f'"round": {round_number}')
    server.when(texts, reply(text), first=phase == "synthesis")


@dataclass
class Slice:
    """A slice ready to convene: the repository, its base and head, and the files."""

    root: Path
    repo: GitRepo
    base: str
    head: str
    criteria: Path
    report: Path
    fleet: Path
    ledger: Path
    out: Path
    extra: dict[str, Any] = field(default_factory=dict)

    def args(self, *more: str, out: Path | None = None) -> list[str]:
        """The `tribunal panel convene` arguments for this slice."""
        return [
            "panel", "convene",
            "--criteria", str(self.criteria),
            "--report", str(self.report),
            "--repo", str(self.repo.path),
            "--base", self.base,
            "--fleet", str(self.fleet),
            "--out", str(out or self.out),
            "--ledger", str(self.ledger),
            *more,
        ]  # fmt: skip

    def run(self, *more: str, out: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run `tribunal panel convene` as a process."""
        return self.run_tribunal(*self.args(*more, out=out))

    def vet_args(self, *more: str, out: Path | None = None) -> list[str]:
        """The `tribunal panel vet` arguments for this slice's plan (built by the executor)."""
        return [
            "panel", "vet",
            "--plan", str(self.root / "plan.md"),
            "--criteria", str(self.criteria),
            "--fleet", str(self.fleet),
            "--builder", EXECUTOR,
            "--out", str(out or self.root / "vet"),
            "--ledger", str(self.ledger),
            *more,
        ]  # fmt: skip

    def run_vet(self, *more: str, out: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run `tribunal panel vet` as a process."""
        return self.run_tribunal(*self.vet_args(*more, out=out))

    def run_freeze(self) -> subprocess.CompletedProcess[str]:
        """Run `tribunal panel freeze` on the slice's criteria and ledger."""
        return self.run_tribunal("panel", "freeze", "--criteria", str(self.criteria),
                              "--ledger", str(self.ledger))  # fmt: skip

    def run_tribunal(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "JUROR_KEY": "sk-panel-0123456789"}
        return subprocess.run(
            [sys.executable, "-m", "tribunal", *args],
            capture_output=True,
            text=True,
            cwd=self.root,
            env=env,
            timeout=120,
        )

    def summary(self, out: Path | None = None) -> dict[str, Any]:
        """The run's summary.json."""
        loaded: dict[str, Any] = json.loads(((out or self.out) / "summary.json").read_text())
        return loaded

    def write_report(self, text: str) -> None:
        """Replace the executor's report."""
        self.report.write_text(text, encoding="utf-8")


def make_slice(
    tmp_path: Path,
    server: JurorServer,
    *,
    criteria: str | None = None,
    limiter: str = LIMITER,
    rungs: Sequence[dict[str, Any]] | None = None,
) -> Slice:
    """A repository with the criteria committed at base and the limiter at head; a report at
    head; a fleet of three rungs (families fam-a, fam-b, fam-c, rank 1) on `server`."""
    root = tmp_path
    repo = GitRepo(root / "repo")
    text = criteria if criteria is not None else criteria_text()
    base = repo.commit("criteria", {"criteria.yaml": text, "README.md": "a limiter\n"})
    head = repo.commit("limiter", {"limiter.py": limiter, "check.py": CHECK})
    report = root / "report.yaml"
    report.write_text(report_text(head), encoding="utf-8")
    fleet = root / "fleet.yaml"
    entries = rungs if rungs is not None else [
        server_rung("rung-a", "fam-a", server), server_rung("rung-b", "fam-b", server),
        server_rung("rung-c", "fam-c", server),
    ]  # fmt: skip
    fleet.write_text(
        yaml.safe_dump(
            {"rungs": list(entries), "tiers": {"panel": [entry["id"] for entry in entries]}},
            sort_keys=False,
        ),
        encoding="utf-8",
    )
    return Slice(
        root=root,
        repo=repo,
        base=base,
        head=head,
        criteria=repo.path / "criteria.yaml",
        report=report,
        fleet=fleet,
        ledger=root / "ledger.json",
        out=root / "out",
    )


def server_rung(rung_id: str, family: str, server: JurorServer, **fields: Any) -> dict[str, Any]:
    """A rung entry calling `server` (key from JUROR_KEY), rank 1 unless `fields` say."""
    return {
        "id": rung_id,
        "family": family,
        "transport": server.protocol,
        "endpoint": server.endpoint,
        "model": f"{rung_id}-model",
        "api_key_env": "JUROR_KEY",
        "timeout_s": 10,
        "rank": 1,
        **fields,
    }


def make_vet_slice(tmp_path: Path, server: JurorServer) -> Slice:
    """A slice with a plan to vet (`plan.md` beside the repository) and a fleet whose ladder
    starts with a rung of the executor's family, then the three families on `server`."""
    rungs = [server_rung("rung-x", EXECUTOR, server)]
    rungs += [server_rung(f"rung-{n}", f"fam-{n}", server) for n in "abc"]
    court = make_slice(tmp_path, server, rungs=rungs)
    (court.root / "plan.md").write_text(PLAN, encoding="utf-8")
    return court


def vet_verdict(lens: str, verdict: str) -> str:
    """A V-1 verdict of `lens`: a pass cites the plan's check line (so it is not bare); a
    refuse names a major finding at the limiter step."""
    location, quote = PLAN_CHECK if verdict == "pass" else PLAN_LIMITER
    entry = {"location": location, "evidence": quote}
    document: dict[str, Any] = {"verdict": verdict, "lens": lens, "findings": [], "checked": []}
    if verdict == "pass":
        document["checked"] = [{**entry, "claim": "the plan ends on a command that checks it"}]
    else:
        claim = f"{lens}: the window's reset leaves a burst at its edge unchecked"
        document["findings"] = [{**entry, "severity": "major", "claim": claim}]
    return json.dumps(document)


def answer_vet(server: JurorServer, **verdicts: str) -> None:
    """Script `server` to answer each vetting lens named with its verdict (`pass`, `refuse`)."""
    for lens, verdict in verdicts.items():
        server.when(lens_text(lens), reply(vet_verdict(lens, verdict)))
