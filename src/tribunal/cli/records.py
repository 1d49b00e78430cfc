"""`tribunal records`: the records kept in the repository, checked like code (R-6)."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode


@click.group()
def records() -> None:
    """Judgments and precedents kept in the repository."""


@records.command()
@click.argument(
    "path",
    required=False,
    type=click.Path(exists=True, path_type=Path),
)
@click.option(
    "--exclude",
    "excludes",
    multiple=True,
    metavar="GLOB",
    help="Skip paths matching GLOB (gitignore syntax, relative to the root); repeatable.",
)
@click.option(
    "--precedents",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A precedents file to check too, whose IDs judgments may cite "
    "(default: the `precedents` setting).",
)
@click.pass_context
def check(
    ctx: click.Context, path: Path | None, excludes: tuple[str, ...], precedents: Path | None
) -> None:
    """Validate every judgment and precedents.md under PATH (default: the repository root).

    Looks at the files git tracks (outside git: every file), minus .tribunalignore matches.
    Prints each problem as file:line: message and exits 1 if there is any, else prints a
    one-line summary and exits 0.
    """
    from tribunal.paths import find_root
    from tribunal.workflows.records_check import RecordsCheckRequest, records_check

    report = records_check(RecordsCheckRequest(find_root(), path, excludes, precedents))
    for problem in report.problems:
        click.echo(str(problem))
    click.echo(report.summary, err=bool(report.problems))
    ctx.exit(ExitCode.NEGATIVE if report.problems else ExitCode.OK)
