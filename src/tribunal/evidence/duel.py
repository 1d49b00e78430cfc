"""T-4: the duel — each counterexample case against the executable spec.

For each case the actual result of the spec is compared with the case's `expected_failure`; each
mismatch is one reason in exactly one of the T-4 forms. Every reason also carries a key-based
pointer into the spec (`<spec>:<line>` of the expression it is about), so the evidence_ref of a
result is: the case file, then those pointers, deduplicated, in reason order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.enums import CaseVerdict, InvariantStatus
from tribunal.evidence.cases import Case, load_cases
from tribunal.paths import display_path, find_root
from tribunal.spec.load import load_spec
from tribunal.spec.model import Spec, SpecRun

# T-4: `actual` reports these bindings of the spec (None when the spec does not bind them).
ACTUAL_BINDINGS = ("allowed_delta", "requested_delta", "executed_delta")
CANNOT_EVALUATE = "cannot evaluate "
_PASS = CaseVerdict.PASS  # enum members read once, not per case
_NOT_EVALUATED = InvariantStatus.NOT_EVALUATED
_VIOLATED = InvariantStatus.VIOLATED


@dataclass(frozen=True, slots=True)  # slots, as for the other per-case records
class Reason:
    """One T-4 reason and the line of the spec expression it is about."""

    text: str
    line: int | None

    @property
    def cannot_evaluate(self) -> bool:
        """True for a `cannot evaluate <expr>: <why>` reason."""
        return self.text.startswith(CANNOT_EVALUATE)


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The duel's finding for one case."""

    case: Case
    run: SpecRun
    verdict: CaseVerdict
    reasons: tuple[Reason, ...]
    evidence_ref: tuple[str, ...]

    @property
    def not_evaluated(self) -> list[str]:
        """The invariants that could not be evaluated, as `<expr>: <why>`."""
        return [
            f"{check.invariant.text}: {check.why}"
            for check in self.run.invariants
            if check.status is _NOT_EVALUATED
        ]

    def actual(self) -> dict[str, Any]:
        """T-4 `actual`: diagnostic_code, halt_before and the spec's deltas."""
        fired = self.run.diagnostic
        values = self.run.bindings
        return {
            "diagnostic_code": fired.code if fired else None,
            "halt_before": fired.halt_before if fired else None,
            **{name: values.get(name) for name in ACTUAL_BINDINGS},
        }

    def to_dict(self, spec_id: str) -> dict[str, Any]:
        """One entry of duel.json `results`."""
        return {
            "counterexample_id": self.case.counterexample_id,
            "assertion_id": self.case.assertion_id,
            "spec_id": spec_id,
            "verdict": self.verdict.value,
            "actual": self.actual(),
            "expected": self.case.expected,
            "reasons": [reason.text for reason in self.reasons],
            "not_evaluated": self.not_evaluated,
            "evidence_ref": list(self.evidence_ref),
        }


@dataclass(frozen=True)
class DuelReport:
    """All results of one duel; `to_dict()` is duel.json."""

    spec: Spec
    cases_label: str
    results: tuple[CaseResult, ...]

    def count(self, verdict: CaseVerdict) -> int:
        """How many cases got `verdict`."""
        return sum(1 for result in self.results if result.verdict is verdict)

    @property
    def unexercised_diagnostics(self) -> list[str]:
        """Declared diagnostic codes that no case fired, in spec order."""
        fired = {r.run.diagnostic.code for r in self.results if r.run.diagnostic is not None}
        return [d.code for d in self.spec.diagnostics if d.code not in fired]

    def to_dict(self) -> dict[str, Any]:
        """duel.json, exactly as T-4 (key order fixed, C-6)."""
        spec_id = self.spec.spec_id
        return {
            "spec_id": spec_id,
            "spec": self.spec.label,
            "cases": self.cases_label,
            "total": len(self.results),
            "pass": self.count(CaseVerdict.PASS),
            "fail": self.count(CaseVerdict.FAIL),
            "deferred": self.count(CaseVerdict.DEFERRED),
            "unexercised_diagnostics": self.unexercised_diagnostics,
            "results": [result.to_dict(spec_id) for result in self.results],
        }

    def lines(self) -> list[str]:
        """T-4 stderr: `f"{verdict:<10}{counterexample_id}"` per case, then its reasons indented."""
        lines: list[str] = []
        for result in self.results:
            lines.append(f"{result.verdict.value:<10}{result.case.counterexample_id}")
            lines.extend(f"{'':<10}{reason.text}" for reason in result.reasons)
        return lines


