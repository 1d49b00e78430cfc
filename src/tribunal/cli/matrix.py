"""`tribunal matrix` (T-1, T-7): the duel's results through implementor/verifier tier pairs."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode
from tribunal.cli.options import out_file, spec_and_cases


@click.command()
@spec_and_cases
@click.option(
    "--tiers",
    "tiers_path",
    required=True,
    type=click.Path(path_type=Path),
    help="The tiers and pairs file (e.g. matrix/tiers.json).",
)
@out_file("matrix.json")
@click.option(
    "--pairs",
    default=None,
    metavar="IMPL/VERIFIER,...",
    help="Only these listed pairs, in this order (default: every pair of the tiers file).",
)
@click.pass_context
def matrix(
    ctx: click.Context,
    spec_path: Path,
    cases_dir: Path,
    tiers_path: Path,
    out_path: Path,
    pairs: str | None,
) -> None:
    """Run the duel once and judge its results through every tier pair; write matrix.json.

    Prints one line per pair and the signal to stderr. Exit 0 only for uniform_pass, 1
    otherwise (tier_dependent_spec or uniform_fail), 2 on bad input (nothing is written).
    """
    from tribunal.paths import find_root
    from tribunal.workflows.matrix import MatrixRequest
    from tribunal.workflows.matrix import matrix as judge_pairs

    request = MatrixRequest(spec_path, cases_dir, tiers_path, out_path, find_root(), pairs)
    result = judge_pairs(request)
    for line in result.report.lines():
        click.echo(line, err=True)
    ctx.exit(ExitCode.OK if result.uniform_pass else ExitCode.NEGATIVE)
