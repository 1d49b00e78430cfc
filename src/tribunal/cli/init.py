"""`tribunal init` (C-9): the starter layout of a repository that keeps its records."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option(
    "--precedents",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The precedents file to start (default: the `precedents` setting, else precedents.md).",
)
def init(precedents: Path | None) -> None:
    """Write the starter layout: precedents.md, .gitignore and .gitattributes entries,
    .tribunalignore, an example contract.yaml, a starter fleet of recorded jurors, and
    TRIBUNAL.md (the next steps); register the precedents.md merge driver in git config.

    Idempotent: existing files are never overwritten.
    """
    from tribunal.paths import find_root
    from tribunal.workflows.init import STARTER_NOTE, InitRequest
    from tribunal.workflows.init import init as lay_out

    report = lay_out(InitRequest(find_root(), precedents))
    for name in report.created:
        click.echo(f"created  {name}")
    for name in report.appended:
        click.echo(f"appended {name}")
    for name in report.kept:
        click.echo(f"kept     {name}")
    for note in report.notes:
        click.echo(f"note: {note}")
    click.echo(STARTER_NOTE)
