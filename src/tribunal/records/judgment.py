"""judgment.md written by `tribunal judgment` (T-6): the arbiter's decision over the duel and the
invariants, front matter dumped by the YAML library, body rendered from `templates/`.

C-6: nothing here reads the clock or absolute paths; the same inputs give the same bytes wherever
the repository is checked out.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.courts.arbiter import Decision, decide, reason_kind
from tribunal.courts.following import Followed, follow_precedents
from tribunal.documents import Document, load_yaml
from tribunal.enums import MatchStatus
from tribunal.evidence.collect import duel_evidence, invariants_evidence
from tribunal.evidence.invariants import printable
from tribunal.evidence.record import Evidence
from tribunal.frontmatter import render_judgment
from tribunal.precedents.facts import Facts
from tribunal.records.templates import JUDGMENT_TEMPLATE, render

if TYPE_CHECKING:
    from tribunal.precedents.match import MatchResult

NOT_CHECKED = "not checked"  # T-3: an absent expected_failure key is not checked


@dataclass(frozen=True)
class Following:
    """R-4: the precedents file a judgment follows, and the dispute's facts (None: the computed
    judgment's own front matter, what `precedent match --judgment` would read from it)."""

    precedents: Path
    facts: Facts | None = None


@dataclass(frozen=True)
class NotApplied:
    """R-4: a precedent the dispute may fall under that was not followed, and why: its
    next_check cannot be evaluated for the dispute, its scope is unknown, or it is due for
    re-examination. `detail` names the missing fields or keys (or the values read)."""

    case_id: str
    verdict: str
    status: MatchStatus
    detail: str

    def __str__(self) -> str:
        return f"{self.case_id} ({self.verdict}): {self.status.value} — {self.detail}"


@dataclass(frozen=True)
class ComposedJudgment:
    """The judgment.md text and the precedents it did not follow (for the CLI to say so)."""

    text: str
    not_applied: list[NotApplied]


@dataclass(frozen=True)
class JudgmentInputs:
    """The evidence a judgment is written from, with the C-8 paths of the scratch outputs."""

    duel: Document
    invariants: Document
    extra: Sequence[Evidence] = ()
    duel_out: str = "out/duel.json"
    invariants_out: str = "out/invariants.json"


def write_judgment_text(
    inputs: JudgmentInputs,
    *,
    root: Path,
    next_step: str | None = None,
    templates: Path | None = None,
    following: Following | None = None,
) -> str:
    """The whole judgment.md text for `inputs` (see `compose_judgment`)."""
    return compose_judgment(
        inputs, root=root, next_step=next_step, templates=templates, following=following
    ).text


def compose_judgment(
    inputs: JudgmentInputs,
    *,
    root: Path,
    next_step: str | None = None,
    templates: Path | None = None,
    following: Following | None = None,
) -> ComposedJudgment:
    """The whole judgment.md text for `inputs`, with the precedents not followed.

    `next_step` overrides the spec's `next_steps` entry for the reason kind. With `following`,
    the applicable precedents are linked and the top one may change the reason and make the
    verdict stricter (R-4). Raises BadInput (nothing to write) when the spec, a template, the
    evidence or the precedents file is unusable — also when an evidence_ref of the duel or the
    invariants, or the cited precedents file, does not resolve inside `root`.
    """
    evidence = [
        *duel_evidence(inputs.duel, root=root),
        *invariants_evidence(inputs.invariants, root=root),
        *inputs.extra,
    ]
    decision = decide(evidence)
    given_step = next_step
    if next_step is None:
        next_step = spec_next_step(root, inputs.duel, reason_kind(decision.reason))
    fields = _front_matter(inputs, decision, next_step, linked=[])
    not_applied: list[NotApplied] = []
    if following is not None:
        # without --facts, the dispute is the computed judgment itself (its front matter,
        # which never holds domain/tier/mode: scoped precedents are then scope_unknown).
        facts = following.facts or Facts("judgment front matter", dict(fields))
        followed, not_applied = _follow(decision, following.precedents, facts, root)
        if followed.changed:
            decision = followed.decision
            if given_step is None:
                next_step = _followed_step(root, inputs.duel, followed, next_step)
            fields = _front_matter(
                inputs, decision, next_step, linked=followed.linked, why=followed.reason_text
            )

    context = _body_context(inputs, decision, next_step)
    context["not_applied"] = [
        {"case_id": n.case_id, "verdict": n.verdict, "status": n.status.value, "detail": n.detail}
        for n in not_applied
    ]
    body = render(JUDGMENT_TEMPLATE, context, templates)
    return ComposedJudgment(render_judgment(fields, body), not_applied)


