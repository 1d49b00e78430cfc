"""`tribunal judgment new`: a hand-made judgment (the capstone's kind), its refs checked before
anything is written (T-6, T-9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import JudgmentVerdict
from tribunal.outputs import check_output_path, write_output_text
from tribunal.paths import display_path
from tribunal.records.filing import needs_writing
from tribunal.records.manual_judgment import manual_judgment_text


@dataclass(frozen=True)
class NewJudgmentRequest:
    """The verdict, reason and evidence_refs of a hand-made judgment, and where it goes."""

    verdict: JudgmentVerdict
    reason: str
    evidence_ref: Sequence[str]
    to: Path
    root: Path
    reason_text: str | None = None
    next_step: str | None = None
    templates: Path | None = None


def new_judgment(request: NewJudgmentRequest) -> Path:
    """Write the judgment; return its path. Raises BadInput (nothing written) for a bad reason,
    a ref that does not resolve, a template problem, or a recorded judgment at `to`."""
    check_output_path(request.to, "--to")
    root = request.root
    text = manual_judgment_text(
        verdict=request.verdict,
        reason=request.reason,
        evidence_ref=list(request.evidence_ref),
        root=root,
        reason_text=request.reason_text,
        next_step=request.next_step,
        templates=request.templates,
    )
    if needs_writing(request.to, text, root, display_path(request.to, root)):
        write_output_text(request.to, text, "--to")
    return request.to
