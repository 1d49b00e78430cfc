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
    from tribunal.cli.bulk import bulk_work
    from tribunal.cli.outputs import check_output_path, write_output
    from tribunal.enums import MatrixSignal
    from tribunal.evidence.duel import duel_from_paths
    from tribunal.evidence.matrix import load_tiers, run_matrix
    from tribunal.paths import display_path, find_root

    check_output_path(out_path)
    root = find_root()
    with bulk_work():
        duel = duel_from_paths(spec_path, cases_dir, root)
        config = load_tiers(tiers_path, display_path(tiers_path, root), duel.spec.spec_id)
        report = run_matrix(duel, config, config.select(pairs))
        write_output(out_path, report.to_dict())  # C-3: only after every input was checked
    for line in report.lines():
        click.echo(line, err=True)
    ctx.exit(ExitCode.OK if report.signal is MatrixSignal.UNIFORM_PASS else ExitCode.NEGATIVE)
