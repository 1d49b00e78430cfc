"""`tribunal adjudicate`: record a finding of the blind court refuted with evidence (B-3)."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode


@click.command("adjudicate")
@click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Ledger file (default: <repository root>/.tribunal/ledger.json).",
)
@click.option(
    "--finding",
    "fingerprint",
    required=True,
    help="The finding's fingerprint (16 hex characters, from summary.json).",
)
@click.option(
    "--evidence",
    required=True,
    help="path:line in the repository that refutes the finding.",
)
@click.option("--note", required=True, help="Why the finding does not hold.")
@click.option("--contract", help="The dispute's contract path, when the finding is in several.")
@click.option("--base", help="The dispute's base commit, when the finding is in several.")
@click.pass_context
def adjudicate(
    ctx: click.Context,
    ledger: Path | None,
    fingerprint: str,
    evidence: str,
    note: str,
    contract: str | None,
    base: str | None,
) -> None:
    """Record a finding refuted with evidence; the next round's jurors see the refutation.

    Exit 0 when recorded, 2 for an unknown fingerprint or evidence that does not resolve.
    """
    from tribunal.paths import find_root
    from tribunal.workflows.adjudicate import AdjudicateRequest
    from tribunal.workflows.adjudicate import adjudicate as refute

    request = AdjudicateRequest(fingerprint, evidence, note, find_root(), ledger, contract, base)
    refutation = refute(request)
    click.echo(
        f"refuted: {refutation.fingerprint} ({refutation.adjudication.claim}) in "
        f"{refutation.key} round {refutation.round}, evidence {evidence.strip()}"
    )
    ctx.exit(ExitCode.OK)
