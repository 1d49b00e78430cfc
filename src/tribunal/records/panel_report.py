"""The panel court's records (P-10): `scorecard_<lens>.json`, `judgment.md` (`court: panel`),
`report.md` (the closing summary for the requester, ready for a pull-request description) and
`summary.json`, written last; and the round's entry in the ledger (P-9).

All pure functions of a `PanelReport` (C-6): no clock, no absolute paths, no randomness.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from tribunal.courts.panel import (
    CommandEvidence,
    Consensus,
    Decision,
    Dissent,
    FailureScenario,
    Finding,
    FixItem,
    MemberScore,
    PanelOutcome,
    QuoteEvidence,
    Refutation,
    Score,
    Scorecard,
    Trigger,
    two_decimals,
)
from tribunal.courts.panel.seating import MemberSeat, PanelRouting
from tribunal.enums import ScorecardPhase
from tribunal.evidence.slice.criteria import SliceCriteria
from tribunal.evidence.slice.verification import VERIFICATION_NAME, Verification
from tribunal.frontmatter import render_judgment
from tribunal.jury.routing import WEAKENED_GATE
from tribunal.markdown import render
from tribunal.records.rundir import (
    ENVELOPE_NAMES,
    JUDGMENT_NAME,
    ROUTING_NAME,
    SUMMARY_NAME,
    RunDir,
)

COURT = "panel"
REPORT_NAME = "report.md"
PANEL_JUDGMENT_TEMPLATE = "panel_judgment.md.j2"
PANEL_REPORT_TEMPLATE = "panel_report.md.j2"
PANEL_RUN_FILES = (
    JUDGMENT_NAME,
    REPORT_NAME,
    SUMMARY_NAME,
    ROUTING_NAME,
    VERIFICATION_NAME,
    *ENVELOPE_NAMES,
)

VERDICTS = {
    PanelOutcome.BLOCK: "DENY",
    PanelOutcome.ITERATE: "DENY",
    PanelOutcome.SHIP: "APPROVE",
}


def scorecard_name(lens: str, phase: ScorecardPhase) -> str:
    """`scorecard_<lens>.json`, or `scorecard_<lens>.synthesis.json` for the synthesis."""
    suffix = ".synthesis" if phase is ScorecardPhase.SYNTHESIS else ""
    return f"scorecard_{lens}{suffix}.json"


def _number(value: Fraction) -> float:
    """A rational as the JSON number shown to two decimals' precision."""
    return float(two_decimals(value))


def evidence_document(evidence: QuoteEvidence | CommandEvidence) -> dict[str, Any]:
    """One evidence item as a card writes it."""
    if isinstance(evidence, CommandEvidence):
        return {"command": evidence.command, "output": evidence.output}
    return {"quote": evidence.quote, "location": evidence.location}


def score_document(score: Score) -> dict[str, Any]:
    """One dimension's score as a card writes it (the confidence exact to its decimals)."""
    return {
        "score": score.score,
        "confidence": float(score.confidence),
        "evidence": [evidence_document(item) for item in score.evidence],
    }


def scenario_document(scenario: FailureScenario) -> dict[str, Any]:
    """A failure scenario as a card writes it."""
    return {
        "input": scenario.input,
        "wrong_behaviour": scenario.wrong_behaviour,
        "kind": scenario.kind.value,
        "location": scenario.location,
        "quote": scenario.quote,
    }


def finding_document(finding: Finding) -> dict[str, Any]:
    """A finding as a card writes it."""
    return {
        "severity": finding.severity.value,
        "claim": finding.claim,
        "location": finding.location,
        "quote": finding.quote,
        "fix": finding.fix,
        "structural": finding.structural,
    }


def card_document(card: Scorecard) -> dict[str, Any]:
    """A well-formed card as JSON, in P-4's shape (what a synthesis prompt shows of it)."""
    return {
        "lens": card.lens,
        "round": card.round,
        "phase": card.phase.value,
        "scores": {name: score_document(score) for name, score in card.scores.items()},
        "failure_scenarios": [scenario_document(item) for item in card.failure_scenarios],
        "findings": [finding_document(item) for item in card.findings],
        "top_concern": card.top_concern,
        "recommendation": card.recommendation.value,
        "escalation": card.escalation,
    }


