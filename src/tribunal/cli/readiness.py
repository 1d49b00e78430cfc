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
    from tribunal.cli.outputs import check_output_path, write_output
    from tribunal.evidence.readiness import MAX_SCORE, PASS_SCORE, assess_file
    from tribunal.paths import display_path, find_root

    if out_path is not None:
        check_output_path(out_path)
    root = find_root()
    result = assess_file(record_path, display_path(record_path, root))
    by_score = "passes" if result.passes_by_score else "fails"
    click.echo(
        f"readiness: score {result.score}/{MAX_SCORE} {by_score} the {PASS_SCORE} threshold",
        err=True,
    )
    for block, field in result.blocks:
        click.echo(f"blocked   {block.value} ({field})", err=True)
    if out_path is not None:
        write_output(out_path, result.evidence().to_dict())
    ctx.exit(ExitCode.OK if result.ready else ExitCode.NEGATIVE)
