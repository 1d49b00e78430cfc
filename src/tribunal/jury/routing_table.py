"""The routing table `tribunal ladder` prints: the live proof that seats fell to other families
than the builder's (L-2), with every skipped rung and its reason."""

from __future__ import annotations

from tribunal.enums import RouteStatus
from tribunal.jury.routing import WEAKENED_GATE, Candidate, LensRoute, Routing, Skip


def render_table(routing: Routing) -> str:
    """The text of the routing table (deterministic: same routing, same bytes)."""
    builder = routing.builder
    prompt = (
        f"{routing.tokens} tokens"
        if routing.tokens is not None
        else "not given (no capacity check)"
    )
    lines = [
        f"fleet: {routing.fleet.label}",
        f"builder: {builder.name} (matched a {builder.matched.value}; "
        f"family {builder.family}{', --solo' if routing.solo else ''})",
        f"prompt: {prompt}",
        "",
    ]
    rows = [("LENS", "TIER", "STATUS", "SEATED", "VERIFIER")]
    rows += [_row(lens) for lens in routing.lenses]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    notes: dict[int, list[str]] = {}
    for index, lens in enumerate(routing.lenses, start=1):
        notes[index] = _notes(lens)
    for index, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[4]]).rstrip())
        lines += [f"    {note}" for note in notes.get(index, [])]
    held = sum(1 for lens in routing.lenses if lens.status is not RouteStatus.SEATED)
    lines.append("")
    if held:
        lines.append(f"{held} of {len(routing.lenses)} lenses hold")
    else:
        lines.append(f"all {len(routing.lenses)} lenses seated")
    if routing.degraded:
        lines.append(f"DEGRADED: {WEAKENED_GATE}")
    return "\n".join(lines) + "\n"


def _row(lens: LensRoute) -> tuple[str, str, str, str, str]:
    tier = f"{lens.tier.name} (fused)" if lens.tier.fused else lens.tier.name
    pair = lens.pair
    seated = _seat(pair[0]) if pair else "-"
    verifier = "-"
    if lens.tier.fused:
        verifier = _seat(pair[1]) if pair and pair[1] else "none eligible"
    return (lens.lens.id, tier, lens.status.value.upper(), seated, verifier)


def _seat(candidate: Candidate) -> str:
    mark = " builder_family_seated" if candidate.builder_family_seated else ""
    return f"{candidate.rung.id} [{candidate.rung.family}]{mark}"


def _notes(lens: LensRoute) -> list[str]:
    notes = [lens.undeclared_tier] if lens.undeclared_tier is not None else []
    notes += [_skip("skipped", skip) for skip in lens.skipped]
    if lens.verifier is not None:
        pair = lens.pair
        refused = lens.verifiers_for(pair[0].rung)[1] if pair else ()
        notes += [_skip("verifier skipped", skip) for skip in (*lens.verifier.skipped, *refused)]
    return notes


def _skip(what: str, skip: Skip) -> str:
    return f"{what} {skip.rung.id} [{skip.rung.family}]: {skip.reason.value} ({skip.detail})"