def _member_score(entry: MemberScore) -> dict[str, Any]:
    return {"lens": entry.lens, **score_document(entry.score), "refuted": entry.refuted}


def _dissent(entry: Dissent) -> dict[str, Any]:
    return {"lens": entry.lens, "dimension": entry.dimension, **score_document(entry.score)}


def _consensus(entry: Consensus) -> dict[str, Any]:
    value = None if entry.value is None else _number(entry.value)
    return {"kind": entry.kind.value, "value": value, "members": list(entry.members)}


def _trigger(entry: Trigger) -> dict[str, Any]:
    return {"name": entry.name.value, "dimension": entry.dimension, "detail": entry.detail}


def _fix_item(entry: FixItem) -> dict[str, Any]:
    return {
        "kind": entry.kind.value,
        "severity": entry.severity.value,
        "lenses": list(entry.lenses),
        "claim": entry.claim,
        "location": entry.location,
        "fix": entry.fix,
        "detail": entry.detail,
        "fingerprint": entry.fingerprint,
        # A member's finding or scenario (not the harness's line or a malformed card's).
        "from_member": entry.item is not None,
    }


def _refuted_item(entry: Refutation) -> dict[str, Any]:
    item = entry.item
    shown: Any
    if isinstance(item, Score):
        shown = score_document(item)
    elif isinstance(item, Finding):
        shown = finding_document(item)
    elif isinstance(item, FailureScenario):
        shown = scenario_document(item)
    else:
        shown = item
    return {
        "lens": entry.lens,
        "phase": entry.phase.value,
        "kind": entry.kind.value,
        "dimension": entry.dimension,
        "item": shown,
        "reason": entry.reason,
    }


def _refuted_view(entry: dict[str, Any]) -> dict[str, Any]:
    """A refuted entry for a reader: its item verbatim as JSON text (never escaped)."""
    item = entry["item"]
    text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, sort_keys=True)
    return {**entry, "text": text}


