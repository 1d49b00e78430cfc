"""`tribunal ladder`: the routing table of a fleet for a builder, before any dispatch — per lens
the seated rung and family, the fused verifier, and every rung skipped and why (L-2..L-4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tribunal.errors import BadInput
from tribunal.jury.builder import resolve_builder
from tribunal.jury.envelope.read import read_envelope
from tribunal.jury.envelope.text import ENVELOPE_NAME
from tribunal.jury.fleet import load_fleet
from tribunal.jury.floor import floor_warnings
from tribunal.jury.lenses import Lens
from tribunal.jury.prompt_size import envelope_bytes, lens_prompt_tokens
from tribunal.jury.routing import Routing, route
from tribunal.paths import display_path


@dataclass(frozen=True)
class LadderRequest:
    """The fleet and builder, the prompt size to route for (tokens, or a built envelope's), the
    environment rung keys come from, and the flags that bear on routing."""

    fleet: Path
    builder: str
    root: Path
    environ: Mapping[str, str]
    tokens: int | None = None
    envelope: Path | None = None
    strict: bool = False
    solo: bool = False


def ladder(request: LadderRequest) -> Routing:
    """Route every lens; return the routing (with the floor warnings). Raises BadInput for a bad
    fleet, builder or envelope, both a token count and an envelope, or (strict) a ladder below
    the floor."""
    if request.tokens is not None and request.envelope is not None:
        raise BadInput("give --tokens or --envelope, not both")
    root = request.root
    fleet = load_fleet(request.fleet, display_path(request.fleet, root))
    builder = resolve_builder(fleet, request.builder)
    tokens_for = None
    if request.envelope is not None:
        manifest = request.envelope / "manifest.json"
        size = envelope_bytes(request.envelope, display_path(manifest, root))
        example = None
        if (request.envelope / ENVELOPE_NAME).is_file():
            # E-5: the walk's prompt shows the envelope's example citation; its bytes count too.
            built = read_envelope(request.envelope, display_path(request.envelope, root))
            example = built.example

        def tokens_for(lens: Lens) -> int:
            # L-3: the prompt the walk will send, not the envelope alone (one estimate).
            return lens_prompt_tokens(
                size, tier=lens.tier, lens=lens.id, question=lens.question, example=example
            )

    warnings = floor_warnings(fleet, strict=request.strict)
    return route(
        fleet,
        builder,
        env=request.environ,
        tokens=request.tokens,
        solo=request.solo,
        warnings=warnings,
        tokens_for=tokens_for,
    )
