"""P-11 through real HTTP: `tribunal panel vet` as a process, its three lenses answered by a local
juror server on 127.0.0.1 speaking the OpenAI protocol, per lens.

PROCEED (two of three pass) freezes the criteria for the panel that audits the work; REFINE
merges the critiques into the judgment for one refinement; the slice's second failing vetting
ESCALATEs; criteria changed after freezing and every other bad input are refused before
anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from testing.jurors import GARBAGE, JurorServer, reply, status
from testing.panel_court import (
    EXECUTOR,
    LENSES,
    PLAN_CHECK,
    PLAN_LIMITER,
    VET_LENSES,
    Slice,
    answer,
    answer_vet,
    card,
    criteria_text,
    every,
    lens_text,
    make_vet_slice,
)

from tribunal.documents import first_schema_error


@pytest.fixture
def server() -> Iterator[JurorServer]:
    with JurorServer("openai") as juror:
        yield juror


def read(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def slice_entry(court: Slice) -> dict[str, Any]:
    (entry,) = read(court.ledger)["slices"]
    return entry


def files(root: Path) -> dict[str, bytes]:
    """Every file under `root` and its bytes (what a refused command must leave as it was) —
    but the ledger's empty lock file, which proving the ledger writable makes (C-3)."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and path.name != "ledger.json.lock"}  # fmt: skip


def asked(server: JurorServer, lens: str) -> int:
    return sum(1 for request in server.chat_requests() if lens_text(lens) in request.prompt)


