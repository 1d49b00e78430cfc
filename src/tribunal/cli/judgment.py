"""`tribunal judgment` (T-6): write, check, record and hand-make judgment.md files."""

from __future__ import annotations

from pathlib import Path

import click

from tribunal.cli.exit_codes import ExitCode, for_verdict

FILE = click.Path(path_type=Path, dir_okay=False)
VERDICTS = ("APPROVE", "DENY", "DEFERRED")


def _templates_option(function: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--templates",
        "templates_dir",
        type=click.Path(path_type=Path, file_okay=False),
        help="Directory of Jinja2 body templates (default: the templates shipped with tribunal).",
    )(function)


@click.group(invoke_without_command=True)
@click.option("--duel-out", "duel_out", type=FILE, help="duel.json written by `tribunal duel`.")
@click.option(
    "--invariants-out",
    "invariants_out",
    type=FILE,
    help="invariants.json written by `tribunal invariants`.",
)
@click.option("--to", "to_path", type=FILE, help="Where to write judgment.md (parents created).")
@click.option(
    "--next-step",
    "next_step",
    help="The next checkable step (default: the spec's next_steps entry for the reason kind).",
)
@click.option(
    "--evidence",
    "evidence_files",
    type=FILE,
    multiple=True,
    help="An Evidence record file (JSON or YAML) to weigh too; repeat for more.",
)
@click.option(
    "--precedents",
    "precedents",
    type=FILE,
    help="A precedents.md to follow (default: the `precedents` setting): applicable precedents "
    "are linked; the top one gives the reason precedent:PREC-NNN, or precedent_conflict:PREC-NNN "
    "where the stricter verdict wins. A precedent never loosens the verdict.",
)
@click.option(
    "--facts",
    "facts",
    type=FILE,
    help="A YAML or JSON mapping of the dispute's fields to match precedents against "
    "(default: the computed judgment's own front matter, which has no domain/tier/mode: pass "
    "--facts for precedents scoped by domain, tier or mode, or whose next_check reads fields).",
)
@_templates_option
@click.option(
    "--check",
    "check_path",
    type=FILE,
    help="Validate this judgment (schema, every evidence_ref resolves); write nothing, "
    "exit by its verdict: APPROVE 0, DENY 1, DEFERRED 3.",
)
@click.pass_context
def judgment(
    ctx: click.Context,
    duel_out: Path | None,
    invariants_out: Path | None,
    to_path: Path | None,
    next_step: str | None,
    evidence_files: tuple[Path, ...],
    precedents: Path | None,
    facts: Path | None,
    templates_dir: Path | None,
    check_path: Path | None,
) -> None:
    """Decide over the duel and the invariants and write judgment.md (the arbiter, no votes).

    Verdict DENY if a case FAILed or an invariant failed, DEFERRED if a case was deferred,
    APPROVE otherwise; with --precedents, an applicable precedent may make it stricter.
    Exit 0 when the judgment was written, whatever its verdict; with --check, exit by the
    verdict of the judgment checked.
    """
    if ctx.invoked_subcommand is not None:
        return
    from tribunal.paths import find_root

    root = find_root()
    if check_path is not None:
        ctx.exit(_check(check_path, root))
    missing = [
        flag
        for flag, value in (
            ("--duel-out", duel_out),
            ("--invariants-out", invariants_out),
            ("--to", to_path),
        )
        if value is None
    ]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)} (or give --check FILE)")
    assert duel_out is not None and invariants_out is not None and to_path is not None
    if facts is not None and precedents is None:
        raise click.UsageError("--facts needs --precedents (or the `precedents` setting)")

    from tribunal.paths import display_path
    from tribunal.workflows.judgment import JudgmentRequest
    from tribunal.workflows.judgment import judgment as decide

    request = JudgmentRequest(
        duel_out=duel_out,
        invariants_out=invariants_out,
        to=to_path,
        root=root,
        evidence=evidence_files,
        precedents=precedents,
        facts=facts,
        next_step=next_step,
        templates=templates_dir,
    )
    composed = decide(request)
    for item in composed.not_applied:  # never dropped in silence (listed in the body too)
        click.echo(f"judgment: precedent not applied: {item}", err=True)
    click.echo(f"judgment: wrote {display_path(to_path, root)}", err=True)
    ctx.exit(ExitCode.OK)


def _check(path: Path, root: Path) -> ExitCode:
    from tribunal.workflows.judgment_check import CheckRequest, check

    checked = check(CheckRequest(path, root))
    click.echo(f"{checked.label}: {checked.verdict} {checked.reason}", err=True)
    return for_verdict(checked.verdict)


@judgment.command("record")
@click.argument("source", type=FILE)
@click.option(
    "--dir",
    "directory",
    type=click.Path(path_type=Path, file_okay=False),
    help="Directory to file it in (default: judgments/ at the repository root).",
)
@click.pass_context
def record(ctx: click.Context, source: Path, directory: Path | None) -> None:
    """File a scratch judgment as <dir>/<stem>.judgment.md, never overwriting; print the path.

    The stem is <session_id>-<spec_id> when both are present, else the run_id, else a slug of
    the reason; a numeric suffix is added when the name is taken. The same judgment filed again
    prints where it already is and writes nothing.
    """
    from tribunal.paths import display_path, find_root
    from tribunal.workflows.judgment_record import RecordRequest
    from tribunal.workflows.judgment_record import record as file_it

    root = find_root()
    filed = file_it(RecordRequest(source, root, directory))
    if filed.already:
        click.echo("judgment: already filed; nothing written", err=True)
    click.echo(display_path(filed.path, root))
    ctx.exit(ExitCode.OK)


@judgment.command("new")
@click.option("--verdict", required=True, type=click.Choice(VERDICTS), help="The verdict.")
@click.option(
    "--reason",
    required=True,
    help="A reason code (clean, violates_invariant:<metric>, ...) or manual:<slug>.",
)
@click.option(
    "--evidence-ref",
    "evidence_ref",
    required=True,
    multiple=True,
    help="A path (with #/json/pointer or :line) the verdict rests on; repeat for more.",
)
@click.option("--reason-text", "reason_text", help="The reason in a sentence.")
@click.option("--next-step", "next_step", help="The next checkable step.")
@click.option("--to", "to_path", required=True, type=FILE, help="Where to write judgment.md.")
@_templates_option
@click.pass_context
def new(
    ctx: click.Context,
    verdict: str,
    reason: str,
    evidence_ref: tuple[str, ...],
    reason_text: str | None,
    next_step: str | None,
    to_path: Path,
    templates_dir: Path | None,
) -> None:
    """Write a hand-made judgment (the capstone's kind), checking that its refs resolve."""
    from tribunal.enums import JudgmentVerdict
    from tribunal.paths import display_path, find_root
    from tribunal.workflows.judgment_new import NewJudgmentRequest, new_judgment

    root = find_root()
    request = NewJudgmentRequest(
        verdict=JudgmentVerdict(verdict),
        reason=reason,
        evidence_ref=evidence_ref,
        to=to_path,
        root=root,
        reason_text=reason_text,
        next_step=next_step,
        templates=templates_dir,
    )
    new_judgment(request)
    click.echo(f"judgment: wrote {display_path(to_path, root)}", err=True)
    ctx.exit(ExitCode.OK)
