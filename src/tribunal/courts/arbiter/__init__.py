"""The arbiter court (A-1..A-6): the charter's roles and their votes, round by round (`rules`),
rounds admitted only by a diff that moved the dispute (`admission`), the dispute over its rounds
(`rounds`), and the arbiter's roles played by a model (`roles`, `seated_vote`)."""

from tribunal.courts.arbiter.rounds import Arbitration, arbitrate
from tribunal.courts.arbiter.rules import ApplicablePrecedent, RoundDecision, decide_round

__all__ = ["ApplicablePrecedent", "Arbitration", "RoundDecision", "arbitrate", "decide_round"]
