"""`tribunal judgment --check FILE`: the CI gate — a judgment is valid (schema, every evidence_ref
resolves) and exits by its verdict; nothing is written (T-6)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import JudgmentVerdict
from tribunal.paths import display_path
from tribunal.records.judgment_check import check_judgment


@dataclass(frozen=True)
class CheckRequest:
    """The judgment file to check, and the root its refs resolve in."""

    path: Path
    root: Path


@dataclass(frozen=True)
class CheckedJudgment:
    """A valid judgment: where it is (as shown), its verdict and its reason."""

    label: str
    verdict: JudgmentVerdict
    reason: str


def check(request: CheckRequest) -> CheckedJudgment:
    """Validate the judgment. Raises BadInput naming the file, line and field when it is not
    a valid judgment or a ref does not resolve."""
    label = display_path(request.path, request.root)
    checked = check_judgment(request.path, label, root=request.root)
    fields = checked.fields
    return CheckedJudgment(label, JudgmentVerdict(fields["verdict"]), str(fields["reason"]))
