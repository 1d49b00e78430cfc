"""L-2, L-3, L-5, L-6 (skips before dispatch), L-10: routing every lens before any dispatch."""

from __future__ import annotations

from pathlib import Path

from testing.fleets import ALL_KEYS, SPEC_FLEET, fleet_from

from tribunal.documents import first_schema_error
from tribunal.enums import ReasonCode, RouteStatus
from tribunal.jury.builder import resolve_builder
from tribunal.jury.fleet import Fleet
from tribunal.jury.lenses import DEFAULT_LENSES, Lens
from tribunal.jury.routing import WEAKENED_GATE, Routing, route, route_lens


def routed(fleet: Fleet, builder: str, **kwargs: object) -> Routing:
    env = kwargs.pop("env", ALL_KEYS)
    return route(fleet, resolve_builder(fleet, builder), env=env, **kwargs)  # type: ignore[arg-type]


def by_lens(routing: Routing) -> dict[str, dict[str, object]]:
    data = routing.to_dict()
    assert first_schema_error(data, "routing") is None
    return {lens["lens"]: lens for lens in data["lenses"]}


def test_builder_naming_a_local_models_family_excludes_it(tmp_path: Path) -> None:
    """The SPEC's own example: --builder naming the local model's family excludes it."""
    routing = routed(fleet_from(tmp_path, SPEC_FLEET), "qwen")
    for lens in routing.lenses:
        seated = [candidate.rung.family for candidate in lens.candidates]
        assert "qwen" not in seated
        assert ("local-coder", ReasonCode.BUILDER_FAMILY) in [
            (skip.rung.id, skip.reason) for skip in lens.skipped
        ]
    lenses = by_lens(routing)
    assert lenses["defect"]["rung"] == "openai/gpt-mini-x"
    # fast_structural's primary ladder loses its local card and falls to the harness.
    assert lenses["boundary_condition"]["rung"] == "harness-c"
    assert lenses["boundary_condition"]["verifier"]["rung"] == "openai/gpt-mini-x"  # type: ignore[index]
    assert lenses["boundary_condition"]["verifier"]["verified"] is True  # type: ignore[index]
    assert routing.all_seated and not routing.degraded


