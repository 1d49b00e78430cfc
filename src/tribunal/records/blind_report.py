"""The blind court's reports (B-1, B-7, L-10): `summary.json`, `judgment.md` (`court: blind`, in
the judgment template family), and the console text — the seat table, the routing proof, the
weakened-gate line where degraded, and the labels of recorded (replay) answers.

All pure functions of a `BlindReport` (C-6): no clock, no absolute paths, no randomness, so two
convenings with the same inputs differ only in `run_id`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.courts.blind.decide import BlindDecision, Proof, Proofs
from tribunal.courts.blind.findings import CourtFinding
from tribunal.enums import ProofStatus, ReasonCode, SeatVerdict, Severity
from tribunal.frontmatter import render_judgment
from tribunal.jury.routing import WEAKENED_GATE
from tribunal.jury.seat.record import SAME_FAMILY, SeatRecord
from tribunal.jury.seat.walk import on_verifier_ladder
from tribunal.markdown import render
from tribunal.records.rundir import JUDGMENT_NAME, SUMMARY_NAME, RunDir, verdict_name

BLIND_JUDGMENT_TEMPLATE = "blind_judgment.md.j2"
COURT = "blind"
MANIFEST_NAME = "manifest.json"
UNVERIFIED = "UNVERIFIED"


@dataclass(frozen=True)
class BlindReport:
    """Everything a convening reports: the decision and what it was decided over.

    `recorded` names the rungs that answered from recorded replies (replay transport, L-7);
    `costs` is passed through to `summary.json` as the seat walk reports it; `next_steps` says
    what to do after an outcome other than LAND (see `next_steps`).
    """

    run_id: str
    decision: BlindDecision
    seats: tuple[SeatRecord, ...]
    proofs: Proofs
    builder_family: str
    receipt: str
    costs: Mapping[str, Any] = field(default_factory=dict)
    recorded: frozenset[str] = frozenset()
    next_steps: tuple[str, ...] = ()  # what to do when the outcome is not LAND
    not_seated: tuple[str, ...] = ()  # E-2: lenses of the jury the contract left out

    @property
    def weakened_gate(self) -> str | None:
        """L-10: the weakened gate's name on a degraded run, else None."""
        return WEAKENED_GATE if self.decision.degraded else None

    @property
    def recorded_lenses(self) -> list[str]:
        """The lenses whose seated rung (or fused verifier) answered from recorded replies."""
        return [seat.lens for seat in self.seats if _recorded(seat, self.recorded)]

    @property
    def evidence_ref(self) -> list[str]:
        """The judgment's evidence, relative to the run dir: summary, verdicts, manifest."""
        verdicts = [verdict_name(seat.lens) for seat in self.seats]
        return [SUMMARY_NAME, *verdicts, MANIFEST_NAME]


# --- summary.json ----------------------------------------------------------------------------


def summary_document(report: BlindReport) -> dict[str, Any]:
    """The `summary.json` document (schema `summary`)."""
    decision = report.decision
    refuted = decision.refuted
    new = set(decision.new_findings)
    return {
        "run_id": report.run_id,
        "round": decision.round,
        "outcome": decision.outcome.value,
        "verdict": decision.verdict.value,
        "reasons": list(decision.reasons),
        "builder_family": report.builder_family,
        "degraded": decision.degraded,
        "weakened_gate": report.weakened_gate,
        "receipt": report.receipt,
        "no_proofs": report.proofs.skipped,
        "proofs_invalid": report.proofs.invalid,
        "proofs": report.proofs.to_list(),
        "seats": [seat.to_dict() for seat in report.seats],
        "recorded": report.recorded_lenses,
        "not_seated": list(report.not_seated),
        "findings": [
            {
                **item.to_dict(),
                "new": item.fingerprint in new,
                "refuted": item.fingerprint in refuted,
            }
            for item in decision.findings
        ],
        "new_findings": list(decision.new_findings),
        "fix_list": [item.fingerprint for item in decision.fix_list],
        "next_steps": list(report.next_steps),
        "costs": dict(report.costs),
    }


# --- judgment.md -----------------------------------------------------------------------------


