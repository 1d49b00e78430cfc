"""One seat on its own against a built envelope (L-11): how a user checks a fleet before
trusting it. Everything that would make the run bad input is checked before any rung is asked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from tribunal.enums import Transport
from tribunal.errors import BadInput
from tribunal.jury.builder import Builder
from tribunal.jury.envelope.build import Envelope
from tribunal.jury.fleet import Fleet
from tribunal.jury.lenses import Lens
from tribunal.jury.prompt_size import estimate_tokens
from tribunal.jury.routing import LensRoute, route_lens
from tribunal.jury.seat.dispatch import RungGates
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, seat_prompt, walk_seat
from tribunal.jury.transports import Checkout


def fleet_lens(fleet: Fleet, lens_id: str) -> Lens:
    """The lens `lens_id` of `fleet`. Raises BadInput (field `--lens`, listing the lenses)."""
    for lens in fleet.lenses:
        if lens.id == lens_id:
            return lens
    known = ", ".join(lens.id for lens in fleet.lenses)
    raise BadInput(f"unknown lens {lens_id!r}; lenses of {fleet.label}: {known}", field="--lens")


def tier_lens(fleet: Fleet, lens: Lens, field: str) -> Lens:
    """`lens` (a role seated on a tier) when `fleet` has its tier. Raises BadInput naming
    `field` when it does not."""
    if lens.tier not in fleet.tiers:
        raise BadInput(
            f"{lens.id} routes on tier {lens.tier!r}, which {fleet.label} does not declare "
            f"(tiers: {', '.join(fleet.tiers)})",
            field=field,
        )
    return lens


def seat_route(
    fleet: Fleet,
    builder: Builder,
    lens: Lens,
    envelope: Envelope,
    *,
    environ: Mapping[str, str],
    solo: bool = False,
    preamble: str | None = None,
) -> tuple[LensRoute, str]:
    """The route of `lens` for `builder`, capacity checked with the seat's own prompt (L-3),
    and that prompt over `envelope`. Raises nothing of its own (no rung is called)."""
    unsized = route_lens(fleet, lens, builder, env=environ, solo=solo)
    prompt = seat_prompt(unsized, envelope.text, preamble=preamble, example=envelope.example)
    tokens = estimate_tokens(prompt)
    return route_lens(fleet, lens, builder, env=environ, tokens=tokens, solo=solo), prompt


def sit_alone(
    fleet: Fleet,
    builder: Builder,
    lens: Lens,
    envelope: Envelope,
    *,
    environ: Mapping[str, str],
    repo: Path | None = None,
    solo: bool = False,
    preamble: str | None = None,
) -> SeatRecord:
    """Route `lens` for `builder`, render its prompt over `envelope` and walk its ladder.

    Returns the SeatRecord. Raises BadInput before any dispatch when a rung the seat could walk
    to runs a harness (`command`) and no `repo` (the worktree of the envelope's head) is given.
    """
    route, prompt = seat_route(
        fleet, builder, lens, envelope, environ=environ, solo=solo, preamble=preamble
    )
    _require_checkout(route, repo)
    checkout = Checkout(repo, envelope.head) if repo is not None else None
    context = SeatContext.for_fleet(
        fleet,
        environ=environ,
        envelope_files=envelope.file_texts(),
        example=envelope.example,
        checkout=checkout,
    )
    # L-5, L-9: a fused seat asks two rungs at once; two local rungs of one server take turns.
    context = replace(context, gate=RungGates(fleet.rungs.values(), context.server_of))
    try:
        return walk_seat(route, prompt, context)
    finally:
        # L-7: the seat on its own is its models' last holder. A failed unload leaves the
        # model loaded; the seat's verdict stands either way.
        context.release_models(fleet.rungs.values())


def _require_checkout(route: LensRoute, repo: Path | None) -> None:
    if repo is not None:
        return
    rungs = [candidate.rung for candidate in route.candidates]
    if route.verifier is not None:
        rungs += [candidate.rung for candidate in route.verifier.candidates]
    harness = [rung.id for rung in rungs if rung.transport is Transport.COMMAND]
    if harness:
        raise BadInput(
            f"harness rung(s) {', '.join(harness)} run on a worktree of the envelope's head: "
            "give the repository with --repo",
            field="--repo",
        )
