"""The routing table `tribunal ladder` prints: the live proof that seats fell to other families
than the builder's (L-2), with every skipped rung and its reason — and, since no server is
asked before a call, the response format each rung will send when it is not the default (L-7):
a server that rejects it is found only by a call (`tribunal seat` names the fix)."""

from __future__ import annotations

from tribunal.enums import ResponseFormat, RouteStatus, Transport
from tribunal.jury.fleet import Rung
from tribunal.jury.routing import WEAKENED_GATE, Candidate, LensRoute, Routing, Skip

# L-7: what each non-default response format sends, as a person choosing one reads it.
SCHEMA_FORMS = {
    Transport.OPENAI: {
        ResponseFormat.JSON_SCHEMA: "OpenAI structured outputs (strict) with the verdict schema",
        ResponseFormat.JSON_OBJECT_SCHEMA: "a JSON object with the verdict schema, the form"
        " llama.cpp servers take",
    },
    Transport.OLLAMA: {form: "the verdict schema as Ollama's format" for form in ResponseFormat},
    Transport.ANTHROPIC: {
        form: "a forced tool whose input is the verdict schema" for form in ResponseFormat
    },
}


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
    formats = _formats(routing)
    if formats:
        lines += [
            "",
            "response formats (a server that rejects one is passed over at the call;"
            " tribunal seat names the fix):",
        ]
        lines += [f"  {line}" for line in formats]
    return "\n".join(lines) + "\n"


def _formats(routing: Routing) -> list[str]:
    """One line per rung a seat may walk to whose response format is not the default."""
    seated: set[str] = set()
    for lens in routing.lenses:
        seated.update(candidate.rung.id for candidate in lens.candidates)
        if lens.verifier is not None:
            seated.update(candidate.rung.id for candidate in lens.verifier.candidates)
    return [
        f"{rung.id}: {rung.response_format.value} ({_sends(rung)})"
        for rung in routing.fleet.rungs.values()
        if rung.id in seated and rung.response_format is not ResponseFormat.JSON_OBJECT
    ]


def _sends(rung: Rung) -> str:
    if rung.response_format is ResponseFormat.NONE:
        return "no response format: the prompt alone asks for JSON"
    return SCHEMA_FORMS.get(rung.transport, {}).get(rung.response_format, "the verdict schema")


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