def judgment_text(report: BlindReport, *, templates: Path | None = None) -> str:
    """The whole `judgment.md` of the convening: front matter (`court: blind`, `outcome`,
    `run_id`; evidence_refs relative to the run dir) and the body from the template family.

    Raises BadInput when a `--templates` directory lacks the template or it is malformed.
    """
    decision = report.decision
    fields: dict[str, Any] = {
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "evidence_ref": report.evidence_ref,
        "reason_text": decision.reasons[0],
        "court": COURT,
        "outcome": decision.outcome.value,
        "run_id": report.run_id,
        "round": decision.round,
    }
    if report.weakened_gate is not None:
        fields["weakened_gate"] = report.weakened_gate
    if report.not_seated:
        fields["lenses_not_seated"] = list(report.not_seated)
    context = {
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "round": decision.round,
        "run_id": report.run_id,
        "outcome": decision.outcome.value,
        "builder_family": report.builder_family,
        "receipt": report.receipt,
        "weakened_gate": report.weakened_gate,
        "recorded": report.recorded_lenses,
        "not_seated": list(report.not_seated),
        "reasons": list(decision.reasons),
        "rows": seat_rows(report.seats, report.recorded),
        "proofs_skipped": report.proofs.skipped,
        "proofs_invalid": report.proofs.invalid,
        "proofs": [
            {"name": proof.name.value, "status": _proof_status(proof), "detail": proof.detail}
            for proof in report.proofs.entries
        ],
        "fix_list": [_finding_view(item) for item in decision.fix_list],
        "refuted": [
            _finding_view(item)
            for item in decision.findings
            if item.fingerprint in decision.refuted
        ],
        "evidence_ref": report.evidence_ref,
        "next_steps": [
            {"text": line, "nested": line.startswith("  ")} for line in report.next_steps
        ],
    }
    return render_judgment(fields, render(BLIND_JUDGMENT_TEMPLATE, context, templates))


def write_reports(run: RunDir, report: BlindReport, *, templates: Path | None = None) -> None:
    """Write `judgment.md`, then `summary.json` LAST (B-5: its presence marks completion).

    Both are rendered before either is written, so a template error writes nothing.
    """
    judgment = judgment_text(report, templates=templates)
    summary = summary_document(report)
    run.write_text(JUDGMENT_NAME, judgment)
    run.write_summary(summary)


# --- console -----------------------------------------------------------------------------------


def seat_rows(
    seats: Sequence[SeatRecord], recorded: frozenset[str] = frozenset()
) -> list[dict[str, str]]:
    """One row per seat: lens, tier, rung, family, verdict, findings, notes (B-7)."""
    return [
        {
            "lens": seat.lens,
            "tier": seat.tier,
            "rung": seat.rung or "-",
            "family": seat.family or "-",
            "verdict": seat_verdict(seat),
            "findings": _counts(seat),
            "notes": "; ".join(_notes(seat, recorded)) or "-",
        }
        for seat in seats
    ]


def seat_verdict(seat: SeatRecord) -> str:
    """PASS, REFUSE, HOLD, or UNVERIFIED (a fused seat no verifier answered: a hold, L-5)."""
    if seat.verified is False and seat.verdict is not SeatVerdict.REFUSE:
        return UNVERIFIED
    return seat.verdict.value.upper()


def seat_table(seats: Sequence[SeatRecord], recorded: frozenset[str] = frozenset()) -> str:
    """The console table of the seats, columns padded (deterministic text)."""
    header = {name: name.upper() for name in ("lens", "tier", "rung", "family", "verdict")}
    header |= {"findings": "FINDINGS", "notes": "NOTES"}
    rows = [header, *seat_rows(seats, recorded)]
    columns = list(header)
    widths = {name: max(len(row[name]) for row in rows) for name in columns[:-1]}
    lines = []
    for row in rows:
        cells = [row[name].ljust(widths[name]) for name in columns[:-1]]
        lines.append("  ".join([*cells, row["notes"]]).rstrip())
    return "\n".join(lines) + "\n"


def routing_proof_lines(seats: Sequence[SeatRecord], builder_family: str) -> list[str]:
    """B-7, L-2: where each seat fell, against the builder's family, and every rung refused
    before dispatch for being the builder's — the live proof that the exclusion held."""
    lines = [f"routing proof (builder family: {builder_family}):"]
    for seat in seats:
        if seat.rung is None:
            where = "held: no rung gave a verdict"
        elif seat.builder_family_seated:
            where = f"{seat.rung} [{seat.family}]: the builder's family, seated under --solo"
        else:
            where = f"{seat.rung} [{seat.family}]: another family than the builder's"
        if seat.verifier is not None:
            where += f"; verifier {seat.verifier.rung} [{seat.verifier.family}]"
            if seat.verified == SAME_FAMILY:
                where += " (same family as the primary, --solo)"
        # A rung on both ladders of a fused seat is refused on each: named once.
        refused = list(
            dict.fromkeys(
                rejected.rung
                for rejected in seat.rejected_rungs
                if rejected.reason is ReasonCode.BUILDER_FAMILY
            )
        )
        if refused:
            where += f"; refused as the builder's family: {', '.join(refused)}"
        lines.append(f"  {seat.lens}: {where}")
    return lines


