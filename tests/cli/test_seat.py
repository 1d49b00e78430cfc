"""L-11 `tribunal seat`: one seat against a built envelope; --json; exit codes 0 / 1 / 3 / 2; with
--role, the vote file (A-2) that `tribunal arbitrate` then decides on."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from testing.disputes import make_dispute
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.documents import first_schema_error
from tribunal.jury.lenses import DEFAULT_LENSES, Lens

CALC = "def sub(a, b):\n    return max(a - b, 0)\n"
FLEET = """\
rungs:
  - {id: rec-a, family: vendor-a, transport: replay, answers: answers.yaml}
  - {id: rec-b, family: vendor-b, transport: replay, answers: answers.yaml}
  - {id: rec-c, family: vendor-c, transport: replay, answers: answers.yaml}
  - {id: the-builder, family: vendor-z, transport: replay, answers: answers.yaml}
tiers:
  generalist: [rec-a, rec-b]
  operator_safety: [rec-b, rec-c]
  fast_structural: {primary: [rec-a], verifier: [rec-b, rec-c]}
lenses:
  defect: {}
  telemetry: {}
  boundary_condition: {}
  unanswered: {tier: generalist, question: "Is anyone there?"}
"""
MAJOR = {"severity": "major", "claim": "no upper bound", "location": "calc.py:2"}
BLOCKER = {"severity": "blocker", "claim": "deletes the ledger", "location": "gone.py:9"}
CHECKED = [{"claim": "clamps at zero", "location": "calc.py:2", "evidence": "max(a - b, 0)"}]


def answer(lens: str, verdict: str = "pass", **fields: object) -> str:
    return json.dumps({"verdict": verdict, "lens": lens, "findings": [], **fields})


ANSWERS = {
    "defect": answer("defect", checked=CHECKED),
    "telemetry": answer("telemetry", "refuse", findings=[MAJOR]),
    "boundary_condition": answer("boundary_condition", checked=CHECKED),
    "verifier": answer("verifier", checked=CHECKED),
    "implementor": answer("implementor", checked=CHECKED),
    "safety": answer("safety", checked=CHECKED),
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with a change, its envelope in out/envelope and a replay fleet."""
    git = GitRepo(tmp_path / "repo")
    git.commit("base", {"calc.py": "def sub(a, b):\n    return a - b\n", "test_calc.py": "x = 1\n"})
    git.git("tag", "base")
    git.commit("clamp", {"calc.py": CALC})
    root = git.path
    (root / "contract.yaml").write_text("intent: Clamp at zero.\ncriteria: [clamps]\n")
    monkeypatch.chdir(root)
    built = invoke("envelope", "--repo", ".", "--base", "base", "--contract", "contract.yaml",
                   "--out", "out/envelope")  # fmt: skip
    assert built.exit_code == 0, built.stderr
    (root / "fleet.yaml").write_text(FLEET)
    answers(root, ANSWERS)
    return root


def answers(root: Path, replies: dict[str, str]) -> None:
    (root / "answers.yaml").write_text(yaml.safe_dump(replies), encoding="utf-8")


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def seat(*args: str, builder: str = "vendor-z") -> Result:
    common = ["--fleet", "fleet.yaml", "--builder", builder, "--envelope", "out/envelope"]
    return invoke("seat", *common, *args)


def test_a_seat_prints_its_record_and_exits_0_on_pass(repo: Path) -> None:
    result = seat("--lens", "defect", builder="vendor-a")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "lens: defect (tier generalist)\n"
        "seated: rec-b [vendor-b] (recorded reply)\n"
        "verdict: PASS\n"
        "checked:\n"
        "  calc.py:2 clamps at zero (citation: verified)\n"
        "rejected rungs:\n"
        "  rec-a: builder_family (family 'vendor-a' is the builder's)\n"
    )


def test_json_is_one_schema_valid_document(repo: Path) -> None:
    result = seat("--lens", "boundary_condition", "--json", builder="vendor-c")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert first_schema_error(data, "seat_record") is None
    assert (data["rung"], data["verified"], data["recorded"]) == ("rec-a", True, True)
    assert data["verifier"]["rung"] == "rec-b"


