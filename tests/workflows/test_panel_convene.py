"""P-1..P-10 through real HTTP: `tribunal panel convene` as a process, its members answered by a
local scorecard server on 127.0.0.1 speaking the OpenAI protocol, per lens, round and phase.

Every outcome row of P-8 is reached here; each test asserts why (the deciding reason, first in
`summary.json` `reasons`), not only what. Scenarios are of kind `other` unless a test is about a
scenario's effect.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from testing.jurors import GARBAGE, JurorServer, reply, status
from testing.panel_court import (
    CANARY,
    COUNTS,
    DIMENSIONS,
    EXECUTOR,
    LENSES,
    WINDOW_EDGE,
    Slice,
    answer,
    card,
    criteria_text,
    every,
    evidence,
    finding,
    lens_text,
    make_slice,
    report_text,
    scenario,
    score,
    server_rung,
)


@pytest.fixture
def server() -> Iterator[JurorServer]:
    with JurorServer("openai") as juror:
        yield juror


def panel_answers(
    server: JurorServer, scores: dict[str, dict[str, int]], *, phase: str = "score", **more: object
) -> None:
    """Each lens answers its card of `scores[lens]`."""
    for lens, given in scores.items():
        answer(server, lens, card(lens, given, phase=phase, **more), phase=phase)  # type: ignore[arg-type]


def same_everywhere(value: int) -> dict[str, dict[str, int]]:
    return {lens: every(value) for lens in LENSES}


def reasons(summary: dict[str, object]) -> list[str]:
    found = summary["reasons"]
    assert isinstance(found, list)
    return [str(reason) for reason in found]


def prompts(server: JurorServer) -> list[str]:
    return [request.prompt for request in server.chat_requests()]


def test_ship_when_every_member_scores_at_the_target(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, same_everywhere(8))
    ran = court.run()
    assert ran.returncode == 0, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "SHIP"
    assert reasons(summary)[0].startswith("overall at or above target")
    assert summary["overall"] == 0.8
    assert [m["verdict_source"] for m in summary["members"]] == ["card"] * 3
    judgment = (court.out / "judgment.md").read_text()
    assert "court: panel" in judgment and "verdict: APPROVE" in judgment
    for name in ("report.md", "verification.json", "routing.json", "envelope.md"):
        assert (court.out / name).is_file(), name
    assert len(server.chat_requests()) == 3  # no trigger: no synthesis


def test_seven_everywhere_at_target_080_is_the_caveat_bands_edge(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, same_everywhere(7))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "SHIP_WITH_CAVEATS"
    assert summary["overall"] == 0.7
    assert reasons(summary)[0].startswith("overall in the caveat band")
    assert summary["caveats_accepted"] is False


def test_accepted_caveats_exit_0_and_are_recorded(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    scores = {"quality": every(8), "fitness": every(7), "adversary": every(7)}
    panel_answers(server, scores)
    ran = court.run("--accept-caveats")
    assert ran.returncode == 0, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "SHIP_WITH_CAVEATS"
    assert summary["caveats_accepted"] is True
    judgment = (court.out / "judgment.md").read_text()
    assert "caveats_accepted: true" in judgment and "verdict: APPROVE" in judgment


def test_deadlock_after_synthesis_escalates(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    spread = {
        "quality": {"correctness": 3, "robustness": 8, "clarity": 8},
        "fitness": {"correctness": 6, "robustness": 8, "clarity": 8},
        "adversary": {"correctness": 9, "robustness": 8, "clarity": 8},
    }
    panel_answers(server, spread)
    panel_answers(server, spread, phase="synthesis")
    ran = court.run()
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ESCALATE"
    assert reasons(summary)[0].startswith("deadlock")
    correctness = summary["dimensions"][0]
    assert [s["score"] for s in correctness["synthesis_scores"]] == [3, 6, 9]
    assert correctness["consensus"]["kind"] == "deadlock"
    assert len(server.chat_requests()) == 6  # one synthesis phase, never a second
    assert (court.out / "scorecard_quality.synthesis.json").is_file()


def test_a_blocked_dimension_iterates_under_an_overall_above_target(
    tmp_path: Path, server: JurorServer
) -> None:
    weights = [
        {"id": "correctness", "weight": 4},
        {"id": "robustness", "weight": 4},
        {"id": "clarity", "weight": 1},
    ]
    court = make_slice(tmp_path, server, criteria=criteria_text(dimensions=weights))
    scores = {
        "quality": {"correctness": 9, "robustness": 9, "clarity": 2},
        "fitness": {"correctness": 9, "robustness": 9, "clarity": 3},
        "adversary": {"correctness": 9, "robustness": 9, "clarity": 9},
    }
    panel_answers(server, scores)
    panel_answers(server, scores, phase="synthesis")
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ITERATE"
    assert summary["overall"] == 0.83
    assert reasons(summary)[0].startswith("blocked dimension")
    assert [d["blocked"] for d in summary["dimensions"]] == [False, False, True]


def test_a_structural_finding_with_a_block_majority_blocks(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    structural = finding("major", fix=None, structural=True)
    for lens in LENSES:
        answer(server, lens, card(lens, every(6), findings=[structural], recommendation="BLOCK"))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "BLOCK"
    assert reasons(summary)[0].startswith("majority recommends BLOCK on a structural finding")
    assert "verdict: DENY" in (court.out / "judgment.md").read_text()


def test_the_same_defects_as_local_fixes_iterate(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    local = finding("major", fix="advance the start when the window ends")
    for lens in LENSES:
        answer(server, lens, card(lens, every(6), findings=[local], recommendation="BLOCK"))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ITERATE"
    assert reasons(summary)[0].startswith("BLOCK contradicts the evidence")
    assert summary["fix_list"][0]["fix"] == "advance the start when the window ends"


def test_an_adversary_escalation_escalates(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, {"quality": every(8), "fitness": every(8)})
    escalating = card(
        "adversary",
        every(8),
        scenarios=[scenario("safety")],
        escalation="ESCALATE: every client shares one window",
    )
    answer(server, "adversary", escalating)
    ran = court.run()
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ESCALATE"
    assert reasons(summary)[0].startswith("unrefuted escalation")
    assert summary["escalations"][0]["lens"] == "adversary"


def test_a_nine_whose_quote_is_not_in_the_artifact_is_refuted_and_excluded(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    invented = score(9, 0.9, evidence(("limiter.py:3", "def reset_all(self):")))
    panel_answers(server, {"fitness": every(8), "adversary": every(8)})
    answer(server, "quality", card("quality", {**every(8), "correctness": invented}))
    ran = court.run()
    assert ran.returncode == 0, ran.stderr
    summary = court.summary()
    refuted = [entry for entry in summary["refuted"] if entry["kind"] == "score"]
    assert [(r["lens"], r["dimension"], r["item"]["score"]) for r in refuted] == [
        ("quality", "correctness", 9)
    ]
    assert "quote does not occur" in refuted[0]["reason"]
    correctness = summary["dimensions"][0]
    assert correctness["consensus"]["members"] == ["fitness", "adversary"]
    assert "def reset_all(self):" in (court.out / "report.md").read_text()


def test_a_garbage_reply_never_ships_and_is_asked_once(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, {"fitness": every(9), "adversary": every(9)})
    server.when(lens_text("quality"), reply(GARBAGE))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ITERATE"
    assert "malformed scorecard" in " ".join(reasons(summary))
    quality = [text for text in prompts(server) if lens_text("quality") in text]
    assert len(quality) == 1  # one shot: no retry, no next rung
    sources = {m["lens"]: m["verdict_source"] for m in summary["members"]}
    assert sources["quality"] == "malformed"


def test_done_without_an_address_is_not_convened_and_calls_no_one(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.write_report(report_text(None))
    ran = court.run()
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "NOT_CONVENED"
    assert "no address" in reasons(summary)[0]
    assert server.chat_requests() == []
    assert not (court.out / "verification.json").exists()


def test_criteria_edited_after_freezing_are_refused_and_nothing_is_written(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    frozen = court.run_freeze()
    assert frozen.returncode == 0, frozen.stderr
    court.criteria.write_text(criteria_text(target=0.5), encoding="utf-8")
    before = court.ledger.read_bytes()
    ran = court.run()
    assert ran.returncode == 2
    assert "criteria changed after freezing" in ran.stderr
    assert not court.out.exists()
    assert court.ledger.read_bytes() == before
    assert server.chat_requests() == []


def test_a_fourth_round_escalates_before_anything_runs(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    ran = court.run("--round", "4")
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ESCALATE"
    assert reasons(summary)[0].startswith("beyond budget: round 4")
    assert server.chat_requests() == []
    assert not (court.out / "verification.json").exists()


def test_a_verification_command_over_its_cap_is_invalid(
    tmp_path: Path, server: JurorServer
) -> None:
    slow = ["{python} -c 'import time; time.sleep(30)'"]
    court = make_slice(
        tmp_path, server, criteria=criteria_text(verification_commands=slow, timeout_s=1)
    )
    ran = court.run()
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "INVALID"
    assert server.chat_requests() == []
    assert summary["verification"]["commands"][0]["exit_code"] is None


def test_a_failed_verification_command_is_a_harness_blocker(
    tmp_path: Path, server: JurorServer
) -> None:
    failing = ["{python} -c 'import sys; print(\"1 failed\"); sys.exit(1)'"]
    court = make_slice(tmp_path, server, criteria=criteria_text(verification_commands=failing))
    panel_answers(server, same_everywhere(8))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ITERATE"
    assert "verification failed" in " ".join(reasons(summary))
    assert any("harness" in item["lenses"] for item in summary["fix_list"])


def test_a_member_no_rung_answers_holds(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, {"quality": every(8), "fitness": every(8)})
    server.when(lens_text("adversary"), status(503))
    ran = court.run()
    assert ran.returncode == 3, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "HOLD"
    assert reasons(summary)[0] == (
        "lens not seated: adversary — rung-c: not_answered; rung-a: not_answered; "
        "rung-b: not_answered"
    )
    adversary = [text for text in prompts(server) if lens_text("adversary") in text]
    assert len(adversary) == 3  # every rung of the ladder was asked, once


def test_the_executors_report_never_reaches_a_prompt(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    spread = {"quality": every(8), "fitness": every(8), "adversary": every(5)}
    panel_answers(server, spread)
    panel_answers(server, spread, phase="synthesis")
    ran = court.run()
    assert ran.returncode in (0, 1), ran.stderr
    seen = prompts(server)
    assert len(seen) == 6  # both phases were asked
    assert not [text for text in seen if CANARY in text]
    assert not [text for text in seen if EXECUTOR in text]


def test_the_executors_family_is_never_seated(tmp_path: Path, server: JurorServer) -> None:
    rungs = [
        server_rung("rung-x", EXECUTOR, server),
        server_rung("rung-a", "fam-a", server),
        server_rung("rung-b", "fam-b", server),
    ]
    court = make_slice(tmp_path, server, rungs=rungs)
    panel_answers(server, same_everywhere(8))
    ran = court.run()
    assert ran.returncode == 0, ran.stderr
    models = {request.body["model"] for request in server.chat_requests()}
    assert models == {"rung-a-model", "rung-b-model"}  # spread over the families left
    routing = json.loads((court.out / "routing.json").read_text())
    assert all(member["family"] != EXECUTOR for member in routing["members"])
    skipped = routing["members"][0]["skipped"]
    assert [(s["rung"], s["reason"]) for s in skipped] == [("rung-x", "builder_family")]


def test_a_round_is_recorded_and_its_findings_ride_along_as_risks(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    risky = card("adversary", every(8), scenarios=[scenario("correctness")])
    panel_answers(server, {"quality": every(8), "fitness": every(8)})
    answer(server, "adversary", risky)
    first = court.run()
    assert first.returncode == 1, first.stderr
    assert court.summary()["outcome"] == "ITERATE"
    ledger = json.loads(court.ledger.read_text())
    (entry,) = ledger["slices"]
    assert [r["outcome"] for r in entry["rounds"]] == ["ITERATE"]
    assert [d["round"] for d in entry["dispatches"]] == [1]
    answer(server, "adversary", card("adversary", every(8), round_number=2), round_number=2)
    for lens in ("quality", "fitness"):
        answer(server, lens, card(lens, every(8), round_number=2), round_number=2)
    second = court.run(out=tmp_path / "out2")
    assert second.returncode == 0, second.stderr
    summary = court.summary(tmp_path / "out2")
    assert (summary["round"], summary["rounds_left"], summary["outcome"]) == (2, 1, "SHIP")
    round_two = [text for text in prompts(server) if '"round": 2' in text]
    assert round_two and all("a burst of calls straddling" in text for text in round_two)


def test_summary_to_appends_the_closing_report(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, same_everywhere(8))
    target = tmp_path / "step-summary.md"
    target.write_text("earlier step\n", encoding="utf-8")
    ran = court.run("--summary-to", str(target))
    assert ran.returncode == 0, ran.stderr
    written = target.read_text()
    assert written.startswith("earlier step\n")
    assert written.endswith((court.out / "report.md").read_text())


def test_json_prints_exactly_the_summary(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    panel_answers(server, same_everywhere(8))
    ran = court.run("--json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == court.summary()


@pytest.mark.parametrize("dimension", DIMENSIONS)
def test_a_card_missing_a_dimension_is_malformed(
    tmp_path: Path, server: JurorServer, dimension: str
) -> None:
    court = make_slice(tmp_path, server)
    partial = {name: 8 for name in DIMENSIONS if name != dimension}
    panel_answers(server, {"quality": partial, "fitness": every(8), "adversary": every(8)})
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    assert "malformed scorecard" in " ".join(reasons(court.summary()))


def test_counts_is_a_real_line() -> None:
    from testing.panel_court import LIMITER

    location, quote = COUNTS
    assert LIMITER.splitlines()[int(location.split(":")[1]) - 1].strip() == quote


def test_a_scenario_refuted_with_evidence_stays_refuted_and_rides_along(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    for round_number in (1, 2):
        risky = card(
            "adversary", every(8), scenarios=[scenario("correctness")], round_number=round_number
        )
        answer(server, "adversary", risky, round_number=round_number)
        for lens in ("quality", "fitness"):
            given = card(lens, every(8), round_number=round_number)
            answer(server, lens, given, round_number=round_number)
    first = court.run()
    assert first.returncode == 1, first.stderr
    (item,) = court.summary()["fix_list"]
    refuted = court.run_tribunal(
        "adjudicate", "--ledger", str(court.ledger), "--finding", item["fingerprint"],
        "--evidence", "limiter.py:13", "--note", "the start moves to now at the window's end",
    )  # fmt: skip
    assert refuted.returncode == 0, refuted.stderr
    assert f"refuted: {item['fingerprint']}" in refuted.stdout and "slice limiter" in refuted.stdout
    second = court.run(out=tmp_path / "out2")
    assert second.returncode == 0, second.stderr
    summary = court.summary(tmp_path / "out2")
    assert summary["outcome"] == "SHIP"
    assert [(r["kind"], r["reason"]) for r in summary["refuted"]] == [
        ("scenario", "refuted with evidence in an earlier round")
    ]
    round_two = [text for text in prompts(server) if '"round": 2' in text]
    assert round_two and all("the start moves to now at the window's end" in t for t in round_two)


def test_every_caveat_and_fix_is_a_line_of_its_own(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    one = {**finding("minor"), "claim": "the docstring omits the window's unit"}
    two = {**finding("info"), "claim": "a test name says seconds", "location": COUNTS[0],
           "quote": COUNTS[1]}  # fmt: skip
    for lens in LENSES:
        answer(server, lens, card(lens, every(8), findings=[one, two]))
    ran = court.run()
    assert ran.returncode == 0, ran.stderr
    for name in ("report.md", "judgment.md"):
        lines = (court.out / name).read_text().splitlines()
        for claim in (one["claim"], two["claim"]):
            assert [line for line in lines if line.startswith("- deferred: " + claim)], (
                name,
                claim,
            )
            assert [line for line in lines if line.startswith("- **") and claim in line], name


# --- bad input: one line naming the file and field, exit 2, nothing written -----------------


def refused(court: Slice, *more: str) -> str:
    before = court.ledger.read_bytes() if court.ledger.exists() else None
    ran = court.run(*more)
    assert ran.returncode == 2, ran.stderr
    assert not court.out.exists()
    assert (court.ledger.read_bytes() if court.ledger.exists() else None) == before
    (line,) = [line for line in ran.stderr.splitlines() if line.startswith("tribunal: error:")]
    return line


def test_a_head_naming_another_commit_than_the_address_is_refused(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    line = refused(court, "--head", court.base)
    assert "report.yaml" in line and "address" in line and "--head" in line
    assert server.chat_requests() == []


def test_a_head_does_not_stand_in_for_a_missing_address(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.write_report(report_text(None))
    ran = court.run("--head", court.head)
    assert ran.returncode == 3, ran.stderr
    assert court.summary()["outcome"] == "NOT_CONVENED"
    assert server.chat_requests() == []


def test_a_base_that_is_not_an_ancestor_of_the_head_is_refused(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.write_report(report_text(court.base))
    court.base = court.head  # a base after the work
    line = refused(court)
    assert "is not an ancestor of the head" in line


def test_the_same_blocked_model_retried_unchanged_is_refused(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.write_report(report_text(None, status="BLOCKED"))
    first = court.run()
    assert first.returncode == 3 and court.summary()["outcome"] == "NOT_CONVENED"
    court.out = tmp_path / "again"
    line = refused(court)
    assert "repeats the previous one's executor and context" in line
    assert server.chat_requests() == []


def test_criteria_edited_after_the_base_are_refused_even_if_frozen_afresh(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.criteria.write_text(criteria_text(target=0.5), encoding="utf-8")
    line = refused(court)
    assert "criteria changed after freezing" in line and "frozen by the base commit" in line


def test_a_malformed_report_field_is_one_line_with_file_and_field(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.write_report(report_text(court.head, status="FINISHED"))
    line = refused(court)
    assert "report.yaml" in line and "status" in line


def test_a_summary_file_in_a_missing_directory_is_refused(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    line = refused(court, "--summary-to", str(tmp_path / "nowhere" / "summary.md"))
    assert "--summary-to" in line and "does not exist" in line


# --- rounds ----------------------------------------------------------------------------------


def test_a_report_held_for_its_concerns_spends_no_round(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    concern = [{"kind": "correctness", "text": "a burst at the edge may pass twice"}]
    court.write_report(report_text(court.head, status="DONE_WITH_CONCERNS", concerns=concern))
    first = court.run()
    assert first.returncode == 3 and court.summary()["outcome"] == "NOT_CONVENED"
    resolved = court.run_tribunal(
        "adjudicate", "--ledger", str(court.ledger), "--concern", "1", "--evidence",
        "limiter.py:12", "--note", "the start moves at the window's end",
    )  # fmt: skip
    assert resolved.returncode == 0, resolved.stderr
    panel_answers(server, same_everywhere(8))
    second = court.run(out=tmp_path / "out2")
    assert second.returncode == 0, second.stderr
    summary = court.summary(tmp_path / "out2")
    assert (summary["round"], summary["rounds_left"], summary["dispatches_left"]) == (1, 2, 4)


def test_a_fourth_round_after_three_escalates_with_no_request_sent(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    for round_number in (1, 2, 3):
        for lens in LENSES:
            given = card(lens, every(5), round_number=round_number)
            answer(server, lens, given, round_number=round_number)
        ran = court.run(out=tmp_path / f"r{round_number}")
        assert ran.returncode == 1, ran.stderr
    asked = len(server.chat_requests())
    fourth = court.run(out=tmp_path / "r4")
    assert fourth.returncode == 3, fourth.stderr
    summary = court.summary(tmp_path / "r4")
    assert (summary["outcome"], summary["round"]) == ("ESCALATE", 4)
    assert summary["overall"] is None
    assert len(server.chat_requests()) == asked


def test_a_round_behind_the_last_is_refused(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    for round_number in (1, 2):
        for lens in LENSES:
            given = card(lens, every(5), round_number=round_number)
            answer(server, lens, given, round_number=round_number)
        assert court.run(out=tmp_path / f"r{round_number}").returncode == 1
    line = refused(court, "--round", "1")
    assert "round 1 is behind the slice's last round, 2" in line


def test_convening_again_into_the_same_dir_keeps_the_earlier_run_in_history(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    spread = {"quality": every(8), "fitness": every(8), "adversary": every(5)}
    panel_answers(server, spread)
    panel_answers(server, spread, phase="synthesis")
    assert court.run().returncode in (0, 1)
    first_id = court.summary()["run_id"]
    court.write_report(report_text(None))
    assert court.run().returncode == 3
    names = sorted(path.name for path in court.out.iterdir())
    assert not [name for name in names if name.startswith("scorecard_")]
    assert "verification.json" not in names
    history = court.out / "history" / first_id
    assert (history / "scorecard_quality.synthesis.json").is_file()
    assert (history / "report.md").is_file()
    checked = court.run_tribunal("records", "check", str(court.out))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_unstamped_dir_holding_a_report_md_is_refused(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    court.out.mkdir()
    (court.out / "report.md").write_text("my own notes\n", encoding="utf-8")
    ran = court.run()
    assert ran.returncode == 2 and "report.md" in ran.stderr
    assert (court.out / "report.md").read_text() == "my own notes\n"


# --- faults never ship -----------------------------------------------------------------------


def test_one_card_left_is_decided_without_a_synthesis(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server, criteria=criteria_text(lenses=["quality", "adversary"]))
    server.when(lens_text("quality"), reply(GARBAGE))
    answer(server, "adversary", card("adversary", {**every(8), "correctness": 1}))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "ITERATE"
    assert summary["triggers"] and "malformed scorecard" in " ".join(reasons(summary))
    assert not [text for text in prompts(server) if '"phase": "synthesis"' in text]


def test_a_citation_outside_the_envelope_never_ships(tmp_path: Path, server: JurorServer) -> None:
    court = make_slice(tmp_path, server)
    outside = score(8, 0.9, evidence(WINDOW_EDGE), evidence(("server.py:3", "import socket")))
    panel_answers(server, {"fitness": every(8), "adversary": every(8)})
    answer(server, "quality", card("quality", {**every(8), "clarity": 9, "robustness": outside}))
    ran = court.run()
    assert ran.returncode == 1, ran.stderr
    summary = court.summary()
    assert summary["outcome"] == "SHIP_WITH_CAVEATS"
    assert reasons(summary)[0] == "a citation names a file the panel was not shown: quality"


def test_a_degraded_solo_round_names_its_weakened_gate(tmp_path: Path, server: JurorServer) -> None:
    rungs = [server_rung("rung-x", EXECUTOR, server), server_rung("rung-y", EXECUTOR, server)]
    court = make_slice(tmp_path, server, rungs=rungs)
    panel_answers(server, same_everywhere(8))
    held = court.run()
    assert held.returncode == 3 and court.summary()["outcome"] == "HOLD"
    assert "builder_family" in reasons(court.summary())[0]
    assert server.chat_requests() == []  # a round that holds asks nobody
    solo = court.run("--solo", out=tmp_path / "solo")
    assert solo.returncode == 0, solo.stderr
    assert court.summary(tmp_path / "solo")["degraded"] is True
    for name in ("judgment.md", "report.md"):
        assert (
            "graded same-family-blind, not cross-family" in (tmp_path / "solo" / name).read_text()
        )


def test_the_report_labels_recorded_answers_and_names_fingerprints(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_slice(tmp_path, server)
    answers = tmp_path / "answers.yaml"
    cards = {f"panel/R1/{lens}": card(lens, every(8)) for lens in LENSES}
    answers.write_text(yaml.safe_dump(cards), encoding="utf-8")
    fleet = {
        "rungs": [{"id": f"rec-{n}", "family": f"fam-{n}", "transport": "replay",
                   "answers": "answers.yaml", "rank": 1} for n in "abc"],
        "tiers": {"panel": ["rec-a", "rec-b", "rec-c"]},
    }  # fmt: skip
    court.fleet.write_text(yaml.safe_dump(fleet), encoding="utf-8")
    ran = court.run()
    assert ran.returncode == 0, ran.stderr
    text = (court.out / "report.md").read_text()
    assert "**Recorded answers:**" in text
    (item,) = court.summary()["fix_list"]
    assert item["fingerprint"] in text and item["fingerprint"] in ran.stdout


def test_a_reader_that_goes_away_never_changes_the_exit(
    tmp_path: Path, server: JurorServer
) -> None:
    # `tribunal panel convene ... | head -1`: the pipe is closed before the report is printed.
    court = make_slice(tmp_path, server)
    panel_answers(server, same_everywhere(5))
    env = {**os.environ, "JUROR_KEY": "sk-panel-0123456789"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tribunal", *court.args()],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=court.root, env=env,
    )  # fmt: skip
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 1, stderr  # ITERATE, as if the whole report had been read
    assert "internal error" not in stderr and "BrokenPipe" not in stderr
    assert court.summary()["outcome"] == "ITERATE"
