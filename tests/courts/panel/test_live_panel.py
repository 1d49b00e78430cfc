"""P-3, P-4, P-6: a panel round heard from real small models, replayed.

`fixtures/live_panel.json` holds what `bench/live_juror.py --panel --save-fixtures` recorded:
round 1 of the golden slice of `examples/panel/` convened before Qwen2.5-Coder 0.5B and
SmolLM2 135M (llama-cpp-python's server, `response_format: json_object_schema`) — every call's
prompt and reply, the envelope's files, the references, the protocol's example citation,
tribunal's own verification output, and what each member's card came to. Replaying each reply
through the card reader and the citation check must give exactly what the live run got, so CI
checks real models' cards, not only scripted ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from testing import REPO

from tribunal.courts.panel import MalformedCard, Scorecard, apply_citations, read_card
from tribunal.courts.panel.checking import command_spellings, evidence_checker
from tribunal.enums import ScorecardPhase
from tribunal.evidence.slice.criteria import load_criteria
from tribunal.evidence.slice.verification import render_command
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.seat.record import RejectedRung

FIXTURE = Path(__file__).with_name("fixtures") / "live_panel.json"
LIVE: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
CRITERIA = load_criteria(REPO / "examples" / "panel" / "criteria.yaml")
DIMENSIONS = tuple(dimension.id for dimension in CRITERIA.dimensions)
RUNG_OF_MODEL = {
    "qwen2.5-coder-0.5b-instruct": "qwen-local",
    "smollm2-135m-instruct": "smollm-local",
}


def check() -> Any:
    example = LIVE["example"]
    sources = CitationSources(
        {**LIVE["files"], **LIVE["references"]},
        example=ExampleCitation(**example) if example is not None else None,
    )
    outputs = {
        spelling: run["output"]
        for run in LIVE["verification"]["commands"]
        for spelling in command_spellings(run["command"], render_command(run["command"]))
    }
    return evidence_checker(sources, outputs, CRITERIA.request)


def replay(call: dict[str, Any]) -> Scorecard | MalformedCard | RejectedRung:
    return read_card(
        call["reply"],
        lens=call["lens"],
        round=1,
        phase=ScorecardPhase(call["phase"]),
        dimensions=DIMENSIONS,
        rung=RUNG_OF_MODEL[call["model"]],
        adversary=call["lens"] == "adversary",
        shown=call["prompt"],
    )


@pytest.mark.parametrize(
    "member", LIVE["members"], ids=lambda member: f"{member['lens']}-{member['phase']}"
)
def test_each_members_card_replays_to_what_the_live_run_got(member: dict[str, Any]) -> None:
    calls = [
        c for c in LIVE["calls"] if (c["lens"], c["phase"]) == (member["lens"], member["phase"])
    ]
    # A reply cut short (finish_reason "length") is the transport's `truncated`: the walk went on
    # to the next rung without reading it.
    outcomes = [replay(call) for call in calls if call["finish_reason"] != "length"]
    # The walk stops at the first card or malformed card; a card for another lens walks on.
    final = next((o for o in outcomes if not isinstance(o, RejectedRung)), None)
    source = {Scorecard: "card", MalformedCard: "malformed", type(None): "hold"}[type(final)]
    assert source == member["verdict_source"]
    if isinstance(final, Scorecard):
        checked = apply_citations(final, check())
        assert sorted(set(final.scores) - set(checked.scores)) == member["refuted"]


def test_every_call_of_the_live_run_was_answered() -> None:
    assert LIVE["calls"] and all(call["status"] == 200 for call in LIVE["calls"])
    assert {call["finish_reason"] for call in LIVE["calls"]} <= {"stop", "length"}


def test_no_score_of_8_or_more_survived_the_live_run() -> None:
    # The figure docs/benchmarks.md reports: every 8 cited the protocol's own example.
    survived = []
    for call in LIVE["calls"]:
        card = replay(call) if call["finish_reason"] == "stop" else None
        if isinstance(card, Scorecard):
            kept = apply_citations(card, check()).scores
            survived += [score for score in kept.values() if score.score >= 8]
    assert survived == []