@dataclass(frozen=True)
class PanelReport:
    """Everything a round reports: the decision and what it was decided over."""

    run_id: str
    criteria: SliceCriteria
    decision: Decision
    round: int
    rounds_left: int
    dispatches_left: int
    address: str | None
    receipt: str | None
    builder_family: str
    verification: Verification | None = None
    seats: tuple[MemberSeat, ...] = ()
    routing: PanelRouting | None = None
    costs: Mapping[str, Any] = field(default_factory=dict)
    accept_caveats: bool = False
    observations: tuple[str, ...] = ()
    frozen_by: str = "ledger"
    repo: str | None = None  # the judged repository's root, where refuting evidence resolves
    sat: bool = False  # some member was asked (a round nobody was asked in spends no round)
    # The slice's earlier rounds, as the ledger has them.
    earlier: tuple[Mapping[str, Any], ...] = ()

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every round of the slice so far, this one last: round, outcome, overall."""
        rounds = [
            {"round": past["round"], "outcome": past["outcome"], "overall": past["overall"]}
            for past in self.earlier
            if past["round"] < self.round
        ]
        return [*rounds, {"round": self.round, "outcome": self.outcome.value,
                          "overall": self.overall}]  # fmt: skip

    @property
    def outcome(self) -> PanelOutcome:
        """The round's outcome."""
        return self.decision.outcome

    @property
    def caveats_accepted(self) -> bool:
        """True when a person accepted the caveats of a SHIP_WITH_CAVEATS round."""
        return self.accept_caveats and self.outcome is PanelOutcome.SHIP_WITH_CAVEATS

    @property
    def overall(self) -> float | None:
        """The overall to two decimals, or None when it is not known: no panel sat, or a
        dimension has no consensus (a deadlock, no score left) — the exact figure is then a
        lower bound, never shown as the overall."""
        if not self.seats or any(d.consensus.value is None for d in self.decision.dimensions):
            return None
        return _number(self.decision.overall)

    @property
    def overall_shown(self) -> str:
        """The overall for a reader: two decimals, or an em dash when it is not known."""
        return "—" if self.overall is None else two_decimals(self.decision.overall)

    @property
    def fixed(self) -> list[dict[str, Any]]:
        """B-3, P-8: the findings and scenarios of earlier rounds absent from this round's
        cards — each counts as fixed."""
        if not self.seats:
            return []
        now = {item.fingerprint for item in self.decision.fix_list}
        now |= {entry.fingerprint for entry in self.decision.caveats.items}
        seen: dict[str, dict[str, Any]] = {}
        for past in self.earlier:
            if past["round"] >= self.round:
                continue
            for item in past.get("fix_list", []):
                if item.get("from_member") and item["fingerprint"] not in now:
                    seen.setdefault(item["fingerprint"], {**item, "round": past["round"]})
        return list(seen.values())

    @property
    def verdict(self) -> str:
        """The judgment's verdict: APPROVE, DENY or DEFERRED."""
        if self.caveats_accepted:
            return "APPROVE"
        return VERDICTS.get(self.outcome, "DEFERRED")

    @property
    def reason_code(self) -> str:
        """The judgment's reason code: the outcome, then the deciding rule."""
        outcome = self.outcome.value.lower()
        return f"panel_{outcome}:{self.decision.reasons[0].rule.value.replace(' ', '_')}"

    @property
    def evidence_ref(self) -> list[str]:
        """The run files the judgment rests on, relative to the run dir."""
        names = [SUMMARY_NAME, REPORT_NAME]
        if self.verification is not None:
            names += [VERIFICATION_NAME, *ENVELOPE_NAMES]
        if self.routing is not None:
            names.append(ROUTING_NAME)
        names += [scorecard_name(seat.lens, seat.phase) for seat in self.seats]
        return names

    @property
    def degraded(self) -> bool:
        """True when a member sat on the builder's family (`--solo`)."""
        if self.routing is None:
            return False
        return any(member.route.degraded for member in self.routing.members)

    def members(self) -> list[dict[str, Any]]:
        """The `members` of summary.json: each lens's seat, its verdict source that of the last
        phase it sat in (a malformed synthesis card is `malformed`)."""
        last = {seat.lens: seat for seat in self.seats}  # seats come in phase order
        return [
            {
                "lens": seat.lens,
                "rung": seat.rung,
                "family": seat.family,
                "adversary": seat.adversary,
                "verdict_source": last[seat.lens].source.value,
            }
            for seat in self.seats
            if seat.phase is ScorecardPhase.SCORE
        ]

    def summary(self) -> dict[str, Any]:
        """The `summary.json` document."""
        decision = self.decision
        caveats = decision.caveats
        return {
            "run_id": self.run_id,
            "court": COURT,
            "slice_id": self.criteria.slice_id,
            "round": self.round,
            "rounds_left": self.rounds_left,
            "dispatches_left": self.dispatches_left,
            "outcome": self.outcome.value,
            "reasons": [str(reason) for reason in decision.reasons],
            "overall": self.overall,
            "target": _number(decision.target),
            "criteria_sha256": self.criteria.sha256,
            "address": self.address,
            "receipt": self.receipt,
            "builder_family": self.builder_family,
            "degraded": self.degraded,
            "weakened_gate": WEAKENED_GATE if self.degraded else None,
            "caveats_accepted": self.caveats_accepted,
            "verification": None if self.verification is None else self.verification.to_dict(),
            "members": self.members(),
            "dimensions": [
                {
                    "id": result.id,
                    "weight": _number(result.weight),
                    "first_scores": [_member_score(entry) for entry in result.first_scores],
                    "triggers": [_trigger(entry) for entry in result.triggers],
                    "synthesis_scores": None
                    if result.synthesis_scores is None
                    else [_member_score(entry) for entry in result.synthesis_scores],
                    "consensus": _consensus(result.consensus),
                    "dissents": [_dissent(entry) for entry in result.dissents],
                    "blocked": result.blocked,
                }
                for result in decision.dimensions
            ],
            "triggers": [_trigger(entry) for entry in decision.triggers],
            "fix_list": [_fix_item(entry) for entry in decision.fix_list],
            "caveats": {
                "items": [_fix_item(entry) for entry in caveats.items],
                "dissents": [_dissent(entry) for entry in caveats.dissents],
            },
            "refuted": [_refuted_item(entry) for entry in decision.refuted],
            "escalations": [
                {"lens": e.lens, "phase": e.phase.value, "reason": e.reason}
                for e in decision.escalations
            ],
            "observations": list(self.observations),
            "warnings": list(self.routing.warnings) if self.routing is not None else [],
            "costs": dict(self.costs),
        }

    def ledger_entry(self) -> dict[str, Any]:
        """The round as the ledger keeps it (P-9)."""
        summary = self.summary()
        return {
            "round": self.round,
            "run_id": self.run_id,
            "receipt": self.receipt,
            "address": self.address,
            "outcome": summary["outcome"],
            "overall": summary["overall"],
            "members": summary["members"],
            "consensus": {d["id"]: d["consensus"]["value"] for d in summary["dimensions"]},
            "sat": self.sat,  # a round no member was asked in spends no round of the budget
            "fix_list": [
                {
                    k: item[k]
                    for k in (
                        "kind",
                        "lenses",
                        "claim",
                        "location",
                        "fingerprint",
                        "severity",
                        "from_member",
                    )
                }
                for item in summary["fix_list"]
            ],
            "fingerprints": [item["fingerprint"] for item in summary["fix_list"]],
            "repo": self.repo,
        }

    def context(self) -> dict[str, Any]:
        """What the judgment and report templates render."""
        summary = self.summary()
        return {
            **summary,
            "verdict": self.verdict,
            "overall_shown": self.overall_shown,
            "refuted": [_refuted_view(entry) for entry in summary["refuted"]],
            "fixed": self.fixed,
            "weakened_gate": WEAKENED_GATE if self.degraded else None,
            "target_shown": two_decimals(self.decision.target),
            "synthesis_held": self.decision.synthesis_held,
            "seats": [
                {
                    "lens": s.lens,
                    "phase": s.phase.value,
                    "rung": s.rung,
                    "family": s.family,
                    "source": s.source.value,
                    "note": s.note,
                    "recorded": s.recorded,
                }
                for s in self.seats
            ],
            "frozen_by": self.frozen_by,
            "history": self.history,
            "recorded": [
                s.lens for s in self.seats if s.recorded and s.phase is ScorecardPhase.SCORE
            ],
        }

    def judgment_text(self) -> str:
        """The whole `judgment.md`: front matter (`court: panel`, `outcome`, `overall`,
        `target`, `round`, `run_id`, `criteria_sha256`, `address`) and the body."""
        fields: dict[str, Any] = {
            "verdict": self.verdict,
            "reason": self.reason_code,
            "evidence_ref": self.evidence_ref,
            "reason_text": str(self.decision.reasons[0]),
            "court": COURT,
            "outcome": self.outcome.value,
            "overall": self.overall_shown,
            "target": two_decimals(self.decision.target),
            "round": self.round,
            "run_id": self.run_id,
            "criteria_sha256": self.criteria.sha256,
            "address": self.address,
        }
        if self.outcome is PanelOutcome.SHIP_WITH_CAVEATS:
            fields["caveats_accepted"] = self.caveats_accepted
        if self.degraded:
            fields["weakened_gate"] = WEAKENED_GATE
        return render_judgment(fields, render(PANEL_JUDGMENT_TEMPLATE, self.context()))

    def report_text(self) -> str:
        """`report.md`: the closing summary for the requester."""
        text = render(PANEL_REPORT_TEMPLATE, self.context())
        return text if text.endswith("\n") else text + "\n"


def write_panel_reports(run: RunDir, report: PanelReport, *, summary_to: Path | None) -> None:
    """`judgment.md`, `report.md`, then `summary.json` (last: a run dir without it is
    incomplete); `summary_to` gets `report.md` appended (e.g. `$GITHUB_STEP_SUMMARY`). Both
    texts are rendered before anything is written."""
    judgment = report.judgment_text()
    closing = report.report_text()
    run.write_text(JUDGMENT_NAME, judgment)
    run.write_text(REPORT_NAME, closing)
    if summary_to is not None:
        with open(summary_to, "a", encoding="utf-8") as handle:
            handle.write(closing)
    run.write_summary(report.summary())
