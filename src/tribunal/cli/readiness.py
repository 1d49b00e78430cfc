"""`tribunal readiness FILE` (T-9): the readiness gate over one readiness record."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode


@click.command("readiness")
@click.argument("record_path", metavar="FILE", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--out",
    "out_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Also write the Evidence record here (feed it to `tribunal judgment --evidence`).",
)
@click.pass_context
def readiness(ctx: click.Context, record_path: Path, out_path: Path | None) -> None:
    """Gate a readiness record: the five axes must reach 23 of 25, and nothing may hard-block
    (audit_trace_coverage below 1.0, no rollback_condition_present, no blast_radius_known, or
    stateful without backup_verified). Exit 0 ready, 1 blocked, 2 bad input."""
    from tribunal.evidence.readiness import MAX_SCORE, PASS_SCORE
    from tribunal.paths import find_root
    from tribunal.workflows.readiness import ReadinessRequest
    from tribunal.workflows.readiness import readiness as assess

    result = assess(ReadinessRequest(record_path, find_root(), out_path))
    by_score = "passes" if result.passes_by_score else "fails"
    click.echo(
        f"readiness: score {result.score}/{MAX_SCORE} {by_score} the {PASS_SCORE} threshold",
        err=True,
    )
    for block, field in result.blocks:
        click.echo(f"blocked   {block.value} ({field})", err=True)
    ctx.exit(ExitCode.OK if result.ready else ExitCode.NEGATIVE)
