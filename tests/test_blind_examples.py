"""The blind court's shipped examples (B-1, L-1, L-4): the fleets load and keep the floor, the
recorded answers cite the demonstration's files, the CI workflow runs `tribunal convene` with the
flags B-1 names and keeps the ledger, and the docs quote both YAML files verbatim (the fleet in
docs/fleets.md, the workflow in docs/ci.md)."""

from __future__ import annotations

import shlex

from testing import REPO
from testing.markdown_page import Page

from tribunal.documents import load_yaml
from tribunal.enums import SeatVerdict
from tribunal.jury.builder import resolve_builder
from tribunal.jury.fleet import load_fleet
from tribunal.jury.floor import floor_warnings
from tribunal.jury.routing import route
from tribunal.jury.verdict import parse_verdict

BLIND = REPO / "examples" / "blind"


def yaml_blocks(page: str) -> list[str]:
    return [fence.body for fence in Page.read(REPO / "docs" / page, REPO).blocks({"yaml"})]


def test_the_docs_quote_the_provider_fleet_and_the_workflow_verbatim() -> None:
    for name, page in (("fleet.providers.yaml", "fleets.md"), ("convene.workflow.yaml", "ci.md")):
        assert (BLIND / name).read_text(encoding="utf-8") in yaml_blocks(page), name


def test_blind_fleets_keep_the_floor_and_seat_every_lens_away_from_the_builder() -> None:
    keys = {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k", "OPENROUTER_API_KEY": "k"}
    for name in ("fleet.providers.yaml", "fleet.replay.yaml"):
        fleet = load_fleet(BLIND / name)
        assert floor_warnings(fleet, strict=True) == (), name
        for family in fleet.families:
            routing = route(fleet, resolve_builder(fleet, family), env=keys, tokens=100_000)
            assert routing.all_seated, (name, family)


def test_recorded_answers_pass_each_lens_and_cite_something() -> None:
    fleet = load_fleet(BLIND / "fleet.replay.yaml")
    answers = load_yaml(BLIND / "answers.yaml").data
    assert sorted(answers) == sorted(lens.id for lens in fleet.lenses)
    for lens, text in answers.items():
        verdict = parse_verdict(text, lens=lens)
        assert verdict.verdict is SeatVerdict.PASS and verdict.checked, lens


def test_the_workflow_fails_unless_land_and_caches_the_ledger() -> None:
    workflow = load_yaml(BLIND / "convene.workflow.yaml").data
    steps = workflow["jobs"]["convene"]["steps"]
    runs = [step["run"] for step in steps if "tribunal convene" in step.get("run", "")]
    assert len(runs) == 1
    words = shlex.split(runs[0].replace("${{ github.event.pull_request.base.sha }}", "BASE"))
    for flag in ("--repo", "--base", "--contract", "--fleet", "--builder", "--out", "--ledger"):
        assert flag in words, flag
    # No `|| true`, no `continue-on-error`: a non-zero exit (anything but LAND) fails the job.
    assert "||" not in runs[0]
    assert not any(step.get("continue-on-error") for step in steps)
    ledger = words[words.index("--ledger") + 1]
    cached = [step for step in steps if str(step.get("uses", "")).startswith("actions/cache")]
    assert {step["with"]["path"] for step in cached} == {ledger}
    saves = [step for step in cached if "save" in step["uses"]]
    assert saves and all(step.get("if") == "always()" for step in saves)
