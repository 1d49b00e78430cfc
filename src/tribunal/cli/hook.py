"""`tribunal hook record` (A-3): the hook an agent CLI runs to log PreToolUse/PostToolUse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode

FILE = click.Path(path_type=Path, dir_okay=False)
# The agent CLI hook convention (Claude Code): exit 2 from a PreToolUse hook blocks the tool call
# and hands stderr to the agent as the reason.
BLOCK_TOOL_CALL = 2


@click.group()
def hook() -> None:
    """Hook commands for agent CLIs (A-3 hook logs)."""


@hook.command("record")
@click.option("--log", "log", type=FILE, required=True, help="The NDJSON hook log to append to.")
@click.option(
    "--diff",
    "diff_file",
    type=FILE,
    help="Checksum this diff file (default: `git diff --binary HEAD` in the hook's cwd).",
)
@click.option(
    "--save-diff",
    "save_diff",
    type=FILE,
    help="Also write the diff that was checksummed here, so a vote can cite it (A-4).",
)
@click.option(
    "--decision",
    type=click.Choice(["allow", "block"]),
    default="allow",
    show_default=True,
    help="What the PreToolUse check decided. `block` records the event, then exits 2 with the "
    "reason on stderr, which blocks the tool call.",
)
@click.option(
    "--reason",
    default="blocked by the PreToolUse check",
    show_default=True,
    help="With --decision block: the reason printed on stderr for the agent.",
)
@click.option("--exit-code", "exit_code", type=int, help="The tool's exit code (PostToolUse).")
@click.option("--now", help="Timestamp to record (default: SOURCE_DATE_EPOCH, else the clock).")
@click.pass_context
def record(
    ctx: click.Context,
    log: Path,
    diff_file: Path | None,
    save_diff: Path | None,
    decision: str,
    reason: str,
    exit_code: int | None,
    now: str | None,
) -> None:
    """Read the agent CLI's hook JSON on stdin and append one record to --log.

    PreToolUse: {event, tool, decision, ts}; PostToolUse: {event, tool, exit_code, diff_sha256,
    ts}, where diff_sha256 is the sha256 of the diff. Prints nothing on stdout. Exit 0 when the
    record was appended; for a PreToolUse event with --decision block, exit 2 after appending,
    with the reason on stderr: the agent CLI hook convention (Claude Code) for "block this tool
    call", so the tool does not run. Exit 2 before appending anything on bad input.
    """
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

    payload = parse_payload(sys.stdin.read())
    diff: bytes | None = None
    if payload["event"] == HookEvent.POST_TOOL_USE:
        if diff_file is not None:
            try:
                diff = diff_file.read_bytes()
            except OSError as exc:
                raise BadInput(f"cannot read: {exc.strerror}", source=str(diff_file)) from None
        else:
            cwd = payload.get("cwd")
            diff = working_tree_diff(Path(cwd) if isinstance(cwd, str) else Path.cwd())
    entry = hook_record(
        payload,
        ts=timestamp(now),
        diff=diff,
        decision=HookDecision(decision),
        exit_code=exit_code,
    )
    if save_diff is not None and diff is not None:
        write_atomic(save_diff, diff)
    append_record(log, json.dumps(entry, ensure_ascii=False))
    if entry.get("decision") == HookDecision.BLOCK:
        click.echo(f"tribunal hook: {reason}", err=True)
        ctx.exit(BLOCK_TOOL_CALL)
    ctx.exit(ExitCode.OK)
