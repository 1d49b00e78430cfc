"""The hook the project ships (A-3): append one PreToolUse/PostToolUse record to a hook log.

Agent CLIs hand a hook their event as JSON on stdin (`hook_event_name`, `tool_name`,
`tool_response`, `cwd`, ...) but send no checksum of what the tool changed; this hook adds the
exit code and the sha256 of the working tree's diff, so a later round can cite the event record
and the diff together (A-4). Appends hold an exclusive lock (C-4).
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tribunal.documents import decode_text, first_schema_error, format_field, parse_json
from tribunal.enums import HookDecision, HookEvent
from tribunal.errors import BadInput
from tribunal.evidence.dispute.hook_log import normalise

STDIN = "(stdin)"
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code")
_ERROR_KEYS = ("is_error", "isError", "error", "interrupted")


def parse_payload(text: str | bytes) -> dict[str, Any]:
    """The agent CLI's hook JSON (stdin's bytes, or text). Raises BadInput when it is not UTF-8
    text, or not an object naming an event."""
    if isinstance(text, bytes):
        text = decode_text(text, STDIN)
    payload = parse_json(text, STDIN) if text.strip() else None
    if not isinstance(payload, dict):
        raise BadInput("the hook input must be a JSON object", source=STDIN)
    normalised = normalise(payload)
    if normalised.get("event") not in {event.value for event in HookEvent}:
        raise BadInput(
            "hook_event_name must be PreToolUse or PostToolUse", source=STDIN, field="event"
        )
    if not isinstance(normalised.get("tool"), str) or not normalised["tool"]:
        raise BadInput("names no tool", source=STDIN, field="tool_name")
    return normalised


def exit_code_of(payload: dict[str, Any]) -> int:
    """The tool's exit code: from `tool_response` when it carries one, else 1 when the response
    reports an error, else 0 (PostToolUse follows a tool call that ran)."""
    response = payload.get("tool_response")
    if isinstance(response, dict):
        for key in _EXIT_KEYS:
            value = response.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        if any(response.get(key) for key in _ERROR_KEYS):
            return 1
    return 0


def hook_record(
    payload: dict[str, Any],
    *,
    ts: str,
    diff: bytes | None = None,
    decision: HookDecision = HookDecision.ALLOW,
    exit_code: int | None = None,
) -> dict[str, Any]:
    """The hook log record for `payload` (already parsed by `parse_payload`).

    PreToolUse records carry `decision`; PostToolUse records `exit_code` and `diff_sha256`
    (of `diff`, required for them). Raises BadInput when a PostToolUse record has no diff.
    """
    event = HookEvent(payload["event"])
    record: dict[str, Any] = {"event": event.value, "tool": payload["tool"]}
    if event is HookEvent.PRE_TOOL_USE:
        record["decision"] = decision.value
    else:
        if diff is None:
            raise BadInput("a PostToolUse record needs the diff it checksums", field="--diff")
        record["exit_code"] = exit_code if exit_code is not None else exit_code_of(payload)
        record["diff_sha256"] = hashlib.sha256(diff).hexdigest()
    record["ts"] = ts
    if isinstance(payload.get("session_id"), str):
        record["session_id"] = payload["session_id"]
    error = first_schema_error(record, "hook_record")
    if error is not None:  # a bug here, not the user's input
        raise ValueError(f"{format_field(error[1])}: {error[0]}")
    return record


def timestamp(now: str | None = None) -> str:
    """`now` when given, else SOURCE_DATE_EPOCH, else the clock — as ISO 8601 UTC (C-6)."""
    if now:
        return now
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            moment = datetime.fromtimestamp(int(epoch), UTC)
        except ValueError:
            raise BadInput("not an integer", source="SOURCE_DATE_EPOCH") from None
        except (OverflowError, OSError):
            raise BadInput("not a time the clock can show", source="SOURCE_DATE_EPOCH") from None
    else:
        moment = datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def working_tree_diff(directory: Path) -> bytes:
    """`git diff --binary HEAD` in `directory`, byte for byte. Raises BadInput outside a
    repository or before its first commit."""
    import git

    try:
        repository = git.Repo(directory, search_parent_directories=True)
        diff: bytes = repository.git.diff(
            "HEAD", "--binary", stdout_as_string=False, strip_newline_in_stdout=False
        )
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise BadInput(
            "not inside a git repository; give --diff FILE", source=str(directory)
        ) from None
    except git.GitCommandError as exc:
        raise BadInput(
            f"git diff HEAD failed: {exc.stderr.strip()}", source=str(directory)
        ) from None
    return diff


def hook_log_lock(log: Path) -> Path:
    """The lock file of `log`: under `.tribunal/locks/` of the log's repository root (C-4).

    Kept out of the log's folder, which is evidence a dispute cites and commits.
    """
    from tribunal.paths import find_root

    where = log.resolve()
    key = hashlib.sha256(str(where).encode("utf-8")).hexdigest()[:16]
    return find_root(where.parent) / ".tribunal" / "locks" / f"hooks-{key}.lock"


def append_record(log: Path, line: str) -> None:
    """Append one line to `log` under an exclusive lock, flushed to disk (C-4); BadInput when
    `log` is no regular file (`outputs.append_line`)."""
    from filelock import FileLock

    from tribunal.outputs import append_line

    log.parent.mkdir(parents=True, exist_ok=True)
    lock = hook_log_lock(log)
    lock.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(lock)):
        append_line(log, line, "--log")
