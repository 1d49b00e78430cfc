"""judgment.md written by `tribunal judgment` (T-6): the evidence court's decision over the duel
and the invariants, front matter dumped by the YAML library, body rendered from `templates/`.

Rendering only: the workflow collects the evidence, asks the court and follows the precedents,
then hands the decision here. C-6: nothing here reads the clock or absolute paths; the same
inputs give the same bytes wherever the repository is checked out.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.courts.following import NotApplied
from tribunal.courts.judgment.decide import Decision
from tribunal.documents import Document
from tribunal.frontmatter import render_judgment
from tribunal.jsontext import printable
from tribunal.markdown import JUDGMENT_TEMPLATE, render

NOT_CHECKED = "not checked"  # T-3: an absent expected_failure key is not checked


@dataclass(frozen=True)
class JudgmentInputs:
    """The evidence a judgment is written from, with the C-8 paths of the scratch outputs."""

    duel: Document
    invariants: Document
    extra: Sequence[Mapping[str, Any]] = ()  # other Evidence records, as their to_dict() gives
    duel_out: str = "out/duel.json"
    invariants_out: str = "out/invariants.json"


def judgment_text(
    inputs: JudgmentInputs,
    decision: Decision,
    *,
    next_step: str | None,
    linked: Sequence[str] = (),
    why: str | None = None,
    not_applied: Sequence[NotApplied] = (),
    templates: Path | None = None,
) -> str:
    """The whole judgment.md text for `decision` over `inputs`: the front matter of T-6 (with
    the `linked` precedents and, when one decided, `why` as reason_text) and the body, which
    also lists the precedents `not_applied`. Raises BadInput when a template is unusable."""
    fields = front_matter(inputs, decision, next_step, linked=list(linked), why=why)
    context = _body_context(inputs, decision, next_step)
    context["not_applied"] = [
        {"case_id": n.case_id, "verdict": n.verdict, "status": n.status.value, "detail": n.detail}
        for n in not_applied
    ]
    return render_judgment(fields, render(JUDGMENT_TEMPLATE, context, templates))


def front_matter(
    inputs: JudgmentInputs,
    decision: Decision,
    next_step: str | None,
    *,
    linked: list[str],
    why: str | None = None,
) -> dict[str, Any]:
    """T-6 front matter, in its order."""
    fields: dict[str, Any] = {
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "evidence_ref": decision.evidence_ref,
    }
    if why is not None:
        fields["reason_text"] = why
    if inputs.invariants.data["session_id"] is not None:
        fields["session_id"] = inputs.invariants.data["session_id"]  # T-6: copied from the metrics
    fields["spec_id"] = inputs.duel.data["spec_id"]
    if next_step is not None:
        fields["next_step"] = next_step
    fields["linked_precedents"] = linked
    fields["reproduce"] = reproduce_commands(inputs)
    return fields


def reproduce_commands(inputs: JudgmentInputs) -> list[str]:
    """T-6: the commands that regenerate the scratch evidence (T-1's first two steps)."""
    duel = inputs.duel.data
    invariants = inputs.invariants.data
    cases = duel["cases"] if duel["cases"].endswith("/") else duel["cases"] + "/"
    run_duel = [
        "python3 scripts/run_duel.py",
        f"--spec {shlex.quote(duel['spec'])}",
        f"--cases {shlex.quote(cases)}",
        f"--out {shlex.quote(inputs.duel_out)}",
    ]
    check = [
        "python3 scripts/check_invariants.py",
        f"--metrics {shlex.quote(invariants['metrics'])}",
        f"--out {shlex.quote(inputs.invariants_out)}",
    ]
    if "baseline" in invariants and invariants["corruption"] is not None:
        check.append(f"--baseline {shlex.quote(invariants['baseline'])}")
        check.append(f"--target {shlex.quote(invariants['corruption']['target'])}")
    return [" ".join(run_duel), " ".join(check)]


def show(value: Any) -> str:
    """A value as the body prints it: `none` for null, integral floats as integers."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(printable(value))


def _body_context(
    inputs: JudgmentInputs, decision: Decision, next_step: str | None
) -> dict[str, Any]:
    duel = inputs.duel.data
    invariants = inputs.invariants.data
    return {
        "verdict": decision.verdict.value,
        "reason": decision.reason,
        "sentence": decision.sentence,
        "next_step": next_step,
        "spec_id": duel["spec_id"],
        "session_id": invariants["session_id"],
        "window": invariants["window"],
        "duel": {
            "spec": duel["spec"],
            "cases": duel["cases"],
            "total": duel["total"],
            "pass": duel["pass"],
            "fail": duel["fail"],
            "deferred": duel["deferred"],
            "unexercised_diagnostics": list(duel["unexercised_diagnostics"]),
        },
        "cases": [_case_view(result) for result in duel["results"]],
        "invariants": {
            "metrics": invariants["metrics"],
            "baseline": invariants.get("baseline"),
            "verdict": invariants["verdict"],
            "rows": [_check_view(check) for check in invariants["checks"]],
            "unchecked": list(invariants["unchecked"]),
            "corruption": _corruption_view(invariants),
        },
        "other_evidence": [
            {
                "kind": record["kind"],
                "verdict": record["verdict"],
                "reason_code": record["reason_code"],
                "evidence_ref": list(record["evidence_ref"]),
            }
            for record in inputs.extra
        ],
        "evidence_ref": decision.evidence_ref,
        "reproduce": reproduce_commands(inputs),
    }


def _case_view(result: dict[str, Any]) -> dict[str, Any]:
    expected = result["expected"]
    actual = result["actual"]

    def expected_value(key: str) -> str:
        return show(expected[key]) if key in expected else NOT_CHECKED

    return {
        "id": result["counterexample_id"],
        "verdict": result["verdict"],
        "assertion_id": result["assertion_id"],
        "expected_code": expected_value("diagnostic_code"),
        "actual_code": show(actual["diagnostic_code"]),
        "expected_halt": expected_value("halt_before"),
        "actual_halt": show(actual["halt_before"]),
        "requested_delta": show(actual["requested_delta"]),
        "allowed_delta": show(actual["allowed_delta"]),
        "executed_delta": show(actual["executed_delta"]),
        "upper_bound": expected_value("executed_delta_upper_bound"),
        "reasons": list(result["reasons"]),
        "not_evaluated": [show(item) for item in result["not_evaluated"]],
        "evidence_ref": list(result["evidence_ref"]),
    }


def _check_view(check: dict[str, Any]) -> dict[str, str]:
    missing = "reason" in check and check["value"] is None
    status = "ok" if check["ok"] else f"FAIL ({check['reason']})"
    return {
        "metric": check["metric"],
        "value": "missing" if missing else show(check["value"]),
        "op": check["op"],
        "threshold": show(check["threshold"]),
        "status": status,
    }


def _corruption_view(invariants: dict[str, Any]) -> dict[str, Any] | None:
    corruption = invariants["corruption"]
    if corruption is None:
        return None
    return {
        "target": corruption["target"],
        "baseline_value": show(corruption["baseline_value"]),
        "value": show(corruption["value"]),
        "improved": corruption["improved"],
        "breached": list(corruption["breached"]),
        "corrupted": "reason" in invariants,
    }
