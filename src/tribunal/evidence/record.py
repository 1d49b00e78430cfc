"""The one Evidence record shape every producer emits and every court consumes (SPEC §1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tribunal.enums import CaseVerdict


@dataclass(frozen=True)
class Evidence:
    """`{kind, verdict, reason_code, evidence_ref: [...], details}`.

    `kind` names the producer (`duel`, `invariants`, `matrix`, `readiness`, `proofs`, ...);
    `evidence_ref` points at committed inputs (never scratch files under `out/`).
    """

    kind: str
    verdict: CaseVerdict
    reason_code: str
    evidence_ref: list[str]
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, valid against the `evidence` schema."""
        return {
            "kind": self.kind,
            "verdict": self.verdict.value,
            "reason_code": self.reason_code,
            "evidence_ref": list(self.evidence_ref),
            "details": self.details,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evidence:
        """Build from the JSON form (already validated against the `evidence` schema)."""
        return cls(
            kind=data["kind"],
            verdict=CaseVerdict(data["verdict"]),
            reason_code=data["reason_code"],
            evidence_ref=list(data["evidence_ref"]),
            details=dict(data.get("details", {})),
        )
