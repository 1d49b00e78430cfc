"""P-1/P-4 as data: what the constructors accept, normalise and refuse."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.courts.panel.builders import QUOTE, THREE, card
from tribunal.courts.panel import (
    DEFAULT_TARGET,
    Criteria,
    Dimension,
    Finding,
    MalformedCard,
    QuoteEvidence,
    Recommendation,
    Score,
    Scorecard,
    ScorecardPhase,
    Severity,
)
from tribunal.errors import BadInput


def test_weights_are_normalised_to_sum_one_exactly() -> None:
    criteria = Criteria.of({"a": 4, "b": 4, "c": 1})
    assert dict(criteria.weights) == {"a": Fraction(4, 9), "b": Fraction(4, 9), "c": Fraction(1, 9)}
    assert sum(criteria.weights.values()) == 1
    assert criteria.target == DEFAULT_TARGET == Fraction(4, 5)
    assert criteria.ids == ("a", "b", "c")


def test_decimal_weights_and_targets_are_read_as_the_decimals_written() -> None:
    criteria = Criteria.of({"a": 0.1, "b": 0.2}, 0.7)
    assert criteria.weights["a"] == Fraction(1, 3)
    assert criteria.target == Fraction(7, 10)  # not the binary double nearest 0.7
    assert Score.of(8, 0.8, QUOTE).confidence == Fraction(4, 5)
    assert Score.of(8, "0.85", QUOTE).confidence == Fraction(17, 20)


@pytest.mark.parametrize(
    ("weights", "target"),
    [({}, "0.8"), ({"a": 0}, "0.8"), ({"a": -1}, "0.8"), ({"a": 1}, "0"), ({"a": 1}, "1.2")],
)
def test_criteria_out_of_range_are_bad_input(weights: dict[str, int], target: str) -> None:
    with pytest.raises(BadInput):
        Criteria.of(weights, target)


def test_a_dimension_listed_twice_is_bad_input() -> None:
    with pytest.raises(BadInput, match="twice"):
        Criteria((Dimension("a"), Dimension("a")))


@pytest.mark.parametrize("value", [0, 11, True])
def test_a_score_is_an_integer_from_1_to_10(value: int) -> None:
    with pytest.raises(BadInput):
        Score.of(value, "0.5")


@pytest.mark.parametrize("confidence", ["-0.1", "1.01", "high"])
def test_a_confidence_is_a_number_from_0_to_1(confidence: str) -> None:
    with pytest.raises(BadInput):
        Score.of(5, confidence)


def test_a_float_confidence_is_refused_by_the_plain_constructor() -> None:
    with pytest.raises(BadInput, match="exact"):
        Score(5, 0.5)  # type: ignore[arg-type]


def test_evidence_needs_a_quote_or_a_location() -> None:
    with pytest.raises(BadInput):
        QuoteEvidence(" ", None)
    assert QuoteEvidence(None, "a.py:1").location == "a.py:1"


def test_a_card_is_frozen_all_the_way_down() -> None:
    scores = {"correctness": Score.of(8, "0.9", QUOTE)}
    made = Scorecard("quality", 1, ScorecardPhase.SCORE, scores, Recommendation.SHIP)
    scores["robustness"] = Score.of(1, "0.9", QUOTE)
    assert list(made.scores) == ["correctness"]
    with pytest.raises(TypeError):
        made.scores["clarity"] = Score.of(1, "0.9", QUOTE)  # type: ignore[index]


def test_a_blank_escalation_is_none_and_a_fix_must_say_something() -> None:
    assert card("adversary", [5, 5, 5], escalation="  ").escalates is None
    assert card("adversary", [5, 5, 5], escalation="cannot rebut").escalates == "cannot rebut"
    assert not Finding(Severity.MAJOR, "x", fix="  ").local_fix
    assert Finding(Severity.MAJOR, "x", fix="advance the start").local_fix


def test_a_malformed_card_records_the_blocker_claim() -> None:
    assert MalformedCard("adversary", "openai-mini").claim == "malformed scorecard from openai-mini"


def test_a_card_names_its_lens_and_a_round_from_one() -> None:
    with pytest.raises(BadInput):
        card(" ", [5, 5, 5])
    with pytest.raises(BadInput):
        card("quality", [5, 5, 5], round=0)
    assert card("quality", [5, 5, 5], criteria=THREE).lens == "quality"