def duel_from_paths(spec_path: Path, cases_dir: Path, root: Path | None = None) -> DuelReport:
    """Load the spec and the cases (paths shown relative to the C-8 root) and run the duel.

    Returns the DuelReport; raises BadInput for any problem in the spec or a case file.
    """
    root = find_root() if root is None else root
    spec = load_spec(spec_path, display_path(spec_path, root))
    cases_label = display_path(cases_dir, root)
    cases = load_cases(cases_dir, cases_label, spec)
    return run_duel(spec, cases, cases_label=cases_label)


def run_duel(spec: Spec, cases: Sequence[Case], *, cases_label: str) -> DuelReport:
    """Judge every case against `spec`. Returns the DuelReport; raises nothing for a case."""
    return DuelReport(spec, cases_label, tuple(judge_case(spec, case) for case in cases))


def judge_case(spec: Spec, case: Case) -> CaseResult:
    """Run one case through the spec, compare with its expected_failure, and decide (T-4)."""
    run = spec.run(case.given, case.payload)
    reasons = _reasons(spec, case, run)
    if not reasons:  # the common case, decided without the checks below
        return CaseResult(case, run, _PASS, (), (case.label,))
    if any(reason.cannot_evaluate for reason in reasons):
        verdict = CaseVerdict.DEFERRED
    elif not reasons:
        verdict = CaseVerdict.PASS
    elif run.diagnostic is None:
        verdict = CaseVerdict.FAIL  # no diagnostic fired: the counterexample got through
    else:
        verdict = CaseVerdict.DEFERRED  # the spec stopped it, but not as expected: a human decides
    refs = [case.label]
    for reason in reasons:
        ref = spec.ref(reason.line)
        if ref not in refs:
            refs.append(ref)
    return CaseResult(case, run, verdict, tuple(reasons), tuple(refs))


def _reasons(spec: Spec, case: Case, run: SpecRun) -> list[Reason]:
    if run.blocked is not None:
        # T-2: nothing after an expression that cannot be evaluated is known; one reason says so.
        blocked = run.blocked.expression
        return [Reason(f"{CANNOT_EVALUATE}{blocked.text}: {run.blocked.why}", blocked.line)]
    expected = case.expected
    fired = run.diagnostic
    reasons: list[Reason] = []
    if "diagnostic_code" in expected:
        want = expected["diagnostic_code"]
        got = fired.code if fired else None
        if want != got:
            about = fired or (spec.diagnostic(want) if want is not None else None)
            line = about.when.line if about else spec.lines.get("diagnostics")
            reasons.append(
                Reason(f"diagnostic_code: expected {_code(want)}, got {_code(got)}", line)
            )
    # T-4: halt_before is compared only when a diagnostic fired.
    if (
        "halt_before" in expected
        and fired is not None
        and expected["halt_before"] != fired.halt_before
    ):
        text = (
            f"halt_before: expected {_code(expected['halt_before'])}, "
            f"spec halts before {fired.halt_before}"
        )
        reasons.append(Reason(text, fired.when.line))
    bound = expected.get("executed_delta_upper_bound")
    if bound is not None:
        reasons.extend(_upper_bound(spec, run, bound))
    for check in run.invariants:
        if check.status is _VIOLATED:
            values = ", ".join(f"{name}={_value(value)}" for name, value in check.values.items())
            text = f"invariant violated: {check.invariant.text} ({values})"
            reasons.append(Reason(text, check.invariant.line))
    return reasons


def _upper_bound(spec: Spec, run: SpecRun, bound: int | float) -> list[Reason]:
    """T-3: `executed_delta_upper_bound` is compared with `allowed_delta`, the delta the clamp
    allows, as the tutorial does."""
    allowed = run.bindings.get("allowed_delta")
    if (type(allowed) is int or type(allowed) is float) and not allowed > bound:
        return []  # the common case, without looking up where the spec derives it
    entry = spec.derivation("allowed_delta")
    line = entry.expression.line if entry else spec.lines.get("then")
    if "allowed_delta" not in run.bindings:
        return [Reason(f"{CANNOT_EVALUATE}allowed_delta: the spec binds no allowed_delta", line)]
    if isinstance(allowed, bool) or not isinstance(allowed, int | float):
        why = f"allowed_delta is {_value(allowed)}, not a number"
        return [Reason(f"{CANNOT_EVALUATE}allowed_delta: {why}", line)]
    if allowed > bound:
        return [
            Reason(f"allowed_delta={_value(allowed)} exceeds upper_bound={_value(bound)}", line)
        ]
    return []


def _code(code: str | None) -> str:
    return "none" if code is None else code


def _value(value: Any) -> str:
    """A bound value as written in reasons: numbers plain, strings quoted, None as None."""
    if isinstance(value, str):
        return repr(value)
    return str(value) if isinstance(value, bool | int) or value is None else repr(value)
