"""L-1: the fleet file — shorthand and long form, tiers, lenses; errors name file, line, field."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from testing.fleets import SPEC_FLEET, fleet_from, write_fleet
from testing.strategies import endpoint_texts

from tribunal.cli import cli
from tribunal.enums import Transport
from tribunal.errors import BadInput
from tribunal.jury.lenses import DEFAULT_LENSES, Lens
from tribunal.jury.prompt_size import DEFAULT_ANSWER_TOKENS


def test_spec_example_loads(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    assert list(fleet.rungs) == [
        "openai/gpt-mini-x",
        "anthropic/claude-y",
        "local-coder",
        "gateway-b-long",
        "harness-c",
        "recorded",
    ]
    assert fleet.families == ("anthropic", "openai", "qwen", "replay", "vendor-b", "vendor-c")
    assert fleet.lenses == DEFAULT_LENSES
    assert fleet.tiers["fast_structural"].fused
    assert fleet.tiers["fast_structural"].verifier == ("openai/gpt-mini-x", "harness-c")
    assert not fleet.tiers["generalist"].fused


def test_shorthand_rung(tmp_path: Path) -> None:
    rung = fleet_from(tmp_path, SPEC_FLEET).rungs["openai/gpt-mini-x"]
    assert (rung.family, rung.transport, rung.model) == ("openai", Transport.OPENAI, "gpt-mini-x")
    assert rung.key_env == "OPENAI_API_KEY" and rung.shorthand
    assert rung.context_tokens is None and rung.answer_budget == DEFAULT_ANSWER_TOKENS
    assert fleet_from(tmp_path, SPEC_FLEET).rungs["anthropic/claude-y"].key_env == (
        "ANTHROPIC_API_KEY"
    )


def test_long_form_fields(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, SPEC_FLEET)
    gateway = fleet.rungs["gateway-b-long"]
    assert gateway.key_env == "GATEWAY_KEY"
    assert (gateway.context_tokens, gateway.answer_budget) == (200000, 2048)
    assert gateway.cost == {"input_per_mtok": 0.15, "output_per_mtok": 0.6}
    assert fleet.rungs["harness-c"].command == ("vendor-cli", "-p")
    assert fleet.rungs["harness-c"].key_env is None
    assert fleet.rungs["recorded"].answers == tmp_path / "replay" / "answers.yaml"
    local = fleet.rungs["local-coder"]
    assert local.local and local.max_concurrency == 1 and local.key_env is None


def test_ollama_rungs_are_local_by_default(tmp_path: Path) -> None:
    text = SPEC_FLEET.replace("    local: true\n    max_concurrency: 1\n", "")
    local = fleet_from(tmp_path, text).rungs["local-coder"]
    assert local.local and local.max_concurrency == 1


def test_ollama_shorthand_needs_family(tmp_path: Path) -> None:
    text = (
        "rungs:\n  - use: ollama/llama3\ntiers:\n  t: [ollama/llama3]\n"
        "lenses:\n  defect: {tier: t}\n"
    )
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, text)
    assert str(info.value) == "fleet.yaml:2: rungs[0]: 'family' is required"
    ok = fleet_from(
        tmp_path, text.replace("ollama/llama3\n", "ollama/llama3\n    family: meta\n", 1)
    )
    assert ok.rungs["ollama/llama3"].family == "meta"


def test_a_fleets_lenses_re_route_and_add_but_never_remove_the_default_eight(
    tmp_path: Path,
) -> None:
    # L-1: a trust input cannot thin the jury — naming one lens keeps the other seven.
    text = SPEC_FLEET + (
        "lenses:\n  telemetry: {tier: generalist}\n  perf: {tier: deep_state, question: Fast?}\n"
    )
    lenses = fleet_from(tmp_path, text).lenses
    telemetry = next(lens for lens in DEFAULT_LENSES if lens.id == "telemetry")
    assert lenses == (
        *(lens if lens.id != "telemetry" else Lens("telemetry", "generalist", telemetry.question)
          for lens in DEFAULT_LENSES),
        Lens("perf", "deep_state", "Fast?"),
    )  # fmt: skip
    only_one = fleet_from(tmp_path, SPEC_FLEET + "lenses:\n  defect: {}\n").lenses
    assert only_one == DEFAULT_LENSES


def test_a_default_lens_on_a_tier_the_fleet_lacks_is_kept_and_holds(tmp_path: Path) -> None:
    # Not bad input: a contract may narrow the jury to the lenses the fleet does route (E-2).
    text = SPEC_FLEET.replace("  generalist: [openai/gpt-mini-x, harness-c, local-coder]\n", "")
    fleet = fleet_from(tmp_path, text)
    assert fleet.lenses == DEFAULT_LENSES
    tier = fleet.tier("generalist")
    assert (tier.declared, tier.ladder) == (False, ())
    assert fleet.tier("deep_state").declared


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("  - use: anthropic/claude-y\n", "  - use: mistral/large\n"),
         "fleet.yaml:3: rungs[1].use"),
        (("    transport: command\n", "    transport: carrier-pigeon\n"), "rungs[4].transport"),
        (("    command: [\"vendor-cli\", \"-p\"]\n", ""),
         "fleet.yaml:25: rungs[4]: 'command' is required"),
        (("    answers: replay/answers.yaml\n", ""), "rungs[5]: 'answers' is required"),
        (("    context_tokens: 200000\n", "    context_tokens: lots\n"), "rungs[3].context_tokens"),
        (("    api_key_env: GATEWAY_KEY\n", "    api_key: sk-123\n"), "unknown field 'api_key'"),
        (("  - use: openai/gpt-mini-x\n", "  - use: openai/gpt-mini-x\n    id: x\n"), "'id'"),
        (("generalist: [openai/gpt-mini-x,", "generalist: [openai/gpt-mini,"), "fleet.yaml:36: "
         "tiers.generalist[0]: unknown rung 'openai/gpt-mini'"),
        (("deep_state: [gateway-b-long, harness-c,", "deep_state: [harness-c, harness-c,"),
         "tiers.deep_state[1]: rung 'harness-c' appears twice"),
        (("  - id: harness-c\n", "  - id: local-coder\n"),
         "fleet.yaml:25: rungs[4].id: duplicate rung id 'local-coder'"),
        (("    primary: [local-coder, harness-c]\n", ""), "tiers.fast_structural: 'primary'"),
    ],
)  # fmt: skip
def test_bad_fleets_name_file_line_and_field(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    old, new = edit
    assert old in SPEC_FLEET
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET.replace(old, new, 1))
    assert message in str(info.value)


def test_lens_with_unknown_tier(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET + "lenses:\n  defect: {tier: nowhere}\n")
    assert str(info.value).startswith("fleet.yaml:41: lenses.defect.tier: unknown tier 'nowhere'")


def test_new_lens_needs_tier_and_question(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="question is required"):
        fleet_from(tmp_path, SPEC_FLEET + "lenses:\n  perf: {tier: generalist}\n")


def test_duplicate_keys_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="duplicate"):
        fleet_from(tmp_path, SPEC_FLEET + "tiers: {}\n")
    with pytest.raises(BadInput, match="file is empty"):
        fleet_from(tmp_path, "\n")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("endpoint: http://127.0.0.1:8080/v1", "endpoint: http:///v1"),
         "fleet.yaml:13: rungs[3].endpoint: 'http:///v1' is not an http(s) URL"),
        (("endpoint: http://127.0.0.1:8080/v1", "endpoint: https://:8080/v1"),
         "fleet.yaml:13: rungs[3].endpoint: 'https://:8080/v1' is not an http(s) URL"),
        (("answers: replay/answers.yaml", "answers: replay/missing.yaml"),
         "fleet.yaml:32: rungs[5].answers: answers file 'replay/missing.yaml' does not exist"),
    ],
)  # fmt: skip
def test_unreachable_rungs_are_bad_input_when_the_fleet_loads(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    # L-1, C-3: found before any dispatch, not when the walk reaches the rung.
    old, new = edit
    assert old in SPEC_FLEET
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET.replace(old, new, 1))
    assert str(info.value) == message


def test_an_answers_file_that_does_not_parse_is_bad_input_at_load(tmp_path: Path) -> None:
    answers = tmp_path / "replay" / "answers.yaml"
    answers.parent.mkdir()
    answers.write_text("defect: [unclosed\n", encoding="utf-8")
    with pytest.raises(BadInput) as info:
        fleet_from(tmp_path, SPEC_FLEET)
    assert str(info.value).startswith("fleet.yaml:32: rungs[5].answers: answers file ")


@given(endpoint_texts())
def test_an_endpoint_is_a_url_every_call_can_be_made_to_or_bad_input(endpoint: str) -> None:
    # C-3, L-1: an endpoint the sending library or the name lookup would refuse mid-convening
    # (an internal error, exit 3, after earlier rungs were paid for) is refused when the fleet
    # loads, naming the field; one that loads can be sent to.
    import httpx

    fleet_text = SPEC_FLEET.replace("http://127.0.0.1:8080/v1", json.dumps(endpoint))
    with tempfile.TemporaryDirectory() as directory:
        try:
            fleet = fleet_from(Path(directory), fleet_text)
        except BadInput as error:
            assert (error.source, error.line, error.field) == (
                "fleet.yaml",
                13,
                "rungs[3].endpoint",
            )
            return
    url = f"{fleet.rungs['gateway-b-long'].endpoint}/chat/completions"
    request = httpx.Request("POST", url, json={})
    assert request.url.scheme in ("http", "https") and request.url.host
    assert 1 <= (request.url.port or 80) <= 65535
    request.url.raw_host.decode("ascii").encode("idna")  # what the resolver is handed


@pytest.mark.parametrize(
    ("endpoint", "why"),
    [
        ("http://[::1/v1", "Invalid IPv6 URL"),
        ("http://[zz]/v1", "'zz' does not appear to be an IPv4 or IPv6 address"),
        ("http://exa_mple..com/v1", "label empty or too long"),
        ("http://xn--a/v1", "Codepoint U+0080"),
        ("http://127.0.0.1:99999/v1", "port 99999 is outside 1-65535"),
        ("http://127.0.0.1:0/v1", "port 0 is outside 1-65535"),
        ("http://127.0.0.1:x/v1", "Invalid port: 'x'"),
    ],
)
def test_an_endpoint_that_is_no_url_is_bad_input_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, endpoint: str, why: str
) -> None:
    write_fleet(tmp_path, SPEC_FLEET.replace("http://127.0.0.1:8080/v1", endpoint))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["ladder", "--fleet", "fleet.yaml", "--builder", "vendor-b"])
    assert result.exit_code == 2, result.output
    last = result.stderr.splitlines()[-1]
    prefix = (
        f"tribunal: error: fleet.yaml:13: rungs[3].endpoint: {endpoint!r} is not an http(s) URL"
    )
    assert last.startswith(prefix) and why in last, last
