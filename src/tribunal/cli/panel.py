"""`tribunal panel`: the panel court — executor -> verifier panel -> consensus."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.console import say
from tribunal.cli.exit_codes import ExitCode, for_panel, for_vet

MODE_LINE = "Running in tribunal mode: executor -> verifier panel -> consensus."
FILE = click.Path(dir_okay=False, path_type=Path)
DIR = click.Path(file_okay=False, path_type=Path)


@click.group()
def panel() -> None:
    """Score a slice against frozen criteria with an independent panel of verifiers."""
    # The orchestrator says what it is before anything else (SPEC §9).
    say(MODE_LINE, err=True)


@panel.command()
@click.option(
    "--criteria",
    required=True,
    type=FILE,
    help="The slice's criteria.yaml (dimensions, weights, target, verification commands).",
)
@click.option(
    "--ledger",
    type=FILE,
    help="Ledger to record the freeze in (default: <repository root>/.tribunal/ledger.json).",
)
@click.pass_context
def freeze(ctx: click.Context, criteria: Path, ledger: Path | None) -> None:
    """Freeze the criteria before the work starts: record their sha256 for their slice.

    Freezing the same bytes again changes nothing; criteria of the slice that differ from the
    frozen ones are refused (exit 2), naming both hashes. Exit 0 when frozen.
    """
    from tribunal.paths import find_root
    from tribunal.workflows.panel_freeze import FreezeRequest, panel_freeze

    done = panel_freeze(FreezeRequest(criteria, find_root(), ledger))
    state = "froze" if done.new else "already frozen:"
    say(f"{state} slice {done.slice_id}, criteria sha256 {done.sha256[:12]}")
    ctx.exit(ExitCode.OK)


@panel.command()
@click.option(
    "--plan",
    required=True,
    type=FILE,
    help="The plan to vet: how the slice will be built and checked.",
)
@click.option(
    "--criteria",
    required=True,
    type=FILE,
    help="The slice's criteria.yaml (frozen when the plan proceeds).",
)
@click.option(
    "--fleet",
    required=True,
    type=FILE,
    help="The fleet file whose rungs the three lenses sit on.",
)
@click.option(
    "--builder",
    required=True,
    help="Who will build the slice: a rung id, model id or family of the fleet, never seated.",
)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=DIR,
    help="Run dir: envelope.md, routing.json, verdicts, vet.json, judgment.md, summary.json.",
)
@click.option(
    "--ledger",
    type=FILE,
    help="Ledger counting the slice's vettings (default: <repository root>/.tribunal/ledger.json).",
)
@click.option(
    "--solo",
    is_flag=True,
    help="Let rungs of the builder's family sit last when no other family can.",
)
@click.pass_context
def vet(
    ctx: click.Context,
    plan: Path,
    criteria: Path,
    fleet: Path,
    builder: str,
    out_dir: Path,
    ledger: Path | None,
    solo: bool,
) -> None:
    """Vet a plan before anything is built: three lenses ask whether it will work, whether an
    executor can follow it, and whether it is the cheapest sufficient path.

    Two of the three pass: PROCEED (exit 0), and the criteria are frozen. Otherwise REFINE
    (exit 1): the critiques are in judgment.md, for one refinement; a second failing vetting of
    the slice is ESCALATE (exit 3). 2 bad input or criteria changed after freezing (nothing
    written).
    """
    import os

    from tribunal.paths import display_path, find_root
    from tribunal.records.rundir import JUDGMENT_NAME
    from tribunal.workflows.panel_vet import VetRequest, panel_vet

    root = find_root()
    vetting = panel_vet(
        VetRequest(
            plan=plan,
            criteria=criteria,
            fleet=fleet,
            builder=builder,
            out=out_dir,
            root=root,
            environ=dict(os.environ),
            ledger=ledger,
            solo=solo,
        )
    )
    report = vetting.report
    code = for_vet(report.outcome)
    for warning in report.warnings:
        say(f"tribunal: warning: {warning}", err=True)
    say(report.console_text(), nl=False)
    say(f"run dir: {display_path(vetting.run.path, root)}")
    say(f"judgment: {display_path(vetting.run.path / JUDGMENT_NAME, root)}")
    say(f"exit {code}")
    ctx.exit(code)


@panel.command()
@click.option(
    "--criteria",
    required=True,
    type=FILE,
    help="The slice's frozen criteria.yaml.",
)
@click.option(
    "--report",
    "report_file",
    required=True,
    type=FILE,
    help="The executor's report.yaml (never shown to the panel).",
)
@click.option(
    "--repo",
    required=True,
    type=DIR,
    help="The repository the slice was built in.",
)
@click.option("--base", required=True, help="The commit the work started from.")
@click.option("--head", help="The commit to judge (default: the report's address).")
@click.option(
    "--fleet",
    required=True,
    type=FILE,
    help="The fleet file whose rungs the members sit on.",
)
@click.option("--builder", help="The executor's family or model (default: the report's executor).")
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=DIR,
    help="Run dir: scorecards, verification.json, judgment.md, report.md, summary.json (last).",
)
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    help="The round number (default: the slice's last round + 1).",
)
@click.option("--ledger", type=FILE, help="Ledger (default: <repo>/.tribunal/ledger.json).")
@click.option(
    "--accept-caveats",
    is_flag=True,
    help="Accept a SHIP_WITH_CAVEATS outcome (exit 0), recorded in the judgment.",
)
@click.option(
    "--solo",
    is_flag=True,
    help="Let rungs of the executor's family sit last when no other family can.",
)
@click.option(
    "--summary-to",
    type=FILE,
    help="Append report.md to this file (e.g. $GITHUB_STEP_SUMMARY).",
)
@click.option("--json", "as_json", is_flag=True, help="Print summary.json instead of the text.")
@click.pass_context
def convene(
    ctx: click.Context,
    criteria: Path,
    report_file: Path,
    repo: Path,
    base: str,
    head: str | None,
    fleet: Path,
    builder: str | None,
    out_dir: Path,
    round_number: int | None,
    ledger: Path | None,
    accept_caveats: bool,
    solo: bool,
    summary_to: Path | None,
    as_json: bool,
) -> None:
    """Score the executor's work against the frozen criteria with an independent panel.

    Runs every verification command at the head itself, seats each lens away from the
    executor's family, opens one synthesis phase when the members disagree, and decides:
    SHIP (exit 0), SHIP_WITH_CAVEATS (exit 1, or 0 with --accept-caveats), ITERATE or BLOCK
    (exit 1), ESCALATE, HOLD, INVALID or NOT_CONVENED (exit 3); 2 bad input (nothing written).
    """
    import os

    from tribunal.atomic import dump_json
    from tribunal.paths import display_path, find_root
    from tribunal.records.rundir import JUDGMENT_NAME
    from tribunal.workflows.panel_convene import PanelRequest, panel_convene

    root = find_root()
    convening = panel_convene(
        PanelRequest(
            criteria=criteria,
            report=report_file,
            repo=repo,
            base=base,
            fleet=fleet,
            out=out_dir,
            root=root,
            environ=dict(os.environ),
            head=head,
            builder=builder,
            round=round_number,
            ledger=ledger,
            accept_caveats=accept_caveats,
            solo=solo,
            summary_to=summary_to,
        )
    )
    report = convening.report
    code = for_panel(report.outcome, caveats_accepted=report.caveats_accepted)
    for warning in report.routing.warnings if report.routing is not None else ():
        say(f"tribunal: warning: {warning}", err=True)
    written = [
        f"run dir: {display_path(convening.run.path, root)}",
        f"judgment: {display_path(convening.run.path / JUDGMENT_NAME, root)}",
    ]
    if as_json:
        say(dump_json(report.summary()), nl=False)
        for line in written:  # stdout holds exactly one JSON document
            say(line, err=True)
    else:
        say(report.report_text() + "\n" + "\n".join(written) + "\n", nl=False)
        say(f"exit {code}")
    ctx.exit(code)
