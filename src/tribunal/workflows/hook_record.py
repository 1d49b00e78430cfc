"""`tribunal hook record`: the hook an agent CLI runs on PreToolUse and PostToolUse — one record
appended to a hook log, with the diff's checksum after a tool ran (A-3, A-4)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.atomic import write_atomic
from tribunal.enums import HookDecision, HookEvent
from tribunal.errors import BadInput
from tribunal.evidence.dispute.hook_record import (
    append_record,
    hook_record,
    parse_payload,
    timestamp,
    working_tree_diff,
)
from tribunal.outputs import check_output_path


@dataclass(frozen=True)
class HookRequest:
    """The hook JSON the agent CLI sent, the log to append to, the diff (a file, else the
    working tree's), where to save the diff, the PreToolUse decision, the tool's exit code, and
    the timestamp to record (None: SOURCE_DATE_EPOCH, else the clock)."""

    payload: str | bytes  # the hook JSON as the agent CLI wrote it on stdin
    log: Path
    diff_file: Path | None = None
    save_diff: Path | None = None
    decision: HookDecision = HookDecision.ALLOW
    exit_code: int | None = None
    now: str | None = None


def hook(request: HookRequest) -> dict[str, Any]:
    """Append one record to the log; return it. Raises BadInput (nothing appended) for a bad
    payload, an unreadable diff or an unwritable log."""
    check_output_path(request.log, "--log")  # C-3: appended to only as a regular file
    if request.save_diff is not None:
        check_output_path(request.save_diff, "--save-diff")
    payload = parse_payload(request.payload)
    diff: bytes | None = None
    if payload["event"] == HookEvent.POST_TOOL_USE:
        if request.diff_file is not None:
            try:
                diff = request.diff_file.read_bytes()
            except OSError as exc:
                raise BadInput(
                    f"cannot read: {exc.strerror}", source=str(request.diff_file)
                ) from None
        else:
            cwd = payload.get("cwd")
            diff = working_tree_diff(Path(cwd) if isinstance(cwd, str) else Path.cwd())
    entry = hook_record(
        payload,
        ts=timestamp(request.now),
        diff=diff,
        decision=request.decision,
        exit_code=request.exit_code,
    )
    if request.save_diff is not None and diff is not None:
        write_atomic(request.save_diff, diff)
    append_record(request.log, json.dumps(entry, ensure_ascii=False))
    return entry
