"""The shipped example fleets load, route as the docs say, and docs/fleets.md shows them as they
are (L-1, L-2)."""

from __future__ import annotations

from testing import REPO
from testing.markdown_page import Page

from tribunal.documents import load_yaml
from tribunal.enums import RouteStatus, SeatVerdict
from tribunal.jury.builder import resolve_builder
from tribunal.jury.fleet import load_fleet
from tribunal.jury.floor import floor_warnings
from tribunal.jury.routing import route
from tribunal.jury.verdict import parse_verdict

EXAMPLES = REPO / "examples" / "fleet"


def test_the_fleets_page_shows_the_provider_fleet_verbatim() -> None:
    blocks = [fence.body for fence in Page.read(REPO / "docs" / "fleets.md", REPO).blocks({"yaml"})]
    assert (EXAMPLES / "providers.yaml").read_text(encoding="utf-8") in blocks


def test_example_fleets_keep_the_floor() -> None:
    for name in ("providers.yaml", "replay.yaml"):
        assert floor_warnings(load_fleet(EXAMPLES / name), strict=True) == ()


def test_replay_fleet_seats_every_lens_offline_for_any_of_its_families() -> None:
    fleet = load_fleet(EXAMPLES / "replay.yaml")
    for family in fleet.families:
        routing = route(fleet, resolve_builder(fleet, family), env={}, tokens=100_000)
        assert routing.all_seated, family
        assert all(
            candidate.rung.family != family
            for lens in routing.lenses
            for candidate in lens.candidates
        )


def test_replay_answers_hold_a_verdict_for_every_lens() -> None:
    fleet = load_fleet(EXAMPLES / "replay.yaml")
    answers = load_yaml(EXAMPLES / "replay" / "answers.yaml").data
    assert sorted(answers) == sorted(lens.id for lens in fleet.lenses)
    for lens, text in answers.items():
        assert parse_verdict(text, lens=lens).verdict is SeatVerdict.PASS


def test_provider_fleet_without_keys_holds_the_fused_tier() -> None:
    fleet = load_fleet(EXAMPLES / "providers.yaml")
    routing = route(fleet, resolve_builder(fleet, "openai"), env={})
    status = {lens.lens.id: lens.status for lens in routing.lenses}
    assert status["boundary_condition"] is RouteStatus.UNVERIFIED
    assert status["defect"] is RouteStatus.SEATED


def test_the_structured_output_fleet_is_shown_verbatim_and_keeps_the_floor() -> None:
    from tribunal.enums import ResponseFormat

    blocks = [fence.body for fence in Page.read(REPO / "docs" / "fleets.md", REPO).blocks({"yaml"})]
    assert (EXAMPLES / "structured.yaml").read_text(encoding="utf-8") in blocks
    fleet = load_fleet(EXAMPLES / "structured.yaml")
    assert floor_warnings(fleet, strict=True) == ()
    forms = {rung.id: rung.response_format for rung in fleet.rungs.values()}
    assert set(forms.values()) == {ResponseFormat.JSON_SCHEMA, ResponseFormat.JSON_OBJECT_SCHEMA}
    assert fleet.rungs["azure-gpt"].api_key_header == "api-key"
