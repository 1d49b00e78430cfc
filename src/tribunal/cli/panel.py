"""`tribunal panel`: the panel court — executor -> verifier panel -> consensus."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode

MODE_LINE = "Running in tribunal mode: executor -> verifier panel -> consensus."
LEDGER = click.Path(dir_okay=False, path_type=Path)


@click.group()
def panel() -> None:
    """Score a slice against frozen criteria with an independent panel of verifiers."""
    # The orchestrator says what it is before anything else (SPEC §9).
    click.echo(MODE_LINE, err=True)


@panel.command()
@click.option(
    "--criteria",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The slice's criteria.yaml (dimensions, weights, target, verification commands).",
)
@click.option(
    "--ledger",
    type=LEDGER,
    help="Ledger to record the freeze in (default: <repository root>/.tribunal/ledger.json).",
)
@click.pass_context
def freeze(ctx: click.Context, criteria: Path, ledger: Path | None) -> None:
    """Freeze the criteria before the work starts: record their sha256 for their slice.

    Freezing the same bytes again changes nothing; criteria of the slice that differ from the
    frozen ones are refused (exit 2), naming both hashes. Exit 0 when frozen.
    """
    from tribunal.paths import find_root
    from tribunal.workflows.panel_freeze import FreezeRequest, panel_freeze

    done = panel_freeze(FreezeRequest(criteria, find_root(), ledger))
    state = "froze" if done.new else "already frozen:"
    click.echo(f"{state} slice {done.slice_id}, criteria sha256 {done.sha256[:12]}")
    ctx.exit(ExitCode.OK)
