"""The arbiter court without votes (T-6): a verdict and a reason over Evidence records alone.

Verdict: DENY if any record FAILed, DEFERRED if otherwise some record was deferred, APPROVE
otherwise. The reason is the first that applies of `counterexample_got_through:<id>`,
`metric_corruption`, `violates_invariant:<metric>`, `deferred:<id>`, `clean`; `evidence_ref` lists
every cause in that order. Records from other producers (`--evidence` files) rank after the
arbiter's own kinds of the same verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.enums import CaseVerdict, EvidenceKind, InvariantReason, JudgmentVerdict, ReasonKind
from tribunal.errors import BadInput
from tribunal.evidence.record import Evidence
from tribunal.markdown import code
from tribunal.refs import distinct_refs, parse_ref

# T-6: the order in which reasons apply (the first that applies is the reason).
_FAIL_RANK = {
    ReasonKind.COUNTEREXAMPLE_GOT_THROUGH.value: 0,
    ReasonKind.METRIC_CORRUPTION.value: 1,
    ReasonKind.VIOLATES_INVARIANT.value: 2,
}
_OTHER_FAIL_RANK = 3
_DEFERRED_RANK = 4
_OTHER_DEFERRED_RANK = 5


@dataclass(frozen=True)
class Decision:
    """What the court decided: verdict, reason, the evidence it rests on, and its causes."""

    verdict: JudgmentVerdict
    reason: str
    evidence_ref: list[str]
    causes: list[Evidence]
    sentence: str  # the coordinator's sentence for the body


def decide(evidence: Sequence[Evidence]) -> Decision:
    """Decide over `evidence` by the rules of T-6.

    Raises BadInput when there is nothing at all to cite (no record carries an evidence_ref).
    """
    causes = sorted((e for e in evidence if e.verdict is not CaseVerdict.PASS), key=_rank)
    if any(cause.verdict is CaseVerdict.FAIL for cause in causes):
        verdict = JudgmentVerdict.DENY
    elif causes:
        verdict = JudgmentVerdict.DEFERRED
    else:
        verdict = JudgmentVerdict.APPROVE
    if causes:
        reason = causes[0].reason_code
        refs = distinct_refs(ref for cause in causes for ref in cause.evidence_ref)
    else:
        reason = ReasonKind.CLEAN.value
        refs = _clean_refs(evidence)
    if not refs:
        raise BadInput("nothing to cite: no case, no invariant check and no evidence record")
    return Decision(
        verdict=verdict,
        reason=reason,
        evidence_ref=refs,
        causes=causes,
        sentence=coordinator_sentence(verdict, causes, evidence),
    )


def reason_kind(reason: str) -> str:
    """The kind of a reason: the part before `:`."""
    return reason.partition(":")[0]


def coordinator_sentence(
    verdict: JudgmentVerdict, causes: Sequence[Evidence], evidence: Sequence[Evidence]
) -> str:
    """The coordinator's one-sentence account of the verdict, from its first cause."""
    if not causes:
        cases = sum(1 for e in evidence if e.kind == EvidenceKind.DUEL)
        checks = sum(1 for e in evidence if e.kind == EvidenceKind.INVARIANT)
        return (
            f"The coordinator records {verdict}: all {cases} cases behave as the spec says "
            f"and all {checks} invariants hold."
        )
    account = _account(causes[0])
    more = len(causes) - 1
    tail = f"; {_count(more, 'further cause')} listed below" if more else ""
    return f"The coordinator records {verdict}: {account}{tail}."


def _account(cause: Evidence) -> str:
    """What the first cause shows, from its reason code and whatever details it carries."""
    kind, _, argument = cause.reason_code.partition(":")
    details = cause.details
    reasons = details.get("reasons")
    reasons = reasons if isinstance(reasons, list) else []
    if kind == ReasonKind.COUNTEREXAMPLE_GOT_THROUGH:
        return (
            f"counterexample {code(argument)} got through — no diagnostic fired and the spec's "
            f"answer breaks the case ({_count(len(reasons), 'reason')})"
        )
    if kind == ReasonKind.METRIC_CORRUPTION and {"target", "breached"} <= details.keys():
        breached = ", ".join(code(metric) for metric in details["breached"])
        return (
            f"{code(details['target'])} improved from {details.get('baseline_value')} to "
            f"{details.get('value')} at the cost of {breached}, which fails regardless of the gain"
        )
    if kind == ReasonKind.VIOLATES_INVARIANT:
        if details.get("reason") == InvariantReason.MISSING_METRIC:
            return f"{code(argument)} is missing or not a number, so its threshold cannot pass"
        if {"value", "op", "threshold"} <= details.keys():
            bound = f"{argument} {details['op']} {details['threshold']}"
            return f"{code(argument)} = {details['value']} breaks {code(bound)}"
        return f"the invariant on {code(argument)} is violated"
    if kind == ReasonKind.DEFERRED:
        why = reasons[0] if reasons else "the case and the spec disagree"
        return (
            f"case {code(argument)} is deferred ({why}); "
            "the spec is incomplete and a human arbitrates"
        )
    return f"{cause.kind} evidence is {cause.verdict} with {code(cause.reason_code)}"


def _rank(record: Evidence) -> int:
    kind = reason_kind(record.reason_code)
    if record.verdict is CaseVerdict.FAIL:
        return _FAIL_RANK.get(kind, _OTHER_FAIL_RANK)
    return _DEFERRED_RANK if kind == ReasonKind.DEFERRED else _OTHER_DEFERRED_RANK


def _clean_refs(evidence: Sequence[Evidence]) -> list[str]:
    # T-6: for `clean`, every case file in name order, then the metrics file (then any others).
    cases = sorted(e.evidence_ref[0] for e in evidence if e.kind == EvidenceKind.DUEL)
    metrics = [
        parse_ref(ref).path
        for e in evidence
        if e.kind == EvidenceKind.INVARIANT
        for ref in e.evidence_ref
    ]
    others = [
        ref
        for e in evidence
        if e.kind not in (EvidenceKind.DUEL, EvidenceKind.INVARIANT, EvidenceKind.CORRUPTION)
        for ref in e.evidence_ref
    ]
    return distinct_refs([*cases, *metrics, *others])


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
