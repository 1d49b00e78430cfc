"""`tribunal arbitrate DIR` (A-2): decide a dispute directory and write its judgment.md."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tribunal.cli.exit_codes import for_verdict

if TYPE_CHECKING:
    from tribunal.courts.arbiter_rules import ApplicablePrecedent
    from tribunal.records.judgment import NotApplied

JUDGMENT_NAME = "judgment.md"


@click.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False), metavar="DIR")
@click.option(
    "--to",
    "to_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write judgment.md (default: DIR/judgment.md). The decision trace is named "
    "after it: DIR/decision_trace.json for DIR/judgment.md, X.decision_trace.json for "
    "X.judgment.md or X.md.",
)
@click.option(
    "--templates",
    "templates_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Directory of Jinja2 body templates (default: the templates shipped with tribunal).",
)
@click.option(
    "--precedents",
    "precedents",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A precedents.md the tie breaker consults (default: the `precedents` setting): the "
    "first applicable precedent that denies or defers decides a tied round (A-2, R-4).",
)
@click.pass_context
def arbitrate(
    ctx: click.Context,
    directory: Path,
    to_path: Path | None,
    templates_dir: Path | None,
    precedents: Path | None,
) -> None:
    """Decide the dispute in DIR from its files and write judgment.md.

    DIR holds dispute.yaml, votes/R<N>-<role>.yaml and the evidence. Each round is decided in
    order: missing evidence (DENY), safety veto (DENY), no quorum (DEFERRED), pass rule
    (APPROVE), denying weight (DENY), then the tie breaker; the latest accepted round decides.
    Exit 0 APPROVE, 1 DENY, 3 DEFERRED, 2 bad input (nothing written).
    """
    from tribunal.atomic import write_atomic, write_json
    from tribunal.courts.rounds import arbitrate as decide_dispute
    from tribunal.evidence.dispute.checks import check_evidence
    from tribunal.evidence.dispute.model import load_dispute
    from tribunal.paths import display_path, find_root
    from tribunal.records.arbitration import arbitration_record
    from tribunal.records.decision_trace import trace_path_for
    from tribunal.records.filing import refuse_rewriting_a_record

    root = find_root()
    dispute = load_dispute(directory, root=root)
    applicable: tuple[ApplicablePrecedent, ...] = ()
    if precedents is not None:
        applicable, passed_over = _applicable(precedents, root, dispute.facts, directory)
        for item in passed_over:  # never dropped in silence
            click.echo(f"arbitrate: precedent not applied: {item}", err=True)
    arbitration = decide_dispute(dispute, check_evidence(dispute), applicable)
    target = to_path if to_path is not None else directory / JUDGMENT_NAME
    label = display_path(target, root)
    trace_path = trace_path_for(target)
    written = arbitration_record(
        dispute, arbitration, trace_label=display_path(trace_path, root), templates=templates_dir
    )
    if target.resolve() != (directory / JUDGMENT_NAME).resolve():
        # the dispute's own judgment.md and trace are arbitrate's output; elsewhere, both
        # are records a judgment names, never rewritten.
        refuse_rewriting_a_record(target, root, label)
        refuse_rewriting_a_record(trace_path, root, display_path(trace_path, root))
    # the trace beside the judgment; both validated before either is written (C-3).
    write_json(trace_path, written.trace)
    write_atomic(target, written.judgment)
    for report in arbitration.rounds:
        click.echo(f"R{report.round}: {report.why}", err=True)
    click.echo(
        f"arbitrate: {arbitration.verdict} {arbitration.reason} "
        f"({arbitration.final_verdict}); wrote {label} and {display_path(trace_path, root)}",
        err=True,
    )
    ctx.exit(for_verdict(arbitration.verdict))


def _applicable(
    source: Path, root: Path, facts: dict[str, Any], directory: Path
) -> tuple[tuple[ApplicablePrecedent, ...], list[NotApplied]]:
    """The precedents of `source` that apply to the dispute's facts, in R-4's order, and those
    that may concern it but were not followed (cannot_evaluate, scope_unknown, due)."""
    from tribunal.courts.arbiter_rules import ApplicablePrecedent
    from tribunal.paths import display_path
    from tribunal.precedents.facts import Facts
    from tribunal.precedents.match import match_precedents
    from tribunal.records.judgment import not_applied_precedents

    label = display_path(directory / "dispute.yaml", root)
    # Candidates (prose-only scope) never decide, so the search index is not needed.
    found = match_precedents(source, root, Facts(label, dict(facts)), candidate_limit=0)
    applies = tuple(
        ApplicablePrecedent(placed.entry.case_id, placed.entry.verdict) for placed in found.applies
    )
    return applies, not_applied_precedents(found)
