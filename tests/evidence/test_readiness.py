"""T-9: the readiness gate — 23 of 25 by score, and hard blocks no score outweighs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from testing import REPO

from tribunal.cli import cli
from tribunal.enums import ReadinessBlock
from tribunal.evidence.readiness import assess

READY: dict[str, Any] = {
    "axes": {"spec": 5, "implementation": 5, "verification": 5, "process": 4, "security": 4},
    "audit_trace_coverage": 1.0,
    "rollback_condition_present": True,
    "blast_radius_known": True,
    "stateful": True,
    "backup_verified": True,
}


def blocks(record: dict[str, Any]) -> list[ReadinessBlock]:
    return [block for block, _ in assess(record, "r.json").blocks]


def test_ready_at_exactly_23() -> None:
    result = assess(READY, "r.json")
    assert result.score == 23 and result.ready
    assert result.evidence().verdict == "PASS" and result.evidence().reason_code == "ready"


def test_score_below_23_blocks() -> None:
    record = {**READY, "axes": {**READY["axes"], "security": 3}}
    assert blocks(record) == [ReadinessBlock.SCORE_BELOW_THRESHOLD]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"audit_trace_coverage": 0.99}, ReadinessBlock.AUDIT_TRACE_INCOMPLETE),
        ({"rollback_condition_present": False}, ReadinessBlock.NO_ROLLBACK_CONDITION),
        ({"blast_radius_known": False}, ReadinessBlock.BLAST_RADIUS_UNKNOWN),
        ({"backup_verified": False}, ReadinessBlock.STATEFUL_WITHOUT_BACKUP),
    ],
)
def test_each_hard_block_outweighs_a_passing_score(
    change: dict[str, Any], expected: ReadinessBlock
) -> None:
    result = assess({**READY, **change}, "r.json")
    assert result.passes_by_score and [b for b, _ in result.blocks] == [expected]
    assert result.evidence().verdict == "FAIL" and result.evidence().reason_code == expected


@pytest.mark.parametrize(
    ("absent", "expected"),
    [
        ("audit_trace_coverage", ReadinessBlock.AUDIT_TRACE_INCOMPLETE),
        ("rollback_condition_present", ReadinessBlock.NO_ROLLBACK_CONDITION),
        ("blast_radius_known", ReadinessBlock.BLAST_RADIUS_UNKNOWN),
        ("backup_verified", ReadinessBlock.STATEFUL_WITHOUT_BACKUP),
    ],
)
def test_an_absent_fact_is_never_taken_as_present(absent: str, expected: ReadinessBlock) -> None:
    record = {key: value for key, value in READY.items() if key != absent}
    assert blocks(record) == [expected]


def test_stateless_needs_no_backup() -> None:
    assert blocks({**READY, "stateful": False, "backup_verified": False}) == []


def test_shipped_fixture_passes_by_score_but_blocks_on_backup(tmp_path: Path) -> None:
    out = tmp_path / "readiness.json"
    fixture = REPO / "fixtures" / "readiness_block_stateful.json"
    result = CliRunner().invoke(cli, ["readiness", str(fixture), "--out", str(out)])
    assert result.exit_code == 1
    assert "score 24/25 passes the 23 threshold" in result.stderr
    evidence = json.loads(out.read_text(encoding="utf-8"))
    assert evidence["verdict"] == "FAIL"
    assert evidence["reason_code"] == "stateful_without_backup"
    assert evidence["evidence_ref"][1].endswith("readiness_block_stateful.json#/backup_verified")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "is not of type 'object'"),
        (
            '{"axes": {"spec": 6, "implementation": 5, "verification": 5, "process": 5, '
            '"security": 5}}',
            "6 is greater than the maximum of 5",
        ),
        ('{"axes": {}, "extra": 1}', "unknown field 'extra'"),
        ("{", "malformed JSON"),
    ],
)
def test_bad_records_exit_2_and_write_nothing(tmp_path: Path, text: str, message: str) -> None:
    record = tmp_path / "r.json"
    record.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, ["readiness", str(record), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert not out.exists()
