"""`tribunal envelope`: build the blind envelope a juror reads (E-1..E-4)."""

from __future__ import annotations

import click

from tribunal.cli.exit_codes import ExitCode
from tribunal.cli.options import change_range


@click.command("envelope")
@change_range
@click.option(
    "--contract",
    "contract_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=str),
    help="The review contract (intent, criteria). It may live anywhere.",
)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=str),
    help="Directory to write envelope.md and manifest.json into.",
)
@click.option(
    "--deny",
    "deny_path",
    type=click.Path(dir_okay=False, path_type=str),
    help="A file of extra identity terms, one per line ('#' comments); any hit fails.",
)
@click.option(
    "--builder",
    help="The model or family that built the change (with --fleet): its model id, when this "
    "names a rung or a model, fails the build if found.",
)
@click.option(
    "--fleet",
    "fleet_path",
    type=click.Path(dir_okay=False, path_type=str),
    help="Fleet file: its family names and model ids found in the envelope are recorded as "
    "manifest warnings (content, not authorship); needed by --builder.",
)
@click.pass_context
def envelope(
    ctx: click.Context,
    repo: str,
    base: str,
    head: str,
    contract_path: str,
    out_dir: str,
    deny_path: str | None,
    builder: str | None,
    fleet_path: str | None,
) -> None:
    """Build the envelope of BASE...HEAD: envelope.md and manifest.json.

    The envelope holds the whole content of every file the change touched, their test files,
    deleted files by path, and the review contract. It is scanned for commit author and
    committer names and e-mail addresses, the deny list and, with --builder and --fleet, the
    builder's model id first: any hit exits 2 naming path:line and the term, and nothing is
    written. With --fleet, family names and other model ids found are manifest warnings.
    """
    from pathlib import Path

    from tribunal.paths import display_path, find_root
    from tribunal.workflows.envelope import EnvelopeRequest
    from tribunal.workflows.envelope import envelope as build

    if builder is not None and fleet_path is None:
        raise click.UsageError("--builder needs --fleet (the builder is resolved in the fleet)")
    root = find_root()
    request = EnvelopeRequest(
        repo=Path(repo),
        base=base,
        contract=Path(contract_path),
        out=Path(out_dir),
        root=root,
        head=head,
        deny=Path(deny_path) if deny_path else None,
        fleet=Path(fleet_path) if fleet_path else None,
        builder=builder,
    )
    built = build(request)
    click.echo(
        f"envelope: {len(built.files)} file(s), ~{built.tokens_estimate} tokens, "
        f"receipt {built.receipt[:12]} -> {display_path(out_dir, root)}",
        err=True,
    )
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    ctx.exit(ExitCode.OK)
