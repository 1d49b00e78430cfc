"""T-9: the readiness gate — five axes summed against 23 of 25, and hard blocks that no score
outweighs (an incomplete audit trace, no rollback condition, an unknown blast radius, or state
without a verified backup). It produces an Evidence record for the courts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import load_json, validate
from tribunal.enums import CaseVerdict, EvidenceKind, ReadinessBlock
from tribunal.evidence.record import Evidence

AXES = ("spec", "implementation", "verification", "process", "security")
PASS_SCORE = 23
MAX_SCORE = 25


@dataclass(frozen=True)
class Readiness:
    """The gate's result for one readiness record."""

    label: str
    score: int
    blocks: tuple[tuple[ReadinessBlock, str], ...]  # (why, the field it is about)

    @property
    def passes_by_score(self) -> bool:
        """True when the five axes reach the threshold, whatever the hard blocks say."""
        return self.score >= PASS_SCORE

    @property
    def ready(self) -> bool:
        """True when the score holds and nothing hard-blocks."""
        return not self.blocks

    def evidence(self) -> Evidence:
        """The Evidence record: PASS when ready, else FAIL naming the first block; refs point
        at the record and, per block, the field it is about."""
        refs = [self.label] + [f"{self.label}#/{field}" for _, field in self.blocks]
        return Evidence(
            kind=EvidenceKind.READINESS.value,
            verdict=CaseVerdict.PASS if self.ready else CaseVerdict.FAIL,
            reason_code=self.blocks[0][0].value if self.blocks else "ready",
            evidence_ref=list(dict.fromkeys(refs)),
            details={
                "score": self.score,
                "max_score": MAX_SCORE,
                "pass_score": PASS_SCORE,
                "passes_by_score": self.passes_by_score,
                "blocks": [block.value for block, _ in self.blocks],
            },
        )


def assess(record: dict[str, Any], label: str) -> Readiness:
    """Apply the gate to a validated readiness record. A fact left out never counts as present."""
    score = sum(int(record["axes"][axis]) for axis in AXES)
    blocks: list[tuple[ReadinessBlock, str]] = []
    if record.get("audit_trace_coverage", 0) < 1.0:
        blocks.append((ReadinessBlock.AUDIT_TRACE_INCOMPLETE, "audit_trace_coverage"))
    if record.get("rollback_condition_present") is not True:
        blocks.append((ReadinessBlock.NO_ROLLBACK_CONDITION, "rollback_condition_present"))
    if record.get("blast_radius_known") is not True:
        blocks.append((ReadinessBlock.BLAST_RADIUS_UNKNOWN, "blast_radius_known"))
    if record.get("stateful") is True and record.get("backup_verified") is not True:
        blocks.append((ReadinessBlock.STATEFUL_WITHOUT_BACKUP, "backup_verified"))
    if score < PASS_SCORE:
        blocks.append((ReadinessBlock.SCORE_BELOW_THRESHOLD, "axes"))
    return Readiness(label=label, score=score, blocks=tuple(blocks))


def assess_file(path: Path, label: str) -> Readiness:
    """Load, validate and assess a readiness record. Raises BadInput for a malformed record."""
    document = load_json(path, label)
    validate(document, "readiness")
    return assess(document.data, label)
