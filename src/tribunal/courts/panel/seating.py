"""The panel's members seated through the shared ladder (P-2, L-6).

Every lens of the criteria is a member, routed like a blind seat: on the tier `panel` when the
fleet declares it, else `generalist`; the executor's family refused on every ladder (L-2),
capacity and credentials checked before any call. Members share one ladder, but a panel is only
independent if its members are: each member's ladder puts first the rungs of families no earlier
member was routed to (in ladder order otherwise), so three members on a ladder of three families
sit on three families. Then P-2's own rule: the adversary is never
seated on a weaker model than the others. Rungs may declare `rank` (higher is stronger); the
adversary's ladder keeps only the rungs whose rank is at least every other member's (the rung
each other member is routed to first); none left, the adversary holds. A rank the comparison
needs and a rung does not declare is a warning (`adversary_rank_unknown`), and nothing is
dropped for it; a panel routed onto one family is a warning (`single_family_panel`).

A member's walk is L-6's with a scorecard for a verdict: a card for the seated lens stops the
walk; a card for another lens, a truncated reply and a rung that did not answer walk on; a
malformed card (or a body that is not the protocol) is one shot — no retry, no next rung; a
ladder exhausted is a hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tribunal.courts.panel.cards import MalformedCard, Scorecard
from tribunal.enums import ReasonCode, ScorecardPhase, VerdictSource
from tribunal.evidence.slice.criteria import PanelLens
from tribunal.jury.builder import Builder
from tribunal.jury.fleet import Fleet, Rung
from tribunal.jury.lenses import Lens
from tribunal.jury.routing import (
    LadderRoute,
    LensRoute,
    Skip,
    capacity_skip,
    route_lens,
    spread,
)
from tribunal.jury.seat.record import RejectedRung
from tribunal.jury.seat.walk import SeatContext
from tribunal.jury.transports import RungFailure, SeatRequest

PANEL_TIER = "panel"
FALLBACK_TIER = "generalist"
RANK_UNKNOWN = "adversary_rank_unknown"
SINGLE_FAMILY = "single_family_panel"

Card = Scorecard | MalformedCard
Reader = Callable[[str, Rung], Card | RejectedRung]


def member_tier(fleet: Fleet) -> str:
    """P-2: the tier every member routes on — `panel` when the fleet declares it."""
    return PANEL_TIER if PANEL_TIER in fleet.tiers else FALLBACK_TIER


@dataclass(frozen=True)
class MemberRoute:
    """Where one member sits: its lens and its routed ladder; `hold` says why it holds before
    any call (the adversary with no rung strong enough), else None."""

    lens: PanelLens
    route: LensRoute
    hold: str | None = None

    @property
    def first(self) -> Rung | None:
        """The rung the member is routed to first, or None when its ladder is empty."""
        candidates = self.route.candidates
        return candidates[0].rung if candidates and self.hold is None else None

    def to_dict(self) -> dict[str, Any]:
        """The member's entry in `routing.json`."""
        data = self.route.to_dict()
        first = self.first
        data.update(
            adversary=self.lens.adversary,
            rank=first.rank if first is not None else None,
            hold=self.hold,
        )
        if self.hold is not None:
            data.update(status="hold", rung=None, family=None)
        return data


