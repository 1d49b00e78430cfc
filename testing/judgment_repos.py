"""Tmp repositories for judgment tests: a spec, case files, metrics and a hand-written duel.json.

duel.json follows T-4 and the duel's contract: `spec` and `cases` are C-8 paths, each result's
evidence_ref lists the case file first, then `specs/<spec>.yaml:<line>` pointers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC = """\
spec_id: autoscale_v1
scenario: autoscale on a webhook
then:
  assertion_id: allowed_delta_within_quota
  invariants:
    - target_replicas <= max_replicas
    - executed_delta <= remaining_quota / pod_cpu
next_steps:
  clean: "Keep the cases in CI"
  counterexample_got_through: "Implementor adds a diagnostic that halts the case"
  metric_corruption: "Fix validation.md before claiming the gain"
  violates_invariant: "Implementor adds a severity check before auto-escalation"
"""

METRICS: dict[str, Any] = {
    "session_id": "tribunal-2026-05-18",
    "window": "last_30_days",
    "false_escalation_rate": 0.032,
    "silent_p0_ratio": 0,
    "mttr_p95_minutes": 5,
    "notes_count": 3,
    "thresholds": {
        "false_escalation_rate_max": 0.05,
        "silent_p0_ratio_max": 0,
        "mttr_p95_minutes_max": 6,
    },
}


def result(case_id: str, verdict: str = "PASS", *, spec_line: int = 6) -> dict[str, Any]:
    """One duel result; a non-PASS one carries a reason and a spec pointer."""
    fired = verdict == "DEFERRED"
    reasons = {
        "PASS": [],
        "FAIL": ["allowed_delta=5 exceeds upper_bound=3"],
        "DEFERRED": ["diagnostic_code: expected none, got QUOTA_EXCEEDED_AFTER_CLAMP"],
    }[verdict]
    refs = [f"cases/{case_id}.json"]
    if verdict != "PASS":
        refs.append(f"specs/autoscale_spec.yaml:{spec_line}")
    return {
        "counterexample_id": case_id,
        "assertion_id": "allowed_delta_within_quota",
        "spec_id": "autoscale_v1",
        "verdict": verdict,
        "actual": {
            "diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP" if fired else None,
            "halt_before": "execute_scale_action" if fired else None,
            "allowed_delta": 5,
            "requested_delta": 24,
            "executed_delta": 0 if fired else 5,
        },
        "expected": {"diagnostic_code": None, "executed_delta_upper_bound": 3},
        "reasons": reasons,
        "not_evaluated": [],
        "evidence_ref": refs,
    }


def duel_doc(results: list[dict[str, Any]]) -> dict[str, Any]:
    verdicts = [r["verdict"] for r in results]
    return {
        "spec_id": "autoscale_v1",
        "spec": "specs/autoscale_spec.yaml",
        "cases": "cases",
        "total": len(results),
        "pass": verdicts.count("PASS"),
        "fail": verdicts.count("FAIL"),
        "deferred": verdicts.count("DEFERRED"),
        "unexercised_diagnostics": ["NO_CAPACITY_LEFT"],
        "results": results,
    }


@dataclass
class Repo:
    root: Path

    def write(self, name: str, content: str | dict[str, Any]) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, indent=2) + "\n"
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, name: str) -> str:
        return (self.root / name).read_text(encoding="utf-8")


def make_repo(
    root: Path,
    results: list[dict[str, Any]],
    metrics: dict[str, Any] | None = None,
    *,
    baseline: dict[str, Any] | None = None,
) -> Repo:
    """A repository at `root` with spec, cases, metrics and out/duel.json (invariants not run)."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    repo = Repo(root)
    repo.write("specs/autoscale_spec.yaml", SPEC)
    for item in results:
        repo.write(f"cases/{item['counterexample_id']}.json", {"id": item["counterexample_id"]})
    repo.write("metrics/validation_metrics.json", metrics if metrics is not None else METRICS)
    if baseline is not None:
        repo.write("metrics/baseline.json", baseline)
    repo.write("out/duel.json", duel_doc(results))
    return repo
