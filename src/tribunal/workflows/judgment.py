"""`tribunal judgment`: the evidence court (T-6) — the duel's and the invariants' outputs (and any
other Evidence records) in, a decision, the precedents it follows (R-4), and `judgment.md` out.

The order: every input is read and checked, the court decides, the precedents are matched and
followed (a precedent only ever makes the verdict stricter), the text is rendered, and only then
is anything written — never over a recorded judgment (R-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tribunal.courts.following import (
    Followed,
    NotApplied,
    follow_precedents,
    not_applied_precedents,
)
from tribunal.courts.judgment.decide import Decision, decide, reason_kind
from tribunal.documents import Document, load_yaml
from tribunal.errors import BadInput, BrokenRef
from tribunal.evidence.collect import (
    duel_evidence,
    invariants_evidence,
    load_duel,
    load_evidence_file,
    load_invariants,
)
from tribunal.outputs import check_output_path, write_output_text
from tribunal.paths import display_path
from tribunal.precedents.facts import Facts, facts_file
from tribunal.precedents.match import match_precedents
from tribunal.records.filing import needs_writing
from tribunal.records.judgment import JudgmentInputs, front_matter, judgment_text
from tribunal.refs import resolve_ref


@dataclass(frozen=True)
class JudgmentRequest:
    """What `tribunal judgment` is given: the duel's and the invariants' outputs, where the
    judgment goes, other Evidence files, the precedents to follow and the dispute's facts
    (None: the computed judgment's own front matter), the next step and the templates."""

    duel_out: Path
    invariants_out: Path
    to: Path
    root: Path
    evidence: Sequence[Path] = ()
    precedents: Path | None = None
    facts: Path | None = None
    next_step: str | None = None
    templates: Path | None = None


@dataclass(frozen=True)
class JudgmentResult:
    """The judgment written, its decision, and the precedents it did not follow (the command
    says so; the body lists them too)."""

    path: Path
    text: str
    decision: Decision
    not_applied: list[NotApplied] = field(default_factory=list)


def judgment(request: JudgmentRequest) -> JudgmentResult:
    """Decide over the evidence, follow the precedents and write judgment.md.

    Raises BadInput (nothing written) when an input, the spec, a template or the precedents file
    is unusable, an evidence_ref does not resolve inside the root, or `to` is a recorded
    judgment.
    """
    root = request.root
    check_output_path(request.to, "--to")
    duel_label = display_path(request.duel_out, root)
    invariants_label = display_path(request.invariants_out, root)
    extra = [
        load_evidence_file(path, display_path(path, root), root=root) for path in request.evidence
    ]
    inputs = JudgmentInputs(
        duel=load_duel(request.duel_out, duel_label),
        invariants=load_invariants(request.invariants_out, invariants_label),
        extra=[record.to_dict() for record in extra],
        duel_out=duel_label,
        invariants_out=invariants_label,
    )
    evidence = [
        *duel_evidence(inputs.duel, root=root),
        *invariants_evidence(inputs.invariants, root=root),
        *extra,
    ]
    decision = decide(evidence)
    next_step = request.next_step
    if next_step is None:
        next_step = spec_next_step(root, inputs.duel, reason_kind(decision.reason))
    linked: list[str] = []
    why = None
    not_applied: list[NotApplied] = []
    if request.precedents is not None:
        facts = _facts(request, inputs, decision, next_step)
        followed, not_applied = _follow(decision, request.precedents, facts, root)
        if followed.changed:
            decision = followed.decision
            if request.next_step is None:
                next_step = _followed_step(root, inputs.duel, followed, next_step)
            linked, why = followed.linked, followed.reason_text
    text = judgment_text(
        inputs,
        decision,
        next_step=next_step,
        linked=linked,
        why=why,
        not_applied=not_applied,
        templates=request.templates,
    )
    if needs_writing(request.to, text, root, display_path(request.to, root)):
        write_output_text(request.to, text, "--to")
    return JudgmentResult(request.to, text, decision, not_applied)


def _facts(
    request: JudgmentRequest, inputs: JudgmentInputs, decision: Decision, next_step: str | None
) -> Facts:
    """R-4: the dispute's facts — the `--facts` file, else the computed judgment itself (its
    front matter, which never holds domain/tier/mode: scoped precedents are then
    scope_unknown)."""
    if request.facts is not None:
        return facts_file(request.facts, display_path(request.facts, request.root))
    fields = front_matter(inputs, decision, next_step, linked=[])
    return Facts("judgment front matter", dict(fields))


def _follow(
    decision: Decision, precedents: Path, facts: Facts, root: Path
) -> tuple[Followed, list[NotApplied]]:
    """R-4: match the dispute against `precedents` and follow the applicable ones; also return
    the precedents that could not be followed (said in the body, never silently dropped)."""
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
