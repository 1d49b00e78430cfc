"""`tribunal arbitrate DIR`: the arbiter court over a dispute directory (A-1..A-6) — its files
loaded and checked, the evidence the verifier accepts checked by machine, the precedents the tie
breaker may consult (R-4), every round decided, and `judgment.md` with its decision trace
written beside it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.atomic import dump_json, write_atomic
from tribunal.courts.arbiter.rounds import Arbitration
from tribunal.courts.arbiter.rounds import arbitrate as decide_dispute
from tribunal.courts.arbiter.rules import ApplicablePrecedent
from tribunal.courts.following import NotApplied, not_applied_precedents
from tribunal.evidence.dispute.checks import check_evidence
from tribunal.evidence.dispute.model import DISPUTE_FILE, load_dispute
from tribunal.evidence.dispute.movement import read_movement_files
from tribunal.outputs import check_output_path
from tribunal.paths import display_path
from tribunal.precedents.facts import Facts
from tribunal.precedents.match import match_precedents
from tribunal.records.arbiter_judgment import arbitration_record
from tribunal.records.decision_trace import trace_path_for
from tribunal.records.filing import needs_writing

JUDGMENT_NAME = "judgment.md"


@dataclass(frozen=True)
class ArbitrateRequest:
    """The dispute directory, where its judgment goes (None: DIR/judgment.md), the templates,
    and the precedents the tie breaker may consult."""

    directory: Path
    root: Path
    to: Path | None = None
    templates: Path | None = None
    precedents: Path | None = None


@dataclass(frozen=True)
class ArbitrateResult:
    """The arbitration, the judgment and trace written, and the precedents not followed."""

    arbitration: Arbitration
    judgment: Path
    trace: Path
    not_applied: list[NotApplied] = field(default_factory=list)


def arbitrate(request: ArbitrateRequest) -> ArbitrateResult:
    """Decide the dispute and write judgment.md and its decision trace.

    Raises BadInput (nothing written) for a bad dispute directory, vote, charter, precedents
    file or template, or when `to` is a recorded judgment.
    """
    root, directory = request.root, request.directory
    target = request.to if request.to is not None else directory / JUDGMENT_NAME
    trace_path = trace_path_for(target)
    for path in (target, trace_path):  # C-3: each replaces only a regular file, if anything
        check_output_path(path, "--to", display_path(path, root))
    dispute = load_dispute(directory, root=root)
    applicable: tuple[ApplicablePrecedent, ...] = ()
    not_applied: list[NotApplied] = []
    if request.precedents is not None:
        applicable, not_applied = _applicable(request.precedents, root, dispute.facts, directory)
    movement = read_movement_files(dispute)
    arbitration = decide_dispute(dispute, check_evidence(dispute), movement, applicable)
    written = arbitration_record(
        dispute,
        arbitration,
        trace_label=display_path(trace_path, root),
        templates=request.templates,
    )
    # the dispute's own judgment.md (the default `--to`) is arbitrate's output — until it
    # is recorded (committed, say): then, like any record and the trace beside it, it is never
    # rewritten; a re-run that would write the same bytes writes nothing.
    trace = dump_json(written.trace)
    writes = [
        (path, text)
        for path, text in ((trace_path, trace), (target, written.judgment))
        if needs_writing(path, text, root, display_path(path, root))
    ]
    # the trace beside the judgment; both validated and checked before either is written.
    for path, text in writes:
        write_atomic(path, text)
    return ArbitrateResult(arbitration, target, trace_path, not_applied)


def _applicable(
    source: Path, root: Path, facts: Mapping[str, Any], directory: Path
) -> tuple[tuple[ApplicablePrecedent, ...], list[NotApplied]]:
    """The precedents of `source` that apply to the dispute's facts, in R-4's order, and those
    that may concern it but were not followed (cannot_evaluate, scope_unknown, due)."""
    label = display_path(directory / DISPUTE_FILE, root)
    # Candidates (prose-only scope) never decide, so the search index is not needed.
    found = match_precedents(source, root, Facts(label, dict(facts)), candidate_limit=0)
    applies = tuple(
        ApplicablePrecedent(placed.entry.case_id, placed.entry.verdict) for placed in found.applies
    )
    return applies, not_applied_precedents(found)
