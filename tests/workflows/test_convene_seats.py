"""`tribunal convene` driven by real juror servers on 127.0.0.1 over a real repository (B-1,
L-2, L-5, L-10, B-3, E-5, S-6): each seat-driven outcome row of B-1, with `--no-proofs` (the
proofs' own rows are in test_convene_proofs)."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from testing.convening import (
    FUSED,
    Jury,
    Ran,
    contract_file,
    convene,
    jury,
    passing,
    refusing,
)
from testing.hermetic import make_hermetic
from testing.jurors import echo_key, status
from testing.proof_projects import CALC_RIGHT, Change, change
from testing.seat_records import EIGHT

from tribunal.documents import first_schema_error

NO_PROOFS = "--no-proofs"


@pytest.fixture(scope="module")
def subject(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Change]:
    """One real base -> red -> fix repository shared by the module (nothing here changes it)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        yield change(tmp_path_factory.mktemp("seats") / "repo", {"calc.py": CALC_RIGHT})


@pytest.fixture
def contract(subject: Change, tmp_path: Path) -> Path:
    return contract_file(tmp_path / "contract.yaml", subject.red, command=None)


@pytest.fixture
def court(tmp_path: Path) -> Iterator[Jury]:
    with jury(tmp_path) as live:
        yield live


def run(
    subject: Change, contract: Path, court: Jury, tmp_path: Path, *extra: str, **options: object
) -> Ran:
    ledger = ["--ledger", str(tmp_path / "ledger.json")]
    return convene(
        subject.path, subject.base, contract, court.fleet, tmp_path / "out", *ledger, *extra,
        **options,  # type: ignore[arg-type]
    )  # fmt: skip


