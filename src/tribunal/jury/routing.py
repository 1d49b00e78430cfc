"""Routing: per lens, the ordered rungs a seat may walk and every rung skipped before dispatch.

No rung is called here. Builder exclusion (L-2), capacity (L-3) and missing credentials (L-6)
are decided up front, on every ladder; fused tiers pair a primary with a verifier of another
family than the primary's and the builder's (L-5). The dispatcher walks `LensRoute.candidates`
in order (L-6), re-checking capacity at every hop, and records `skipped` as rejected rungs.
Under `--solo` (L-10) builder-family rungs may sit, but only after every other eligible rung.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tribunal.enums import ReasonCode, RouteStatus
from tribunal.jury.builder import Builder
from tribunal.jury.fleet import Fleet, Rung, Tier
from tribunal.jury.lenses import Lens
from tribunal.jury.seat.record import SAME_FAMILY, RejectedRung, Verified

# L-10: the words every report of a degraded run carries.
WEAKENED_GATE = "graded same-family-blind, not cross-family"


@dataclass(frozen=True)
class Skip:
    """A rung refused before dispatch, and why."""

    rung: Rung
    reason: ReasonCode
    detail: str

    def to_rejected(self) -> RejectedRung:
        """The `rejected_rungs` entry a SeatRecord keeps for this skip."""
        return RejectedRung(rung=self.rung.id, reason=self.reason, detail=self.detail)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form in `routing.json`."""
        return {
            "rung": self.rung.id,
            "family": self.rung.family,
            "reason": self.reason.value,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Candidate:
    """A rung a seat may sit on; `builder_family_seated` only ever under `--solo` (L-10)."""

    rung: Rung
    builder_family_seated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form in `routing.json`."""
        return {
            "rung": self.rung.id,
            "family": self.rung.family,
            "builder_family_seated": self.builder_family_seated,
        }


@dataclass(frozen=True)
class LadderRoute:
    """One ladder after the checks before dispatch: candidates in walking order, and skips."""

    candidates: tuple[Candidate, ...]
    skipped: tuple[Skip, ...]


@dataclass(frozen=True)
class LensRoute:
    """Where one lens sits: its tier's ladder (and verifier ladder, when fused), routed."""

    lens: Lens
    tier: Tier
    primary: LadderRoute
    verifier: LadderRoute | None
    builder: Builder
    solo: bool
    tokens: int | None = None  # the prompt estimate capacity was checked with (None: not)

    @property
    def undeclared_tier(self) -> str | None:
        """Why the lens has no ladder at all — the fleet declares no tier it routes on — or
        None (L-1: the lens still sits, and holds)."""
        if self.tier.declared:
            return None
        return f"the fleet declares no tier {self.tier.name!r}, which this lens routes on"

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The rungs the seat walks, in order (the primaries of a fused tier)."""
        return self.primary.candidates

    @property
    def skipped(self) -> tuple[Skip, ...]:
        """Rungs of this lens's (primary) ladder refused before dispatch."""
        return self.primary.skipped

    def verifiers_for(self, primary: Rung) -> tuple[tuple[Candidate, ...], tuple[Skip, ...]]:
        """L-5: the verifiers eligible to sit beside `primary`, in order, and those refused
        (`primary_family`). Under `--solo` same-family verifiers come last instead."""
        if self.verifier is None:
            return (), ()
        eligible: list[Candidate] = []
        same: list[Candidate] = []
        skipped: list[Skip] = []
        for candidate in self.verifier.candidates:
            rung = candidate.rung
            if rung.family.casefold() == primary.family.casefold():
                if self.solo:
                    same.append(candidate)
                else:
                    detail = f"family {rung.family!r} is the primary's, {primary.id}"
                    skipped.append(Skip(rung, ReasonCode.PRIMARY_FAMILY, detail))
                continue
            eligible.append(candidate)
        return tuple(eligible + same), tuple(skipped)

    def verification(self, primary: Rung, verifier: Rung) -> Verified:
        """`verified` of a seat whose primary and verifier both pass (L-5, L-10)."""
        crossed = verifier.family.casefold() != primary.family.casefold()
        return True if crossed and self.builder.excludes(verifier) is None else SAME_FAMILY

    @property
    def pair(self) -> tuple[Candidate, Candidate | None] | None:
        """The seated primary (the first one a verifier can sit beside, for a fused tier) and
        its first verifier; None when no rung is left."""
        if not self.candidates:
            return None
        if self.verifier is None:
            return self.candidates[0], None
        for candidate in self.candidates:
            verifiers, _ = self.verifiers_for(candidate.rung)
            if verifiers:
                return candidate, verifiers[0]
        return self.candidates[0], None

    @property
    def status(self) -> RouteStatus:
        """SEATED, HOLD (no rung left), or UNVERIFIED (fused, no verifier can sit: a hold)."""
        pair = self.pair
        if pair is None:
            return RouteStatus.HOLD
        if self.tier.fused and pair[1] is None:
            return RouteStatus.UNVERIFIED
        return RouteStatus.SEATED

    @property
    def degraded(self) -> bool:
        """L-10: the seated pair puts the builder's family, or one family twice, on the seat."""
        pair = self.pair
        if pair is None:
            return False
        primary, verifier = pair
        if primary.builder_family_seated:
            return True
        return verifier is not None and self.verification(primary.rung, verifier.rung) is not True

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of one lens in `routing.json`."""
        pair = self.pair
        primary = pair[0] if pair else None
        data: dict[str, Any] = {
            "lens": self.lens.id,
            "tier": self.tier.name,
            "question": self.lens.question,
            "fused": self.tier.fused,
            "status": self.status.value,
            "rung": primary.rung.id if primary else None,
            "family": primary.rung.family if primary else None,
            "builder_family_seated": primary.builder_family_seated if primary else False,
            "candidates": [candidate.to_dict() for candidate in self.candidates],
            "skipped": [skip.to_dict() for skip in self.skipped],
            "verifier": None,
        }
        if self.verifier is not None:
            verifier = pair[1] if pair else None
            candidates, refused = self.verifiers_for(primary.rung) if primary else ((), ())
            verified: Verified = False
            if primary and verifier:
                verified = self.verification(primary.rung, verifier.rung)
            data["verifier"] = {
                "rung": verifier.rung.id if verifier else None,
                "family": verifier.rung.family if verifier else None,
                "verified": verified,
                "builder_family_seated": verifier.builder_family_seated if verifier else False,
                "candidates": [candidate.to_dict() for candidate in candidates],
                "skipped": [skip.to_dict() for skip in (*self.verifier.skipped, *refused)],
            }
        return data


@dataclass(frozen=True)
class Routing:
    """The routing table of a convening: every lens, routed, before any dispatch."""

    fleet: Fleet
    builder: Builder
    tokens: int | None
    solo: bool
    lenses: tuple[LensRoute, ...]
    warnings: tuple[str, ...] = ()

    @property
    def all_seated(self) -> bool:
        """True when every lens has a seat (`tribunal ladder` exits 0), else some lens holds."""
        return all(lens.status is RouteStatus.SEATED for lens in self.lenses)

    @property
    def degraded(self) -> bool:
        """L-10: only a `--solo` run is ever degraded."""
        return self.solo and any(lens.degraded for lens in self.lenses)

    def to_dict(self) -> dict[str, Any]:
        """The `routing.json` document (schema `routing`)."""
        return {
            "fleet": self.fleet.label,
            "builder": {
                "name": self.builder.name,
                "matched": self.builder.matched.value,
                "families": list(self.builder.families),
            },
            "tokens": self.tokens,
            "solo": self.solo,
            "degraded": self.degraded,
            "weakened_gate": WEAKENED_GATE if self.degraded else None,
            "all_seated": self.all_seated,
            "warnings": list(self.warnings),
            "lenses": [lens.to_dict() for lens in self.lenses],
        }


def spread(routes: Sequence[LensRoute]) -> tuple[LensRoute, ...]:
    """`routes` with each one's candidates reordered so the families no earlier route is routed
    to come first (ladder order otherwise): lenses that share a ladder sit on as many families
    as it has — independent members, not one model asked three times (P-2, P-11)."""
    used: set[str] = set()
    placed: list[LensRoute] = []
    for lens in routes:
        fresh = [c for c in lens.candidates if c.rung.family.casefold() not in used]
        again = [c for c in lens.candidates if c.rung.family.casefold() in used]
        moved = replace(lens, primary=replace(lens.primary, candidates=tuple(fresh + again)))
        if moved.candidates:
            used.add(moved.candidates[0].rung.family.casefold())
        placed.append(moved)
    return tuple(placed)


def capacity_skip(rung: Rung, tokens: int) -> Skip | None:
    """L-3: the `capacity` skip of `rung` for a `tokens` prompt (plus its answer budget), or
    None when it holds them. Routing checks it before dispatch; the walk again at every hop."""
    if rung.holds(tokens):
        return None
    detail = f"needs {tokens} + {rung.answer_budget} tokens, holds {rung.context_tokens}"
    return Skip(rung, ReasonCode.CAPACITY, detail)


def too_large_for_every_rung(routes: Sequence[LensRoute]) -> str | None:
    """X-2: the one clear message for a change too large for every rung — some lens (of
    `routes`, routed with a prompt estimate) has no rung left and lost every rung that was not
    the builder's to `capacity` — or None when that is not so. The lens holds (exit 3); this
    says why in one line instead of one line per rung."""
    capacity = (ReasonCode.CAPACITY,)
    allowed = (ReasonCode.CAPACITY, ReasonCode.BUILDER_FAMILY)
    too_large = [
        lens
        for lens in routes
        if lens.tokens is not None
        and not lens.candidates
        and any(skip.reason in capacity for skip in lens.skipped)
        and all(skip.reason in allowed for skip in lens.skipped)
    ]
    if not too_large:
        return None
    needs = max(lens.tokens or 0 for lens in too_large)
    largest = max(
        skip.rung.context_tokens or 0
        for lens in too_large
        for skip in lens.skipped
        if skip.reason is ReasonCode.CAPACITY
    )
    which = ""
    if len(too_large) < len(routes):
        which = f" of lens {', '.join(lens.lens.id for lens in too_large)}"
    return (
        f"the change is too large for every rung{which}: the prompt needs ~{needs} tokens + "
        f"the answer budget; the largest rung holds {largest}"
    )


def route(
    fleet: Fleet,
    builder: Builder,
    *,
    env: Mapping[str, str],
    tokens: int | None = None,
    solo: bool = False,
    warnings: tuple[str, ...] = (),
    tokens_for: Callable[[Lens], int] | None = None,
    lenses: Sequence[Lens] | None = None,
) -> Routing:
    """Route every lens of `fleet` (or of `lenses`, the jury a contract narrowed) for `builder`
    before any dispatch.

    `tokens` is the prompt estimate (None: capacity not checked), or `tokens_for` gives each
    lens its own (its rendered prompt, L-3); `env` is where key variables are looked up.
    Returns the `Routing` (its `tokens` the largest estimate); raises nothing.
    """
    routes = tuple(
        route_lens(
            fleet,
            lens,
            builder,
            env=env,
            tokens=tokens_for(lens) if tokens_for is not None else tokens,
            solo=solo,
        )
        for lens in (fleet.lenses if lenses is None else lenses)
    )
    if tokens_for is not None:
        tokens = max((r.tokens for r in routes if r.tokens is not None), default=None)
    return Routing(fleet, builder, tokens, solo, routes, warnings)


def route_lens(
    fleet: Fleet,
    lens: Lens,
    builder: Builder,
    *,
    env: Mapping[str, str],
    tokens: int | None = None,
    solo: bool = False,
) -> LensRoute:
    """Route one lens — or a role seated on a tier (L-11 `--role`: `Lens(role, tier, ...)`) —
    on `lens.tier` of `fleet` (a tier the fleet does not declare has no rung: the lens holds).
    Returns the `LensRoute`; raises nothing."""
    tier = fleet.tier(lens.tier)
    primary = _route_ladder(fleet, tier.ladder, builder, env, tokens, solo)
    verifier = None
    if tier.verifier is not None:
        verifier = _route_ladder(fleet, tier.verifier, builder, env, tokens, solo)
    return LensRoute(lens, tier, primary, verifier, builder, solo, tokens)


def _route_ladder(
    fleet: Fleet,
    ladder: tuple[str, ...],
    builder: Builder,
    env: Mapping[str, str],
    tokens: int | None,
    solo: bool,
) -> LadderRoute:
    others: list[Candidate] = []
    own: list[Candidate] = []
    skipped: list[Skip] = []
    for rung_id in ladder:
        rung = fleet.rungs[rung_id]
        excluded = builder.excludes(rung)
        # L-6 order: builder_family, then capacity, then no_credentials.
        if excluded is not None and not solo:
            skipped.append(Skip(rung, ReasonCode.BUILDER_FAMILY, excluded))
        elif tokens is not None and (over := capacity_skip(rung, tokens)) is not None:
            skipped.append(over)
        elif rung.key_env is not None and not env.get(rung.key_env):
            skipped.append(Skip(rung, ReasonCode.NO_CREDENTIALS, f"{rung.key_env} is not set"))
        elif excluded is not None:
            # L-10: under --solo the builder's family sits, but only once no other family can.
            own.append(Candidate(rung, builder_family_seated=True))
        else:
            others.append(Candidate(rung))
    return LadderRoute(tuple(others + own), tuple(skipped))