def _front_matter(
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


def _follow(
    decision: Decision, precedents: Path, facts: Facts, root: Path
) -> tuple[Followed, list[NotApplied]]:
    """R-4: match the dispute against `precedents` and follow the applicable ones; also return
    the precedents that could not be followed (said in the body, never silently dropped)."""
    from tribunal.errors import BadInput, BrokenRef
    from tribunal.paths import display_path
    from tribunal.precedents.match import match_precedents
    from tribunal.refs import resolve_ref

    result = match_precedents(precedents, root, facts, candidate_limit=0)  # never followed
    applies = [placement.entry for placement in result.applies]
    label = display_path(precedents, root)
    cite = f"{label}:{applies[0].line}" if applies else label
    if applies:
        try:
            resolve_ref(cite, base=root, root=root)  # the judgment's refs must resolve
        except BrokenRef as error:
            raise BadInput(f"cannot cite the precedent: {error}", field="--precedents") from None
    return follow_precedents(decision, applies, cite), not_applied_precedents(result)


def not_applied_precedents(result: MatchResult) -> list[NotApplied]:
    """R-4: the precedents `tribunal judgment` does not follow but must not pass over in silence.

    The verdict rules of R-4 are kept: only `applies` is linked and may change the verdict
    (follow_precedents). The others are listed, never followed either way, because each rests on
    a fact the dispute does not give: a cannot_evaluate precedent's condition may be true for
    this dispute (then it is due, not settled) or false (then it applies); a scope_unknown one
    may be out of scope; a due one's own condition says it is to be re-examined, not followed.
    Making the verdict stricter on an unknown would invent that fact as surely as loosening it
    would. "cannot_evaluate is never counted as not triggered" is honoured by never treating it
    as applying, and by saying so here (body and stderr) so a reader passes the facts (--facts).
    """
    listed = [
        *(
            (
                p,
                f"next_check.when `{p.entry.next_check_when}` cannot be evaluated: "
                + (f"the dispute lacks {', '.join(p.missing)}" if p.missing else p.why),
            )
            for p in result.cannot_evaluate
        ),
        *(
            (p, f"the dispute lacks the scope key(s) {', '.join(p.keys)}")
            for p in result.scope_unknown
        ),
        *(
            (p, f"next_check.when `{p.entry.next_check_when}` is true ({_values(p.values)})")
            for p in result.due_for_reexamination
        ),
    ]
    return [
        NotApplied(p.entry.case_id, p.entry.verdict.value, p.status, detail) for p, detail in listed
    ]


def _values(values: dict[str, Any]) -> str:
    return ", ".join(f"{name}={show(value)}" for name, value in values.items())


def _followed_step(
    root: Path, duel: Document, followed: Followed, computed_step: str | None
) -> str | None:
    """The next step after a precedent decided: the spec's step for the new reason kind; else,
    resolved by reference, the precedent's own next_check; else the evidence's step."""
    step = spec_next_step(root, duel, reason_kind(followed.decision.reason))
    if step is not None:
        return step
    top = followed.top
    if top is not None and top.verdict is followed.computed.verdict:
        return top.next_check_text
    return computed_step


def spec_next_step(root: Path, duel: Document, kind: str) -> str | None:
    """The spec's `next_steps[kind]` (T-2), or None when the mapping lacks the kind.

    Reads the spec that duel.json's `spec` names. Raises BadInput when it is unreadable or its
    `next_steps` is not a mapping of texts.
    """
    spec_label: str = duel.data["spec"]
    spec_path = Path(spec_label)
    spec = load_yaml(spec_path if spec_path.is_absolute() else root / spec_path, spec_label)
    if not isinstance(spec.data, dict):
        raise spec.bad("a spec must be a mapping")
    steps = spec.data.get("next_steps")
    if steps is None:
        return None
    if not isinstance(steps, dict):
        raise spec.bad("must be a mapping of reason kind to text", ("next_steps",))
    step = steps.get(kind)
    if step is None:
        return None
    if not isinstance(step, str) or not step.strip():
        raise spec.bad("must be a non-empty text", ("next_steps", kind))
    return step.strip()


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
                "kind": record.kind,
                "verdict": record.verdict.value,
                "reason_code": record.reason_code,
                "evidence_ref": list(record.evidence_ref),
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
        "metric": _cell(check["metric"]),
        "value": "missing" if missing else _cell(show(check["value"])),
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


def _cell(text: str) -> str:
    # A Markdown table cell cannot hold a bare `|`.
    return text.replace("|", "\\|")
