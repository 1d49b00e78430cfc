"""What the blind court needs from the ledger (B-3): the findings of earlier rounds, the refuted
ones, the count of new findings per round — and the convergence rule over those counts.

Pure values: the ledger file (`tribunal.courts.ledger`) builds a `LedgerView`; the outcome
(`tribunal.courts.blind.decide`) reads one. A run without a ledger uses `LedgerView.first_round()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tribunal.jury.prompt import Adjudication

CONVERGENCE_WINDOW = 3  # B-3: n_k >= n_{k-1} >= n_{k-2}, judged from round 3 on


@dataclass(frozen=True)
class LedgerView:
    """One dispute's earlier rounds as seen from round `round`.

    `seen`: fingerprints raised in any earlier round; `refuted`: fingerprint -> its adjudication
    (refuted with evidence, B-3); `new_counts`: round number -> n of new findings in that round.
    """

    round: int = 1
    seen: frozenset[str] = frozenset()
    refuted: Mapping[str, Adjudication] = field(default_factory=dict)
    new_counts: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def first_round(cls) -> LedgerView:
        """A dispute no ledger has seen: round 1, nothing seen, nothing refuted."""
        return cls()

    @property
    def adjudications(self) -> list[Adjudication]:
        """The refuted findings to carry into this round's prompts (E-5), by fingerprint."""
        return [self.refuted[key] for key in sorted(self.refuted)]


def convergence_failed(round_number: int, new_count: int, earlier: Mapping[int, int]) -> bool:
    """B-3: True when round k >= 3 has n_k >= n_{k-1} >= n_{k-2} new findings.

    `earlier` maps round numbers to their counts; when k-1 or k-2 was never recorded (rounds
    given out of order with `--round`) there is no trend to judge, and this returns False.
    """
    if round_number < CONVERGENCE_WINDOW:
        return False
    before = earlier.get(round_number - 1)
    before_that = earlier.get(round_number - 2)
    if before is None or before_that is None:
        return False
    return new_count >= before >= before_that