def test_builder_that_is_the_only_family_of_a_tier_holds_that_lens(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace(
        "deep_state: [gateway-b-long, harness-c, local-coder]", "deep_state: [local-coder]"
    )
    routing = routed(fleet_from(tmp_path, text), "qwen")
    status = {lens.lens.id: lens.status for lens in routing.lenses}
    assert status["reversibility"] is RouteStatus.HOLD
    assert status["state_continuity"] is RouteStatus.HOLD
    assert status["defect"] is RouteStatus.SEATED
    assert not routing.all_seated
    assert by_lens(routing)["reversibility"]["rung"] is None


def test_ladder_order_is_kept_and_every_skip_is_recorded(tmp_path: Path) -> None:
    routing = routed(fleet_from(tmp_path, SPEC_FLEET), "vendor-c")
    defect = by_lens(routing)["defect"]
    assert [c["rung"] for c in defect["candidates"]] == ["openai/gpt-mini-x", "local-coder"]  # type: ignore[index]
    assert defect["skipped"] == [
        {
            "rung": "harness-c",
            "family": "vendor-c",
            "reason": "builder_family",
            "detail": "family 'vendor-c' is the builder's",
        }
    ]


def test_capacity_skips_rungs_that_cannot_hold_prompt_and_answer(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace("    local: true\n", "    local: true\n    context_tokens: 32768\n")
    fleet = fleet_from(tmp_path, text)
    # 28672 + 4096 (default answer budget) = 32768: just fits.
    fits = routed(fleet, "vendor-c", tokens=28672)
    assert "local-coder" in [c.rung.id for c in fits.lenses[0].candidates]
    tight = routed(fleet, "vendor-c", tokens=28673)
    skips = {skip.rung.id: skip for skip in tight.lenses[0].skipped}
    assert skips["local-coder"].reason is ReasonCode.CAPACITY
    assert skips["local-coder"].detail == "needs 28673 + 4096 tokens, holds 32768"
    # No context_tokens: holds anything.
    assert "openai/gpt-mini-x" in [c.rung.id for c in tight.lenses[0].candidates]
    # gateway-b-long: 200000 context, 2048 answer budget.
    deep = routed(fleet, "vendor-c", tokens=197953)
    assert deep.lenses[4].skipped[0].rung.id == "gateway-b-long"
    assert deep.lenses[4].skipped[0].reason is ReasonCode.CAPACITY


def test_missing_keys_skip_with_no_credentials(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    routing = routed(fleet, "vendor-c", env={"OPENAI_API_KEY": "k", "GATEWAY_KEY": ""})
    skips = {
        (skip.rung.id, skip.reason, skip.detail) for lens in routing.lenses for skip in lens.skipped
    }
    assert (
        "anthropic/claude-y",
        ReasonCode.NO_CREDENTIALS,
        "ANTHROPIC_API_KEY is not set",
    ) in skips
    # An empty variable is no key either.
    assert ("gateway-b-long", ReasonCode.NO_CREDENTIALS, "GATEWAY_KEY is not set") in skips
    assert all(skip[0] != "openai/gpt-mini-x" for skip in skips)


def test_builder_family_is_decided_before_capacity_and_credentials(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    routing = routed(fleet, "gateway-b-long", env={}, tokens=10**6)
    skip = next(s for s in routing.lenses[4].skipped if s.rung.id == "gateway-b-long")
    assert skip.reason is ReasonCode.BUILDER_FAMILY


def test_fused_verifier_is_never_the_primarys_family(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace(
        "verifier: [openai/gpt-mini-x, harness-c]", "verifier: [harness-c, openai/gpt-mini-x]"
    )
    lens = by_lens(routed(fleet_from(tmp_path, text), "qwen"))["resource_economy"]
    verifier = lens["verifier"]
    assert lens["rung"] == "harness-c"
    assert verifier["rung"] == "openai/gpt-mini-x"  # type: ignore[index]
    assert verifier["skipped"] == [  # type: ignore[index]
        {
            "rung": "harness-c",
            "family": "vendor-c",
            "reason": "primary_family",
            "detail": "family 'vendor-c' is the primary's, harness-c",
        }
    ]


def test_fused_seat_without_eligible_verifier_is_unverified(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    routing = routed(fleet, "qwen", env={"ANTHROPIC_API_KEY": "k", "GATEWAY_KEY": "k"})
    lens = next(lens for lens in routing.lenses if lens.lens.id == "boundary_condition")
    assert lens.status is RouteStatus.UNVERIFIED
    assert not routing.all_seated
    data = by_lens(routing)["boundary_condition"]
    assert data["status"] == "unverified"
    assert data["verifier"]["rung"] is None and data["verifier"]["verified"] is False  # type: ignore[index]


def test_fused_seat_prefers_a_primary_a_verifier_can_sit_beside(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace(
        "primary: [local-coder, harness-c]", "primary: [openai/gpt-mini-x, local-coder]"
    ).replace("verifier: [openai/gpt-mini-x, harness-c]", "verifier: [openai/gpt-mini-x]")
    lens = by_lens(routed(fleet_from(tmp_path, text), "vendor-c"))["resource_economy"]
    assert (lens["rung"], lens["verifier"]["rung"]) == ("local-coder", "openai/gpt-mini-x")  # type: ignore[index]
    assert [c["rung"] for c in lens["candidates"]] == ["openai/gpt-mini-x", "local-coder"]  # type: ignore[index]


SOLO_FLEET = """\
rungs:
  - {id: q1, family: qwen, transport: ollama, model: qwen2.5-coder:14b}
  - {id: q2, family: qwen, transport: ollama, model: qwen3:8b}
  - {id: other, family: vendor-c, transport: command, command: [vendor-cli]}
tiers:
  t: [q1, other, q2]
  solo_only: [q1, q2]
  f: {primary: [q1], verifier: [q2]}
lenses:
  defect: {tier: t}
  proportion: {tier: solo_only}
  boundary_condition: {tier: f}
"""


SOLO_LENSES = ("defect", "proportion", "boundary_condition")  # the five others: no tier, hold


def test_without_solo_the_builder_never_sits(tmp_path: Path) -> None:
    routing = routed(fleet_from(tmp_path, SOLO_FLEET), "qwen")
    status = {lens.lens.id: lens.status for lens in routing.lenses}
    assert status == {
        **{lens.id: RouteStatus.HOLD for lens in DEFAULT_LENSES},
        "defect": RouteStatus.SEATED,
    }
    assert not routing.degraded and routing.to_dict()["weakened_gate"] is None


def test_solo_seats_the_builders_family_last_and_says_so(tmp_path: Path) -> None:
    routing = routed(fleet_from(tmp_path, SOLO_FLEET), "qwen", solo=True)
    lenses = by_lens(routing)
    # Another family still sits first where there is one.
    assert [c["rung"] for c in lenses["defect"]["candidates"]] == ["other", "q1", "q2"]  # type: ignore[index]
    assert lenses["defect"]["builder_family_seated"] is False
    assert lenses["proportion"]["rung"] == "q1"
    assert lenses["proportion"]["builder_family_seated"] is True
    fused = lenses["boundary_condition"]
    assert fused["status"] == "seated"
    assert fused["verifier"]["verified"] == "same-family"  # type: ignore[index]
    assert all(lenses[lens]["status"] == "seated" for lens in SOLO_LENSES) and routing.degraded
    # A default lens on a tier the fleet does not declare has no rung: it holds, solo or not.
    assert lenses["telemetry"]["status"] == "hold" and not routing.all_seated
    assert (
        routing.to_dict()["weakened_gate"]
        == WEAKENED_GATE
        == ("graded same-family-blind, not cross-family")
    )


def test_solo_where_another_family_sits_everywhere_is_not_degraded(tmp_path: Path) -> None:
    routing = routed(fleet_from(tmp_path, SPEC_FLEET), "qwen", solo=True)
    assert routing.all_seated and not routing.degraded


def test_skips_become_rejected_rungs_for_the_seat_record(tmp_path: Path) -> None:
    routing = routed(fleet_from(tmp_path, SPEC_FLEET), "qwen")
    rejected = [skip.to_rejected().to_dict() for skip in routing.lenses[0].skipped]
    assert rejected == [
        {
            "rung": "local-coder",
            "reason": "builder_family",
            "raw_tail": None,
            "detail": "family 'qwen' is the builder's",
        }
    ]


def test_a_role_routes_on_a_tier_like_a_lens(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    role = Lens("safety", "operator_safety", "Is it safe to land?")
    lens = route_lens(fleet, role, resolve_builder(fleet, "anthropic"), env=ALL_KEYS)
    assert [c.rung.id for c in lens.candidates] == ["harness-c", "local-coder"]
    assert lens.skipped[0].rung.id == "anthropic/claude-y"


SMALL_FLEET = """\
rungs:
  - {id: a, family: fa, transport: command, command: [a], context_tokens: 8000}
  - {id: b, family: fb, transport: command, command: [b], context_tokens: 32000}
  - {id: z, family: fz, transport: command, command: [z]}
tiers:
  t: [a, b, z]
  u: [z]
lenses:
  defect: {tier: t}
  other: {tier: u, question: "Other?"}
"""


def test_too_large_for_every_rung_is_one_message_or_none(tmp_path: Path) -> None:
    # a lens that lost every rung but the builder's to capacity gets one clear line.
    from tribunal.jury.routing import too_large_for_every_rung

    fleet = fleet_from(tmp_path, SMALL_FLEET)
    lenses = routed(fleet, "fz", tokens=40000).lenses
    assert too_large_for_every_rung(lenses) == (
        "the change is too large for every rung of lens defect: the prompt needs ~40000 tokens"
        " + the answer budget; the largest rung holds 32000"
    )
    assert too_large_for_every_rung(routed(fleet, "fz", tokens=20000).lenses) is None
    assert too_large_for_every_rung(routed(fleet, "fz").lenses) is None  # no estimate given
