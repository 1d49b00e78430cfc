"""`tribunal ladder`: print the routing table of a fleet for a builder, before any dispatch."""

from __future__ import annotations

import os
from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode
from tribunal.cli.options import fleet_and_builder


@click.command("ladder")
@fleet_and_builder
@click.option(
    "--tokens",
    type=click.IntRange(min=0),
    help="Prompt estimate in tokens; rungs that cannot hold it plus their answer are skipped.",
)
@click.option(
    "--envelope",
    type=click.Path(file_okay=False, path_type=Path),
    help="Envelope directory: estimate each lens's prompt (tier header, preamble, protocol and "
    "envelope.md, or its manifest.json estimate) as `tribunal seat` will.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Make a floor warning (too few rungs able to hold a large artifact, no local "
    "survival rung) an error (exit 2).",
)
@click.option(
    "--solo",
    is_flag=True,
    help="Let builder-family rungs sit last (degraded: graded same-family-blind).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the routing as one JSON document.")
@click.pass_context
def ladder(
    ctx: click.Context,
    fleet: Path,
    builder: str,
    tokens: int | None,
    envelope: Path | None,
    strict: bool,
    solo: bool,
    as_json: bool,
) -> None:
    """Show, per lens, the seated rung and family, the fused verifier and every skipped rung.

    Exit 0 when every lens is seated, 3 when any lens holds, 2 on bad input.
    """
    from tribunal.atomic import dump_json
    from tribunal.jury.routing import too_large_for_every_rung
    from tribunal.jury.routing_table import render_table
    from tribunal.paths import find_root
    from tribunal.workflows.ladder import LadderRequest
    from tribunal.workflows.ladder import ladder as route_lenses

    if tokens is not None and envelope is not None:
        raise click.UsageError("give --tokens or --envelope, not both")
    request = LadderRequest(
        fleet, builder, find_root(), dict(os.environ), tokens, envelope, strict, solo
    )
    routing = route_lenses(request)
    for warning in routing.warnings:
        click.echo(f"tribunal: warning: {routing.fleet.label}: {warning}", err=True)
    click.echo(dump_json(routing.to_dict()) if as_json else render_table(routing), nl=False)
    too_large = too_large_for_every_rung(routing.lenses)
    if too_large is not None:  # one clear line, not only one per skipped rung
        click.echo(f"tribunal: {too_large}", err=True)
    ctx.exit(ExitCode.OK if routing.all_seated else ExitCode.NO_VERDICT)
