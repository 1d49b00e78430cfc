"""P-7: consensus per dimension, the overall in exact arithmetic, blocked dimensions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.courts.panel.builders import THREE, score
from tribunal.courts.panel import (
    ConsensusKind,
    Criteria,
    MemberScore,
    blocked,
    consensus,
    member_overall,
    overall,
    two_decimals,
)

LENSES = ("m1", "m2", "m3", "m4", "m5")


def scores(*values: int, refuted: tuple[int, ...] = ()) -> tuple[MemberScore, ...]:
    """Members m1.. scoring `values`; the positions in `refuted` refuted."""
    return tuple(
        MemberScore(lens, score(value), "does not check" if i in refuted else None)
        for i, (lens, value) in enumerate(zip(LENSES, values, strict=False))
    )


@pytest.mark.parametrize(
    ("values", "kind", "value", "members"),
    [
        ((8, 8, 7), ConsensusKind.AGREED, Fraction(23, 3), ("m1", "m2", "m3")),
        ((4, 5, 5, 4), ConsensusKind.AGREED, Fraction(9, 2), ("m1", "m2", "m3", "m4")),
        ((6,), ConsensusKind.AGREED, Fraction(6), ("m1",)),
        ((5, 5, 3), ConsensusKind.MAJORITY, Fraction(5), ("m1", "m2")),
        ((1, 2, 9), ConsensusKind.MAJORITY, Fraction(3, 2), ("m1", "m2")),
        # Two strict-majority groups of three: same spread, the lower mean.
        ((5, 6, 6, 7), ConsensusKind.MAJORITY, Fraction(17, 3), ("m1", "m2", "m3")),
        ((7, 6, 6, 5), ConsensusKind.MAJORITY, Fraction(17, 3), ("m2", "m3", "m4")),
        ((3, 6, 9), ConsensusKind.DEADLOCK, None, ()),
        ((5, 8), ConsensusKind.DEADLOCK, None, ()),
        ((2, 2, 5, 5), ConsensusKind.DEADLOCK, None, ()),  # half is no strict majority
        ((2, 3, 3, 8, 9), ConsensusKind.MAJORITY, Fraction(8, 3), ("m1", "m2", "m3")),
        ((), ConsensusKind.UNSCORED, None, ()),
    ],
)
def test_consensus(
    values: tuple[int, ...],
    kind: ConsensusKind,
    value: Fraction | None,
    members: tuple[str, ...],
) -> None:
    result = consensus("d", scores(*values))
    assert (result.kind, result.value, result.members) == (kind, value, members)


def test_every_other_member_is_a_dissent_kept_verbatim() -> None:
    members = scores(5, 5, 3)
    result = consensus("robustness", members)
    (dissent,) = result.dissents
    assert (dissent.lens, dissent.dimension) == ("m3", "robustness")
    assert dissent.score is members[2].score  # score, confidence, evidence


def test_refuted_scores_never_enter_the_mean() -> None:
    result = consensus("d", scores(8, 8, 4, refuted=(2,)))
    assert (result.kind, result.value, result.members, result.dissents) == (
        ConsensusKind.AGREED,
        Fraction(8),
        ("m1", "m2"),
        (),
    )
    assert consensus("d", scores(8, 1, refuted=(0, 1))).kind is ConsensusKind.UNSCORED


@pytest.mark.parametrize(
    ("values", "refuted", "expected"),
    [
        ((2, 3, 9), (), True),
        ((3, 5, 9), (), False),
        ((2, 2, 9, 9), (), False),  # half is not a strict majority
        ((3, 3, 3), (), True),
        ((4, 4, 4), (), False),
        ((2, 9, 9), (1, 2), True),  # the counted scores decide
        ((), (), False),
    ],
)
def test_blocked(values: tuple[int, ...], refuted: tuple[int, ...], expected: bool) -> None:
    assert blocked(scores(*values, refuted=refuted)) is expected


def test_overall_is_exact_and_7_7_7_is_exactly_the_band_edge() -> None:
    sevens = {d: Fraction(7) for d in THREE.ids}
    assert overall(THREE, sevens) == Fraction(7, 10) == THREE.target - Fraction(1, 10)
    weighted = Criteria.of({"a": 4, "b": 4, "c": 1})
    assert overall(weighted, {"a": Fraction(9), "b": Fraction(9), "c": Fraction(5, 2)}) == (
        Fraction(149, 180)
    )


def test_a_dimension_without_consensus_credits_nothing() -> None:
    assert overall(THREE, {"correctness": Fraction(9), "robustness": None, "clarity": None}) == (
        Fraction(3, 10)
    )


def test_a_member_overall_renormalises_over_the_dimensions_it_still_scores() -> None:
    weighted = Criteria.of({"a": 2, "b": 1, "c": 1})
    assert member_overall(weighted, {"a": score(8), "b": score(6), "c": score(4)}) == Fraction(
        13, 20
    )
    assert member_overall(weighted, {"a": score(8), "c": score(5)}) == Fraction(7, 10)
    assert member_overall(weighted, {}) is None


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(23, 3), "7.67"),
        (Fraction(61, 90), "0.68"),
        (Fraction(73, 90), "0.81"),
        (Fraction(7, 10), "0.70"),
        (Fraction(27, 40), "0.68"),  # 0.675: half up
        (Fraction(1, 200), "0.01"),
        (Fraction(8), "8.00"),
        (Fraction(-1, 3), "-0.33"),
    ],
)
def test_two_decimals(value: Fraction, shown: str) -> None:
    assert two_decimals(value) == shown


def test_more_places_when_asked() -> None:
    assert two_decimals(Fraction(7, 10), 3) == "0.700"
    assert two_decimals(Fraction(2, 3), 0) == "1"
