"""An executor's report (P-9): what it says it built, and whether a panel may sit at all.

The report is never evidence: no field of it reaches a panel member's prompt. It
decides only whether the panel convenes (its status, its address, its concerns) and how much of
the dispatch budget the round spends (its `complexity`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import Document, load_any, validate
from tribunal.enums import ConcernKind, ExecutorStatus


@dataclass(frozen=True)
class Concern:
    """One concern the executor raised, numbered from 1 in the report's order."""

    number: int
    kind: ConcernKind
    text: str

    @property
    def blocking(self) -> bool:
        """P-8: a correctness or scope concern keeps the panel from sitting until resolved."""
        return self.kind is not ConcernKind.OBSERVATION

    @property
    def fingerprint(self) -> str:
        """The concern's identity across reports: its kind and normalised text."""
        text = " ".join(self.text.split()).casefold()
        return hashlib.sha256(f"{self.kind.value}\0{text}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ExecutorReport:
    """A loaded, validated executor report."""

    label: str
    status: ExecutorStatus
    executor: str
    address: str | None = None
    context: str = ""
    diff_summary: str = ""
    commands: tuple[dict[str, Any], ...] = ()
    concerns: tuple[Concern, ...] = ()
    complexity: int = 1
    document: Document | None = None

    def concern(self, number: int) -> Concern | None:
        """Concern `number` (counted from 1), or None when the report has no such concern."""
        return self.concerns[number - 1] if 1 <= number <= len(self.concerns) else None


def load_report(path: Path, label: str | None = None) -> ExecutorReport:
    """Load and validate the executor report at `path`. Raises BadInput (file, line, field)."""
    document = load_any(path, label)
    validate(document, "executor_report")
    data: dict[str, Any] = document.data
    concerns = tuple(
        Concern(number, ConcernKind(item["kind"]), item["text"])
        for number, item in enumerate(data.get("concerns") or (), start=1)
    )
    return ExecutorReport(
        label=document.label,
        status=ExecutorStatus(data["status"]),
        executor=data["executor"],
        address=data.get("address"),
        context=data.get("context", ""),
        diff_summary=data.get("diff_summary", ""),
        commands=tuple(data.get("commands") or ()),
        concerns=concerns,
        complexity=data.get("complexity", 1),
        document=document,
    )