@pytest.mark.parametrize(
    ("lens", "code", "verdict"), [("telemetry", 1, "refuse"), ("unanswered", 3, "hold")]
)
def test_refuse_exits_1_and_hold_exits_3(repo: Path, lens: str, code: int, verdict: str) -> None:
    result = seat("--lens", lens, "--json")
    assert result.exit_code == code, result.stderr
    data = json.loads(result.stdout)
    assert data["verdict"] == verdict
    if verdict == "hold":
        assert data["rung"] is None
        assert {r["reason"] for r in data["rejected_rungs"]} == {"not_answered"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--lens", "nope"],
            "unknown lens 'nope'; lenses of fleet.yaml: defect, proportion, "
            "operator_consequence, telemetry, reversibility, state_continuity, resource_economy, "
            "boundary_condition, unanswered",
        ),
        (["--lens", "defect", "--builder", "nobody"], "known families: vendor-a, vendor-b"),
        (["--lens", "defect", "--envelope", "missing"], "missing/manifest.json"),
        (["--lens", "defect", "--role", "safety"], "give --lens LENS or --role ROLE"),
        (["--role", "safety"], "--role needs --dispute DIR and --round N"),
        (["--lens", "defect", "--round", "1"], "--dispute and --round go with --role"),
    ],
)
def test_bad_input_exits_2(repo: Path, args: list[str], words: str) -> None:
    result = seat(*args)
    assert result.exit_code == 2
    assert words in result.stderr
    assert result.stdout == ""


def test_a_later_rungs_missing_answers_file_is_bad_input_before_any_dispatch(repo: Path) -> None:
    # L-1, C-3: the first rung is a live server; the fleet mistake on the second is found when
    # the fleet loads, so the first rung is never asked (never paid for).
    from testing.jurors import JurorServer, status

    with JurorServer("openai") as server:
        server.always(status(503))  # not_answered: the walk would go on to the replay rung
        (repo / "fleet.yaml").write_text(
            "rungs:\n"
            f"  - {{id: live, family: vendor-a, transport: openai, endpoint: {server.endpoint},"
            " model: m}\n"
            "  - {id: rec-b, family: vendor-b, transport: replay, answers: gone.yaml}\n"
            "  - {id: the-builder, family: vendor-z, transport: replay, answers: answers.yaml}\n"
            "tiers:\n  generalist: [live, rec-b]\nlenses:\n  defect: {}\n"
        )
        result = seat("--lens", "defect")
        assert server.requests == []
    assert result.exit_code == 2
    assert result.stderr == (
        "tribunal: error: fleet.yaml:3: rungs[1].answers: answers file 'gone.yaml' does not exist\n"
    )


def test_a_harness_rung_needs_the_repo(repo: Path) -> None:
    (repo / "fleet.yaml").write_text(
        "rungs:\n  - {id: cli, family: vendor-h, transport: command, command: [cat]}\n"
        "  - {id: the-builder, family: vendor-z, transport: command, command: [cat]}\n"
        "tiers:\n  generalist: [cli]\nlenses:\n  defect: {}\n"
    )
    result = seat("--lens", "defect")
    assert result.exit_code == 2
    assert "--repo" in result.stderr and "cli" in result.stderr


# --- --role: the vote file ------------------------------------------------------------------


def role(role_name: str, *extra: str, round_number: str = "1") -> Result:
    return seat(
        "--role", role_name, "--dispute", "disputes/rate-limit", "--round", round_number, *extra
    )


def vote_of(repo: Path, name: str) -> dict[str, object]:
    path = repo / "disputes" / "rate-limit" / "votes" / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert first_schema_error(data, "vote") is None
    return dict(data)


def test_refusing_verifier_writes_a_deny_citing_the_finding(repo: Path) -> None:
    make_dispute(repo)
    answers(repo, {**ANSWERS, "verifier": answer("verifier", "refuse", findings=[MAJOR])})
    result = role("verifier", "--repo", ".")
    assert result.exit_code == 1, result.stderr
    assert "wrote disputes/rate-limit/votes/R1-verifier.yaml (DENY)" in result.stderr
    assert vote_of(repo, "R1-verifier.yaml") == {
        "round": 1,
        "role": "verifier",
        "action": "challenged",
        "vote": "DENY",
        "critical_risk": False,
        "summary": "[major] no upper bound",
        "evidence_ref": ["../../calc.py:2"],
    }


