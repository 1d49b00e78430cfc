"""P-6 disagreement triggers over the first phase's scores left after the citation check. Any
trigger opens exactly one synthesis phase in the round; never a second.

Where each trigger looks:
- spread, the adversary's 1 and the confidence split are per dimension: P-6 lists them under
  "on a dimension", and sets the fourth apart as "across the panel". Source 001 is silent on
  the triggers (it defers to a consensus-mechanics.md that is not among the sources), but its
  rule that scores are given "per dimension" and disagreement is ruled on by evidence, never
  averaged away ("依据证据裁定——绝不通过取平均值来消除分歧"), points the same way: a member sure
  of one dimension and unsure of another is not a disagreement between members. So the
  confidence split needs two members' confidences on one dimension, one < 0.5, another > 0.8.
- the pass/fail split is across the panel: the members' own overalls (`member_overall`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tribunal.courts.panel.cards import Criteria
from tribunal.courts.panel.consensus import member_overall, two_decimals
from tribunal.courts.panel.refutation import CheckedCard
from tribunal.enums import TriggerName

ADVERSARY_LENS = "adversary"  # P-1: the lens an adversary is seated as, unless told otherwise
SPREAD = 2  # P-6: max − min ≥ 2 on a dimension
LOW_CONFIDENCE = Fraction(1, 2)  # P-6: one confidence < 0.5 ...
HIGH_CONFIDENCE = Fraction(4, 5)  # ... and another > 0.8
OVERALLS_APART = Fraction(3, 20)  # P-6: own overalls on both sides of the target, > 0.15 apart


@dataclass(frozen=True)
class Trigger:
    """A trigger that fired, and where: `dimension` (None for the pass/fail split, which is
    across the panel) and `detail`, the figures that fired it."""

    name: TriggerName
    dimension: str | None
    detail: str

    def __str__(self) -> str:
        where = f" on {self.dimension}" if self.dimension is not None else ""
        return f"{self.name}{where}: {self.detail}"


def find_triggers(
    criteria: Criteria, cards: Sequence[CheckedCard], adversary: str = ADVERSARY_LENS
) -> tuple[Trigger, ...]:
    """Every P-6 trigger that fires over `cards` (the first phase, citations applied): per
    dimension in the criteria's order, then the pass/fail split. Raises nothing."""
    fired: list[Trigger] = []
    for dimension in criteria.ids:
        scored = [(card.lens, card.scores[dimension]) for card in cards if dimension in card.scores]
        if not scored:
            continue
        values = [score.score for _, score in scored]
        # P-6: spread (max − min) ≥ 2.
        if max(values) - min(values) >= SPREAD:
            shown = ", ".join(f"{lens} {score.score}" for lens, score in scored)
            fired.append(
                Trigger(
                    TriggerName.SPREAD,
                    dimension,
                    f"{shown} (spread {max(values) - min(values)})",
                )
            )
        # P-6: the adversary scores a 1.
        if any(lens == adversary and score.score == 1 for lens, score in scored):
            fired.append(Trigger(TriggerName.ADVERSARY_SCORED_ONE, dimension, f"{adversary} 1"))
        # P-6: one confidence < 0.5 and another > 0.8 — two members on this dimension.
        unsure = [(lens, s.confidence) for lens, s in scored if s.confidence < LOW_CONFIDENCE]
        sure = [(lens, s.confidence) for lens, s in scored if s.confidence > HIGH_CONFIDENCE]
        if unsure and sure:
            shown = ", ".join(
                f"{lens} {two_decimals(confidence)}" for lens, confidence in unsure + sure
            )
            fired.append(Trigger(TriggerName.CONFIDENCE_SPLIT, dimension, f"confidence {shown}"))
    split = pass_fail_split(criteria, cards)
    if split is not None:
        fired.append(split)
    return tuple(fired)


def pass_fail_split(criteria: Criteria, cards: Sequence[CheckedCard]) -> Trigger | None:
    """P-6's pass/fail split, or None: the members' own overalls fall on both sides of the
    target (some at or above it, some below) and the highest and lowest differ by more than
    0.15. A member with no score left has no overall and takes no side. Raises nothing."""
    overalls = [
        (card.lens, value)
        for card in cards
        if (value := member_overall(criteria, card.scores)) is not None
    ]
    values = [value for _, value in overalls]
    if not values:
        return None
    both_sides = max(values) >= criteria.target > min(values)
    if not both_sides or max(values) - min(values) <= OVERALLS_APART:
        return None
    shown = ", ".join(f"{lens} {two_decimals(value)}" for lens, value in overalls)
    return Trigger(
        TriggerName.PASS_FAIL_SPLIT,
        None,
        f"own overalls {shown} against target {two_decimals(criteria.target)}",
    )
