"""A-3: the shipped hook (`tribunal hook record`, `scripts/hooks/record_hook.py`) appends
PreToolUse/PostToolUse records with the exit code and the diff checksum, which the hooks check
accepts and A-4 matches against a cited diff."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.evidence.dispute.hook_log import read_hook_log

PRE = {
    "session_id": "s-1",
    "cwd": "/nowhere",
    "hook_event_name": "PreToolUse",
    "tool_name": "Edit",
    "tool_input": {"file_path": "validation.md"},
}
POST = {**PRE, "hook_event_name": "PostToolUse", "tool_response": {"success": True}}


def record(payload: object, *args: str) -> Result:
    text = payload if isinstance(payload, str | bytes) else json.dumps(payload)
    return CliRunner().invoke(cli, ["hook", "record", *args], input=text)


def lines(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def test_pre_tool_use_record_in_the_agent_cli_spelling(tmp_path: Path) -> None:
    log = tmp_path / "evidence/hooks.ndjson"
    outcome = record(PRE, "--log", str(log), "--now", "2026-05-18T10:00:00Z")
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout == ""  # the agent CLI reads no decision from us
    assert lines(log) == [
        {
            "event": "PreToolUse",
            "tool": "Edit",
            "decision": "allow",
            "ts": "2026-05-18T10:00:00Z",
            "session_id": "s-1",
        }
    ]


def test_post_tool_use_checksums_the_diff_file(tmp_path: Path) -> None:
    log = tmp_path / "hooks.ndjson"
    diff = tmp_path / "change.diff"
    diff.write_bytes(b"--- a/validation.md\n+++ b/validation.md\n@@ -1 +1 @@\n-a\n+b\n")
    record(PRE, "--log", str(log), "--decision", "block", "--now", "t0")
    outcome = record(POST, "--log", str(log), "--diff", str(diff), "--now", "t1")
    assert outcome.exit_code == 0, outcome.output
    first, second = lines(log)
    assert first["decision"] == "block"
    assert second == {
        "event": "PostToolUse",
        "tool": "Edit",
        "exit_code": 0,
        "diff_sha256": hashlib.sha256(diff.read_bytes()).hexdigest(),
        "ts": "t1",
        "session_id": "s-1",
    }
    entries, problems = read_hook_log(log, "hooks.ndjson")
    assert problems == [] and [entry.line for entry in entries] == [1, 2]


@pytest.mark.parametrize(
    ("response", "args", "code"),
    [
        ({"exit_code": 3}, (), 3),
        ({"exitCode": 2}, (), 2),
        ({"is_error": True}, (), 1),
        ({"stdout": "ok"}, (), 0),
        ({"exit_code": 3}, ("--exit-code", "7"), 7),
    ],
)
def test_exit_code_from_the_tool_response(
    tmp_path: Path, response: dict[str, object], args: tuple[str, ...], code: int
) -> None:
    log = tmp_path / "hooks.ndjson"
    diff = tmp_path / "d.diff"
    diff.write_text("x\n", "utf-8")
    payload = {**POST, "tool_response": response}
    assert record(payload, "--log", str(log), "--diff", str(diff), *args).exit_code == 0
    assert lines(log)[0]["exit_code"] == code


def test_post_tool_use_checksums_the_working_tree_diff_and_saves_it(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "work")
    repo.commit("start", {"validation.md": "# Validation\n"})
    repo.write("validation.md", "# Validation\n- tenant B keeps its quota\n")
    log = tmp_path / "hooks.ndjson"
    saved = tmp_path / "evidence/R2.diff"
    payload = {**POST, "cwd": str(repo.path)}
    outcome = record(payload, "--log", str(log), "--save-diff", str(saved), "--now", "t")
    assert outcome.exit_code == 0, outcome.output
    expected = repo.git_bytes("diff", "--binary", "HEAD")
    assert saved.read_bytes() == expected and b"+- tenant B keeps its quota" in expected
    assert lines(log)[0]["diff_sha256"] == hashlib.sha256(expected).hexdigest()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (json.dumps(PRE).replace('"Edit"', '"Edit\\udc80"').encode(),
         "tribunal: error: (stdin):1: tool_name: text holds U+DC80, a surrogate, not a character"),
        (json.dumps(PRE).encode().replace(b'"Edit"', b'"Edit\xff"'),
         "tribunal: error: (stdin): not UTF-8 text (byte "),
    ],
    ids=["surrogate escape", "bytes that are not UTF-8"],
)  # fmt: skip
def test_hook_input_that_is_no_text_is_bad_input(
    tmp_path: Path, payload: bytes, message: str
) -> None:
    # C-3: the record could not be written with it (UnicodeEncodeError: exit 3, once).
    log = tmp_path / "hooks.ndjson"
    outcome = record(payload, "--log", str(log))
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stderr.startswith(message) and not log.exists()


@pytest.mark.parametrize(
    ("epoch", "why"),
    [("soon", "not an integer"), ("9" * 30, "not a time the clock can show"),
     ("-" + "9" * 17, "not a time the clock can show")],
)  # fmt: skip
def test_a_source_date_epoch_no_clock_shows_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, epoch: str, why: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    outcome = record(PRE, "--log", str(tmp_path / "hooks.ndjson"))
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stderr == f"tribunal: error: SOURCE_DATE_EPOCH: {why}\n"


def test_source_date_epoch_sets_the_timestamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1779098400")
    log = tmp_path / "hooks.ndjson"
    assert record(PRE, "--log", str(log)).exit_code == 0
    assert lines(log)[0]["ts"] == "2026-05-18T10:00:00Z"


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("not json", "tribunal: error: (stdin):1: malformed JSON"),
        ("", "tribunal: error: (stdin): the hook input must be a JSON object"),
        ({**PRE, "hook_event_name": "Stop"}, "tribunal: error: (stdin): event: hook_event_name"),
        ({"hook_event_name": "PreToolUse"}, "tribunal: error: (stdin): tool_name: names no tool"),
    ],
)
def test_bad_hook_input_appends_nothing(tmp_path: Path, payload: object, message: str) -> None:
    log = tmp_path / "hooks.ndjson"
    outcome = record(payload, "--log", str(log))
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(message), outcome.stderr
    assert not log.exists()


def test_the_shipped_script_runs_from_the_clone(tmp_path: Path) -> None:
    log = tmp_path / "hooks.ndjson"
    script = REPO / "scripts/hooks/record_hook.py"
    done = subprocess.run(
        [sys.executable, str(script), "--log", str(log), "--now", "t"],
        input=json.dumps(PRE),
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert lines(log)[0]["event"] == "PreToolUse"


def test_block_is_recorded_then_blocks_the_tool_call(tmp_path: Path) -> None:
    # the Claude Code hook convention — exit 2 with the reason on stderr blocks the call.
    log = tmp_path / "hooks.ndjson"
    outcome = record(
        PRE, "--log", str(log), "--decision", "block", "--reason", "no tenant scope", "--now", "t"
    )
    assert outcome.exit_code == 2
    assert outcome.stderr == "tribunal hook: no tenant scope\n"
    assert lines(log) == [
        {"event": "PreToolUse", "tool": "Edit", "decision": "block", "ts": "t", "session_id": "s-1"}
    ]
    assert record(PRE, "--log", str(log), "--now", "t").exit_code == 0  # allow lets it run


def test_the_lock_stays_out_of_the_evidence_folder(tmp_path: Path) -> None:
    # C-4: the append lock lives under the repository's .tribunal/, not beside the log.
    (tmp_path / ".git").mkdir()
    log = tmp_path / "disputes/rate-limit/evidence/hooks.ndjson"
    assert record(PRE, "--log", str(log), "--now", "t").exit_code == 0
    assert sorted(path.name for path in log.parent.iterdir()) == ["hooks.ndjson"]
    assert [path.parent.name for path in (tmp_path / ".tribunal").rglob("*.lock")] == ["locks"]