def test_safety_blocker_is_a_critical_risk_and_unresolvable_locations_cite_the_manifest(
    repo: Path,
) -> None:
    make_dispute(repo)
    answers(repo, {**ANSWERS, "safety": answer("safety", "refuse", findings=[BLOCKER])})
    result = role("safety", "--json")
    assert result.exit_code == 1, result.stderr
    assert json.loads(result.stdout)["tier"] == "operator_safety"
    vote = vote_of(repo, "R1-safety.yaml")
    assert (vote["vote"], vote["critical_risk"]) == ("DENY", True)
    assert vote["evidence_ref"] == ["../../out/envelope/manifest.json"]


def test_hold_is_deferred(repo: Path) -> None:
    make_dispute(repo)
    answers(repo, {key: value for key, value in ANSWERS.items() if key != "implementor"})
    result = role("implementor")
    assert result.exit_code == 3
    vote = vote_of(repo, "R1-implementor.yaml")
    assert (vote["vote"], vote["action"]) == ("DEFERRED", "deferred")


def test_an_existing_vote_is_never_overwritten(repo: Path) -> None:
    make_dispute(repo)
    assert role("verifier").exit_code == 0
    path = repo / "disputes" / "rate-limit" / "votes" / "R1-verifier.yaml"
    before = path.read_bytes()
    answers(repo, {**ANSWERS, "verifier": answer("verifier", "refuse", findings=[MAJOR])})
    result = role("verifier")
    assert result.exit_code == 2
    assert "never overwritten" in result.stderr and result.stdout == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ["dangling symlink", "symlink to a file", "FIFO"])
def test_a_vote_file_path_holding_another_node_is_bad_input_before_any_dispatch(
    repo: Path, kind: str
) -> None:
    # C-3: nothing is dispatched and nothing replaced: the dispute refuses a vote that is no
    # file, and the vote's own path is checked as every output is.
    make_dispute(repo)
    path = repo / "disputes" / "rate-limit" / "votes" / "R1-verifier.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    elsewhere = repo / "elsewhere.yaml"
    if kind == "FIFO":
        os.mkfifo(path)
    else:
        if kind == "symlink to a file":
            elsewhere.write_text("theirs\n", encoding="utf-8")
        path.symlink_to(elsewhere)
    answers(repo, {**ANSWERS, "verifier": "not a reply anyone could parse"})
    result = role("verifier")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tribunal: error: disputes/rate-limit/votes/R1-verifier.yaml: ")
    assert path.is_symlink() or stat.S_ISFIFO(os.lstat(path).st_mode)
    assert not elsewhere.exists() or elsewhere.read_text(encoding="utf-8") == "theirs\n"


def test_an_envelope_outside_the_repository_cannot_be_cited(repo: Path, tmp_path: Path) -> None:
    make_dispute(repo)
    built = invoke("envelope", "--repo", ".", "--base", "base", "--contract", "contract.yaml",
                   "--out", str(tmp_path / "outside"))  # fmt: skip
    assert built.exit_code == 0, built.stderr
    result = invoke("seat", "--fleet", "fleet.yaml", "--builder", "vendor-z", "--envelope",
                    str(tmp_path / "outside"), "--role", "verifier", "--dispute",
                    "disputes/rate-limit", "--round", "1")  # fmt: skip
    assert result.exit_code == 2
    assert "--envelope" in result.stderr
    assert not (repo / "disputes" / "rate-limit" / "votes").exists()


def test_arbitrate_decides_on_the_seated_votes(repo: Path) -> None:
    make_dispute(repo)
    for name in ("verifier", "implementor", "safety"):
        assert role(name, "--repo", ".").exit_code == 0
    assert vote_of(repo, "R1-verifier.yaml")["action"] == "defended"
    assert vote_of(repo, "R1-implementor.yaml")["action"] == "proposed"
    result = invoke("arbitrate", "disputes/rate-limit")
    assert result.exit_code == 0, result.stderr  # APPROVE by the pass rule
    assert "APPROVE" in result.stderr


