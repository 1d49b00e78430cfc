"""P-9: an executor's correctness or scope concern is resolved with evidence, through the same
`tribunal adjudicate` that refutes findings (`--concern N`, `--slice ID`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.slices import REPORT

from tribunal.cli import cli
from tribunal.evidence.slice.report import load_report
from tribunal.records.slices import record_dispatch, resolved_concerns

LEDGER = ".tribunal/ledger.json"


def adjudicate(*args: str) -> Result:
    return CliRunner().invoke(cli, ["adjudicate", *args])


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "limiter.py").write_text("def allow(now, start):\n    return now - start\n")
    (tmp_path / "report.yaml").write_text(REPORT, encoding="utf-8")
    report = load_report(tmp_path / "report.yaml", "report.yaml")
    record_dispatch(tmp_path / LEDGER, "rate-limiter-window", report, round_number=1)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_concern_is_resolved_in_the_only_slice(repo: Path) -> None:
    done = adjudicate("--concern", "2", "--evidence", "limiter.py:2", "--note", "start advances")
    assert done.exit_code == 0, done.output
    assert done.stdout == (
        "resolved: concern 2 of slice rate-limiter-window (correctness: a burst at the edge may "
        "pass twice), evidence limiter.py:2\n"
    )
    ledger = json.loads((repo / LEDGER).read_text())
    report = load_report(repo / "report.yaml", "report.yaml")
    assert resolved_concerns(ledger, "rate-limiter-window") == {report.concerns[1].fingerprint}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--concern", "3"), "has no concern 3 (it has 2)"),
        (("--concern", "2", "--slice", "other"), "the ledger holds no slice 'other'"),
        (("--concern", "2", "--finding", "0" * 16), "give --finding FINGERPRINT or --concern N"),
        (
            ("--slice", "rate-limiter-window", "--finding", "0" * 16),
            "no round of a slice raised finding",
        ),
    ],
)
def test_what_cannot_be_resolved_is_refused_and_nothing_written(
    repo: Path, args: tuple[str, ...], message: str
) -> None:
    before = (repo / LEDGER).read_bytes()
    refused = adjudicate(*args, "--evidence", "limiter.py:2", "--note", "n")
    assert refused.exit_code == 2 and message in refused.stderr, refused.output
    assert (repo / LEDGER).read_bytes() == before


def test_evidence_must_resolve(repo: Path) -> None:
    refused = adjudicate("--concern", "2", "--evidence", "limiter.py:9", "--note", "n")
    assert refused.exit_code == 2 and "line 9 does not exist" in refused.stderr


def test_with_two_slices_the_slice_must_be_named(repo: Path) -> None:
    report = load_report(repo / "report.yaml", "report.yaml")
    record_dispatch(repo / LEDGER, "another-slice", report, round_number=1)
    refused = adjudicate("--concern", "2", "--evidence", "limiter.py:2", "--note", "n")
    assert refused.exit_code == 2
    assert "name the slice with --slice (the ledger holds: rate-limiter-window, another-slice)" in (
        refused.stderr
    )
    named = ("--slice", "another-slice", "--concern", "2")
    assert adjudicate(*named, "--evidence", "limiter.py:2", "--note", "n").exit_code == 0
