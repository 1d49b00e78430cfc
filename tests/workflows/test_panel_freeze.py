"""P-1: `tribunal panel freeze` records the criteria's sha256 for its slice; the same bytes again
change nothing; other criteria for a frozen slice are refused naming both hashes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.slices import CRITERIA

from tribunal.cli import cli

MODE = "Running in tribunal mode: executor -> verifier panel -> consensus.\n"


def freeze(*args: str) -> Result:
    return CliRunner().invoke(cli, ["panel", "freeze", *args])


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "criteria.yaml").write_text(CRITERIA, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_freeze_records_the_hash_once(repo: Path) -> None:
    sha = hashlib.sha256(CRITERIA.encode()).hexdigest()
    first = freeze("--criteria", "criteria.yaml")
    assert first.exit_code == 0, first.output
    assert first.stderr == MODE
    assert first.stdout == f"froze slice rate-limiter-window, criteria sha256 {sha[:12]}\n"
    ledger = json.loads((repo / ".tribunal" / "ledger.json").read_text())
    (entry,) = ledger["slices"]
    assert (entry["slice_id"], entry["criteria_sha256"]) == ("rate-limiter-window", sha)
    again = freeze("--criteria", "criteria.yaml")
    assert again.exit_code == 0
    assert again.stdout.startswith("already frozen: slice rate-limiter-window")


def test_criteria_changed_after_freezing_are_refused_and_nothing_is_written(repo: Path) -> None:
    assert freeze("--criteria", "criteria.yaml").exit_code == 0
    before = (repo / ".tribunal" / "ledger.json").read_bytes()
    changed = CRITERIA.replace("weight: 1, description", "weight: 2, description")
    (repo / "criteria.yaml").write_text(changed, encoding="utf-8")
    refused = freeze("--criteria", "criteria.yaml")
    assert refused.exit_code == 2
    frozen = hashlib.sha256(CRITERIA.encode()).hexdigest()[:12]
    now = hashlib.sha256(changed.encode()).hexdigest()[:12]
    assert refused.stderr.endswith(
        f"tribunal: error: criteria.yaml: criteria changed after freezing: frozen {frozen}, "
        f"now {now}\n"
    )
    assert (repo / ".tribunal" / "ledger.json").read_bytes() == before


def test_bad_criteria_are_bad_input_and_no_ledger_is_written(repo: Path) -> None:
    (repo / "criteria.yaml").write_text(CRITERIA + "lenses: [quality]\n", encoding="utf-8")
    refused = freeze("--criteria", "criteria.yaml")
    assert refused.exit_code == 2
    assert "tribunal: error: criteria.yaml:" in refused.stderr and "adversary" in refused.stderr
    assert not (repo / ".tribunal" / "ledger.json").exists()


def test_criteria_are_frozen_by_the_ledger_or_by_the_base_commit(repo: Path) -> None:
    from tribunal.errors import BadInput
    from tribunal.evidence.slice.criteria import load_criteria
    from tribunal.records.ledger import load_ledger
    from tribunal.records.slices import check_frozen

    criteria = load_criteria(repo / "criteria.yaml", "criteria.yaml")
    empty = load_ledger(repo / "none.json")
    assert check_frozen(empty, criteria, at_base=True) == "base"
    with pytest.raises(BadInput, match="the criteria are not frozen"):
        check_frozen(empty, criteria, at_base=False)
    assert freeze("--criteria", "criteria.yaml").exit_code == 0
    ledger = load_ledger(repo / ".tribunal" / "ledger.json")
    assert check_frozen(ledger, criteria, at_base=False) == "ledger"
    (repo / "criteria.yaml").write_text(CRITERIA + "risk: low\n", encoding="utf-8")
    changed = load_criteria(repo / "criteria.yaml", "criteria.yaml")
    with pytest.raises(BadInput, match="criteria changed after freezing: frozen"):
        check_frozen(ledger, changed, at_base=True)  # a frozen hash wins over the base commit
