"""A-4, A-5, A-6: rounds move only by a diff plus an event record; three rounds without a decision
stop for a human; the decision trace is written beside the judgment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.disputes import (
    DIFF,
    DISPUTE,
    full_evidence,
    hook_line,
    make_dispute,
    sha256,
    write,
)
from testing.disputes import vote as cast

from tribunal.cli import cli
from tribunal.courts.arbiter.admission import touched_paths
from tribunal.documents import first_schema_error
from tribunal.frontmatter import parse_judgment

D = DISPUTE
MOVE = ["change.diff", "evidence/hooks.ndjson:2"]  # the diff and its PostToolUse record


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.chdir(repo)
    return repo


def arbitrate(*args: str) -> Result:
    return CliRunner().invoke(cli, ["arbitrate", D, *args])


def ballot(directory: Path, number: int, cite: list[str] | None = None, **by_role: str) -> None:
    for role, verdict in by_role.items():
        refs = (
            cite if cite is not None and role == "implementor" else "evidence/rate_limit.ndjson:1"
        )
        cast(directory, number, role, verdict, evidence_ref=refs)


def front(directory: Path) -> dict[str, object]:
    return parse_judgment((directory / "judgment.md").read_text("utf-8"), "judgment.md").fields


def trace(directory: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((directory / "decision_trace.json").read_text("utf-8"))
    return data


def statuses(directory: Path) -> dict[object, object]:
    checks = trace(directory)["checks"]
    assert isinstance(checks, list)
    return {check["rule"]: check["status"] for check in checks}


def test_touched_paths_of_a_unified_diff() -> None:
    assert touched_paths(DIFF.encode()) == ["validation.md"]
    plain = b"--- a/docs/hooks.md\n+++ b/docs/hooks.md\n@@ -1 +1 @@\n-a\n+b\n"
    assert touched_paths(plain) == ["docs/hooks.md"]
    assert touched_paths(b"--- /dev/null\n+++ b/requirements.md\n") == ["requirements.md"]
    assert touched_paths(b'{"tenant_id": "A"}\n') == []


def test_the_latest_accepted_round_decides(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(directory, 2, MOVE, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    outcome = arbitrate()
    assert outcome.exit_code == 0, outcome.stderr
    assert front(directory)["reason"] == "pass_rule"
    assert statuses(directory)["round:R2"] == "pass"
    assert "R2: accepted: disputes/rate-limit/votes/R2-implementor.yaml cites the diff" in (
        outcome.stderr
    )


def _rejected(directory: Path, because: str) -> None:
    outcome = arbitrate()
    assert outcome.exit_code == 1, outcome.stderr  # R1's DENY stands
    fields = front(directory)
    assert fields["reason"] == "deny_weight"
    text = (directory / "judgment.md").read_text("utf-8")
    assert "### R2 — rejected\n\nrejected: " in text
    assert because in text
    assert statuses(directory)["round:R2"] == "fail"


def test_a_round_citing_no_diff_is_rejected(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(directory, 2, ["evidence/hooks.ndjson:2"], verifier="APPROVE", implementor="APPROVE")
    _rejected(directory, "cites no diff")


def test_a_round_whose_event_checksum_differs_is_rejected(root: Path) -> None:
    directory = make_dispute(root)
    full_evidence(directory, diff_sha=sha256("another diff"))
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(directory, 2, MOVE, verifier="APPROVE", implementor="APPROVE")
    _rejected(directory, "does not match the sha256 of `disputes/rate-limit/change.diff`")


def test_a_round_whose_diff_touches_another_file_is_rejected(root: Path) -> None:
    directory = make_dispute(root)
    other = "--- a/src/limits.py\n+++ b/src/limits.py\n@@ -1 +1 @@\n-A = 1\n+A = 2\n"
    write(directory / "evidence/R2.diff", other)
    log = directory / "evidence/hooks.ndjson"
    write(
        log,
        log.read_text("utf-8")
        + hook_line("PostToolUse", exit_code=0, diff_sha256=sha256(other))
        + "\n",
    )
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(
        directory,
        2,
        ["evidence/R2.diff", "evidence/hooks.ndjson:3"],
        implementor="APPROVE",
        verifier="APPROVE",
    )
    _rejected(
        directory,
        "touches none of requirements.md, hooks.md, validation.md (it touches src/limits.py)",
    )


def test_a_round_citing_a_pre_tool_use_line_is_rejected(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(
        directory,
        2,
        ["change.diff", "evidence/hooks.ndjson:1"],
        verifier="APPROVE",
        implementor="APPROVE",
    )
    _rejected(directory, "cites no event record")


def test_diff_and_event_must_be_cited_by_one_vote(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    cast(directory, 2, "verifier", "APPROVE", evidence_ref="change.diff")
    cast(directory, 2, "implementor", "APPROVE", evidence_ref="evidence/hooks.ndjson:2")
    _rejected(directory, "cites no")


def test_a_round_citing_a_line_of_a_log_the_dispute_does_not_declare_is_rejected(
    root: Path,
) -> None:
    directory = make_dispute(root)
    write(directory / "notes/log.ndjson", (directory / "evidence/hooks.ndjson").read_text("utf-8"))
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(
        directory,
        2,
        ["change.diff", "notes/log.ndjson:2"],
        verifier="APPROVE",
        implementor="APPROVE",
    )
    _rejected(directory, "cites no event record")


def test_a_diff_and_event_record_admit_one_round_only(root: Path) -> None:
    # re-citing R2's movement is no new diff, so R3 is rejected and R2's DENY stands.
    directory = make_dispute(root)
    ballot(directory, 1, verifier="APPROVE", implementor="DENY", safety="DEFERRED")
    ballot(directory, 2, MOVE, verifier="DENY", implementor="DENY", safety="DEFERRED")
    ballot(directory, 3, MOVE, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    outcome = arbitrate()
    assert outcome.exit_code == 1, outcome.stderr
    assert front(directory)["reason"] == "deny_weight"
    assert statuses(directory)["round:R3"] == "fail"
    assert (
        "R3: rejected: the diff `disputes/rate-limit/change.diff` and the event record "
        "`disputes/rate-limit/evidence/hooks.ndjson:2` disputes/rate-limit/votes/"
        "R3-implementor.yaml cites already admitted R2: a round needs a new diff"
    ) in outcome.stderr
    ballot(directory, 3, new_move(directory, 3), implementor="APPROVE")
    assert arbitrate().exit_code == 0


def test_a_withdrawn_vote_cannot_admit_a_round(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="DENY", implementor="DENY", safety="APPROVE")
    ballot(directory, 2, verifier="APPROVE", safety="APPROVE")
    cast(directory, 2, "implementor", "APPROVE", evidence_ref=MOVE, action="withdrawn")
    _rejected(directory, "R2-implementor.yaml is withdrawn: its diff moves nothing")


# --- A-5 deadlock ---------------------------------------------------------------------------


def new_move(directory: Path, number: int) -> list[str]:
    """A fresh diff to validation.md for round `number` and its PostToolUse record (A-4)."""
    diff = DIFF + f"+- round {number} adds a scenario\n"
    write(directory / f"evidence/R{number}.diff", diff)
    log = directory / "evidence/hooks.ndjson"
    lines = log.read_text("utf-8").splitlines()
    lines.append(hook_line("PostToolUse", exit_code=0, diff_sha256=sha256(diff)))
    write(log, "\n".join(lines) + "\n")
    return [f"evidence/R{number}.diff", f"evidence/hooks.ndjson:{len(lines)}"]


def _undecided(directory: Path, number: int) -> None:
    # A tie the tie breaker cannot settle: DEFERRED `tie_breaker:unresolved`.
    cite = new_move(directory, number) if number > 1 else MOVE
    ballot(directory, number, cite, verifier="APPROVE", implementor="DENY", safety="DEFERRED")


def test_three_rounds_without_a_decision_stop_for_a_human(root: Path) -> None:
    directory = make_dispute(root)
    for number in (1, 2, 3):
        _undecided(directory, number)
    ballot(directory, 4, MOVE, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    outcome = arbitrate()
    assert outcome.exit_code == 3, outcome.stderr
    fields = front(directory)
    assert (fields["verdict"], fields["reason"]) == ("DEFERRED", "deadlock")
    assert fields["stop_condition"] == "three_rounds_without_decision"
    assert fields["artifact"] == f"{D}/decision_trace.json"
    text = (directory / "judgment.md").read_text("utf-8")
    assert "### R4 — rejected\n\nrejected: the dispute stopped at R3 for a human." in text
    assert "- artifact for a human: `disputes/rate-limit/decision_trace.json`" in text
    recorded = trace(directory)
    assert recorded["stop"] == {
        "condition": "three_rounds_without_decision",
        "rounds": ["R1", "R2", "R3"],
        "artifact": f"{D}/decision_trace.json",
    }
    assert statuses(directory)["R3:deadlock"] == "decided"
    # written elsewhere, the artifact is the trace named after that judgment.
    assert arbitrate("--to", "out/rate.judgment.md").exit_code == 3
    moved = parse_judgment((root / "out/rate.judgment.md").read_text("utf-8"), "j").fields
    assert moved["artifact"] == "out/rate.decision_trace.json"
    assert (root / "out/rate.decision_trace.json").is_file()


def test_three_undecided_rounds_alone_end_in_deadlock_not_the_tie(root: Path) -> None:
    directory = make_dispute(root)
    for number in (1, 2, 3):
        _undecided(directory, number)
    assert arbitrate().exit_code == 3
    assert front(directory)["reason"] == "deadlock"


def test_a_decision_between_resets_the_deadlock_count(root: Path) -> None:
    directory = make_dispute(root)
    _undecided(directory, 1)
    ballot(
        directory, 2, new_move(directory, 2), verifier="DENY", implementor="DENY", safety="DEFERRED"
    )
    _undecided(directory, 3)
    _undecided(directory, 4)
    assert arbitrate().exit_code == 3
    assert front(directory)["reason"] == "tie_breaker:unresolved"
    assert "stop_condition" not in front(directory)


def test_rejected_rounds_do_not_count_toward_the_deadlock(root: Path) -> None:
    directory = make_dispute(root)
    _undecided(directory, 1)
    _undecided(directory, 2)
    ballot(directory, 3, ["change.diff"], verifier="APPROVE", implementor="DENY", safety="DEFERRED")
    assert arbitrate().exit_code == 3
    assert front(directory)["reason"] == "tie_breaker:unresolved"


# --- A-6 decision trace ---------------------------------------------------------------------


def test_decision_trace_beside_the_judgment(root: Path) -> None:
    directory = make_dispute(root)
    ballot(directory, 1, verifier="APPROVE", implementor="APPROVE", safety="DEFERRED")
    assert arbitrate().exit_code == 0
    recorded = trace(directory)
    assert first_schema_error(recorded, "decision_trace") is None
    assert recorded["case_id"] == "rate-limit-001"
    assert recorded["facts"] == {"domain": "rate_limit", "tier": "local-coder"}
    assert recorded["policy_outcome"] == "partial"
    assert recorded["verdict"] == "APPROVE"
    assert recorded["evidence_ref"] == front(directory)["evidence_ref"]
    assert statuses(directory) == {
        "evidence:schema": "pass",
        "evidence:hooks": "pass",
        "evidence:scenarios": "pass",
        "round:R1": "pass",
        "R1:missing_evidence": "not_met",
        "R1:safety_veto": "not_met",
        "R1:quorum": "not_met",
        "R1:pass_rule": "decided",
        "R1:deny_weight": "not_reached",
        "R1:tie_breaker:safety": "not_reached",
        "R1:tie_breaker:precedent": "not_reached",
        "R1:tie_breaker:unresolved": "not_reached",
        "R1:deadlock": "not_met",
    }
    summary = str(recorded["customer_safe_summary"])
    assert "/" not in summary and "safety" not in summary and "R1" not in summary
    assert "Deferred: R1 safety" in str(recorded["internal_note"])
    text = (directory / "judgment.md").read_text("utf-8")
    assert "## Decision trace\n\nWritten to `disputes/rate-limit/decision_trace.json`." in text
    assert "| R1:pass_rule | decided |\n" in text


def test_missing_evidence_is_in_the_trace(root: Path) -> None:
    directory = make_dispute(root)
    write(directory / "evidence/hooks.ndjson", hook_line("PreToolUse", decision="allow") + "\n")
    ballot(directory, 1, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    assert arbitrate().exit_code == 1
    assert statuses(directory)["evidence:hooks"] == "fail"
    assert statuses(directory)["R1:missing_evidence"] == "decided"
    assert trace(directory)["customer_safe_summary"] == (
        "The change is not accepted yet: required evidence is missing."
    )


def test_facts_from_a_file_and_the_trace_follows_to(root: Path) -> None:
    directory = make_dispute(root, facts="facts.json")
    write(directory / "facts.json", '{"domain": "rate_limit", "burst_window_sec": 60}\n')
    ballot(directory, 1, verifier="APPROVE", implementor="APPROVE")
    assert arbitrate("--to", "out/j.md").exit_code == 0
    recorded = json.loads((root / "out/j.decision_trace.json").read_text("utf-8"))
    assert recorded["facts"] == {"domain": "rate_limit", "burst_window_sec": 60}
    assert not (directory / "decision_trace.json").exists()


def test_facts_file_that_is_not_a_mapping_is_bad_input(root: Path) -> None:
    directory = make_dispute(root, facts="facts.json")
    write(directory / "facts.json", "[1, 2]\n")
    outcome = arbitrate()
    assert outcome.exit_code == 2 and "facts must be a mapping" in outcome.stderr
    assert not (directory / "decision_trace.json").exists()
    assert not (directory / "judgment.md").exists()


def test_trace_and_judgment_are_byte_identical_across_runs(root: Path) -> None:
    directory = make_dispute(root)
    for number in (1, 2, 3):
        _undecided(directory, number)
    arbitrate()
    first = [(directory / name).read_bytes() for name in ("judgment.md", "decision_trace.json")]
    arbitrate()
    assert [(directory / n).read_bytes() for n in ("judgment.md", "decision_trace.json")] == first
