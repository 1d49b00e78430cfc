"""The harness's git proofs (B-4): red first, tests unchanged, green, no regression, no fake
green — run on temporary worktrees of the judged commits under the contract's cap.

`prove` runs the five proofs, `suite` runs and reads one suite run (`capped`: under the cap;
`junit`: per-test outcomes), `repo` is the git access, `report` the records they leave.
"""

from tribunal.evidence.proofs.prove import run_proofs
from tribunal.evidence.proofs.report import ProofRecord, ProofReport

__all__ = ["ProofRecord", "ProofReport", "run_proofs"]
