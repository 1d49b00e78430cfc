"""A-3: the evidence the verifier accepts — `schema`, `hooks`, `scenarios` — checked by machine.

A kind whose key is absent or empty in dispute.yaml, or whose check fails, is missing; the report
says what exactly is missing (file, line, field). Only the structure of dispute.yaml itself is
bad input: an evidence file that is absent, malformed or failing is missing evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tribunal.enums import DisputeEvidenceKind

if TYPE_CHECKING:
    from tribunal.evidence.dispute.model import Dispute

    Checker = Callable[[Dispute, Any, str], "KindCheck"]


@dataclass(frozen=True)
class Shortfall:
    """One thing missing from an evidence kind: where (file[:line]) and what."""

    where: str
    message: str
    ref: str | None = None  # a ref that resolves inside the repository, when there is one

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class KindCheck:
    """The check of one evidence kind: the files it read, what it found, what is missing."""

    kind: DisputeEvidenceKind
    declared_at: str  # dispute.yaml:<line> of the kind's key (or of `evidence`, or the file)
    files: tuple[str, ...]  # the evidence files checked, relative to the root
    summary: str
    shortfalls: tuple[Shortfall, ...] = ()

    @property
    def present(self) -> bool:
        """True when the kind is declared and its check passed."""
        return not self.shortfalls


@dataclass(frozen=True)
class EvidenceReport:
    """The A-3 check of every kind the charter requires, in the charter's order."""

    kinds: tuple[KindCheck, ...]

    @property
    def missing(self) -> tuple[DisputeEvidenceKind, ...]:
        """The kinds that are missing, in order."""
        return tuple(check.kind for check in self.kinds if not check.present)

    @property
    def accepted_files(self) -> tuple[str, ...]:
        """Every evidence file of the kinds present, in order, each once."""
        files: list[str] = []
        for check in self.kinds:
            if check.present:
                files.extend(path for path in check.files if path not in files)
        return tuple(files)


def check_evidence(dispute: Dispute) -> EvidenceReport:
    """Check every evidence kind the dispute's charter requires (A-3).

    Raises BadInput only for a path in dispute.yaml that is absolute or escapes the repository.
    """
    checks = []
    for kind in dispute.charter.evidence_required:
        declared = dispute.evidence.get(kind.value)
        where = _declared_at(dispute, kind)
        if not _declared(declared):
            checks.append(
                KindCheck(
                    kind=kind,
                    declared_at=where,
                    files=(),
                    summary="not declared",
                    shortfalls=(
                        Shortfall(
                            where, f"evidence.{kind.value} is absent or empty in dispute.yaml"
                        ),
                    ),
                )
            )
            continue
        checks.append(_CHECKERS[kind](dispute, declared, where))
    return EvidenceReport(tuple(checks))


def _declared(value: object) -> bool:
    if isinstance(value, dict):
        return any(_declared(item) for item in value.values())
    if isinstance(value, list):
        return bool(value)
    return value is not None and value != ""


def _declared_at(dispute: Dispute, kind: DisputeEvidenceKind) -> str:
    return dispute.ref(("evidence", kind.value))


def _check_schema(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    from tribunal.evidence.dispute.schema_records import check_schema_records

    return check_schema_records(dispute, declared, where)


def _check_hooks(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    from tribunal.evidence.dispute.hook_log import check_hook_logs

    return check_hook_logs(dispute, declared, where)


def _check_scenarios(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    from tribunal.evidence.dispute.scenarios import check_scenarios

    return check_scenarios(dispute, declared, where)


_CHECKERS: dict[DisputeEvidenceKind, Checker] = {
    DisputeEvidenceKind.SCHEMA: _check_schema,
    DisputeEvidenceKind.HOOKS: _check_hooks,
    DisputeEvidenceKind.SCENARIOS: _check_scenarios,
}
