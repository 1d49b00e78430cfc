"""`tribunal convene`: the blind court — eight cross-family jurors, the harness's proofs, and an
outcome that lands only on a unanimous, proven pass (B-1..B-7)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tribunal.cli.console import say
from tribunal.cli.exit_codes import for_outcome
from tribunal.cli.options import change_range, fleet_and_builder

if TYPE_CHECKING:
    from tribunal.worktrees import Pruned


@click.command("convene")
@change_range
@click.option(
    "--contract",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The review contract (intent, criteria, red, test_command).",
)
@fleet_and_builder
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Run dir: claimed with .tribunal-stamp; verdicts, judgment.md, summary.json (last).",
)
@click.option(
    "--round",
    "round_number",
    type=click.IntRange(min=1),
    help="The round number (default: the ledger's last round of this dispute + 1).",
)
@click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Ledger of rounds (default: <repo>/.tribunal/ledger.json; CI caches it).",
)
@click.option(
    "--max-rounds",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="A round that would not land at this number or beyond ESCALATEs.",
)
@click.option(
    "--no-proofs",
    is_flag=True,
    help="Do not run the harness proofs; every report names it.",
)
@click.option(
    "--solo",
    is_flag=True,
    help="Let builder-family rungs sit last when no other family can (a degraded run).",
)
@click.option(
    "--require-cross-family",
    is_flag=True,
    help="A degraded (--solo) run HOLDs instead of landing.",
)
@click.option(
    "--templates",
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory with blind_judgment.md.j2 overriding the default template.",
)
@click.option("--json", "as_json", is_flag=True, help="Print summary.json instead of the table.")
@click.pass_context
def convene(
    ctx: click.Context,
    repo: Path,
    base: str,
    head: str,
    contract: Path,
    fleet: Path,
    builder: str,
    out_dir: Path,
    round_number: int | None,
    ledger: Path | None,
    max_rounds: int,
    no_proofs: bool,
    solo: bool,
    require_cross_family: bool,
    templates: Path | None,
    as_json: bool,
) -> None:
    """Convene the blind court over BASE...HEAD and decide: LAND, ITERATE, HOLD, ESCALATE or
    INVALID.

    Builds the envelope from git objects, runs the proofs, routes the eight lenses away from
    the builder's family, sits every seat at once, and writes into OUT: .tribunal-stamp,
    envelope.md, manifest.json, routing.json, verdict_<lens>.json as each seat finishes,
    judgment.md, and summary.json last. Exit 0 LAND, 1 ITERATE, 3 HOLD/ESCALATE/INVALID,
    2 bad input (nothing written).
    """
    import os

    from tribunal.atomic import dump_json
    from tribunal.jury.routing import too_large_for_every_rung
    from tribunal.paths import display_path, find_root
    from tribunal.records.blind_report import console_report, summary_document
    from tribunal.records.rundir import JUDGMENT_NAME
    from tribunal.workflows.convene import ConveneRequest
    from tribunal.workflows.convene import convene as convene_court

    request = ConveneRequest(
        repo=repo,
        base=base,
        contract=contract,
        fleet=fleet,
        builder=builder,
        out=out_dir,
        root=find_root(),
        environ=dict(os.environ),
        head=head,
        round=round_number,
        ledger=ledger,
        max_rounds=max_rounds,
        no_proofs=no_proofs,
        solo=solo,
        require_cross_family=require_cross_family,
        templates=templates,
    )
    convening = convene_court(request, on_pruned=_say_pruned)
    for warning in convening.envelope.warnings:
        say(f"tribunal: warning: {warning}", err=True)
    for warning in convening.routing.warnings:
        say(f"tribunal: warning: {convening.routing.fleet.label}: {warning}", err=True)
    too_large = too_large_for_every_rung(convening.routing.lenses)
    if too_large is not None:  # one clear line; the lenses hold (exit 3)
        say(f"tribunal: {too_large}", err=True)
    report = convening.report
    code = for_outcome(report.decision.outcome)
    root = find_root()
    written = [
        f"run dir: {display_path(convening.run.path, root)}",
        f"judgment: {display_path(convening.run.path / JUDGMENT_NAME, root)}",
    ]
    if as_json:
        say(dump_json(summary_document(report)), nl=False)
        for line in written:  # stdout holds exactly one JSON document (C-7)
            say(line, err=True)
    else:
        say(console_report(report, exit_code=code) + "\n".join(written) + "\n", nl=False)
    ctx.exit(code)


def _say_pruned(pruned: Pruned) -> None:
    """B-4: an abandoned worktree of an earlier convening was removed from the repository."""
    say(f"tribunal: removed a worktree that run {pruned.owner} abandoned: {pruned.path}", err=True)
