"""L-2: --builder resolution, and exclusion by family and by model token."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.fleets import SPEC_FLEET, fleet_from

from tribunal.enums import BuilderMatch
from tribunal.errors import BadInput
from tribunal.jury.builder import resolve_builder, tokens


def test_tokens_split_on_non_letters() -> None:
    assert tokens("qwen2.5-coder:14b") == ("qwen", "coder", "b")
    assert tokens("Vendor-B/Long-1") == ("vendor", "b", "long")
    assert tokens("4.0") == ()


@pytest.mark.parametrize(
    ("name", "matched", "families"),
    [
        ("LOCAL-CODER", BuilderMatch.RUNG, ("qwen",)),
        ("openai/gpt-mini-x", BuilderMatch.RUNG, ("openai",)),
        ("Qwen2.5-Coder:14B", BuilderMatch.MODEL, ("qwen",)),
        ("gpt-mini-x", BuilderMatch.MODEL, ("openai",)),
        ("Vendor-B", BuilderMatch.FAMILY, ("vendor-b",)),
        ("qwen", BuilderMatch.FAMILY, ("qwen",)),
    ],
)
def test_builder_resolves_case_insensitively(
    tmp_path: Path, name: str, matched: BuilderMatch, families: tuple[str, ...]
) -> None:
    builder = resolve_builder(fleet_from(tmp_path, SPEC_FLEET), name)
    assert (builder.matched, builder.families) == (matched, families)


@pytest.mark.parametrize("name", ["nobody", "", "   ", "gpt"])
def test_unknown_builder_is_bad_input_listing_families(tmp_path: Path, name: str) -> None:
    with pytest.raises(BadInput) as info:
        resolve_builder(fleet_from(tmp_path, SPEC_FLEET), name)
    assert info.value.field == "--builder"
    assert str(info.value).endswith(
        "known families: anthropic, openai, qwen, replay, vendor-b, vendor-c"
    )


def test_family_excludes_every_rung_of_it(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    builder = resolve_builder(fleet, "qwen")
    excluded = [rung.id for rung in fleet.rungs.values() if builder.excludes(rung)]
    assert excluded == ["local-coder"]
    assert builder.excludes(fleet.rungs["local-coder"]) == "family 'qwen' is the builder's"


def test_model_token_excludes_a_rung_of_another_declared_family(tmp_path: Path) -> None:
    # A gateway serving the builder's model under another family name is still the builder.
    text = SPEC_FLEET.replace("model: vendor-b/long-1", "model: qwen/qwen2.5-coder-14b")
    fleet = fleet_from(tmp_path, text)
    builder = resolve_builder(fleet, "qwen")
    assert builder.excludes(fleet.rungs["gateway-b-long"]) == (
        "model 'qwen/qwen2.5-coder-14b' carries the builder token 'qwen'"
    )
    # The builder named by rung id also betrays itself through its model's tokens.
    by_rung = resolve_builder(fleet, "local-coder")
    assert by_rung.excludes(fleet.rungs["gateway-b-long"]) is not None
    assert by_rung.excludes(fleet.rungs["harness-c"]) is None


def test_token_match_is_whole_tokens_only(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace("model: vendor-b/long-1", "model: qwenlike-7b")
    fleet = fleet_from(tmp_path, text)
    assert resolve_builder(fleet, "qwen").excludes(fleet.rungs["gateway-b-long"]) is None
