"""P-6 disagreement triggers over the first phase's scores left after the citation check."""

from __future__ import annotations

from tests.courts.panel.builders import ABSENT_QUOTE, LOCATION, THREE, card, check, score
from tribunal.courts.panel import (
    Criteria,
    Scorecard,
    TriggerName,
    apply_citations,
    find_triggers,
)
from tribunal.courts.panel.triggers import pass_fail_split


def fired(*cards: Scorecard, criteria: Criteria = THREE) -> list[tuple[TriggerName, str | None]]:
    found = find_triggers(criteria, [apply_citations(c, check) for c in cards])
    return [(trigger.name, trigger.dimension) for trigger in found]


def test_a_spread_of_two_fires_and_of_one_does_not() -> None:
    assert fired(card("quality", [8, 8, 8]), card("fitness", [7, 8, 8])) == []
    assert fired(card("quality", [8, 8, 8]), card("fitness", [6, 8, 8])) == [
        (TriggerName.SPREAD, "correctness")
    ]


def test_a_refuted_score_cannot_fire_a_trigger() -> None:
    refuted = score(2, "0.7", ABSENT_QUOTE)
    assert (
        fired(
            card("quality", [8, 8, 8]),
            card("adversary", {"correctness": refuted, "robustness": 8, "clarity": 8}),
        )
        == []
    )


def test_the_adversary_scoring_a_1() -> None:
    one = score(1, "0.7", LOCATION)
    adversary = card("adversary", {"correctness": one, "robustness": 2, "clarity": 2})
    others = card("quality", {"correctness": 2, "robustness": 2, "clarity": 2})
    assert fired(others, adversary) == [(TriggerName.ADVERSARY_SCORED_ONE, "correctness")]
    # The same 1 from another lens is no adversary's.
    assert fired(card("fitness", {"correctness": one, "robustness": 2, "clarity": 2}), others) == []
    # The adversary is whichever lens the criteria seat as one.
    found = find_triggers(
        THREE,
        [
            apply_citations(
                card("breaker", {"correctness": one, "robustness": 2, "clarity": 2}), check
            )
        ],
        adversary="breaker",
    )
    assert [str(t) for t in found] == ["adversary scored 1 on correctness: breaker 1"]


def test_the_confidence_split_is_per_dimension() -> None:
    unsure = card("quality", {"correctness": score(8, "0.4"), "robustness": 8, "clarity": 8})
    sure_same = card("fitness", {"correctness": score(8, "0.9"), "robustness": 8, "clarity": 8})
    sure_other = card("fitness", {"correctness": 8, "robustness": score(8, "0.9"), "clarity": 8})
    assert fired(unsure, sure_same) == [(TriggerName.CONFIDENCE_SPLIT, "correctness")]
    # Unsure on one dimension, sure on another: not a disagreement between members.
    assert fired(unsure, sure_other) == []
    one_card = card(
        "quality", {"correctness": score(8, "0.4"), "robustness": score(8, "0.9"), "clarity": 8}
    )
    assert fired(one_card) == []


def test_the_confidence_bounds_are_strict() -> None:
    at_half = card("quality", {"correctness": score(8, "0.5"), "robustness": 8, "clarity": 8})
    at_high = card("fitness", {"correctness": score(8, "0.8"), "robustness": 8, "clarity": 8})
    below = card("quality", {"correctness": score(8, "0.49"), "robustness": 8, "clarity": 8})
    above = card("fitness", {"correctness": score(8, "0.81"), "robustness": 8, "clarity": 8})
    assert fired(at_half, above) == []
    assert fired(below, at_high) == []
    assert fired(below, above) == [(TriggerName.CONFIDENCE_SPLIT, "correctness")]


def split(*cards: Scorecard, criteria: Criteria) -> bool:
    return pass_fail_split(criteria, [apply_citations(c, check) for c in cards]) is not None


def test_the_pass_fail_split_needs_both_sides_and_more_than_0_15() -> None:
    two = Criteria.of({"a": 1, "b": 1})
    at_target = card("quality", {"a": 8, "b": 8}, criteria=two)  # 0.80
    exactly_apart = card("fitness", {"a": 7, "b": 6}, criteria=two)  # 0.65: 0.15 apart
    further = card("fitness", {"a": 7, "b": 5}, criteria=two)  # 0.60
    above = card("fitness", {"a": 10, "b": 10}, criteria=two)
    assert not split(at_target, exactly_apart, criteria=two)
    assert split(at_target, further, criteria=two)
    assert not split(at_target, above, criteria=two)  # all at or above
    assert not split(exactly_apart, further, criteria=two)  # all below


def test_the_pass_fail_split_renormalises_over_what_is_left() -> None:
    two = Criteria.of({"a": 1, "b": 1}, "0.50")
    high = card("quality", {"a": 8, "b": 8}, criteria=two)
    # b is refuted: this member's own overall is a's alone, 0.60, at or above 0.50 like the
    # other's; b counted as nothing would make it 0.30, below, and split the panel.
    partial = card("fitness", {"a": 6, "b": score(9, "0.7", ABSENT_QUOTE)}, criteria=two)
    assert not split(high, partial, criteria=two)
    assert split(high, card("fitness", {"a": 6, "b": 1}, criteria=two), criteria=two)
