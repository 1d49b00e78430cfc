"""The records of vetting a plan (P-11): `vet.json` (the three verdicts, the outcome, the
criteria's sha256, the run_id), `judgment.md` (`court: panel-vet`, the critiques merged in),
`summary.json` written last, the console text, and the vetting's entry in the ledger (P-9).

All pure functions of a `VetReport` (C-6): no clock, no absolute paths, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tribunal.courts.panel.vetting import Critique, VetDecision
from tribunal.enums import VetOutcome
from tribunal.frontmatter import render_judgment
from tribunal.jury.routing import WEAKENED_GATE, Routing
from tribunal.jury.seat.record import SeatRecord
from tribunal.markdown import render
from tribunal.records.blind_report import seat_rows, seat_table
from tribunal.records.rundir import (
    ENVELOPE_NAMES,
    JUDGMENT_NAME,
    ROUTING_NAME,
    SUMMARY_NAME,
    VET_NAME,
    RunDir,
    verdict_name,
)

COURT = "panel-vet"
VET_JUDGMENT_TEMPLATE = "vet_judgment.md.j2"
ENVELOPE_NAME = ENVELOPE_NAMES[0]
VET_RUN_FILES = (JUDGMENT_NAME, SUMMARY_NAME, ROUTING_NAME, ENVELOPE_NAME, VET_NAME)


@dataclass(frozen=True)
class VetReport:
    """Everything a vetting reports: the decision and what it was decided over. `plan` and
    `criteria_label` are the files as shown to the jurors; `frozen_by` says what froze the
    criteria (`vet`: this vetting; `freeze`, `base`: before it), None when they are not frozen;
    `recorded` names the rungs that answered from recorded replies (L-7)."""

    run_id: str
    slice_id: str
    plan: str
    criteria_label: str
    criteria_sha256: str
    decision: VetDecision
    seats: tuple[SeatRecord, ...]
    routing: Routing
    frozen_by: str | None = None
    costs: Mapping[str, Any] = field(default_factory=dict)
    recorded: frozenset[str] = frozenset()
    warnings: tuple[str, ...] = ()

    @property
    def outcome(self) -> VetOutcome:
        """The vetting's outcome."""
        return self.decision.outcome

    @property
    def verdict(self) -> str:
        """The judgment's verdict: APPROVE (PROCEED), DENY (REFINE), DEFERRED (ESCALATE)."""
        return self.outcome.judgment_verdict.value

    @property
    def reason_code(self) -> str:
        """The judgment's reason code: the outcome, then how many lenses passed."""
        passed = f"passed_{len(self.decision.passed)}_of_{len(self.seats)}"
        return f"panel_vet_{self.outcome.value.lower()}:{passed}"

    @property
    def evidence_ref(self) -> list[str]:
        """The run files the judgment rests on, relative to the run dir."""
        verdicts = [verdict_name(seat.lens) for seat in self.seats]
        return [SUMMARY_NAME, VET_NAME, ENVELOPE_NAME, ROUTING_NAME, *verdicts]

    @property
    def weakened_gate(self) -> str | None:
        """L-10: the weakened gate's name when a lens sat on the builder's family (`--solo`)."""
        return WEAKENED_GATE if self.routing.degraded else None

    @property
    def recorded_lenses(self) -> list[str]:
        """The lenses whose seated rung answered from recorded replies."""
        return [seat.lens for seat in self.seats if seat.rung in self.recorded]

    def vet_document(self) -> dict[str, Any]:
        """The `vet.json` document: the verdicts in the lenses' order, the outcome, the
        criteria's sha256 and the run_id."""
        decision = self.decision
        return {
            "run_id": self.run_id,
            "slice_id": self.slice_id,
            "vetting": decision.vetting,
            "outcome": self.outcome.value,
            "criteria_sha256": self.criteria_sha256,
            "passed": list(decision.passed),
            "refused": list(decision.refused),
            "held": list(decision.held),
            "verdicts": [seat.to_dict() for seat in self.seats],
        }

    def summary(self) -> dict[str, Any]:
        """The `summary.json` document."""
        decision = self.decision
        return {
            "run_id": self.run_id,
            "court": COURT,
            "slice_id": self.slice_id,
            "vetting": decision.vetting,
            "outcome": self.outcome.value,
            "reasons": list(decision.reasons),
            "plan": self.plan,
            "criteria": self.criteria_label,
            "criteria_sha256": self.criteria_sha256,
            "criteria_frozen_by": self.frozen_by,
            "builder_family": self.routing.builder.family,
            "degraded": self.routing.degraded,
            "weakened_gate": self.weakened_gate,
            "passed": list(decision.passed),
            "refused": list(decision.refused),
            "held": list(decision.held),
            "seats": [
                {
                    "lens": seat.lens,
                    "tier": seat.tier,
                    "rung": seat.rung,
                    "family": seat.family,
                    "verdict": seat.verdict.value,
                    "low_information": seat.low_information,
                    "recorded": seat.recorded,
                }
                for seat in self.seats
            ],
            "critiques": [_critique(critique) for critique in decision.critiques],
            "warnings": list(self.warnings),
            "costs": dict(self.costs),
        }

    def ledger_entry(self) -> dict[str, Any]:
        """The vetting as the ledger keeps it (P-9): run_id, outcome, the lenses that passed
        and refused, the criteria's sha256."""
        return {
            "run_id": self.run_id,
            "outcome": self.outcome.value,
            "passed": list(self.decision.passed),
            "refused": list(self.decision.refused),
            "criteria_sha256": self.criteria_sha256,
        }

    def context(self) -> dict[str, Any]:
        """What the judgment template renders."""
        return {
            **self.summary(),
            "verdict": self.verdict,
            "rows": seat_rows(self.seats, self.recorded),
            "recorded": self.recorded_lenses,
        }

    def judgment_text(self) -> str:
        """The whole `judgment.md`: front matter (`court: panel-vet`, `outcome`, `run_id`,
        `slice_id`, `vetting`, `criteria_sha256`) and the body."""
        fields: dict[str, Any] = {
            "verdict": self.verdict,
            "reason": self.reason_code,
            "evidence_ref": self.evidence_ref,
            "reason_text": self.decision.reasons[0],
            "court": COURT,
            "outcome": self.outcome.value,
            "run_id": self.run_id,
            "slice_id": self.slice_id,
            "vetting": self.decision.vetting,
            "criteria_sha256": self.criteria_sha256,
        }
        if self.weakened_gate is not None:
            fields["weakened_gate"] = self.weakened_gate
        return render_judgment(fields, render(VET_JUDGMENT_TEMPLATE, self.context()))

    def console_text(self) -> str:
        """The console report: the lens table, the recorded-answer and weakened-gate labels,
        the outcome and its reasons, and each critique's claims."""
        lines = [seat_table(self.seats, self.recorded).rstrip("\n"), ""]
        if self.recorded_lenses:
            shown = ", ".join(self.recorded_lenses)
            lines.append(f"recorded answers (replay, not live models): {shown}")
        if self.weakened_gate is not None:
            lines.append(f"weakened gate: {self.weakened_gate}")
        decision = self.decision
        lines.append(
            f"vetting {decision.vetting} of slice {self.slice_id}: {self.outcome.value} — "
            f"{decision.reasons[0]}"
        )
        lines += [f"  {reason}" for reason in decision.reasons[1:]]
        for critique in decision.critiques:
            for finding in critique.findings:
                where = f" {finding.location}" if finding.location else ""
                lines.append(
                    f"  {critique.lens}: [{finding.severity.value}]{where} {finding.claim}"
                )
        if self.frozen_by == "vet":
            lines.append(
                f"froze slice {self.slice_id}, criteria sha256 {self.criteria_sha256[:12]}"
            )
        return "\n".join(lines) + "\n"


def _critique(critique: Critique) -> dict[str, Any]:
    verdicts = {"refuse": "refused", "hold": "held"}
    return {
        "lens": critique.lens,
        "verdict": verdicts.get(critique.verdict.value, critique.verdict.value),
        "findings": [finding.to_dict() for finding in critique.findings],
        "note": critique.note,
    }


def write_vet_reports(run: RunDir, report: VetReport, judgment: str) -> None:
    """`vet.json`, `judgment.md` (its text `judgment`, from `report.judgment_text()`, rendered
    before the ledger is touched), then `summary.json` (last: a run dir without it is
    incomplete)."""
    run.write_json(VET_NAME, report.vet_document())
    run.write_text(JUDGMENT_NAME, judgment)
    run.write_summary(report.summary())
