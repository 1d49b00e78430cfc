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
    APPROVE otherwise; with --precedents, an applicable precedent may make it stricter (R-4).
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

    from tribunal.cli.outputs import check_output_path, write_output_text
    from tribunal.evidence.collect import load_duel, load_evidence_file, load_invariants
    from tribunal.paths import display_path
    from tribunal.precedents.facts import facts_file
    from tribunal.records.filing import refuse_rewriting_a_record
    from tribunal.records.judgment import Following, JudgmentInputs, compose_judgment

    check_output_path(to_path, "--to")
    duel_label = display_path(duel_out, root)
    invariants_label = display_path(invariants_out, root)
    inputs = JudgmentInputs(
        duel=load_duel(duel_out, duel_label),
        invariants=load_invariants(invariants_out, invariants_label),
        extra=[
            load_evidence_file(path, display_path(path, root), root=root) for path in evidence_files
        ],
        duel_out=duel_label,
        invariants_out=invariants_label,
    )
    following = None
    if precedents is not None:
        dispute = None if facts is None else facts_file(facts, display_path(facts, root))
        following = Following(precedents, dispute)
    composed = compose_judgment(
        inputs, root=root, next_step=next_step, templates=templates_dir, following=following
    )
    refuse_rewriting_a_record(to_path, root, display_path(to_path, root))
    write_output_text(to_path, composed.text, "--to")
    for item in composed.not_applied:  # never dropped in silence (listed in the body too)
        click.echo(f"judgment: precedent not applied: {item}", err=True)
    click.echo(f"judgment: wrote {display_path(to_path, root)}", err=True)
    ctx.exit(ExitCode.OK)


def _check(path: Path, root: Path) -> ExitCode:
    from tribunal.enums import JudgmentVerdict
    from tribunal.paths import display_path
    from tribunal.records.judgment_check import check_judgment

    label = display_path(path, root)
    checked = check_judgment(path, label, root=root)
    verdict = JudgmentVerdict(checked.fields["verdict"])
    click.echo(f"{label}: {verdict} {checked.fields['reason']}", err=True)
    return for_verdict(verdict)


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
    the reason; a numeric suffix is added when the name is taken.
    """
    from tribunal.cli.outputs import output_errors
    from tribunal.paths import display_path, find_root
    from tribunal.records.filing import file_judgment, judgment_stem
    from tribunal.records.judgment_check import check_judgment

    root = find_root()
    checked = check_judgment(source, display_path(source, root), root=root)
    text = source.read_text(encoding="utf-8")
    into = directory or root / "judgments"
    with output_errors(into, "--dir"):
        target = file_judgment(text, into, judgment_stem(checked.fields))
    click.echo(display_path(target, root))
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
    from tribunal.cli.outputs import check_output_path, write_output_text
    from tribunal.enums import JudgmentVerdict
    from tribunal.paths import display_path, find_root
    from tribunal.records.filing import refuse_rewriting_a_record
    from tribunal.records.manual import manual_judgment_text

    check_output_path(to_path, "--to")
    root = find_root()
    text = manual_judgment_text(
        verdict=JudgmentVerdict(verdict),
        reason=reason,
        evidence_ref=list(evidence_ref),
        root=root,
        reason_text=reason_text,
        next_step=next_step,
        templates=templates_dir,
    )
    refuse_rewriting_a_record(to_path, root, display_path(to_path, root))
    write_output_text(to_path, text, "--to")
    click.echo(f"judgment: wrote {display_path(to_path, root)}", err=True)
    ctx.exit(ExitCode.OK)
