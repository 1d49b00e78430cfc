"""`tribunal seat`: one lens's (or one arbiter role's) ladder walked against a built envelope —
how a user checks a fleet before trusting it (L-11). With a role, the seat's record is also
written as the role's vote file of the dispute (A-2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.atomic import write_atomic
from tribunal.courts.arbiter.roles import BRIEFS
from tribunal.courts.arbiter.seated_vote import seated_vote, vote_target
from tribunal.documents import first_schema_error
from tribunal.enums import Role, SeatVerdict
from tribunal.evidence.dispute.model import load_dispute
from tribunal.frontmatter import dump_mapping
from tribunal.jury.builder import resolve_builder
from tribunal.jury.envelope.read import read_envelope
from tribunal.jury.fleet import load_fleet
from tribunal.jury.routing import too_large_for_every_rung
from tribunal.jury.seat.alone import fleet_lens, seat_route, sit_alone, tier_lens
from tribunal.jury.seat.record import SeatRecord
from tribunal.paths import display_path


@dataclass(frozen=True)
class SeatRequest:
    """The fleet and builder, the built envelope, and who sits: a lens, or a role of a dispute
    in a round (`dispute` and `round` go with `role`)."""

    fleet: Path
    builder: str
    envelope: Path
    root: Path
    environ: Mapping[str, str]
    lens: str | None = None
    role: Role | None = None
    dispute: Path | None = None
    round: int | None = None
    repo: Path | None = None
    solo: bool = False


@dataclass(frozen=True)
class SeatResult:
    """The seat's record; with a role, the vote file written and its vote; on a hold, the one
    line saying the change is too large for every rung, when it is."""

    record: SeatRecord
    vote_path: Path | None = None
    vote: Mapping[str, Any] | None = None
    too_large: str | None = None


def seat(request: SeatRequest) -> SeatResult:
    """Walk the seat and return what it said (and write the role's vote file).

    Raises BadInput (nothing dispatched, nothing written) for a bad fleet, builder, envelope,
    lens, dispute or round, or a vote file that exists already.
    """
    root = request.root
    fleet = load_fleet(request.fleet, display_path(request.fleet, root))
    builder = resolve_builder(fleet, request.builder)
    envelope = read_envelope(request.envelope, display_path(request.envelope, root))
    target = brief = None
    if request.role is not None:
        assert request.dispute is not None and request.round is not None
        brief = BRIEFS[request.role]
        lens = tier_lens(fleet, brief.lens, "--role")
        dispute = load_dispute(request.dispute, root=root)
        target = vote_target(
            dispute_dir=request.dispute,
            charter=dispute.charter,
            role=brief.role,
            round_number=request.round,
            envelope_dir=request.envelope,
            repo=request.repo,
            root=root,
            label=dispute.label,
        )
    else:
        assert request.lens is not None
        lens = fleet_lens(fleet, request.lens)
    preamble = brief.preamble if brief is not None else None
    record = sit_alone(
        fleet,
        builder,
        lens,
        envelope,
        environ=request.environ,
        repo=request.repo,
        solo=request.solo,
        preamble=preamble,
    )
    vote = None
    if target is not None and brief is not None and request.round is not None:
        vote = seated_vote(
            record, role=brief.role, round_number=request.round, refs=target.refs(record)
        )
        error = first_schema_error(vote, "vote")
        if error is not None:  # a bug, not bad input: never write a vote arbitrate cannot read
            raise AssertionError(f"vote does not match its schema: {error}")
        write_atomic(target.path, dump_mapping(vote))
    too_large = None
    if record.verdict is SeatVerdict.HOLD:
        route, _ = seat_route(
            fleet,
            builder,
            lens,
            envelope,
            environ=request.environ,
            solo=request.solo,
            preamble=preamble,
        )
        too_large = too_large_for_every_rung([route])
    return SeatResult(record, target.path if target is not None else None, vote, too_large)
