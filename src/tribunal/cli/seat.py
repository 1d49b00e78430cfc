"""`tribunal seat`: walk one lens's (or one arbiter role's) ladder against a built envelope and
print its SeatRecord (L-11); with `--role`, also write the role's vote file (A-2)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from tribunal.cli.exit_codes import for_seat
from tribunal.cli.options import fleet_and_builder
from tribunal.enums import SeatVerdict

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
    recorded (L-6). With --role the record is also written as DISPUTE/votes/R<N>-<role>.yaml
    (pass APPROVE, refuse DENY, hold DEFERRED); an existing vote file is never overwritten.
    Exit 0 pass, 1 refuse, 3 hold, 2 bad input (nothing dispatched, nothing written).
    """
    from tribunal.atomic import dump_json, write_atomic
    from tribunal.core.builder import resolve_builder
    from tribunal.core.envelope_read import read_envelope
    from tribunal.core.fleet import load_fleet
    from tribunal.core.seat_alone import fleet_lens, sit_alone, tier_lens
    from tribunal.core.seat_text import render_seat
    from tribunal.documents import first_schema_error
    from tribunal.frontmatter import dump_mapping
    from tribunal.paths import display_path, find_root

    _check_usage(lens_id, role, dispute_dir, round_number)
    root = find_root()
    loaded = load_fleet(fleet, display_path(fleet, root))
    who = resolve_builder(loaded, builder)
    envelope = read_envelope(envelope_dir, display_path(envelope_dir, root))
    target = brief = None
    if role is not None:
        from tribunal.courts.role_seats import BRIEFS
        from tribunal.courts.seated_vote import vote_target
        from tribunal.enums import Role
        from tribunal.evidence.dispute.model import load_dispute

        assert dispute_dir is not None and round_number is not None
        brief = BRIEFS[Role(role)]
        lens = tier_lens(loaded, brief.lens, "--role")
        dispute = load_dispute(dispute_dir, root=root)
        target = vote_target(
            dispute_dir=dispute_dir,
            charter=dispute.charter,
            role=brief.role,
            round_number=round_number,
            envelope_dir=envelope_dir,
            repo=repo,
            root=root,
            label=dispute.label,
        )
    else:
        assert lens_id is not None
        lens = fleet_lens(loaded, lens_id)
    record = sit_alone(
        loaded,
        who,
        lens,
        envelope,
        environ=os.environ,
        repo=repo,
        solo=solo,
        preamble=brief.preamble if brief is not None else None,
    )
    if target is not None and brief is not None and round_number is not None:
        from tribunal.courts.seated_vote import seated_vote

        vote = seated_vote(
            record, role=brief.role, round_number=round_number, refs=target.refs(record)
        )
        error = first_schema_error(vote, "vote")
        if error is not None:  # a bug, not bad input: never write a vote arbitrate cannot read
            raise AssertionError(f"vote does not match its schema: {error}")
        write_atomic(target.path, dump_mapping(vote))
        click.echo(f"seat: wrote {display_path(target.path, root)} ({vote['vote']})", err=True)
    click.echo(dump_json(record.to_dict()) if as_json else render_seat(record), nl=False)
    if record.verdict is SeatVerdict.HOLD:
        from tribunal.core.routing import too_large_for_every_rung
        from tribunal.core.seat_alone import seat_route

        route, _ = seat_route(
            loaded, who, lens, envelope, environ=os.environ, solo=solo,
            preamble=brief.preamble if brief is not None else None,
        )  # fmt: skip
        too_large = too_large_for_every_rung([route])
        if too_large is not None:  # one clear line, not only one per skipped rung
            click.echo(f"tribunal: {too_large}", err=True)
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
