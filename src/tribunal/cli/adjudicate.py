"""`tribunal adjudicate`: record a finding refuted with evidence (B-3), or an executor's concern
resolved before a panel sits (P-9)."""

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
    help="The finding's fingerprint (16 hex characters, from summary.json).",
)
@click.option(
    "--concern",
    type=click.IntRange(min=1),
    help="An executor's concern, numbered from 1 in its report, resolved for the panel court.",
)
@click.option(
    "--slice",
    "slice_id",
    help="The panel court's slice of --concern (default: the ledger's only slice) or of --finding.",
)
@click.option(
    "--evidence",
    required=True,
    help="path:line in the repository that refutes the finding (or resolves the concern).",
)
@click.option(
    "--note", required=True, help="Why the finding does not hold (or the concern is resolved)."
)
@click.option("--contract", help="The dispute's contract path, when the finding is in several.")
@click.option("--base", help="The dispute's base commit, when the finding is in several.")
@click.pass_context
def adjudicate(
    ctx: click.Context,
    ledger: Path | None,
    fingerprint: str | None,
    concern: int | None,
    slice_id: str | None,
    evidence: str,
    note: str,
    contract: str | None,
    base: str | None,
) -> None:
    """Record a finding refuted with evidence (--finding): the next round's jurors see the
    refutation. Or record an executor's correctness or scope concern resolved (--concern N):
    the panel sits once every such concern of the report is resolved.

    Exit 0 when recorded, 2 for an unknown fingerprint or concern, or evidence that does not
    resolve.
    """
    from tribunal.paths import find_root

    if (fingerprint is None) == (concern is None):
        raise click.UsageError("give --finding FINGERPRINT or --concern N (one of them)")
    if concern is not None:
        from tribunal.workflows.adjudicate import ConcernRequest, resolve

        resolution = resolve(ConcernRequest(concern, evidence, note, find_root(), ledger, slice_id))
        item = resolution.concern
        click.echo(
            f"resolved: concern {concern} of slice {resolution.slice_id} ({item['kind']}: "
            f"{item['text']}), evidence {item['evidence']}"
        )
        ctx.exit(ExitCode.OK)
    assert fingerprint is not None
    from tribunal.workflows.adjudicate import AdjudicateRequest
    from tribunal.workflows.adjudicate import adjudicate as refute

    request = AdjudicateRequest(
        fingerprint, evidence, note, find_root(), ledger, contract, base, slice_id
    )
    refutation = refute(request)
    from tribunal.records.slices import SliceRefutation

    where = (
        f"slice {refutation.slice_id}"
        if isinstance(refutation, SliceRefutation)
        else str(refutation.key)
    )
    click.echo(
        f"refuted: {refutation.fingerprint} ({refutation.adjudication.claim}) in "
        f"{where} round {refutation.round}, evidence {evidence.strip()}"
    )
    ctx.exit(ExitCode.OK)
