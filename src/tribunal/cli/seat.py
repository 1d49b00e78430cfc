"""`tribunal seat`: walk one lens's (or one arbiter role's) ladder against a built envelope and
print its SeatRecord (L-11); with `--role`, also write the role's vote file (A-2)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from tribunal.cli.exit_codes import for_seat
from tribunal.cli.options import fleet_and_builder

ROLES = ("verifier", "implementor", "safety")


@click.command("seat")
@fleet_and_builder
@click.option("--lens", "lens_id", help="The lens to seat (one of the fleet's lenses).")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    help="Seat an arbiter role instead of a lens: safety routes on operator_safety, the "
    "others on generalist; needs --dispute and --round.",
)
@click.option(
    "--dispute",
    "dispute_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --role: the dispute directory the vote file is written into.",
)
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    help="With --role: the round of the vote (votes/R<N>-<role>.yaml).",
)
@click.option(
    "--envelope",
    "envelope_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="A directory written by `tribunal envelope` (envelope.md, manifest.json).",
)
@click.option(
    "--repo",
    type=click.Path(file_okay=False, path_type=Path),
    help="The repository of the change: harness (command) rungs run on a worktree of its head.",
)
@click.option(
    "--solo",
    is_flag=True,
    help="Let builder-family rungs sit last (degraded: graded same-family-blind).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the SeatRecord as one JSON document.")
@click.pass_context
def seat(
    ctx: click.Context,
    fleet: Path,
    builder: str,
    lens_id: str | None,
    role: str | None,
    dispute_dir: Path | None,
    round_number: int | None,
    envelope_dir: Path,
    repo: Path | None,
    solo: bool,
    as_json: bool,
) -> None:
    """Walk one seat's ladder against a built envelope and print its SeatRecord.

    Rungs of the builder's family never sit; each rung is asked once, and what it answered is
    recorded. With --role the record is also written as DISPUTE/votes/R<N>-<role>.yaml
    (pass APPROVE, refuse DENY, hold DEFERRED); an existing vote file is never overwritten.
    Exit 0 pass, 1 refuse, 3 hold, 2 bad input (nothing dispatched, nothing written).
    """
    from tribunal.atomic import dump_json
    from tribunal.cli.seat_text import render_seat
    from tribunal.enums import Role
    from tribunal.paths import display_path, find_root
    from tribunal.workflows.seat import SeatRequest
    from tribunal.workflows.seat import seat as sit

    _check_usage(lens_id, role, dispute_dir, round_number)
    root = find_root()
    request = SeatRequest(
        fleet=fleet,
        builder=builder,
        envelope=envelope_dir,
        root=root,
        environ=dict(os.environ),
        lens=lens_id,
        role=Role(role) if role is not None else None,
        dispute=dispute_dir,
        round=round_number,
        repo=repo,
        solo=solo,
    )
    result = sit(request)
    record = result.record
    if result.vote_path is not None and result.vote is not None:
        shown = display_path(result.vote_path, root)
        click.echo(f"seat: wrote {shown} ({result.vote['vote']})", err=True)
    click.echo(dump_json(record.to_dict()) if as_json else render_seat(record), nl=False)
    if result.too_large is not None:  # one clear line, not only one per skipped rung
        click.echo(f"tribunal: {result.too_large}", err=True)
    ctx.exit(for_seat(record.verdict))


def _check_usage(
    lens_id: str | None, role: str | None, dispute_dir: Path | None, round_number: int | None
) -> None:
    if (lens_id is None) == (role is None):
        raise click.UsageError("give --lens LENS or --role ROLE (one of them)")
    if role is not None and (dispute_dir is None or round_number is None):
        raise click.UsageError("--role needs --dispute DIR and --round N")
    if lens_id is not None and (dispute_dir is not None or round_number is not None):
        raise click.UsageError("--dispute and --round go with --role, not --lens")
