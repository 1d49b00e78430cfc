"""A-1..A-6, issue 4 step 4: the bundled rate-limit dispute decides as its committed judgment says,
and that judgment never drifts from what `tribunal arbitrate` writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from tribunal.cli import cli

EXAMPLE = Path("examples/arbiter/rate-limit")


def test_committed_judgment_is_what_arbitrate_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(REPO / EXAMPLE, tmp_path / EXAMPLE)
    (tmp_path / EXAMPLE / "judgment.md").unlink()
    (tmp_path / EXAMPLE / "decision_trace.json").unlink()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["arbitrate", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    for name in ("judgment.md", "decision_trace.json"):
        written = (tmp_path / EXAMPLE / name).read_text(encoding="utf-8")
        assert written == (REPO / EXAMPLE / name).read_text(encoding="utf-8"), name


def test_round_two_without_its_event_record_is_not_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(REPO / EXAMPLE, tmp_path / EXAMPLE)
    vote = tmp_path / EXAMPLE / "votes" / "R2-implementor.yaml"
    vote.write_text(vote.read_text().replace(", evidence/hooks.ndjson:3", ""), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["arbitrate", str(EXAMPLE), "--to", "out/j.md"])
    # A-4: round 2 is rejected, so round 1's tie decides: DEFERRED, never APPROVE.
    assert result.exit_code == 3, result.output
    assert "reason: tie_breaker:unresolved" in (tmp_path / "out/j.md").read_text()
