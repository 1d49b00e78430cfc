"""P-2: the panel's members routed through the shared ladder — spread over families, the
executor's family refused, the adversary never on a weaker rung, and the routing warnings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from testing.fleets import fleet_from

from tribunal.courts.panel.seating import (
    MemberRoute,
    PanelRouting,
    _ranked,
    member_tier,
    route_panel,
)
from tribunal.enums import PanelRisk
from tribunal.evidence.slice.criteria import DEFAULT_LENSES, PANEL_QUESTIONS, PanelLens
from tribunal.jury.builder import builder_outside
from tribunal.jury.fleet import Fleet, Tier
from tribunal.jury.lenses import Lens
from tribunal.jury.routing import route_lens

LENSES = tuple(PanelLens(lens, PANEL_QUESTIONS[lens]) for lens in DEFAULT_LENSES[PanelRisk.NORMAL])


def fleet(tmp_path: Path, ranks: dict[str, int | None], tier: str = "panel") -> Fleet:
    rungs = []
    for rung_id, rank in ranks.items():
        entry = {"id": rung_id, "family": f"fam-{rung_id}", "transport": "replay",
                 "answers": "answers.yaml"}  # fmt: skip
        if rank is not None:
            entry["rank"] = rank
        rungs.append(entry)
    (tmp_path / "answers.yaml").write_text("quality: '{}'\n", encoding="utf-8")
    document = {"rungs": rungs, "tiers": {tier: list(ranks)}}
    return fleet_from(tmp_path, yaml.safe_dump(document, sort_keys=False))


def routed(tmp_path: Path, ranks: dict[str, int | None], executor: str = "vendor-x",
           tier: str = "panel") -> PanelRouting:  # fmt: skip
    loaded = fleet(tmp_path, ranks, tier)
    return route_panel(loaded, LENSES, builder_outside(loaded, executor), env={})


def seated(routing: PanelRouting) -> list[str | None]:
    return [member.first.id if member.first else None for member in routing.members]


def test_members_spread_over_the_ladders_families(tmp_path: Path) -> None:
    routing = routed(tmp_path, {"a": 1, "b": 1, "c": 1})
    assert seated(routing) == ["a", "b", "c"]
    assert routing.warnings == ()


def test_the_tier_is_generalist_when_the_fleet_declares_no_panel(tmp_path: Path) -> None:
    routing = routed(tmp_path, {"a": 1, "b": 1, "c": 1}, tier="generalist")
    assert routing.tier == "generalist" == member_tier(fleet(tmp_path, {"a": 1}, "generalist"))
    assert seated(routing) == ["a", "b", "c"]


def test_the_executors_family_is_refused(tmp_path: Path) -> None:
    routing = routed(tmp_path, {"a": 1, "b": 1, "c": 1}, executor="fam-a")
    assert "a" not in seated(routing)
    skipped = routing.members[0].route.skipped
    assert [(s.rung.id, s.reason.value) for s in skipped] == [("a", "builder_family")]


def test_an_adversary_never_sits_below_another_members_rank(tmp_path: Path) -> None:
    routing = routed(tmp_path, {"a": 1, "b": 3, "c": 2})
    # quality a (1), fitness b (3): the adversary needs 3; c (2) is refused, b sits.
    assert seated(routing) == ["a", "b", "b"]
    adversary = routing.members[2]
    # Its ladder after the spread: c (a family no one sits on), then a, then b.
    assert [(s.rung.id, s.reason.value) for s in adversary.route.skipped] == [
        ("c", "rank"),
        ("a", "rank"),
    ]
    assert adversary.hold is None


def test_no_rung_strong_enough_holds_the_adversary(tmp_path: Path) -> None:
    # Members share one ladder, so a hold needs an adversary ladder of its own: built here
    # from a second tier holding only the weak rung.
    loaded = fleet(tmp_path, {"a": 5, "b": 1})
    builder = builder_outside(loaded, "vendor-x")
    quality = MemberRoute(LENSES[0], route_lens(loaded, Lens("quality", "panel", "?"), builder,
                                                env={}))  # fmt: skip
    weak = replace(loaded, tiers={**loaded.tiers, "weak": Tier("weak", ("b",))})
    adversary = MemberRoute(LENSES[2], route_lens(weak, Lens("adversary", "weak", "?"), builder,
                                                  env={}))  # fmt: skip
    warnings: list[str] = []
    held = _ranked(adversary, [quality, adversary], warnings)
    assert held.hold == "no rung on the adversary's ladder has a rank of at least 5"
    assert held.first is None and warnings == []
    assert held.to_dict()["status"] == "hold"


@pytest.mark.parametrize("missing", ["a", "c"])
def test_an_undeclared_rank_is_a_warning_and_drops_nothing(tmp_path: Path, missing: str) -> None:
    ranks: dict[str, int | None] = {"a": 1, "b": 1, "c": 1}
    ranks[missing] = None
    routing = routed(tmp_path, ranks)
    assert seated(routing) == ["a", "b", "c"]
    assert [w.split(":")[0] for w in routing.warnings] == ["adversary_rank_unknown"]
    assert missing in routing.warnings[0]


def test_one_family_for_every_member_is_a_warning(tmp_path: Path) -> None:
    routing = routed(tmp_path, {"a": 1})
    assert seated(routing) == ["a", "a", "a"]
    assert any(w.startswith("single_family_panel") for w in routing.warnings)
