"""A-1..A-6, issue 4 step 4: the bundled rate-limit dispute decides as its committed judgment says,
and that judgment never drifts from what `tribunal arbitrate` writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing import REPO

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


PRECEDENT = """
## {case_id}

```yaml
case_id: {case_id}
verdict: {verdict}
evidence_ref: examples/arbiter/rate-limit/requirements.md
applies_to:
  domains: [{domain}]
  text: rate limits
next_check: re-examine when the gateway changes
```
"""


def tied_dispute(tmp_path: Path, *entries: tuple[str, str, str]) -> Path:
    """The example with round 2 removed (round 1 ties) and a precedents.md of `entries`."""
    shutil.copytree(REPO / EXAMPLE, tmp_path / EXAMPLE)
    for name in ("R2-implementor.yaml", "R2-verifier.yaml", "R2-safety.yaml"):
        (tmp_path / EXAMPLE / "votes" / name).unlink()
    text = "# Precedents\n" + "".join(
        PRECEDENT.format(case_id=c, verdict=v, domain=d) for c, v, d in entries
    )
    (tmp_path / "precedents.md").write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("entries", "exit_code", "reason"),
    [
        # R-4 order: DENY before APPROVE, whatever the numbers; the denying precedent decides.
        (
            [("PREC-001", "DENY", "rate_limit"), ("PREC-002", "APPROVE", "rate_limit")],
            1,
            "precedent:PREC-001",
        ),
        (
            [("PREC-001", "DEFERRED", "rate_limit"), ("PREC-002", "DENY", "rate_limit")],
            1,
            "precedent:PREC-002",
        ),
        # The tie breaker never yields APPROVE, even when an approving precedent applies.
        ([("PREC-001", "APPROVE", "rate_limit")], 3, "tie_breaker:unresolved"),
        # A precedent scoped to another domain does not apply.
        ([("PREC-001", "DENY", "payments")], 3, "tie_breaker:unresolved"),
    ],
)
def test_tie_breaker_consults_precedents(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    entries: list[tuple[str, str, str]],
    exit_code: int,
    reason: str,
) -> None:
    root = tied_dispute(tmp_path, *entries)
    monkeypatch.chdir(root)
    args = ["arbitrate", str(EXAMPLE), "--to", "out/j.md", "--precedents", "precedents.md"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == exit_code, result.output
    assert f"reason: {reason}\n" in (root / "out/j.md").read_text(encoding="utf-8")


def test_the_example_hook_log_is_what_the_shipped_hook_writes(tmp_path: Path) -> None:
    # every line is replayed through `tribunal hook record` and must come out identical.
    log = tmp_path / "hooks.ndjson"
    example = REPO / EXAMPLE / "evidence/hooks.ndjson"
    for line in example.read_text("utf-8").splitlines():
        record = json.loads(line)
        payload = {"hook_event_name": record["event"], "tool_name": record["tool"]}
        args = ["hook", "record", "--log", str(log), "--now", record["ts"]]
        if record["event"] == "PreToolUse":
            args += ["--decision", record["decision"]]
        else:
            diff = REPO / EXAMPLE / "R2-validation.diff"
            args += ["--exit-code", str(record["exit_code"]), "--diff", str(diff)]
        CliRunner().invoke(cli, args, input=json.dumps(payload))
    assert log.read_text("utf-8") == example.read_text("utf-8")


def test_a_precedent_that_cannot_be_evaluated_is_named_not_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-4: cannot_evaluate is never counted as not triggered, and never passed over in silence."""
    root = tied_dispute(tmp_path)
    (root / "precedents.md").write_text(
        "# Precedents\n\n## PREC-001\n\n```yaml\ncase_id: PREC-001\nverdict: DENY\n"
        "evidence_ref: examples/arbiter/rate-limit/requirements.md\n"
        "applies_to:\n  domains: [rate_limit]\n  text: rate limits\n"
        "next_check:\n  when: queue_depth > 100\n  text: re-examine under a deep queue\n```\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(root)
    args = ["arbitrate", str(EXAMPLE), "--to", "out/j.md", "--precedents", "precedents.md"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 3, result.output  # the tie stays unresolved: DEFERRED
    assert "arbitrate: precedent not applied: PREC-001 (DENY): cannot_evaluate" in result.stderr
    assert "queue_depth" in result.stderr