def test_two_of_three_proceed_and_freeze_the_criteria_for_the_panel(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_vet_slice(tmp_path, server)
    # Criteria the base commit does not hold: the panel refuses them until they are frozen.
    court.criteria = tmp_path / "criteria.yaml"
    court.criteria.write_text(criteria_text(), encoding="utf-8")
    refused = court.run(out=tmp_path / "early")
    assert refused.returncode == 2 and "the criteria are not frozen" in refused.stderr
    answer_vet(server, works="pass", followable="pass", cheapest="refuse")
    ran = court.run_vet()
    assert ran.returncode == 0, ran.stderr
    assert "Running in tribunal mode: executor -> verifier panel -> consensus." in ran.stderr
    out = tmp_path / "vet"
    summary = read(out / "summary.json")
    assert (summary["outcome"], summary["passed"], summary["refused"]) == (
        "PROCEED", ["works", "followable"], ["cheapest"]
    )  # fmt: skip
    assert summary["reasons"][0].startswith("2 of 3 lenses passed (works, followable)")
    vet = read(out / "vet.json")
    assert [verdict["lens"] for verdict in vet["verdicts"]] == list(VET_LENSES)
    assert (vet["outcome"], vet["run_id"]) == ("PROCEED", summary["run_id"])
    assert vet["criteria_sha256"] == summary["criteria_sha256"]
    checked = vet["verdicts"][0]["checked"][0]
    assert (checked["location"], checked["citation"]) == (PLAN_CHECK[0], "verified")
    entry = slice_entry(court)
    assert (entry["criteria_sha256"], entry["frozen_by"]) == (vet["criteria_sha256"], "vet")
    assert entry["vettings"] == [
        {"run_id": vet["run_id"], "outcome": "PROCEED", "passed": ["works", "followable"],
         "refused": ["cheapest"], "criteria_sha256": vet["criteria_sha256"]}
    ]  # fmt: skip
    judgment = (out / "judgment.md").read_text()
    assert "court: panel-vet" in judgment and "verdict: APPROVE" in judgment
    assert "cheapest: the window's reset leaves a burst at its edge unchecked" in judgment
    for name in ("envelope.md", "routing.json", "verdict_works.json", "verdict_cheapest.json"):
        assert (out / name).is_file(), name
    assert first_schema_error(read(out / "routing.json"), "routing") is None
    frozen = court.run_freeze()
    assert frozen.returncode == 0, frozen.stderr
    assert frozen.stdout.startswith("already frozen: slice limiter")
    for lens in LENSES:
        answer(server, lens, card(lens, every(8)))
    convened = court.run()
    assert convened.returncode == 0, convened.stderr
    assert court.summary()["outcome"] == "SHIP"
    checked_records = court.run_tribunal("records", "check", str(out))
    assert checked_records.returncode == 0, checked_records.stdout + checked_records.stderr


def test_one_of_three_refines_with_the_critiques_in_the_judgment(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_vet_slice(tmp_path, server)
    answer_vet(server, works="pass", followable="refuse")
    server.when(lens_text("cheapest"), status(503))  # no rung answers: a hold, never a pass
    ran = court.run_vet()
    assert ran.returncode == 1, ran.stderr
    out = tmp_path / "vet"
    summary = read(out / "summary.json")
    assert (summary["outcome"], summary["passed"], summary["held"]) == (
        "REFINE", ["works"], ["cheapest"]
    )  # fmt: skip
    assert asked(server, "cheapest") == 3  # every rung not the builder's, once
    judgment = (out / "judgment.md").read_text()
    assert "verdict: DENY" in judgment and "outcome: REFINE" in judgment
    lines = judgment.splitlines()
    assert "### followable — refused" in lines and "### cheapest — held" in lines
    critique = "followable: the window's reset leaves a burst at its edge unchecked"
    assert [line for line in lines if line.startswith("- **major**") and critique in line]
    assert f"`{PLAN_LIMITER[0]}` (verified)" in judgment
    assert "Refine the plan once with every critique below" in judgment
    entry = slice_entry(court)
    assert entry["criteria_sha256"] is None  # a plan that does not proceed freezes nothing
    assert [v["outcome"] for v in entry["vettings"]] == ["REFINE"]
    assert court.run_freeze().stdout.startswith("froze slice limiter")


def test_the_second_failing_vetting_escalates(tmp_path: Path, server: JurorServer) -> None:
    court = make_vet_slice(tmp_path, server)
    answer_vet(server, works="pass", followable="refuse", cheapest="refuse")
    first = court.run_vet()
    assert first.returncode == 1, first.stderr
    second = court.run_vet(out=tmp_path / "vet2")
    assert second.returncode == 3, second.stderr
    summary = read(tmp_path / "vet2" / "summary.json")
    assert (summary["outcome"], summary["vetting"]) == ("ESCALATE", 2)
    assert summary["reasons"][0].startswith("the plan failed its vetting again")
    assert "verdict: DEFERRED" in (tmp_path / "vet2" / "judgment.md").read_text()
    assert [v["outcome"] for v in slice_entry(court)["vettings"]] == ["REFINE", "ESCALATE"]
    assert "exit 3" in second.stdout


def test_a_plan_refined_once_that_passes_proceeds(tmp_path: Path, server: JurorServer) -> None:
    court = make_vet_slice(tmp_path, server)
    answer_vet(server, works="refuse", followable="refuse", cheapest="pass")
    assert court.run_vet().returncode == 1
    server.when(lens_text("works"), reply(json.dumps({"verdict": "pass", "lens": "works",
        "checked": [{"location": PLAN_CHECK[0], "evidence": PLAN_CHECK[1], "claim": "a check"}]})),
        first=True)  # fmt: skip
    again = court.run_vet(out=tmp_path / "vet2")
    assert again.returncode == 0, again.stderr
    assert read(tmp_path / "vet2" / "summary.json")["vetting"] == 2
    assert slice_entry(court)["frozen_by"] == "vet"


def test_criteria_changed_after_freezing_are_refused_and_nothing_is_written(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_vet_slice(tmp_path, server)
    assert court.run_freeze().returncode == 0
    court.criteria.write_text(criteria_text(target=0.5), encoding="utf-8")
    before = court.ledger.read_bytes()
    ran = court.run_vet()
    assert ran.returncode == 2
    assert "criteria changed after freezing: frozen " in ran.stderr
    assert not (tmp_path / "vet").exists()
    assert court.ledger.read_bytes() == before
    assert server.chat_requests() == []


def test_the_builders_family_is_never_seated(tmp_path: Path, server: JurorServer) -> None:
    court = make_vet_slice(tmp_path, server)
    answer_vet(server, works="pass", followable="pass", cheapest="pass")
    ran = court.run_vet()
    assert ran.returncode == 0, ran.stderr
    models = {request.body["model"] for request in server.chat_requests()}
    assert "rung-x-model" not in models and models
    routing = read(tmp_path / "vet" / "routing.json")
    for lens in routing["lenses"]:
        assert lens["family"] != EXECUTOR
        assert [(s["rung"], s["reason"]) for s in lens["skipped"]] == [("rung-x", "builder_family")]
    # Three independent lenses on one ladder of three families: one family each.
    assert [lens["family"] for lens in routing["lenses"]] == ["fam-a", "fam-b", "fam-c"]
    assert models == {"rung-a-model", "rung-b-model", "rung-c-model"}
    assert read(tmp_path / "vet" / "summary.json")["builder_family"] == EXECUTOR


def test_a_garbage_reply_is_a_malformed_refuse_asked_once(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_vet_slice(tmp_path, server)
    answer_vet(server, followable="pass", cheapest="refuse")
    server.when(lens_text("works"), reply(GARBAGE))
    ran = court.run_vet()
    assert ran.returncode == 1, ran.stderr
    assert asked(server, "works") == 1  # one shot: no retry, no next rung
    works = read(tmp_path / "vet" / "verdict_works.json")
    assert (works["verdict"], works["reason"]) == ("refuse", "malformed")
    summary = read(tmp_path / "vet" / "summary.json")
    assert (summary["outcome"], summary["refused"]) == ("REFINE", ["works", "cheapest"])
    assert "malformed verdict from rung-a" in (tmp_path / "vet" / "judgment.md").read_text()


def test_a_replay_fleet_answers_the_vetting_by_its_own_seat_keys(
    tmp_path: Path, server: JurorServer
) -> None:
    court = make_vet_slice(tmp_path, server)
    recorded = {f"vet/{lens}": json.dumps({"verdict": "pass", "lens": lens, "checked": [
        {"location": PLAN_CHECK[0], "evidence": PLAN_CHECK[1], "claim": "a check"}]})
        for lens in VET_LENSES}  # fmt: skip
    (tmp_path / "answers.yaml").write_text(json.dumps(recorded), encoding="utf-8")
    fleet = {"rungs": [{"id": "rec-x", "family": EXECUTOR, "transport": "replay",
                        "answers": "answers.yaml"},
                       {"id": "rec-a", "family": "fam-a", "transport": "replay",
                        "answers": "answers.yaml"}],
             "tiers": {"generalist": ["rec-x", "rec-a"]}}  # fmt: skip
    court.fleet.write_text(json.dumps(fleet), encoding="utf-8")
    ran = court.run_vet()
    assert ran.returncode == 0, ran.stderr
    summary = read(tmp_path / "vet" / "summary.json")
    assert [seat["tier"] for seat in summary["seats"]] == ["generalist"] * 3
    assert all(seat["recorded"] for seat in summary["seats"])
    assert "**Recorded answers:**" in (tmp_path / "vet" / "judgment.md").read_text()


# --- bad input: one line naming the file and field, exit 2, nothing written -----------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("missing plan", "plan.md: file not found"),
        ("empty plan", "plan.md: file is empty"),
        ("bad criteria", "criteria.yaml"),
        ("unknown builder", "--builder"),
        ("ledger inside a file", "--ledger"),
        ("out is a link", "--out"),
        ("out holds files not ours", "summary.json"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(
    tmp_path: Path, server: JurorServer, change: str, expected: str
) -> None:
    court = make_vet_slice(tmp_path, server)
    args = court.vet_args()
    if change == "missing plan":
        (tmp_path / "plan.md").unlink()
    elif change == "empty plan":
        (tmp_path / "plan.md").write_text("\n", encoding="utf-8")
    elif change == "bad criteria":
        court.criteria.write_text(criteria_text(target="high"), encoding="utf-8")
    elif change == "unknown builder":
        args[args.index("--builder") + 1] = "nobody-we-know"
    elif change == "ledger inside a file":
        court.ledger = tmp_path / "plan.md" / "ledger.json"
        args[args.index("--ledger") + 1] = str(court.ledger)
    elif change == "out is a link":
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "vet").symlink_to(tmp_path / "elsewhere")
    else:
        (tmp_path / "vet").mkdir()
        (tmp_path / "vet" / "summary.json").write_text("{}\n", encoding="utf-8")
    before = files(tmp_path)
    ran = court.run_tribunal(*args)
    assert ran.returncode == 2, ran.stderr
    (line,) = [line for line in ran.stderr.splitlines() if line.startswith("tribunal: error:")]
    assert expected in line
    assert files(tmp_path) == before
    assert server.chat_requests() == []
