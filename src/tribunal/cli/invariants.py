"""`tribunal invariants` (T-5): check the declared thresholds, write invariants.json."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode


@click.command()
@click.option(
    "--metrics",
    "metrics_path",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Metrics JSON: metric values, optional session_id and window, and `thresholds`.",
)
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to write invariants.json (parent directories are created).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Metrics JSON of the baseline run, to catch a target bought with a breached guard.",
)
@click.option(
    "--target",
    help="The metric the change set out to improve (needs a threshold); goes with --baseline.",
)
@click.pass_context
def invariants(
    ctx: click.Context,
    metrics_path: Path,
    out_path: Path,
    baseline_path: Path | None,
    target: str | None,
) -> None:
    """Check every declared threshold of a metrics file (anti-Goodhart invariants).

    Writes invariants.json. Exit 0 when all checks pass, 1 when any fails or the target improved
    at the cost of a breached guard (metric_corruption), 2 on bad input.
    """
    if (baseline_path is None) != (target is None):
        raise click.UsageError("--baseline and --target go together")

    from tribunal.paths import find_root
    from tribunal.workflows.invariants import InvariantsRequest
    from tribunal.workflows.invariants import invariants as check_metrics

    request = InvariantsRequest(metrics_path, out_path, find_root(), baseline_path, target)
    result = check_metrics(request)
    report = result.report
    for check in report["checks"]:
        status = "ok" if check["ok"] else "FAIL"
        line = f"{status:<10}{check['metric']}: {check['value']} {check['op']} {check['threshold']}"
        if "reason" in check:
            line += f" ({check['reason']})"
        click.echo(line, err=True)
    counts = f"{report['failed']} of {len(report['checks'])} failed"
    summary = f"invariants: {report['verdict']} ({counts}"
    if "reason" in report:
        summary += f", {report['reason']}"
    click.echo(summary + ")", err=True)
    ctx.exit(ExitCode.OK if result.passed else ExitCode.NEGATIVE)
