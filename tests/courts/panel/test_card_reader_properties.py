"""P-4, L-6 as properties (hypothesis): a well-formed card is read as the Scorecard it says, with
the same numbers exactly; a card with one rule broken is malformed (or, for another lens, a
rejected rung); and no reply at all ever raises."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tribunal.courts.panel import CardFault, MalformedCard, Scorecard, ScorecardPhase, read_card
from tribunal.enums import ReasonCode
from tribunal.jury.redaction import RAW_TAIL_BYTES
from tribunal.jury.seat.record import RejectedRung

LENSES = ("quality", "fitness", "adversary")
RUNG = "vendor-b/long-1"

words = st.text(min_size=1, max_size=20)
maybe_words = st.none() | st.text(max_size=20)
locations = st.from_regex(r"[a-z]{1,8}\.py:[1-9][0-9]{0,2}", fullmatch=True)
dimension_ids = st.lists(
    st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True), min_size=1, max_size=4, unique=True
)
# A confidence as the hundredths a model writes (0.07, 0.8), or exactly 0 or 1.
hundredths = st.integers(min_value=0, max_value=100)
evidence = st.one_of(
    st.fixed_dictionaries({"quote": words, "location": locations}),
    st.fixed_dictionaries({"quote": words.filter(str.strip)}),
    st.fixed_dictionaries({"location": locations}),
    st.fixed_dictionaries({"command": words, "output": words}),
)
scenarios = st.fixed_dictionaries(
    {
        "input": words,
        "wrong_behaviour": words,
        "kind": st.sampled_from(["correctness", "safety", "other"]),
    },
    optional={"location": st.none() | locations, "quote": maybe_words},
)
findings = st.fixed_dictionaries(
    {"severity": st.sampled_from(["blocker", "major", "minor", "info"]), "claim": words},
    optional={
        "location": st.none() | locations,
        "quote": maybe_words,
        "fix": maybe_words,
        "structural": st.booleans(),
    },
)


def confidence_written(n: int) -> int | float:
    return n // 100 if n in (0, 100) else n / 100


@st.composite
def seats(draw: st.DrawFn) -> dict[str, Any]:
    """What a seat asks for, and a well-formed card answering it."""
    lens = draw(st.sampled_from(LENSES))
    adversary = lens == "adversary"
    dimensions = draw(dimension_ids)
    round = draw(st.integers(min_value=1, max_value=5))
    phase = draw(st.sampled_from(list(ScorecardPhase)))
    numbers = {
        d: (draw(st.integers(min_value=1, max_value=10)), draw(hundredths)) for d in dimensions
    }
    card = {
        "lens": lens,
        "round": round,
        "phase": phase.value,
        "scores": {
            d: {
                "score": score,
                "confidence": confidence_written(n),
                "evidence": draw(st.lists(evidence, max_size=3)),
            }
            for d, (score, n) in numbers.items()
        },
        "failure_scenarios": draw(st.lists(scenarios, min_size=int(adversary), max_size=3)),
        "findings": draw(st.lists(findings, max_size=3)),
        "top_concern": draw(st.text(max_size=20)),
        "recommendation": draw(st.sampled_from(["SHIP", "SHIP_WITH_CAVEATS", "ITERATE", "BLOCK"])),
        "escalation": draw(st.none() | st.text(max_size=20)),
    }
    return {
        "card": card,
        "numbers": numbers,
        "ask": {
            "lens": lens,
            "round": round,
            "phase": phase,
            "dimensions": tuple(dimensions),
            "rung": RUNG,
            "adversary": adversary,
        },
    }


def wrapped(card: dict[str, Any], form: int) -> str:
    """The card as a model may write it: bare, indented, fenced, or with prose around it."""
    return [
        json.dumps(card),
        json.dumps(card, indent=2),
        "```json\n" + json.dumps(card, ensure_ascii=False) + "\n```",
        "My card follows. " + json.dumps(card) + " That is all.",
    ][form]


@given(seats(), st.integers(min_value=0, max_value=3))
def test_a_well_formed_card_is_the_scorecard_it_says(seat: dict[str, Any], form: int) -> None:
    card = seat["card"]
    outcome = read_card(wrapped(card, form), **seat["ask"])
    assert isinstance(outcome, Scorecard), outcome
    assert outcome.lens == card["lens"] and outcome.round == card["round"]
    assert outcome.phase.value == card["phase"]
    assert outcome.recommendation.value == card["recommendation"]
    assert {d: (s.score, s.confidence) for d, s in outcome.scores.items()} == {
        d: (score, Fraction(n, 100)) for d, (score, n) in seat["numbers"].items()
    }
    for d, score in outcome.scores.items():
        assert len(score.evidence) == len(card["scores"][d]["evidence"])
    assert len(outcome.failure_scenarios) == len(card["failure_scenarios"])
    assert len(outcome.findings) == len(card["findings"])


# One rule broken at a time: (name, break the card for a seat, what it must come to).
Mutation = Callable[[dict[str, Any], dict[str, Any], Any], Any]


def _first(card: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = next(iter(card["scores"].values()))
    return entry


def drop_dimension(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    del card["scores"][pick(st.sampled_from(ask["dimensions"]))]


def add_dimension(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    card["scores"]["not_asked" + "_" * 12] = copy.deepcopy(_first(card))


def score_out_of_range(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    values = st.integers(max_value=0) | st.integers(min_value=11)
    _first(card)["score"] = pick(values | st.sampled_from([5.0, 7.5, True, "7", None, [7]]))


def confidence_out_of_range(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    values = st.floats(min_value=1.0001, max_value=1e9) | st.floats(max_value=-0.0001)
    _first(card)["confidence"] = pick(values | st.sampled_from(["0.8", True, None, {}]))


def no_confidence(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    del _first(card)["confidence"]


def bad_severity(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    card["findings"].append({"severity": pick(st.sampled_from(["critical", "", 3])), "claim": "x"})


def bad_kind(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    bad = pick(st.sampled_from(["perf", "", None]))
    card["failure_scenarios"].append({"input": "i", "wrong_behaviour": "w", "kind": bad})


def bad_recommendation(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    card["recommendation"] = pick(st.sampled_from(["ESCALATE", "SHIP IT", "", None, 1]))


def other_round(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    others = st.integers(min_value=-3, max_value=9).filter(lambda r: r != ask["round"])
    card["round"] = pick(others | st.sampled_from([float(ask["round"]), str(ask["round"])]))


def other_phase(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    others = [p.value for p in ScorecardPhase if p is not ask["phase"]]
    card["phase"] = pick(st.sampled_from([*others, "final", None]))


def bad_evidence(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    items = [{}, {"quote": " "}, {"quote": "q", "output": "o"}, {"command": "c"}, "a.py:1", 3]
    items += [{"quote": "q", "line": 1}, {"command": "c", "output": ""}]
    _first(card)["evidence"].append(pick(st.sampled_from(items)))


def no_scores(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    del card["scores"]


def disagreeing_card(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> Any:
    other = copy.deepcopy(card)
    entry = _first(other)
    entry["score"] = entry["score"] % 10 + 1
    return [card, other] if pick(st.booleans()) else [other, card]


def other_lens(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    card["lens"] = pick(st.sampled_from([lens for lens in LENSES if lens != ask["lens"]]))


def no_opposition(card: dict[str, Any], ask: dict[str, Any], pick: Any) -> None:
    card["failure_scenarios"] = pick(st.sampled_from([[], None]))


MALFORMING: list[Mutation] = [
    drop_dimension,
    add_dimension,
    score_out_of_range,
    confidence_out_of_range,
    no_confidence,
    bad_severity,
    bad_kind,
    bad_recommendation,
    other_round,
    other_phase,
    bad_evidence,
    no_scores,
    disagreeing_card,
]


@given(seats(), st.sampled_from(MALFORMING), st.data())
def test_a_card_with_one_rule_broken_is_malformed(
    seat: dict[str, Any], mutation: Mutation, data: st.DataObject
) -> None:
    card = copy.deepcopy(seat["card"])
    objects = mutation(card, seat["ask"], data.draw) or [card]
    outcome = read_card("\n".join(json.dumps(obj) for obj in objects), **seat["ask"])
    assert isinstance(outcome, MalformedCard), (mutation.__name__, outcome)
    assert outcome.reason == CardFault.MALFORMED
    assert outcome.detail
    assert (outcome.lens, outcome.rung, outcome.phase) == (
        seat["ask"]["lens"],
        RUNG,
        seat["ask"]["phase"],
    )


@given(seats(), st.data())
def test_a_card_for_another_lens_rejects_the_rung(
    seat: dict[str, Any], data: st.DataObject
) -> None:
    card = copy.deepcopy(seat["card"])
    other_lens(card, seat["ask"], data.draw)
    outcome = read_card(json.dumps(card), **seat["ask"])
    assert isinstance(outcome, RejectedRung)
    assert (outcome.reason, outcome.answered_lens) == (ReasonCode.WRONG_LENS, card["lens"])


@given(seats(), st.data())
def test_an_adversary_with_no_scenario_did_not_oppose(
    seat: dict[str, Any], data: st.DataObject
) -> None:
    card = copy.deepcopy(seat["card"])
    no_opposition(card, seat["ask"], data.draw)
    outcome = read_card(json.dumps(card), **seat["ask"])
    if seat["ask"]["adversary"]:
        assert isinstance(outcome, MalformedCard)
        assert outcome.reason == CardFault.ADVERSARY_DID_NOT_OPPOSE
    else:
        assert isinstance(outcome, Scorecard) and outcome.failure_scenarios == ()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def lands(outcome: object) -> None:
    assert isinstance(outcome, Scorecard | MalformedCard | RejectedRung)
    if isinstance(outcome, MalformedCard | RejectedRung):
        assert outcome.raw_tail is not None
        assert len(outcome.raw_tail.encode()) <= RAW_TAIL_BYTES


@given(st.text(max_size=300))
def test_any_text_lands_in_a_row_never_an_exception(text: str) -> None:
    lands(read_card(text, lens="quality", round=1, phase=ScorecardPhase.SCORE,
                    dimensions=("correctness",), rung=RUNG, adversary=False))  # fmt: skip


@given(seats(), st.lists(st.text(max_size=8), min_size=1, max_size=3), json_values, st.data())
def test_any_value_anywhere_in_a_card_lands_in_a_row(
    seat: dict[str, Any], path: list[str], value: Any, data: st.DataObject
) -> None:
    # Replace (or add) whatever sits at a path of keys, real ones mostly, by any JSON value.
    card = copy.deepcopy(seat["card"])
    target: Any = card
    for key in path[:-1]:
        if isinstance(target, dict) and target:
            key = data.draw(st.sampled_from(sorted(target)) | st.just(key))
        target = target.get(key) if isinstance(target, dict) else None
    if isinstance(target, dict):
        target[path[-1]] = value
    lands(read_card(json.dumps(card), **seat["ask"]))
