"""`tribunal judgment new` (T-6, T-9): a hand-made judgment — the capstone's kind.

Its reason is one of the arbiter's codes or `manual:<slug>`, and every evidence_ref must resolve
inside the repository before anything is written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tribunal.enums import JudgmentVerdict, ReasonKind
from tribunal.errors import BadInput
from tribunal.frontmatter import render_judgment
from tribunal.markdown import MANUAL_JUDGMENT_TEMPLATE, render
from tribunal.records.judgment_check import check_refs
from tribunal.settings import scratch_dirs

_SLUG = r"[a-z0-9]+(?:[_-][a-z0-9]+)*"
_CASE_ID = r"\S+"
_PRECEDENT_ID = r"PREC-[0-9]{3,}"
REASON_CODES = re.compile(
    "^(?:"
    + "|".join(
        [
            re.escape(ReasonKind.CLEAN.value),
            re.escape(ReasonKind.METRIC_CORRUPTION.value),
            f"{ReasonKind.COUNTEREXAMPLE_GOT_THROUGH.value}:{_CASE_ID}",
            f"{ReasonKind.VIOLATES_INVARIANT.value}:{_CASE_ID}",
            f"{ReasonKind.DEFERRED.value}:{_CASE_ID}",
            f"{ReasonKind.PRECEDENT.value}:{_PRECEDENT_ID}",
            f"{ReasonKind.PRECEDENT_CONFLICT.value}:{_PRECEDENT_ID}",
            f"{ReasonKind.MANUAL.value}:{_SLUG}",
        ]
    )
    + ")$"
)


def manual_judgment_text(
    *,
    verdict: JudgmentVerdict,
    reason: str,
    evidence_ref: list[str],
    root: Path,
    reason_text: str | None = None,
    next_step: str | None = None,
    templates: Path | None = None,
) -> str:
    """The judgment.md text of a hand-made judgment.

    Raises BadInput when the reason is neither a code nor `manual:<slug>`, when there is no
    evidence_ref, or when one does not resolve inside `root`.
    """
    if not REASON_CODES.match(reason):
        raise BadInput(
            f"{reason!r} is neither a reason code (clean, metric_corruption, "
            "counterexample_got_through:<id>, violates_invariant:<metric>, deferred:<id>) "
            "nor manual:<slug> (lower case, digits, _ or -)",
            field="--reason",
        )
    if not evidence_ref:
        raise BadInput("a judgment needs at least one evidence_ref", field="--evidence-ref")
    check_refs(
        evidence_ref,
        root=root,
        source="--evidence-ref",
        lines=[None] * len(evidence_ref),
        scratch=scratch_dirs(root),  # T-6: scratch outputs are reproduced, never cited
    )
    fields: dict[str, Any] = {
        "verdict": verdict.value,
        "reason": reason,
        "evidence_ref": evidence_ref[0] if len(evidence_ref) == 1 else list(evidence_ref),
    }
    if reason_text is not None:
        fields["reason_text"] = reason_text
    if next_step is not None:
        fields["next_step"] = next_step
    context = {
        "verdict": verdict.value,
        "reason": reason,
        "reason_text": reason_text,
        "next_step": next_step,
        "evidence_ref": list(evidence_ref),
    }
    return render_judgment(fields, render(MANUAL_JUDGMENT_TEMPLATE, context, templates))
