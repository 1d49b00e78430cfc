"""judgment.md written by `tribunal arbitrate` (A-2): the arbiter court with roles and votes.

The same judgment family as `tribunal judgment` (T-6): YAML front matter dumped by the YAML
library (`court: arbiter`), a Markdown body rendered from `templates/`, every evidence_ref
relative to the root and resolving inside it, so `judgment --check` and the records check read
it like any other judgment. C-6: nothing here reads the clock or absolute paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.courts.arbiter.rounds import Arbitration, RoundReport
from tribunal.evidence.dispute.model import Dispute
from tribunal.evidence.dispute.votes import Vote
from tribunal.frontmatter import render_judgment
from tribunal.markdown import ARBITER_JUDGMENT_TEMPLATE, render
from tribunal.records.decision_trace import decision_trace
from tribunal.records.judgment_check import check_refs
from tribunal.refs import distinct_refs

COURT = "arbiter"


def judgment_refs(dispute: Dispute, arbitration: Arbitration) -> list[str]:
    """The evidence_ref of the judgment: what the decision rests on, then the accepted evidence.

    For missing evidence: where dispute.yaml declares each missing kind, then the offending
    files; otherwise the deciding votes' files with what they cite. Then the evidence files of
    every kind present.
    """
    refs: list[str] = []
    if arbitration.evidence.missing:
        for check in arbitration.evidence.kinds:
            if not check.present:
                refs.append(check.declared_at)
                refs.extend(s.ref for s in check.shortfalls if s.ref is not None)
    else:
        for vote in arbitration.decision.deciding:
            refs.extend([vote.label, *vote.cited])
    if not refs:
        refs.append(dispute.document.label)
    refs.extend(arbitration.evidence.accepted_files)
    return distinct_refs(refs)


@dataclass(frozen=True)
class ArbitrationRecord:
    """What `tribunal arbitrate` writes: judgment.md and, beside it, the decision trace."""

    judgment: str
    trace: dict[str, Any]


def arbitration_record(
    dispute: Dispute,
    arbitration: Arbitration,
    *,
    trace_label: str,
    templates: Path | None = None,
) -> ArbitrationRecord:
    """The judgment.md text and the decision trace (A-6) of `arbitration`.

    `trace_label` is where the trace will be written, relative to the root. Raises BadInput when
    a template is unusable or an evidence_ref does not resolve.
    """
    refs = judgment_refs(dispute, arbitration)
    check_refs(refs, root=dispute.root, source=dispute.document.label, lines=[None] * len(refs))
    trace = decision_trace(dispute, arbitration, evidence_ref=refs, artifact=trace_label)
    decision = arbitration.decision
    fields: dict[str, Any] = {
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "evidence_ref": refs,
        "court": COURT,
        "dispute_id": dispute.dispute_id,
        "final_verdict": arbitration.final_verdict.value,
        "verdict_rationale": decision.rationale,
        "linked_precedents": list(arbitration.linked_precedents),
    }
    if arbitration.stop is not None:
        # the stop condition and the artifact a human picks up.
        fields["stop_condition"] = arbitration.stop.condition
        fields["artifact"] = trace_label
    context = {
        **fields,
        "directory": dispute.label,
        "spec": dispute.file_label(dispute.spec),
        "change": _change_label(dispute),
        "charter": dispute.charter.label,
        "evidence": [
            {
                "kind": check.kind.value,
                "present": check.present,
                "summary": check.summary,
                "declared_at": check.declared_at,
                "shortfalls": [str(shortfall) for shortfall in check.shortfalls],
            }
            for check in arbitration.evidence.kinds
        ],
        "rounds": [_round_view(report) for report in arbitration.rounds],
        "deciding_round": f"R{decision.round}",
        "deferred": [_vote_view(vote) for vote in arbitration.deferred],
        "stop": None if arbitration.stop is None else arbitration.stop.describe(),
        "trace": {
            "path": trace_label,
            "checks": trace["checks"],
            "customer_safe_summary": trace["customer_safe_summary"],
        },
    }
    body = render(ARBITER_JUDGMENT_TEMPLATE, context, templates)
    return ArbitrationRecord(judgment=render_judgment(fields, body), trace=trace)


def _change_label(dispute: Dispute) -> str:
    change = dispute.change
    return dispute.file_label(change) if (dispute.directory / change).is_file() else change


def _round_view(report: RoundReport) -> dict[str, Any]:
    decision = report.decision
    return {
        "id": f"R{report.round}",
        "status": report.status.value,
        "why": report.why,
        "votes": [_vote_view(vote) for vote in report.votes],
        "verdict": decision.verdict.value if decision is not None else None,
        "reason": decision.reason if decision is not None else None,
        "rationale": decision.rationale if decision is not None else None,
    }


def _vote_view(vote: Vote) -> dict[str, Any]:
    return {
        "round": f"R{vote.round}",
        "role": vote.role.value,
        "action": vote.action.value,
        "vote": vote.vote.value,
        "critical_risk": vote.critical_risk,
        "summary": vote.summary,
        "evidence_ref": list(vote.cited),
        "file": vote.label,
    }
