"""`tribunal duel` (T-1, T-4): counterexample cases against the executable spec -> duel.json."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode
from tribunal.cli.options import out_file, spec_and_cases


@click.command()
@spec_and_cases
@out_file("duel.json")
@click.pass_context
def duel(ctx: click.Context, spec_path: Path, cases_dir: Path, out_path: Path) -> None:
    """Run every counterexample case against the spec and write duel.json.

    Prints one line per case (verdict, counterexample_id) and its reasons to stderr. Exit 0 when
    no case FAILs, 1 when one does, 2 on bad input (nothing is written).
    """
    from tribunal.paths import find_root
    from tribunal.workflows.duel import DuelRequest, duel

    result = duel(DuelRequest(spec_path, cases_dir, out_path, find_root()))
    lines = result.report.lines()
    if lines:  # one write for ten thousand lines, the same text as one echo per line
        click.echo("\n".join(lines), err=True)
    ctx.exit(ExitCode.NEGATIVE if result.failed else ExitCode.OK)