def test_unanimous_cited_pass_lands(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert ran.exit_code == 0, ran.stderr + ran.stdout
    summary = ran.summary
    assert summary["outcome"] == "LAND" and summary["degraded"] is False
    assert first_schema_error(summary, "summary") is None
    # L-2: no seat on the builder's family, and the routing proof says so.
    assert {seat["family"] for seat in summary["seats"]} <= {"vendor-b", "vendor-c"}
    assert "routing proof (builder family: vendor-a):" in ran.stdout
    assert "refused as the builder's family: juror-a" in ran.stdout
    # A fused seat meets the builder's rung on both ladders: the proof names it once.
    assert (
        "boundary_condition: juror-b [vendor-b]: another family than the builder's; "
        "verifier juror-c [vendor-c]; refused as the builder's family: juror-a\n" in ran.stdout
    )
    assert "proofs: not run (--no-proofs)" in ran.stdout
    assert not court.servers["vendor-a"].chat_requests()  # refused before any dispatch
    # The seat table tells the fused seat's two ladders apart.
    assert "rejected: juror-a (builder_family), verifier juror-a (builder_family)" in ran.stdout
    # B-1: every file of the run, 0600, each carrying the run_id.
    out = ran.out
    run_id = summary["run_id"]
    names = {path.name for path in out.iterdir()}
    verdicts = {f"verdict_{lens}.json" for lens in EIGHT}
    assert names == {".tribunal-stamp", "envelope.md", "manifest.json", "routing.json",
                     "judgment.md", "summary.json", *verdicts}  # fmt: skip
    for path in out.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    for name in [".tribunal-stamp", "routing.json", *verdicts]:
        assert json.loads((out / name).read_text(encoding="utf-8"))["run_id"] == run_id
    judgment = (out / "judgment.md").read_text(encoding="utf-8")
    assert f"run_id: {run_id}\n" in judgment
    assert "court: blind\n" in judgment and "outcome: LAND\n" in judgment
    assert "verdict: APPROVE\n" in judgment
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert summary["receipt"] == manifest["receipt"]


def test_a_refusing_lens_iterates_with_its_finding_on_the_fix_list(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass(skip=["defect"])
    court.answer("defect", refusing("defect"))
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (1, "ITERATE")
    assert ran.seat("defect")["verdict"] == "refuse"
    assert ran.summary["fix_list"] == [ran.summary["findings"][0]["fingerprint"]]
    assert "verdict: DENY\n" in (ran.out / "judgment.md").read_text(encoding="utf-8")


def test_a_pass_with_an_open_minor_finding_iterates(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    minor = [{"severity": "minor", "claim": "name the magic number", "location": "calc.py:6"}]
    court.all_pass(skip=["proportion"])
    court.answer("proportion", passing("proportion", findings=minor))
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (1, "ITERATE")


def test_every_pass_bare_holds(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass(bare=True)
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (3, "HOLD")
    assert all(seat["low_information"] for seat in ran.summary["seats"])
    assert "every pass was bare" in ran.summary["reasons"][0]


def test_a_lens_no_rung_answers_holds(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass(skip=["telemetry"])
    court.answer("telemetry", status(503))
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (3, "HOLD")
    seat = ran.seat("telemetry")
    assert seat["verdict"] == "hold" and seat["rung"] is None
    assert [entry["reason"] for entry in seat["rejected_rungs"]] == ["not_answered"] * 2


def test_a_fused_seat_no_verifier_answers_is_unverified_and_holds(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass(skip=FUSED)
    for lens in FUSED:
        court.answer(lens, passing(lens), families=["vendor-b"])
        court.answer(lens, status(500), families=["vendor-c"])
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (3, "HOLD")
    for lens in FUSED:
        seat = ran.seat(lens)
        assert (seat["verdict"], seat["verified"]) == ("hold", False)
    assert "UNVERIFIED" in ran.stdout


def test_a_builder_naming_the_only_family_of_a_tier_holds_those_lenses(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    # operator_safety is all vendor-a: declared as the builder, it never sits (L-2).
    with jury(tmp_path, safety="juror-a") as court:
        court.all_pass()
        ran = run(subject, contract, court, tmp_path, NO_PROOFS)
        assert not court.servers["vendor-a"].chat_requests()
    assert (ran.exit_code, ran.outcome) == (3, "HOLD")
    for lens in ("operator_consequence", "telemetry"):
        seat = ran.seat(lens)
        assert seat["verdict"] == "hold"
        assert [entry["reason"] for entry in seat["rejected_rungs"]] == ["builder_family"]
    assert ran.seat("defect")["verdict"] == "pass"


def test_solo_on_one_family_is_degraded_and_named_and_require_cross_family_holds(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    # Only the builder's family can answer operator_safety: --solo seats it, degraded (L-10).
    with jury(tmp_path, safety="juror-a") as court:
        court.all_pass()
        solo = run(subject, contract, court, tmp_path, NO_PROOFS, "--solo")
        strict = convene(
            subject.path, subject.base, contract, court.fleet, tmp_path / "strict",
            "--ledger", str(tmp_path / "strict.json"), NO_PROOFS, "--solo",
            "--require-cross-family",
        )  # fmt: skip
    assert (solo.exit_code, solo.outcome) == (0, "LAND")
    assert solo.summary["degraded"] is True
    gate = "graded same-family-blind, not cross-family"
    assert solo.summary["weakened_gate"] == gate
    assert f"weakened gate: {gate}" in solo.stdout
    assert gate in (solo.out / "judgment.md").read_text(encoding="utf-8")
    assert solo.seat("telemetry")["builder_family_seated"] is True
    assert (strict.exit_code, strict.outcome) == (3, "HOLD")
    assert "--require-cross-family" in strict.summary["reasons"][0]


def test_round_at_max_rounds_escalates_when_it_would_not_land(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass(skip=["defect"])
    court.answer("defect", refusing("defect"))
    ran = run(subject, contract, court, tmp_path, NO_PROOFS, "--round", "3", "--max-rounds", "3")
    assert (ran.exit_code, ran.outcome) == (3, "ESCALATE")
    assert "verdict: DEFERRED\n" in (ran.out / "judgment.md").read_text(encoding="utf-8")


def test_flat_new_findings_over_three_rounds_escalate_and_refutations_ride_along(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    outcomes = []
    for number in (1, 2, 3):
        with jury(tmp_path, name=f"fleet{number}.yaml") as court:
            court.all_pass(skip=["defect"])
            court.answer("defect", refusing("defect", f"finding of round {number}"))
            ran = run(subject, contract, court, tmp_path, NO_PROOFS)
            prompts = court.prompts()
        outcomes.append((ran.exit_code, ran.outcome, ran.summary["round"]))
        assert len(ran.summary["new_findings"]) == 1
        if number == 1:
            fingerprint = ran.summary["findings"][0]["fingerprint"]
            from tribunal.records.ledger import adjudicate

            adjudicate(
                tmp_path / "ledger.json",
                fingerprint,
                evidence="calc.py:6",
                note="the sign of zero is not in the contract",
                root=subject.path,
            )
        else:
            # E-5: the refuted finding of round 1 is in every later prompt.
            assert all("the sign of zero is not in the contract" in p for p in prompts)
    assert outcomes == [(1, "ITERATE", 1), (1, "ITERATE", 2), (3, "ESCALATE", 3)]
    assert "convergence failed" in ran.summary["reasons"][0]


def test_a_fused_seats_verifier_finding_shares_its_fingerprint_and_counts_once(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    # B-3, L-5: rounds 1 and 2 raise two new findings each; in round 3 a fused seat's primary
    # and verifier raise one defect — one new finding, so the trend falls (2, 2, 1): ITERATE.
    rounds = {
        1: {"defect": "round one, first", "proportion": "round one, second"},
        2: {"defect": "round two, first", "proportion": "round two, second"},
        3: {"boundary_condition": "neg(-0.0) keeps the sign"},
    }
    for number, refusals in rounds.items():
        with jury(tmp_path, name=f"fleet{number}.yaml") as court:
            court.all_pass(skip=list(refusals))
            for lens, claim in refusals.items():
                court.answer(lens, refusing(lens, claim))  # primary and verifier alike
            ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome, ran.summary["round"]) == (1, "ITERATE", 3), ran.stdout
    fused = ran.seat("boundary_condition")
    assert (fused["rung"], fused["verifier"]["rung"]) == ("juror-b", "juror-c")
    claims = [item["claim"] for item in ran.summary["findings"]]
    assert claims == ["neg(-0.0) keeps the sign", "[verifier:juror-c] neg(-0.0) keeps the sign"]
    (fingerprint,) = {item["fingerprint"] for item in ran.summary["findings"]}
    assert ran.summary["new_findings"] == [fingerprint]
    ledger = json.loads((tmp_path / "ledger.json").read_text(encoding="utf-8"))
    (dispute,) = ledger["disputes"]
    assert [len(entry["new_findings"]) for entry in dispute["rounds"]] == [2, 2, 1]


# --- E-2, L-1: the jury cannot be thinned; only the contract narrows it, named everywhere ----


def test_a_fleet_naming_two_lenses_still_seats_all_eight(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    text = court.fleet.read_text(encoding="utf-8")
    court.fleet.write_text(text + "lenses:\n  defect: {}\n  proportion: {}\n", encoding="utf-8")
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
    assert [seat["lens"] for seat in ran.summary["seats"]] == list(EIGHT)
    assert sorted(path.name for path in ran.out.glob("verdict_*.json")) == sorted(
        f"verdict_{lens}.json" for lens in EIGHT
    )
    assert ran.summary["not_seated"] == []
    assert "not seated" not in ran.stdout


def test_a_fleet_routing_only_some_lenses_holds_the_others(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    # Only `generalist` left: the six lenses of the other tiers hold, naming the missing tier.
    text = court.fleet.read_text(encoding="utf-8").split("tiers:\n")[0]
    text += "tiers:\n  generalist: [juror-c, juror-b]\nlenses:\n  defect: {}\n  proportion: {}\n"
    court.fleet.write_text(text, encoding="utf-8")
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (3, "HOLD"), ran.stdout + ran.stderr
    held = {seat["lens"]: seat for seat in ran.summary["seats"] if seat["verdict"] == "hold"}
    assert set(held) == set(EIGHT) - {"defect", "proportion"}
    assert held["telemetry"]["note"] == (
        "the fleet declares no tier 'operator_safety', which this lens routes on"
    )
    assert "lens telemetry held (no rung gave a verdict)" in ran.summary["reasons"]


def test_only_the_contract_narrows_the_jury_and_every_report_names_the_rest(
    subject: Change, court: Jury, tmp_path: Path
) -> None:
    contract = contract_file(tmp_path / "contract.yaml", subject.red, command=None)
    with contract.open("a", encoding="utf-8") as handle:
        handle.write("lenses: [proportion, defect]\n")
    text = court.fleet.read_text(encoding="utf-8").split("tiers:\n")[0]
    court.fleet.write_text(text + "tiers:\n  generalist: [juror-c, juror-b]\n", encoding="utf-8")
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
    left_out = [lens for lens in EIGHT if lens not in ("defect", "proportion")]
    assert [seat["lens"] for seat in ran.summary["seats"]] == ["defect", "proportion"]
    assert ran.summary["not_seated"] == left_out
    named = ", ".join(left_out)
    assert f"lenses not seated (the review contract names a narrower set): {named}\n" in (
        ran.stdout
    )
    judgment = (ran.out / "judgment.md").read_text(encoding="utf-8")
    assert "lenses_not_seated:\n" + "".join(f"- {lens}\n" for lens in left_out) in judgment
    assert "**Lenses not seated:** " + ", ".join(f"`{lens}`" for lens in left_out) in judgment
    assert not [
        r for s in court.servers.values() for r in s.chat_requests() if "telemetry" in r.prompt
    ]


def test_a_contract_naming_a_lens_the_jury_lacks_is_bad_input(
    subject: Change, court: Jury, tmp_path: Path
) -> None:
    contract = contract_file(tmp_path / "contract.yaml", subject.red, command=None)
    with contract.open("a", encoding="utf-8") as handle:
        handle.write("lenses:\n  - defect\n  - speed\n")
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert ran.exit_code == 2
    assert ran.stderr.startswith(
        f"tribunal: error: {contract}:7: lenses[1]: unknown lens 'speed'; the jury's lenses: "
        "defect, proportion,"
    ), ran.stderr
    assert not (tmp_path / "out").exists()


def test_no_key_value_reaches_any_file_or_output(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    # S-6: a server echoing the key back, in a reply and in an error body.
    key = "sk-juror-SECRET-0123456789"
    text = court.fleet.read_text(encoding="utf-8").replace(
        "timeout_s: 20}", "timeout_s: 20, api_key_env: JUROR_KEY}"
    )
    court.fleet.write_text(text, encoding="utf-8")
    court.all_pass(skip=["defect", "telemetry"])
    court.answer("defect", echo_key())
    court.answer("telemetry", echo_key(401))
    ran = run(subject, contract, court, tmp_path, NO_PROOFS, env={"JUROR_KEY": key})
    assert (ran.exit_code, ran.outcome) == (1, "ITERATE")  # a reply without its lens: malformed
    assert key not in ran.stdout + ran.stderr
    written = [p for p in [*ran.out.rglob("*"), tmp_path / "ledger.json"] if p.is_file()]
    assert len(written) > 10
    for path in written:
        assert key not in path.read_text(encoding="utf-8"), path
    assert os.environ.get("JUROR_KEY") is None


def test_templates_dir_renders_the_judgment_and_a_missing_one_writes_nothing(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass()
    missing = run(subject, contract, court, tmp_path, NO_PROOFS, "--templates", str(tmp_path))
    assert missing.exit_code == 2
    assert "blind_judgment.md.j2: --templates: template not found" in missing.stderr
    assert not (tmp_path / "out").exists() and not court.prompts()
    (tmp_path / "blind_judgment.md.j2").write_text(
        "Our court: {{ outcome }} in round {{ round }}.\n", encoding="utf-8"
    )
    ran = run(subject, contract, court, tmp_path, NO_PROOFS, "--templates", str(tmp_path))
    assert (ran.exit_code, ran.outcome) == (0, "LAND")
    judgment = (ran.out / "judgment.md").read_text(encoding="utf-8")
    assert judgment.endswith("---\nOur court: LAND in round 1.\n")


def test_json_prints_the_summary_and_floor_warnings_go_to_stderr(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS, "--json")
    assert ran.exit_code == 0
    assert json.loads(ran.stdout) == ran.summary
    # The test fleet has no local survival rungs: named, never fatal (L-4).
    assert "does not end on a local survival rung (the ladder's floor)" in ran.stderr
    routing = json.loads((ran.out / "routing.json").read_text(encoding="utf-8"))
    assert routing["warnings"] and routing["all_seated"] is True


HARNESS = """\
import json, os, re, sys
prompt = sys.stdin.read()
lens = re.search(r'"lens": "([a-z_]+)"', prompt).group(1)
# B-6: the harness sits on a worktree of the judged commit, never the user's checkout.
line = open("calc.py", encoding="utf-8").read().splitlines()[5].strip()
checked = [{"claim": "read from its worktree", "location": "calc.py:6", "evidence": line}]
with open(sys.argv[1], "a", encoding="utf-8") as seen:
    seen.write(os.getcwd() + "\\n")
print(json.dumps({"verdict": "pass", "lens": lens, "findings": [], "checked": checked}))
"""


def test_a_harness_rung_sits_on_a_worktree_of_the_judged_commit(
    subject: Change, contract: Path, court: Jury, tmp_path: Path
) -> None:
    script = tmp_path / "harness.py"
    script.write_text(HARNESS, encoding="utf-8")
    harness = (
        f"  - {{id: harness-h, family: vendor-h, transport: command, "
        f"command: [{json.dumps(sys.executable)}, {json.dumps(str(script))}, "
        f"{json.dumps(str(tmp_path / 'cwd.txt'))}]}}\n"
    )
    text = court.fleet.read_text(encoding="utf-8")
    text = text.replace("tiers:\n", harness + "tiers:\n")
    text = text.replace("deep_state: [juror-a,", "deep_state: [harness-h, juror-a,")
    court.fleet.write_text(text, encoding="utf-8")
    court.all_pass()
    ran = run(subject, contract, court, tmp_path, NO_PROOFS)
    assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
    for lens in ("reversibility", "state_continuity"):
        seat = ran.seat(lens)
        assert (seat["rung"], seat["verdict"]) == ("harness-h", "pass"), seat["rejected_rungs"]
        assert seat["checked"][0]["citation"] == "verified"  # it read `return -x` at head
    sat_in = (tmp_path / "cwd.txt").read_text(encoding="utf-8").split()
    assert len(sat_in) == 2
    for where in sat_in:
        assert Path(where).resolve() != subject.path.resolve()
        assert not Path(where).exists()  # its own worktree, removed afterwards


def test_a_change_too_large_for_every_rung_gets_one_clear_line(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    """X-2: every rung skipped for capacity -> one line saying so; every lens holds (exit 3)."""
    small = "context_tokens: 300, max_output_tokens: 100, timeout_s: 5"
    fleet = tmp_path / "small.yaml"
    fleet.write_text(
        "rungs:\n"
        f"  - {{id: builder-a, family: vendor-a, transport: openai, endpoint: 'http://127.0.0.1:9/v1',"
        f" model: a-1, {small}}}\n"
        f"  - {{id: small-b, family: vendor-b, transport: openai, endpoint: 'http://127.0.0.1:9/v1',"
        f" model: b-1, {small}}}\n"
        f"  - {{id: small-c, family: vendor-c, transport: openai, endpoint: 'http://127.0.0.1:9/v1',"
        f" model: c-1, {small}}}\n"
        "tiers:\n"
        "  deep_state: [small-b, small-c]\n  operator_safety: [small-b, small-c]\n"
        "  generalist: [small-b, small-c]\n"
        "  fast_structural: {primary: [small-b], verifier: [small-c]}\n",
        encoding="utf-8",
    )
    ledger = ["--ledger", str(tmp_path / "ledger.json")]
    ran = convene(subject.path, subject.base, contract, fleet, tmp_path / "out", *ledger, NO_PROOFS)
    assert ran.exit_code == 3, ran.stderr
    assert ran.outcome == "HOLD"
    lines = [line for line in ran.stderr.splitlines() if "too large for every rung" in line]
    assert len(lines) == 1 and lines[0].startswith("tribunal: the change is too large")
