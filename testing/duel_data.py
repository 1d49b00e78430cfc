"""Shared duel and matrix test data: the tutorial case, a checkout with spec and cases."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from testing import REPO

SPEC = REPO / "specs" / "autoscale_spec.yaml"

# T-3: the tutorial's own case, exactly as SPEC shows it.
TUTORIAL_CASE_TEXT = """{
  "counterexample_id": "autoscale_counter_200pct",
  "assertion_id": "allowed_delta_within_quota",
  "given_snapshot": {"cluster_id": "prod-eu-1", "current_replicas": 12, "pod_cpu": 1,
    "remaining_quota": 3, "max_replicas": 15, "max_actions_per_window": 4,
    "clamp_policy": "soft_clamp", "dedup_window_seconds": 2},
  "when_payload": {"source_service": "grafana", "scale_up_percent": 200},
  "minimality_trace": ["a 200% scale-up of 12 replicas asks for 24 more",
    "3 units of quota at 1 cpu per pod allow 3 more",
    "headroom is also 3, so any delta above 3 breaks the assertion"],
  "expected_failure": {"verdict": "PASS", "diagnostic_code": "QUOTA_EXCEEDED_AFTER_CLAMP",
    "halt_before": "execute_scale_action", "executed_delta_upper_bound": 3}
}
"""


def tutorial_case(**changes: Any) -> dict[str, Any]:
    """The tutorial's case with top-level keys replaced, or nested ones via `section__key`."""
    case: dict[str, Any] = json.loads(TUTORIAL_CASE_TEXT)
    case = copy.deepcopy(case)
    for key, value in changes.items():
        section, _, inner = key.partition("__")
        if inner:
            if value is _DROP:
                case[section].pop(inner, None)
            else:
                case[section][inner] = value
        elif value is _DROP:
            case.pop(section, None)
        else:
            case[section] = value
    return case


class _Drop:
    def __repr__(self) -> str:
        return "DROP"


_DROP: Any = _Drop()
DROP: Any = _DROP


def checkout(root: Path, *, shipped_cases: bool = True) -> Path:
    """A git repository at `root` holding the shipped spec (and cases unless told otherwise)."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "specs").mkdir()
    shutil.copy2(SPEC, root / "specs" / SPEC.name)
    if shipped_cases:
        shutil.copytree(REPO / "cases", root / "cases")
    else:
        (root / "cases").mkdir()
    return root


def write_case(directory: Path, name: str, case: dict[str, Any] | str) -> Path:
    path = directory / name
    text = case if isinstance(case, str) else json.dumps(case, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    return path
