"""`tribunal evidence check DIR` (A-3): is the evidence the verifier accepts all there?"""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode

DIRECTORY = click.Path(path_type=Path, file_okay=False)


@click.group()
def evidence() -> None:
    """Machine checks of the evidence a dispute rests on."""


@evidence.command("check")
@click.argument("directory", type=DIRECTORY, required=False, metavar="[DIR]")
@click.option(
    "--dispute", "dispute_dir", type=DIRECTORY, metavar="DIR", help="The dispute directory."
)
@click.pass_context
def check(ctx: click.Context, directory: Path | None, dispute_dir: Path | None) -> None:
    """Check the schema, hooks and scenarios evidence of the dispute in DIR.

    schema: every record validates against the JSON Schema named; hooks: NDJSON hook logs with
    at least one PreToolUse and one PostToolUse record; scenarios: every Gherkin scenario has a
    passing testcase in the JUnit XML results. Prints each kind and exactly what is missing.
    The vote files are not read.
    Exit 0 when all are present, 1 when something is missing, 2 on bad input.
    """
    if directory is not None and dispute_dir is not None and directory != dispute_dir:
        raise click.UsageError("give the dispute directory once: DIR or --dispute DIR")
    chosen = directory or dispute_dir
    if chosen is None:
        raise click.UsageError("missing the dispute directory: DIR or --dispute DIR")
    from tribunal.paths import find_root
    from tribunal.workflows.evidence_check import EvidenceCheckRequest, evidence_check

    checked = evidence_check(EvidenceCheckRequest(chosen, find_root()))
    report, dispute = checked.report, checked.dispute
    for kind in report.kinds:
        state = "present" if kind.present else "MISSING"
        click.echo(f"{kind.kind}: {state} — {kind.summary}")
        for shortfall in kind.shortfalls:
            click.echo(f"  {shortfall}")
    if not report.kinds:
        click.echo(f"no evidence required by the charter {dispute.charter.label}")
    ctx.exit(ExitCode.NEGATIVE if report.missing else ExitCode.OK)
