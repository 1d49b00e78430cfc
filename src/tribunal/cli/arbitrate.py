"""`tribunal arbitrate DIR` (A-2): decide a dispute directory and write its judgment.md."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import for_verdict


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
    "first applicable precedent that denies or defers decides a tied round.",
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
    from tribunal.paths import display_path, find_root
    from tribunal.workflows.arbitrate import ArbitrateRequest
    from tribunal.workflows.arbitrate import arbitrate as decide

    root = find_root()
    request = ArbitrateRequest(directory, root, to_path, templates_dir, precedents)
    result = decide(request)
    for item in result.not_applied:  # never dropped in silence
        click.echo(f"arbitrate: precedent not applied: {item}", err=True)
    arbitration = result.arbitration
    for report in arbitration.rounds:
        click.echo(f"R{report.round}: {report.why}", err=True)
    click.echo(
        f"arbitrate: {arbitration.verdict} {arbitration.reason} "
        f"({arbitration.final_verdict}); wrote {display_path(result.judgment, root)} and "
        f"{display_path(result.trace, root)}",
        err=True,
    )
    ctx.exit(for_verdict(arbitration.verdict))
