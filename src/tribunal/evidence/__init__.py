"""Evidence producers, each emitting the one Evidence record shape (`record`): the duel
(`duel`, `cases`), anti-Goodhart invariants (`invariants`), the tier-pair matrix (`matrix`),
readiness (`readiness`), the git proofs (`proofs`), a dispute's machine-checked evidence
(`dispute`), and reading their outputs back (`collect`)."""
