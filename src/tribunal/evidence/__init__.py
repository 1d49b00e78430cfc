"""Evidence producers: duel, invariants, matrix, readiness, proofs -> Evidence records."""
