"""The record of one B-4 proof and the report of all five, as `summary.json` keeps them.

Each proof is `{name, ok, status, detail}` (`proofs.schema.json`): `ok` is true only for a proof
that held, so a reader that checks `ok` alone never mistakes a proof that was not run, or could
not run cleanly, for one that held. `fake_green` also names the files it put back to their `red`
version (`changed_paths`). A proof that came out false is a blocker finding of the lens
`harness`, in the V-1 finding shape, with the B-4 code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tribunal.enums import CaseVerdict, EvidenceKind, Outcome, ProofName, ProofStatus, Severity
from tribunal.evidence.proofs.suite import SuiteRun
from tribunal.evidence.record import Evidence

HARNESS_LENS = "harness"


@dataclass(frozen=True)
class ProofRecord:
    """One proof: what became of it and why. `evidence` (the runs it read) and `location` (the
    file it points at) go into its finding."""

    name: ProofName
    status: ProofStatus
    detail: str
    evidence: str = ""
    location: str | None = None
    changed_paths: tuple[str, ...] | None = None

    @property
    def ok(self) -> bool:
        """True only when the proof held."""
        return self.status is ProofStatus.HELD

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in `summary.proofs` (valid against `proofs.schema.json` items)."""
        data: dict[str, Any] = {
            "name": self.name.value,
            "ok": self.ok,
            "status": self.status.value,
            "detail": self.detail,
        }
        if self.changed_paths is not None:
            data["changed_paths"] = list(self.changed_paths)
        return data

    def finding(self) -> dict[str, Any] | None:
        """B-4: the `harness` blocker finding of a proof that came out false, else None."""
        if self.status is not ProofStatus.FAILED:
            return None
        return {
            "severity": Severity.BLOCKER.value,
            "claim": f"{self.name.failure_code}: {self.detail}",
            "evidence": self.evidence or self.detail,
            "location": self.location,
            "lens": HARNESS_LENS,
            "code": self.name.failure_code,
        }


@dataclass(frozen=True)
class ProofReport:
    """All five proofs in B-4 order, the new test files they judged, and every suite run made
    (its `output_tail` is for logs, never for a recorded file: it holds timings)."""

    records: tuple[ProofRecord, ...]
    new_tests: tuple[str, ...] = ()
    runs: tuple[SuiteRun, ...] = ()

    @property
    def proofs(self) -> list[dict[str, Any]]:
        """The list for `summary.proofs`."""
        return [record.to_dict() for record in self.records]

    @property
    def invalid(self) -> str | None:
        """B-1: why the outcome is INVALID (the first proof that could not run cleanly), or
        None."""
        for record in self.records:
            if record.status is ProofStatus.INVALID:
                return f"{record.name.value}: {record.detail}"
        return None

    @property
    def findings(self) -> list[dict[str, Any]]:
        """The `harness` blocker findings, one per proof that came out false (B-4 -> ITERATE)."""
        return [finding for record in self.records if (finding := record.finding()) is not None]

    @property
    def not_run(self) -> list[str]:
        """Names of the proofs that were not run (no `red`, no `test_command`): at best HOLD."""
        return [r.name.value for r in self.records if r.status is ProofStatus.NOT_RUN]

    @property
    def outcome(self) -> Outcome:
        """B-1: the outcome the proofs alone allow, first that applies: INVALID (a run did not
        run cleanly), ITERATE (a proof failed), HOLD (a proof was not run), else LAND."""
        if self.invalid is not None:
            return Outcome.INVALID
        if self.findings:
            return Outcome.ITERATE
        if self.not_run:
            return Outcome.HOLD
        return Outcome.LAND

    @property
    def held(self) -> bool:
        """True when every proof held (the B-1 LAND condition "proofs held")."""
        return all(record.ok for record in self.records)

    def to_evidence(self, evidence_ref: list[str]) -> Evidence:
        """The proofs as one Evidence record (SPEC §1) for a court: PASS when every proof held,
        FAIL (reason: the first finding's code) when one failed and none was INVALID, else
        DEFERRED (reason `invalid` or `not_run`); `details.proofs` holds the records."""
        outcome = self.outcome
        if outcome is Outcome.LAND:
            verdict, reason = CaseVerdict.PASS, ProofStatus.HELD.value
        elif outcome is Outcome.ITERATE:
            verdict, reason = CaseVerdict.FAIL, self.findings[0]["code"]
        elif outcome is Outcome.INVALID:
            verdict, reason = CaseVerdict.DEFERRED, ProofStatus.INVALID.value
        else:
            verdict, reason = CaseVerdict.DEFERRED, ProofStatus.NOT_RUN.value
        details: dict[str, Any] = {"proofs": self.proofs}
        if self.invalid is not None:
            details["invalid"] = self.invalid
        return Evidence(EvidenceKind.PROOFS.value, verdict, reason, evidence_ref, details)

    def record(self, name: ProofName) -> ProofRecord:
        """The record of proof `name`."""
        return next(record for record in self.records if record.name is name)
