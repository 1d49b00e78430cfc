"""A-6: the decision trace written beside an arbitrated judgment — it replaces hidden reasoning.

`{case_id, facts, checks [{rule, status, detail}], policy_outcome, verdict, evidence_ref,
customer_safe_summary, internal_note}`: the checks are every evidence kind (pass/fail), every
round's admission (pass/fail, A-4), and the rules of the deciding round in A-2's order
(decided / not_met / not_reached), then the deadlock rule of A-5.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tribunal.courts.arbiter.rounds import Arbitration
from tribunal.courts.arbiter.rules import RuleCheck
from tribunal.enums import ArbiterReason, CheckStatus, FinalVerdict, RoundStatus
from tribunal.evidence.dispute.model import Dispute

TRACE_NAME = "decision_trace.json"
_JUDGMENT_SUFFIXES = (".judgment.md", ".md")


def trace_path_for(judgment: Path) -> Path:
    """Where the trace of the judgment at `judgment` goes: named after it (A-6, R-1).

    `DIR/judgment.md` -> `DIR/decision_trace.json`; `X.judgment.md` or `X.md` ->
    `X.decision_trace.json`; any other name -> `<name>.decision_trace.json`. Two judgments in one
    directory so never share (and overwrite) one trace.
    """
    name = judgment.name
    if name == "judgment.md":
        return judgment.with_name(TRACE_NAME)
    for suffix in _JUDGMENT_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return judgment.with_name(f"{name[: -len(suffix)]}.{TRACE_NAME}")
    return judgment.with_name(f"{name}.{TRACE_NAME}")


def decision_trace(
    dispute: Dispute, arbitration: Arbitration, *, evidence_ref: list[str], artifact: str
) -> dict[str, Any]:
    """The trace document (valid against the `decision_trace` schema).

    `artifact` is where the trace itself is written (relative to the root): the record a human
    picks up when the dispute stopped (A-5).
    """
    from tribunal.documents import first_schema_error

    decision = arbitration.decision
    trace: dict[str, Any] = {
        "case_id": dispute.dispute_id,
        "facts": dispute.facts,
        "checks": trace_checks(arbitration),
        "policy_outcome": arbitration.final_verdict.value,
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "evidence_ref": list(evidence_ref),
        "linked_precedents": list(arbitration.linked_precedents),
        "stop": None,
        "customer_safe_summary": customer_safe_summary(arbitration),
        "internal_note": internal_note(arbitration),
    }
    if arbitration.stop is not None:
        trace["stop"] = {
            "condition": arbitration.stop.condition,
            "rounds": [f"R{number}" for number in arbitration.stop.rounds],
            "artifact": artifact,
        }
    error = first_schema_error(trace, "decision_trace")
    if error is not None:  # a bug here, not the user's input
        raise ValueError(f"decision trace breaks its schema: {error}")
    return trace


def trace_checks(arbitration: Arbitration) -> list[dict[str, str]]:
    """A-6 `checks`: evidence kinds, round admissions, then the deciding round's rules."""
    checks: list[dict[str, str]] = []
    for kind in arbitration.evidence.kinds:
        detail = kind.summary if kind.present else "; ".join(str(s) for s in kind.shortfalls)
        status = CheckStatus.PASS if kind.present else CheckStatus.FAIL
        checks.append({"rule": f"evidence:{kind.kind}", "status": status.value, "detail": detail})
    for report in arbitration.rounds:
        accepted = report.status is RoundStatus.ACCEPTED
        status = CheckStatus.PASS if accepted else CheckStatus.FAIL
        checks.append(
            {"rule": f"round:R{report.round}", "status": status.value, "detail": report.why}
        )
    decision = arbitration.decision
    checks.extend(_rule(decision.round, check) for check in decision.checks)
    return checks


def _rule(round_number: int, check: RuleCheck) -> dict[str, str]:
    return {"rule": f"R{round_number}:{check.rule}", "status": check.status.value}


def customer_safe_summary(arbitration: Arbitration) -> str:
    """What the decision means, without internal names, paths or votes."""
    kind = arbitration.reason.partition(":")[0]
    outcome = arbitration.final_verdict
    if outcome is FinalVerdict.ACCEPTED:
        return (
            "The change is accepted: the required evidence is present and enough reviewers "
            "approved it."
        )
    if outcome is FinalVerdict.PARTIAL:
        return "The change is accepted; some points stay open and are followed up separately."
    if kind == ArbiterReason.MISSING_EVIDENCE:
        return "The change is not accepted yet: required evidence is missing."
    if kind == ArbiterReason.SAFETY_VETO:
        return "The change is not accepted: a critical risk was raised."
    if outcome is FinalVerdict.REJECTED:
        return "The change is not accepted in its current form."
    if kind == ArbiterReason.DEADLOCK:
        return "No decision was reached after three rounds; a person will decide."
    return "No decision yet: the change waits for further review."


def internal_note(arbitration: Arbitration) -> str:
    """The rationale with what did not count and what stays open, for the team."""
    parts = [arbitration.decision.rationale + "."]
    rejected = [report for report in arbitration.rounds if report.status is RoundStatus.REJECTED]
    for report in rejected:
        parts.append(f"R{report.round} not counted ({report.why}).")
    missing = [kind for kind in arbitration.evidence.kinds if not kind.present]
    for kind in missing:
        parts.append(f"Missing {kind.kind}: " + "; ".join(str(s) for s in kind.shortfalls) + ".")
    for vote in arbitration.deferred:
        parts.append(f"Deferred: R{vote.round} {vote.role}: {' '.join(vote.summary.split())}.")
    return " ".join(parts)
