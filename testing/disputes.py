"""Builders for dispute directories in tmp_path (A-2, A-3): real evidence files, vote files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

DISPUTE = "disputes/rate-limit"

RECORD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["tenant_id", "limit_reason", "expires_at"],
    "properties": {
        "tenant_id": {"type": "string"},
        "limit_reason": {"type": "string"},
        "expires_at": {"type": "string"},
        "limit": {"type": "integer", "minimum": 1},
    },
}

RECORDS = [
    {"tenant_id": "A", "limit_reason": "burst", "expires_at": "2026-05-18T10:01:00Z", "limit": 60},
    {"tenant_id": "A", "limit_reason": "burst", "expires_at": "2026-05-18T10:02:00Z", "limit": 60},
]

FEATURE = """\
Feature: Tenant isolation under burst

  Scenario: Tenant isolation under burst
    Given tenant A sends 800 req/min
    And tenant B sends 40 req/min
    When the rate-limit hook applies a limit
    Then tenant A gets a temporary limit for 60 seconds
    And tenant B keeps its base quota
    And the evidence holds tenant_id, limit_reason and expires_at

  Scenario: Limit expires
    Given tenant A was limited at 10:00:00
    When 60 seconds pass
    Then tenant A gets its base quota back
"""

JUNIT = """\
<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="pytest" errors="0" failures="0" skipped="0" tests="2">
    <testcase classname="tests.test_rate_limit" name="test_tenant_isolation_under_burst"/>
    <testcase classname="rate_limit.feature" name="Limit expires" time="0.01"/>
  </testsuite>
</testsuites>
"""

DIFF = """\
diff --git a/validation.md b/validation.md
index 1111111..2222222 100644
--- a/validation.md
+++ b/validation.md
@@ -1,2 +1,3 @@
 # Validation
 - tenant A's burst is limited
+- Given tenant A exceeds the burst limit / When tenant B sends normal traffic / Then ...
"""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dump_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    with path.open("w", encoding="utf-8") as handle:
        yaml.dump(data, handle)
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def hook_line(event: str, **fields: Any) -> str:
    return json.dumps({"event": event, "tool": "Edit", "ts": "2026-05-18T10:00:00Z", **fields})


def full_evidence(directory: Path, *, diff_sha: str | None = None) -> dict[str, Any]:
    """Write valid evidence of all three kinds into `directory`; return the `evidence` mapping."""
    write(directory / "evidence/limit.schema.json", json.dumps(RECORD_SCHEMA, indent=2) + "\n")
    write(
        directory / "evidence/rate_limit.ndjson",
        "".join(json.dumps(record) + "\n" for record in RECORDS),
    )
    write(
        directory / "evidence/hooks.ndjson",
        hook_line("PreToolUse", decision="allow")
        + "\n"
        + hook_line("PostToolUse", exit_code=0, diff_sha256=diff_sha or sha256(DIFF))
        + "\n",
    )
    write(directory / "features/rate_limit.feature", FEATURE)
    write(directory / "results/junit.xml", JUNIT)
    return {
        "schema": {
            "records": ["evidence/rate_limit.ndjson"],
            "schema": "evidence/limit.schema.json",
        },
        "hooks": ["evidence/hooks.ndjson"],
        "scenarios": {
            "features": ["features/rate_limit.feature"],
            "results": ["results/junit.xml"],
        },
    }


def make_dispute(root: Path, *, evidence: dict[str, Any] | None = None, **fields: Any) -> Path:
    """A dispute directory under `root` with a spec, a change diff and (by default) full evidence.

    `evidence=None` writes valid evidence of all three kinds; pass a mapping to declare other.
    Extra `fields` go into dispute.yaml (None removes a key).
    """
    directory = root / DISPUTE
    write(
        directory / "requirements.md",
        "# Requirements\n- one tenant's burst must not lower a neighbour's quota\n",
    )
    write(directory / "change.diff", DIFF)
    declared = full_evidence(directory) if evidence is None else evidence
    data: dict[str, Any] = {
        "dispute_id": "rate-limit-001",
        "spec": "requirements.md",
        "change": "change.diff",
        "evidence": declared,
        "facts": {"domain": "rate_limit", "tier": "local-coder"},
    }
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    dump_yaml(directory / "dispute.yaml", data)
    return directory


def vote(
    directory: Path,
    round_number: int,
    role: str,
    verdict: str = "APPROVE",
    *,
    action: str = "proposed",
    critical_risk: bool = False,
    summary: str | None = None,
    evidence_ref: str | list[str] = "evidence/rate_limit.ndjson:1",
    name: str | None = None,
    **extra: Any,
) -> Path:
    """Write votes/R<N>-<role>.yaml (or `name`)."""
    data: dict[str, Any] = {
        "round": round_number,
        "role": role,
        "action": action,
        "vote": verdict,
        "critical_risk": critical_risk,
        "summary": summary or f"{role} votes {verdict} in round {round_number}",
        "evidence_ref": evidence_ref,
        **extra,
    }
    return dump_yaml(directory / "votes" / (name or f"R{round_number}-{role}.yaml"), data)
