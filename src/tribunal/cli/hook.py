"""`tribunal hook record` (A-3): the hook an agent CLI runs to log PreToolUse/PostToolUse."""

from __future__ import annotations

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
    """Hook commands for agent CLIs: the hook logs a dispute's evidence cites."""


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
    help="Also write the diff that was checksummed here, so a vote can cite it.",
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
    from tribunal.enums import HookDecision
    from tribunal.workflows.hook_record import HookRequest, hook

    request = HookRequest(
        payload=sys.stdin.buffer.read(),  # bytes: decoded as UTF-8 or refused (C-3)
        log=log,
        diff_file=diff_file,
        save_diff=save_diff,
        decision=HookDecision(decision),
        exit_code=exit_code,
        now=now,
    )
    entry = hook(request)
    if entry.get("decision") == HookDecision.BLOCK:
        click.echo(f"tribunal hook: {reason}", err=True)
        ctx.exit(BLOCK_TOOL_CALL)
    ctx.exit(ExitCode.OK)
