"""P-7: consensus per dimension, the overall, blocked dimensions — exact rational arithmetic.

Every value is a `Fraction` and every comparison is made on Fractions; two decimals appear only
when a value is shown (`two_decimals`), never before a comparison.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tribunal.courts.panel.cards import MAX_SCORE, Criteria, Score
from tribunal.courts.panel.refutation import LOW_SCORE
from tribunal.enums import ConsensusKind

WITHIN = 1  # P-7: scores "within 1 of each other"


@dataclass(frozen=True)
class MemberScore:
    """One member's score on one dimension in one phase; `refuted` says why it was refuted
    (P-6), or is None when it counts."""

    lens: str
    score: Score
    refuted: str | None = None


@dataclass(frozen=True)
class Dissent:
    """P-7: a member's score outside the consensus, kept verbatim (score, confidence,
    evidence)."""

    lens: str
    dimension: str
    score: Score


@dataclass(frozen=True)
class Consensus:
    """P-7: a dimension's consensus. `value` is the mean of `members`' scores (AGREED or
    MAJORITY), or None (DEADLOCK, UNSCORED); `dissents` are the scores left outside it."""

    kind: ConsensusKind
    value: Fraction | None
    members: tuple[str, ...]
    dissents: tuple[Dissent, ...] = ()


def mean(values: Sequence[int]) -> Fraction:
    """The exact mean of `values`. Raises ValueError when there are none."""
    if not values:
        raise ValueError("the mean of no values")
    return Fraction(sum(values), len(values))


def consensus(dimension: str, scores: Sequence[MemberScore]) -> Consensus:
    """P-7 over one dimension's last-phase scores; refuted ones are set aside first, so they
    never enter a mean. Raises nothing."""
    counted = [member for member in scores if member.refuted is None]
    if not counted:
        # Every score refuted or absent: nothing can be averaged (see `Decision`: ESCALATE).
        return Consensus(ConsensusKind.UNSCORED, None, ())
    values = [member.score.score for member in counted]
    if max(values) - min(values) <= WITHIN:
        return Consensus(ConsensusKind.AGREED, mean(values), tuple(m.lens for m in counted))
    # Integer scores within 1 of each other all lie in one window [k, k + 1]; the windows
    # starting at each score are every maximal such group.
    groups: dict[tuple[int, ...], list[int]] = {}
    for low in sorted(set(values)):
        indices = tuple(i for i, v in enumerate(values) if low <= v <= low + WITHIN)
        groups.setdefault(indices, [values[i] for i in indices])
    largest = max(len(indices) for indices in groups)
    if 2 * largest <= len(values):  # the largest group is no strict majority
        return Consensus(ConsensusKind.DEADLOCK, None, ())
    # Two strict-majority groups of that size: the smaller spread, then the lower mean.
    chosen = min(
        (indices for indices in groups if len(indices) == largest),
        key=lambda indices: (
            max(groups[indices]) - min(groups[indices]),
            mean(groups[indices]),
        ),
    )
    dissents = tuple(
        Dissent(member.lens, dimension, member.score)
        for i, member in enumerate(counted)
        if i not in chosen
    )
    return Consensus(
        ConsensusKind.MAJORITY,
        mean(groups[chosen]),
        tuple(counted[i].lens for i in chosen),
        dissents,
    )


def blocked(scores: Sequence[MemberScore]) -> bool:
    """P-7: True when a strict majority of the dimension's counted scores are 3 or less."""
    counted = [member.score.score for member in scores if member.refuted is None]
    return 2 * sum(1 for value in counted if value <= LOW_SCORE) > len(counted)


def overall(criteria: Criteria, values: Mapping[str, Fraction | None]) -> Fraction:
    """P-7: Σ consensus_d / 10 × w_d with the normalised weights. A dimension without a
    consensus (deadlock, unscored) credits nothing, so the sum is then a lower bound and never
    decides alone (its dimension ESCALATEs first). Raises nothing."""
    return sum(
        (
            value / MAX_SCORE * criteria.weights[dimension]
            for dimension, value in values.items()
            if value is not None
        ),
        Fraction(0),
    )


def member_overall(criteria: Criteria, scores: Mapping[str, Score]) -> Fraction | None:
    """P-6: one member's own overall — P-7's formula over its non-refuted `scores`, the weights
    renormalised over the dimensions it still scores; None when it scores none."""
    weights = {d: criteria.weights[d] for d in criteria.ids if d in scores}
    total = sum(weights.values(), Fraction(0))
    if not total:
        return None
    return sum(
        (Fraction(scores[d].score, MAX_SCORE) * weight / total for d, weight in weights.items()),
        Fraction(0),
    )


def two_decimals(value: Fraction, places: int = 2) -> str:
    """`value` shown to `places` decimals, half away from zero, computed exactly (7.665 shows
    7.67; 61/90 shows 0.68). For display only: nothing is compared on the result."""
    scale = 10**places
    scaled = abs(value) * scale
    rounded = int(scaled + Fraction(1, 2))  # floor(x + 1/2): half up, for x >= 0
    sign = "-" if value < 0 and rounded else ""
    whole, part = divmod(rounded, scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"