def test_a_seat_on_its_own_unloads_the_ollama_model_it_used_at_its_end(repo: Path) -> None:
    # L-7: `tribunal seat` is the last holder of the models it asked.
    from testing.jurors import JurorServer, reply

    with JurorServer("ollama") as server:
        server.always(reply(answer("defect", checked=CHECKED)))
        (repo / "fleet.yaml").write_text(
            "rungs:\n"
            f"  - {{id: local, family: qwen, transport: ollama, endpoint: {server.endpoint},"
            " model: coder}\n"
            "  - {id: the-builder, family: vendor-z, transport: replay, answers: answers.yaml}\n"
            "tiers:\n  generalist: [local]\nlenses:\n  defect: {}\n"
        )
        result = seat("--lens", "defect")
    assert result.exit_code == 0, result.stderr
    assert [received.path for received in server.requests] == [
        "/api/show",
        "/api/chat",
        "/api/generate",
    ]
    assert server.requests[-1].body == {"model": "coder", "keep_alive": 0}


def test_ladder_checks_capacity_with_the_prompt_the_seat_will_send(repo: Path) -> None:
    # L-2, L-3: one estimate — a rung that holds the envelope alone but not the whole prompt is
    # skipped by `tribunal ladder` exactly as the walk of `tribunal seat` skips it.
    from tribunal.jury.envelope.read import read_envelope
    from tribunal.jury.prompt import render_prompt
    from tribunal.jury.transports import SeatRequest

    envelope = read_envelope(repo / "out" / "envelope")
    manifest = json.loads((repo / "out" / "envelope" / "manifest.json").read_text())

    def needs(lens: Lens) -> int:
        prompt = render_prompt(
            tier=lens.tier,
            lens=lens.id,
            question=lens.question,
            envelope=envelope.text,
            example=envelope.example,  # E-5: the example citation is part of what the seat sends
        )
        return SeatRequest(prompt=prompt, seat=lens.id).tokens_estimate

    needed = needs(DEFAULT_LENSES[0])  # defect's own prompt; the ladder shows the jury's largest
    largest = max(needs(lens) for lens in DEFAULT_LENSES)
    context = manifest["tokens_estimate"] + 100 + 50  # holds the envelope + budget, not the prompt
    (repo / "fleet.yaml").write_text(
        "rungs:\n"
        "  - {id: rec-a, family: vendor-a, transport: replay, answers: answers.yaml,"
        f" context_tokens: {context}, max_output_tokens: 100}}\n"
        "  - {id: the-builder, family: vendor-z, transport: replay, answers: answers.yaml}\n"
        "tiers:\n  generalist: [rec-a]\nlenses:\n  defect: {}\n"
    )
    ladder = invoke(
        "ladder", "--fleet", "fleet.yaml", "--builder", "vendor-z", "--envelope", "out/envelope",
        "--json",
    )  # fmt: skip
    data = json.loads(ladder.stdout)
    assert context < needed <= largest == data["tokens"]
    assert [s["reason"] for s in data["lenses"][0]["skipped"]] == ["capacity"]
    assert ladder.exit_code == 3
    sat = seat("--lens", "defect", "--json")
    assert sat.exit_code == 3
    assert [r["reason"] for r in json.loads(sat.stdout)["rejected_rungs"]] == ["capacity"]


def test_a_change_too_large_for_every_rung_gets_one_clear_line(repo: Path) -> None:
    # ladder and seat both say it once, and the lens holds (exit 3).
    (repo / "fleet.yaml").write_text(
        "rungs:\n"
        "  - {id: rec-a, family: vendor-a, transport: replay, answers: answers.yaml,"
        " context_tokens: 300, max_output_tokens: 100}\n"
        "  - {id: rec-b, family: vendor-b, transport: replay, answers: answers.yaml,"
        " context_tokens: 900, max_output_tokens: 100}\n"
        "  - {id: the-builder, family: vendor-z, transport: replay, answers: answers.yaml}\n"
        "tiers:\n  generalist: [rec-a, rec-b, the-builder]\nlenses:\n  defect: {}\n"
    )
    ladder = invoke("ladder", "--fleet", "fleet.yaml", "--builder", "vendor-z",
                    "--envelope", "out/envelope")  # fmt: skip
    sat = seat("--lens", "defect")
    # The ladder routes the whole jury: the two generalist lenses are too large, the six
    # others hold for want of a tier; the seat is the one lens.
    for result, which in ((ladder, " of lens defect, proportion"), (sat, "")):
        assert result.exit_code == 3
        lines = [line for line in result.stderr.splitlines() if "too large" in line]
        assert len(lines) == 1
        assert lines[0].startswith(
            f"tribunal: the change is too large for every rung{which}: the prompt"
        )
        assert lines[0].endswith("tokens + the answer budget; the largest rung holds 900")
