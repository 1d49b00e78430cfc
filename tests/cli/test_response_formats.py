"""L-6, L-7: where a real set-up fails on its response format, `tribunal seat` says which form
the server rejected and what to set instead; `tribunal ladder`, which calls no server, says
which rungs will send a form other than the default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.gitrepo import GitRepo
from testing.jurors import JurorServer, rejects_format, structured

from tribunal.cli import cli

# The builder's own rung: on no ladder, so every seat falls to another family.
BUILDER = (
    "  - {id: the-builder, family: vendor-z, transport: openai, endpoint: http://127.0.0.1:9/v1,"
    " model: z}\n"
)
TIERS = ("generalist", "operator_safety", "deep_state", "fast_structural")  # the whole jury
PASS = {
    "lens": "defect",
    "checked": [{"location": "calc.py:2", "evidence": "max(a - b, 0)", "claim": "clamps"}],
    "findings": [],
    "verdict": "pass",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a change and its envelope in out/envelope."""
    git = GitRepo(tmp_path / "repo")
    git.commit("base", {"calc.py": "def sub(a, b):\n    return a - b\n"})
    git.git("tag", "base")
    git.commit("clamp", {"calc.py": "def sub(a, b):\n    return max(a - b, 0)\n"})
    (git.path / "contract.yaml").write_text("intent: Clamp at zero.\ncriteria: [clamps]\n")
    monkeypatch.chdir(git.path)
    built = invoke("envelope", "--repo", ".", "--base", "base", "--contract", "contract.yaml",
                   "--out", "out/envelope")  # fmt: skip
    assert built.exit_code == 0, built.stderr
    return git.path


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def fleet(root: Path, llama: JurorServer, other: JurorServer) -> None:
    (root / "fleet.yaml").write_text(
        "rungs:\n"
        f"  - {{id: llama, family: qwen, transport: openai, endpoint: {llama.endpoint},"
        " model: coder, response_format: json_schema, local: true}\n"
        f"  - {{id: gateway, family: vendor-b, transport: openai, endpoint: {other.endpoint},"
        " model: big, response_format: json_object_schema}\n"
        f"  - {{id: spare, family: vendor-c, transport: ollama, endpoint: {other.url},"
        " model: small}\n"
        + BUILDER
        + "tiers:\n"
        + "".join(f"  {tier}: [llama, gateway, spare]\n" for tier in TIERS)
    )


def test_seat_names_the_rejected_form_and_the_fix(repo: Path) -> None:
    with JurorServer("openai") as llama, JurorServer("openai") as other:
        llama.always(rejects_format())
        other.always(structured(PASS))
        fleet(repo, llama, other)
        common = ["--fleet", "fleet.yaml", "--builder", "vendor-z", "--envelope", "out/envelope"]
        result = invoke("seat", *common, "--lens", "defect")
        as_json = invoke("seat", *common, "--lens", "defect", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "lens: defect (tier generalist)\n"
        "seated: gateway [vendor-b]\n"
        "verdict: PASS\n"
        "checked:\n"
        "  calc.py:2 clamps (citation: verified)\n"
        "rejected rungs:\n"
        "  llama: response_format_unsupported (the server rejected response_format json_schema:"
        " set response_format: json_object (or json_object_schema for llama.cpp) on rung llama"
        " (HTTP 500))\n"
    )
    [rejected] = json.loads(as_json.stdout)["rejected_rungs"]
    assert rejected["reason"] == "response_format_unsupported"
    assert "set response_format: json_object" in rejected["detail"]


def test_ladder_says_which_rungs_send_a_schema_form(repo: Path) -> None:
    with JurorServer("openai") as llama, JurorServer("ollama") as other:
        fleet(repo, llama, other)
        result = invoke("ladder", "--fleet", "fleet.yaml", "--builder", "vendor-z")
        assert not llama.requests and not other.requests  # the ladder calls no server
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(
        "all 8 lenses seated\n"
        "\n"
        "response formats (a server that rejects one is passed over at the call; tribunal seat"
        " names the fix):\n"
        "  llama: json_schema (OpenAI structured outputs (strict) with the verdict schema)\n"
        "  gateway: json_object_schema (a JSON object with the verdict schema, the form"
        " llama.cpp servers take)\n"
    )


def test_ladder_says_nothing_of_default_formats(repo: Path) -> None:
    (repo / "fleet.yaml").write_text(
        "rungs:\n"
        "  - {id: a, family: vendor-a, transport: openai, endpoint: http://127.0.0.1:9/v1,"
        " model: m}\n" + BUILDER + "tiers:\n" + "".join(f"  {tier}: [a]\n" for tier in TIERS)
    )
    result = invoke("ladder", "--fleet", "fleet.yaml", "--builder", "vendor-z")
    assert result.exit_code == 0, result.stderr
    assert "response format" not in result.stdout