def weakened_gate_line(degraded: bool) -> str | None:
    """L-10: the line every report of a degraded run carries, else None."""
    return f"weakened gate: {WEAKENED_GATE}" if degraded else None


def not_seated_line(report: BlindReport) -> str | None:
    """E-2: the line naming the lenses of the jury that did not sit, else None."""
    if not report.not_seated:
        return None
    return (
        f"lenses not seated (the review contract names a narrower set): "
        f"{', '.join(report.not_seated)}"
    )


def recorded_line(report: BlindReport) -> str | None:
    """L-7: the label of the lenses that answered from recorded replies, else None."""
    lenses = report.recorded_lenses
    if not lenses:
        return None
    return f"recorded answers (replay, not live models): {', '.join(lenses)}"


def console_report(report: BlindReport, *, exit_code: int) -> str:
    """The whole console text of a convening: seat table, routing proof, weakened gate,
    recorded-answer labels, proofs, the outcome line (with the `exit_code` the command line
    exits with), and the next steps."""
    decision = report.decision
    parts = [seat_table(report.seats, report.recorded)]
    extra = routing_proof_lines(report.seats, report.builder_family)
    lines = (weakened_gate_line(decision.degraded), not_seated_line(report), recorded_line(report))
    for line in lines:
        if line is not None:
            extra.append(line)
    if report.proofs.skipped:
        extra.append("proofs: not run (--no-proofs)")
    else:
        shown = [f"{proof.name.value} {_proof_status(proof)}" for proof in report.proofs.entries]
        extra.append(f"proofs: {', '.join(shown) if shown else 'none ran'}")
    extra.append(
        f"round {decision.round}: {decision.outcome.value} (exit {int(exit_code)}) — "
        f"{decision.reasons[0]}"
    )
    extra.append(
        f"findings: {len(decision.findings)} ({len(decision.new_findings)} new), "
        f"fix list: {len(decision.fix_list)}; run {report.run_id}"
    )
    if report.next_steps:
        extra.append("next:")
        extra += [
            f"  {line}" if line.startswith("  ") else f"  - {line}" for line in report.next_steps
        ]
    return parts[0] + "\n" + "\n".join(extra) + "\n"


def _notes(seat: SeatRecord, recorded: frozenset[str]) -> list[str]:
    notes = []
    if _recorded(seat, recorded):
        notes.append("recorded answer")
    if seat.low_information:
        notes.append("bare pass")
    if seat.reason is not None:
        notes.append(seat.reason.value)
    if seat.note:
        notes.append(seat.note)
    if seat.builder_family_seated:
        notes.append("builder_family_seated")
    if seat.verified == SAME_FAMILY:
        notes.append("verified: same-family")
    if seat.verifier is not None:
        verifier = seat.verifier
        notes.append(f"verifier {verifier.rung} [{verifier.family}] {verifier.verdict.value}")
    if seat.rejected_rungs:
        rejected = ", ".join(
            f"{'verifier ' if on_verifier_ladder(item) else ''}{item.rung} ({item.reason.value})"
            for item in seat.rejected_rungs
        )
        notes.append(f"rejected: {rejected}")
    return notes


def _recorded(seat: SeatRecord, recorded: frozenset[str]) -> bool:
    verifier = seat.verifier.rung if seat.verifier is not None else None
    return seat.rung in recorded or verifier in recorded


def _counts(seat: SeatRecord) -> str:
    found = [finding.severity for finding in seat.findings]
    shown = [f"{found.count(level)} {level.value}" for level in Severity if level in found]
    return ", ".join(shown) or "-"


def _proof_status(proof: Proof) -> str:
    if proof.status is ProofStatus.INVALID:
        return "INVALID"  # B-1: a run that could not run cleanly, not a proof not run
    return {True: "held", False: "FAILED", None: "not run"}[proof.ok]


def _finding_view(item: CourtFinding) -> dict[str, Any]:
    return {
        "fingerprint": item.fingerprint,
        "lens": item.lens,
        "severity": item.severity.value,
        "claim": item.finding.claim,
        "location": item.finding.location,
    }