@dataclass(frozen=True)
class PanelRouting:
    """Every member routed before any call, and the routing warnings."""

    tier: str
    builder: Builder
    members: tuple[MemberRoute, ...]
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form written as `routing.json`."""
        return {
            "court": "panel",
            "tier": self.tier,
            "builder_family": self.builder.family,
            "warnings": list(self.warnings),
            "members": [member.to_dict() for member in self.members],
        }


def route_panel(
    fleet: Fleet,
    lenses: Sequence[PanelLens],
    builder: Builder,
    *,
    env: Mapping[str, str],
    tokens: int | None = None,
    solo: bool = False,
) -> PanelRouting:
    """Route every member of the panel for `builder` (the executor's family) before any call.
    `tokens` is the largest prompt estimate (None: capacity not checked). Raises nothing."""
    tier = member_tier(fleet)
    routed = [
        MemberRoute(
            lens,
            route_lens(
                fleet,
                Lens(lens.id, tier, lens.question),
                builder,
                env=env,
                tokens=tokens,
                solo=solo,
            ),
        )
        for lens in lenses
    ]
    routed = _spread(routed)
    warnings: list[str] = []
    members = [
        _ranked(member, routed, warnings) if member.lens.adversary else member for member in routed
    ]
    families = {m.first.family.casefold() for m in members if m.first is not None}
    if len(families) == 1 and sum(1 for m in members if m.first is not None) > 1:
        only = next(m.first.family for m in members if m.first is not None)
        warnings.append(f"{SINGLE_FAMILY}: every member sits on family {only!r}")
    return PanelRouting(tier, builder, tuple(members), tuple(warnings))


def _spread(routed: Sequence[MemberRoute]) -> list[MemberRoute]:
    """Each member's candidates with the families no earlier member sits on first."""
    routes = spread([member.route for member in routed])
    return [replace(member, route=route) for member, route in zip(routed, routes, strict=True)]


def _ranked(
    adversary: MemberRoute, routed: Sequence[MemberRoute], warnings: list[str]
) -> MemberRoute:
    """P-2: the adversary's ladder kept to the rungs at least as strong as every other member's
    first rung; holds when none is."""
    others = [m.first for m in routed if m is not adversary and m.first is not None]
    if not others:
        return adversary
    unknown = sorted({rung.id for rung in others if rung.rank is None})
    unknown += [c.rung.id for c in adversary.route.candidates if c.rung.rank is None]
    if unknown:
        warnings.append(f"{RANK_UNKNOWN}: no rank declared on {', '.join(dict.fromkeys(unknown))}")
        return adversary
    needed = max(rung.rank for rung in others if rung.rank is not None)
    kept, weaker = [], []
    for candidate in adversary.route.candidates:
        rank = candidate.rung.rank
        assert rank is not None
        if rank >= needed:
            kept.append(candidate)
        else:
            detail = f"rank {rank} is below {needed}, another member's"
            weaker.append(Skip(candidate.rung, ReasonCode.RANK, detail))
    primary = adversary.route.primary
    ladder = LadderRoute(tuple(kept), (*primary.skipped, *weaker))
    route = replace(adversary.route, primary=ladder)
    hold = None
    if not kept:
        hold = f"no rung on the adversary's ladder has a rank of at least {needed}"
    return replace(adversary, route=route, hold=hold)


@dataclass(frozen=True)
class MemberSeat:
    """One member's seat for one phase: the rung that answered (None: held), the card it gave
    (None: held), every rung rejected on the way, and the hold's reason."""

    lens: str
    adversary: bool
    phase: ScorecardPhase
    rung: str | None = None
    family: str | None = None
    card: Card | None = None
    rejected: tuple[RejectedRung, ...] = ()
    note: str = ""
    recorded: bool = False

    @property
    def source(self) -> VerdictSource:
        """What the member's scores rest on: its card, a malformed card, or a hold."""
        if isinstance(self.card, Scorecard):
            return VerdictSource.CARD
        if isinstance(self.card, MalformedCard):
            return VerdictSource.MALFORMED
        return VerdictSource.HOLD

    def to_dict(self, card: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The JSON form written as `scorecard_<lens>.json`; `card` is the card as returned
        (the parsed JSON), when there was one."""
        malformed = self.card if isinstance(self.card, MalformedCard) else None
        return {
            "lens": self.lens,
            "phase": self.phase.value,
            "adversary": self.adversary,
            "rung": self.rung,
            "family": self.family,
            "recorded": self.recorded,
            "verdict_source": self.source.value,
            "malformed": None
            if malformed is None
            else {"reason": malformed.reason, "claim": malformed.claim, "detail": malformed.detail},
            "note": self.note,
            "rejected_rungs": [entry.to_dict() for entry in self.rejected],
            "card": card,
        }


def seat_member(
    member: MemberRoute,
    phase: ScorecardPhase,
    request_for: Callable[[Rung], SeatRequest],
    read: Reader,
    context: SeatContext,
) -> MemberSeat:
    """Walk `member`'s ladder for `phase` (L-6): each rung asked once with `request_for(rung)`,
    its reply read with `read`. Raises only what is not a rung's doing."""
    lens = member.lens
    seat = MemberSeat(lens.id, lens.adversary, phase)
    rejected = [skip.to_rejected() for skip in member.route.skipped]
    if member.hold is not None or member.route.undeclared_tier is not None:
        note = member.hold or member.route.undeclared_tier or ""
        return replace(seat, rejected=tuple(rejected), note=note)
    for candidate in member.route.candidates:
        rung = candidate.rung
        request = request_for(rung)
        over = capacity_skip(rung, request.tokens_estimate)  # L-3: again at every hop
        if over is not None:
            rejected.append(over.to_rejected())
            continue
        answered = context.call(rung, request)
        placed = replace(seat, rung=rung.id, family=rung.family, recorded=rung.answers is not None)
        if isinstance(answered, RungFailure):
            entry = context.rejection(rung, answered)
            if answered.reason is ReasonCode.MALFORMED:
                # L-6: a body that is not the protocol answered badly: one shot.
                card = MalformedCard(lens.id, rung.id, phase, detail=entry.detail)
                return replace(placed, card=card, rejected=tuple(rejected))
            rejected.append(entry)
            continue
        outcome = read(answered, rung)
        if isinstance(outcome, RejectedRung):
            rejected.append(outcome)
            continue
        return replace(placed, card=outcome, rejected=tuple(rejected))
    return replace(seat, rejected=tuple(rejected), note="no rung of the ladder gave a card")
