"""L-2 `tribunal ladder`: the routing table, --json (C-7), exit codes 0 / 3 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.fleets import ALL_KEYS, SPEC_FLEET, write_fleet

from tribunal.cli import cli
from tribunal.documents import first_schema_error
from tribunal.jury.lenses import DEFAULT_LENSES

FLOOR_OK = """\
rungs:
  - {id: a, family: fa, transport: command, command: [a]}
  - {id: b, family: fb, transport: command, command: [b], context_tokens: 150000}
  - {id: c, family: fc, transport: command, command: [c]}
  - {id: local, family: fl, transport: ollama, model: fl-coder:7b, context_tokens: 32768}
tiers:
  t: [a, b, c, local]
lenses:
""" + "".join(f"  {lens.id}: {{tier: t}}\n" for lens in DEFAULT_LENSES)
SKIPS = (
    "    skipped a [fa]: builder_family (family 'fa' is the builder's)\n"
    "    skipped b [fb]: capacity (needs 146000 + 4096 tokens, holds 150000)\n"
    "    skipped local [fl]: capacity (needs 146000 + 4096 tokens, holds 32768)\n"
)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["ladder", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_table_for_a_seated_fleet(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK)
    code, out, err = run("--fleet", "fleet.yaml", "--builder", "FA", "--tokens", "146000")
    assert code == 0
    assert err == ""
    assert out == (
        "fleet: fleet.yaml\n"
        "builder: FA (matched a family; family fa)\n"
        "prompt: 146000 tokens\n"
        "\n"
        "LENS                  TIER  STATUS  SEATED  VERIFIER\n"
        + "".join(f"{lens.id:<20}  t     SEATED  c [fc]  -\n{SKIPS}" for lens in DEFAULT_LENSES)
        + "\nall 8 lenses seated\n"
    )


def test_spec_example_builder_naming_the_local_family_excludes_it(in_tmp: Path) -> None:
    write_fleet(in_tmp, SPEC_FLEET)
    code, out, _ = run("--fleet", "fleet.yaml", "--builder", "qwen", "--json", env=ALL_KEYS)
    assert code == 0
    data = json.loads(out)
    assert first_schema_error(data, "routing") is None
    assert data["builder"] == {"name": "qwen", "matched": "family", "families": ["qwen"]}
    for lens in data["lenses"]:
        assert lens["family"] != "qwen"
        assert {"rung": "local-coder", "family": "qwen"}.items() <= lens["skipped"][-1].items()


def test_a_lens_with_no_rung_left_holds_exit_3(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK.replace("t: [a, b, c, local]", "t: [a]"))
    code, out, err = run("--fleet", "fleet.yaml", "--builder", "fa")
    assert code == 3
    assert "defect                t     HOLD    -       -\n" in out
    assert out.endswith("8 of 8 lenses hold\n")
    assert "does not end on a local survival rung" in err


def test_json_is_one_document_on_stdout_and_warnings_go_to_stderr(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK.replace("t: [a, b, c, local]", "t: [a, b, local]"))
    code, out, err = run("--fleet", "fleet.yaml", "--builder", "fl-coder:7b", "--json")
    assert code == 0
    data = json.loads(out)
    assert first_schema_error(data, "routing") is None
    assert data["warnings"] == [
        "tier 't' has 2 rung(s) able to hold a 120000-token artifact before its local end, "
        "fewer than 3 (the ladder's floor)"
    ]
    assert err == f"tribunal: warning: fleet.yaml: {data['warnings'][0]}\n"


def test_strict_turns_the_floor_warning_into_exit_2(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK.replace("t: [a, b, c, local]", "t: [a, local]"))
    code, out, err = run("--fleet", "fleet.yaml", "--builder", "fb", "--strict")
    assert (code, out) == (2, "")
    assert err.startswith("tribunal: error: fleet.yaml:7: tiers.t: tier 't' has 1 rung(s)")


def test_unknown_builder_exits_2_listing_families(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK)
    code, out, err = run("--fleet", "fleet.yaml", "--builder", "gpt-9")
    assert (code, out) == (2, "")
    assert err == (
        "tribunal: error: --builder: 'gpt-9' names no rung id, model id or family of "
        "fleet.yaml; known families: fa, fb, fc, fl\n"
    )


def test_bad_fleet_exits_2_naming_file_line_field(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK.replace("transport: ollama", "transport: olama"))
    code, _, err = run("--fleet", "fleet.yaml", "--builder", "fa")
    assert code == 2
    assert err.startswith("tribunal: error: fleet.yaml:5: rungs[3].transport: 'olama' is not")


def test_missing_fleet_exits_2(in_tmp: Path) -> None:
    code, _, err = run("--fleet", "nope.yaml", "--builder", "fa")
    assert (code, err) == (2, "tribunal: error: nope.yaml: file not found\n")


def test_envelope_manifest_gives_the_prompt_estimate(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK)
    (in_tmp / "env").mkdir()
    manifest = {"repo": ".", "base": "a", "head": "b", "receipt": "0" * 64,
                "tokens_estimate": 146000, "warnings": [], "files": []}  # fmt: skip
    (in_tmp / "env" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    code, out, _ = run("--fleet", "fleet.yaml", "--builder", "fa", "--envelope", "env", "--json")
    assert code == 0
    data = json.loads(out)
    # L-3: the manifest's envelope estimate plus each lens's tier header, preamble and protocol.
    assert 146000 + 500 < data["tokens"] < 146000 + 2000
    assert [s["reason"] for s in data["lenses"][0]["skipped"]] == [
        "builder_family",
        "capacity",
        "capacity",
    ]


def test_envelope_without_estimate_exits_2(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK)
    (in_tmp / "env").mkdir()
    (in_tmp / "env" / "manifest.json").write_text('{"tokens_estimate": "big"}', encoding="utf-8")
    code, _, err = run("--fleet", "fleet.yaml", "--builder", "fa", "--envelope", "env")
    assert code == 2
    assert err.startswith("tribunal: error: env/manifest.json:1: tokens_estimate: must be")
    code, _, err = run("--fleet", "fleet.yaml", "--builder", "fa", "--envelope", "absent")
    assert (code, err) == (2, "tribunal: error: absent/manifest.json: file not found\n")


def test_tokens_and_envelope_are_exclusive(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK)
    code, _, err = run(
        "--fleet", "fleet.yaml", "--builder", "fa", "--tokens", "1", "--envelope", "."
    )
    assert code == 2 and "--tokens or --envelope" in err


def test_solo_names_the_weakened_gate(in_tmp: Path) -> None:
    write_fleet(in_tmp, FLOOR_OK.replace("t: [a, b, c, local]", "t: [a, local]"))
    code, out, _ = run("--fleet", "fleet.yaml", "--builder", "fa", "--solo")
    assert code == 0
    assert "defect                t     SEATED  local [fl]" in out
    code, out, _ = run("--fleet", "fleet.yaml", "--builder", "fl", "--solo")
    assert code == 0
    assert "SEATED  a [fa]" in out and "DEGRADED" not in out
    write_fleet(in_tmp, FLOOR_OK.replace("t: [a, b, c, local]", "t: [local]"))
    code, out, _ = run("--fleet", "fleet.yaml", "--builder", "fl", "--solo")
    assert code == 0
    assert "local [fl] builder_family_seated" in out
    assert out.endswith("DEGRADED: graded same-family-blind, not cross-family\n")
