"""Records kept in the repository, and the files they are made of: judgment.md of every court
(`judgment`, `arbiter_judgment`, `blind_report`, `manual_judgment`, with `decision_trace` and
`next_steps`), checking and filing them (`judgment_check`, `filing`, `check`, `walk`), the run
dir of a convening (`rundir`) and the ledger of rounds (`ledger`)."""
