"""The blind court (B-1..B-3): eight lenses seated on models of other families than the
builder's, unanimous or nothing lands — the outcome (`decide`), the findings as the court counts
them (`findings`), and convergence across rounds (`convergence`)."""

from tribunal.courts.blind.convergence import LedgerView
from tribunal.courts.blind.decide import BlindDecision, Flags, Proof, Proofs, decide

__all__ = ["BlindDecision", "Flags", "LedgerView", "Proof", "Proofs", "decide"]
