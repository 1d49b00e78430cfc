"""Fleets of real local juror servers for the seat-walk tests (L-6, L-5, S-1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from testing.jurors import JurorServer
from tribunal.enums import BuilderMatch
from tribunal.jury.builder import Builder
from tribunal.jury.fleet import Fleet, load_fleet
from tribunal.jury.routing import LensRoute, route_lens
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, walk_seat

KEY = "sk-juror-seat-0123456789abcdef"
ENV = {"JUROR_KEY": KEY}
ENVELOPE = {"calc.py": "def sub(a, b):\n    return max(a - b, 0)\n"}
OUTSIDER = Builder("outsider", BuilderMatch.FAMILY, ("outsider",), (("outsider",),))
PROMPT = 'Judge the envelope.\n"lens": "defect"\n'


def server_rung(
    rung_id: str, family: str, server: JurorServer, **fields: object
) -> dict[str, object]:
    """A long-form rung entry pointing at `server` (key from JUROR_KEY)."""
    return {
        "id": rung_id,
        "family": family,
        "transport": server.protocol,
        "endpoint": server.endpoint,
        "model": f"{rung_id}-model",
        "api_key_env": "JUROR_KEY",
        "timeout_s": 5,
        **fields,
    }


def write_fleet(
    tmp_path: Path,
    rungs: Sequence[Mapping[str, object]],
    tiers: Mapping[str, object],
    lenses: Mapping[str, object] | None = None,
) -> Fleet:
    """Write and load a fleet file of `rungs` and `tiers` (lenses default to one per tier)."""
    document = {
        "rungs": list(rungs),
        "tiers": dict(tiers),
        "lenses": dict(lenses or {"defect": {"tier": next(iter(tiers))}}),
    }
    path = tmp_path / "fleet.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return load_fleet(path)


def lens_route(
    fleet: Fleet, lens: str = "defect", *, solo: bool = False, env: Mapping[str, str] = ENV
) -> LensRoute:
    """The route of `lens` for a builder of a family no rung has (nothing is excluded)."""
    found = next(item for item in fleet.lenses if item.id == lens)
    return route_lens(fleet, found, OUTSIDER, env=env, solo=solo)


def sit(
    fleet: Fleet,
    lens: str = "defect",
    prompt: str = PROMPT,
    environ: Mapping[str, str] = ENV,
    envelope: Mapping[str, str] | None = ENVELOPE,
) -> SeatRecord:
    """Walk the seat of `lens` on `fleet` against the real servers its rungs name."""
    route = lens_route(fleet, lens)
    context = SeatContext.for_fleet(fleet, environ=environ, envelope_files=envelope)
    return walk_seat(route, prompt, context)
