"""L-1: the request fields of a rung — `response_format` (default json_object, long form and
shorthand) — checked when the fleet loads; a wrong value is bad input naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.fleets import SPEC_FLEET, fleet_from

from tribunal.enums import ResponseFormat
from tribunal.errors import BadInput
from tribunal.jury.seat.walk import rung_config


def test_json_object_is_the_default(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    assert {rung.response_format for rung in fleet.rungs.values()} == {ResponseFormat.JSON_OBJECT}


@pytest.mark.parametrize("form", [form.value for form in ResponseFormat])
def test_each_form_on_a_long_and_a_shorthand_rung(tmp_path: Path, form: str) -> None:
    text = SPEC_FLEET.replace(
        "    reasoning: false\n", f"    reasoning: false\n    response_format: {form}\n"
    ).replace(
        "  - use: anthropic/claude-y\n",
        f"  - use: anthropic/claude-y\n    response_format: {form}\n",
    )
    fleet = fleet_from(tmp_path, text)
    for rung_id in ("gateway-b-long", "anthropic/claude-y"):
        rung = fleet.rungs[rung_id]
        assert rung.response_format is ResponseFormat(form)
        assert rung_config(rung, tmp_path).response_format is ResponseFormat(form)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("    reasoning: false\n", "    reasoning: false\n    response_format: json_schemas\n"),
         "fleet.yaml:19: rungs[3].response_format: 'json_schemas' is not one of ['json_schema',"
         " 'json_object_schema', 'json_object', 'none']"),
        (("  - use: openai/gpt-mini-x\n", "  - use: openai/gpt-mini-x\n    response_format: 1\n"),
         "fleet.yaml:3: rungs[0].response_format: 1 is not one of"),
        (("    command: [\"vendor-cli\", \"-p\"]\n",
          "    command: [\"vendor-cli\", \"-p\"]\n    response_format: json_schema\n"),
         "fleet.yaml:29: rungs[4].response_format: response_format applies to openai, anthropic"
         " and ollama rungs, not command"),
        (("    answers: replay/answers.yaml\n",
          "    answers: replay/answers.yaml\n    response_format: none\n"),
         "rungs[5].response_format: response_format applies to openai, anthropic and ollama"
         " rungs, not replay"),
    ],
)  # fmt: skip
def test_a_wrong_response_format_is_bad_input_naming_the_field(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    old, new = edit
    assert old in SPEC_FLEET
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET.replace(old, new, 1))
    assert message in str(info.value)
