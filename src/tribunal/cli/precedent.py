"""`tribunal precedent`: add, renumber and merge precedents.md entries (R-3, C-9)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from tribunal.cli.exit_codes import ExitCode

F = TypeVar("F", bound=Callable[..., Any])

FILE_HELP = (
    "The precedents file (default: the `precedents` setting, else precedents.md at the root)."
)


def _file_option(function: F) -> F:
    return click.option(
        "--file", "file", type=click.Path(dir_okay=False, path_type=Path), help=FILE_HELP
    )(function)


@click.group()
def precedent() -> None:
    """Recurring disputes kept in precedents.md."""


@precedent.command()
@click.option(
    "--from-judgment",
    "judgment",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The judgment.md whose verdict and evidence_ref the precedent takes.",
)
@click.option("--applies-to", required=True, help="Where the precedent applies (prose).")
@click.option("--next-check", required=True, help="When to re-examine it (prose).")
@click.option(
    "--next-check-when",
    metavar="EXPR",
    help="An expression over a later dispute's fields; next_check becomes {when, text}.",
)
@click.option("--domain", "domains", multiple=True, help="Scope: a domain (repeatable).")
@click.option("--tier", "tiers", multiple=True, help="Scope: a tier (repeatable).")
@click.option("--mode", "modes", multiple=True, help="Scope: a mode (repeatable).")
@click.option("--supersedes", metavar="ID", help="The precedent this one retires.")
@_file_option
def add(
    judgment: Path,
    applies_to: str,
    next_check: str,
    next_check_when: str | None,
    domains: tuple[str, ...],
    tiers: tuple[str, ...],
    modes: tuple[str, ...],
    supersedes: str | None,
    file: Path | None,
) -> None:
    """Append the next precedent (highest ID + 1) from a judgment and print its ID.

    Existing bytes of the file never change; concurrent adds get distinct IDs.
    """
    from tribunal.paths import find_root
    from tribunal.precedents.add import NewPrecedent
    from tribunal.workflows.precedent_add import AddRequest
    from tribunal.workflows.precedent_add import add as add_precedent

    new = NewPrecedent(
        applies_to=applies_to,
        next_check=next_check,
        next_check_when=next_check_when,
        scope={"domains": domains, "tiers": tiers, "modes": modes},
        supersedes=supersedes,
    )
    click.echo(add_precedent(AddRequest(judgment, new, find_root(), file)))


@precedent.command()
@click.argument("case_id", metavar="PREC-NNN")
@_file_option
def renumber(case_id: str, file: Path | None) -> None:
    """Give the later copy of a duplicated ID (after a merge) the next ID.

    Rewrites only that entry's heading and case_id, and lists the judgments citing the ID
    (they are not rewritten: check them).
    """
    from tribunal.paths import find_root
    from tribunal.workflows.precedent_renumber import RenumberRequest
    from tribunal.workflows.precedent_renumber import renumber as renumber_entry

    report = renumber_entry(RenumberRequest(case_id, find_root(), file))
    for change in report.renumbered:
        origin = f"added by commit {change.commit[:12]}" if change.commit else "not committed"
        click.echo(
            f"renumbered {change.old_id} -> {change.new_id} at {report.file}:{change.line} "
            f"({origin}); rewrote its heading and case_id only"
        )
    click.echo(f"kept {case_id} at {report.file}:{report.kept_line}")
    if report.citing:
        click.echo(f"judgments citing {case_id} (not rewritten; check which entry they mean):")
        for path in report.citing:
            click.echo(f"  {path}")
    else:
        click.echo(f"no judgment cites {case_id}")


@precedent.command("merge-file")
@click.argument("base", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("ours", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("theirs", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def merge_file(ctx: click.Context, base: Path, ours: Path, theirs: Path) -> None:
    """Git merge driver for precedents.md: git calls it as `%O %A %B`.

    Keeps every section either side appended, whole, ours first, writing the result to OURS.
    Any other edit is a conflict: markers are left in OURS and the exit is 1.
    """
    from tribunal.workflows.precedent_merge import MergeRequest, merge

    outcome = merge(MergeRequest(base, ours, theirs))
    if not outcome.clean:
        click.echo(f"tribunal: precedents.md conflict: {outcome.reason}", err=True)
        ctx.exit(ExitCode.NEGATIVE)


@precedent.command()
@click.argument("query")
@click.option("--domain", "domains", multiple=True, help="Only entries scoped to this domain.")
@click.option("--tier", "tiers", multiple=True, help="Only entries scoped to this tier.")
@click.option("--mode", "modes", multiple=True, help="Only entries scoped to this mode.")
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True, help="At most N."
)
@click.option("--all", "include_superseded", is_flag=True, help="Include superseded entries.")
@_file_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON list on stdout.")
def search(
    query: str,
    domains: tuple[str, ...],
    tiers: tuple[str, ...],
    modes: tuple[str, ...],
    limit: int,
    include_superseded: bool,
    file: Path | None,
    as_json: bool,
) -> None:
    """Find precedents holding every word of QUERY, best first (higher score is better).

    Scope filters keep entries that declare the scope and list the value (or `all`).
    Chinese and Japanese text is found by one- and two-character queries too.
    """
    from tribunal.paths import find_root
    from tribunal.precedents.search import SearchFilters
    from tribunal.workflows.precedent_search import SearchRequest
    from tribunal.workflows.precedent_search import search as find

    filters = SearchFilters(domains, tiers, modes, include_superseded)
    hits = find(SearchRequest(query, find_root(), filters, limit, file))
    if as_json:
        from tribunal.atomic import dump_json

        click.echo(dump_json([hit.to_json() for hit in hits]), nl=False)
        return
    if not hits:
        click.echo(f"no precedent matches {query!r}", err=True)
    for hit in hits:
        text = hit.applies_to if isinstance(hit.applies_to, str) else hit.applies_to.get("text", "")
        click.echo(f"{hit.case_id}  {hit.verdict:<8}  {hit.score:.4g}  {text}")


def _dispute_option(name: str, help_text: str) -> Callable[[F], F]:
    return click.option(
        f"--{name}", name, type=click.Path(dir_okay=False, path_type=Path), help=help_text
    )


@precedent.command()
@_dispute_option("case", "A counterexample case file: its given_snapshot, when_payload and "
                 "top-level scalars are the facts.")  # fmt: skip
@_dispute_option("judgment", "A judgment.md: its front matter is the facts.")
@_dispute_option("facts", "A YAML or JSON mapping of the dispute's fields.")
@_file_option
@click.option("--all", "include_superseded", is_flag=True, help="Include superseded entries.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="At most N candidates (prose-scoped precedents ranked by text).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
def match(
    case: Path | None,
    judgment: Path | None,
    facts: Path | None,
    file: Path | None,
    include_superseded: bool,
    limit: int,
    as_json: bool,
) -> None:
    """List the precedents a later dispute falls under (a query, not a verdict: exit 0).

    Give exactly one of --case, --judgment, --facts. A precedent applies when its
    domains/tiers/modes hold the dispute's domain/tier/mode (`all` matches anything) and its
    next_check is not triggered; it is due for re-examination when next_check.when is true,
    cannot be evaluated when the condition reads a field the dispute lacks, and its scope is
    unknown when the dispute lacks a scope key. Precedents scoped only in prose are candidates,
    ranked by text, never applied. Order: DENY, DEFERRED, APPROVE, then the latest.
    """
    from tribunal.enums import DisputeSource
    from tribunal.paths import find_root
    from tribunal.workflows.precedent_match import MatchRequest
    from tribunal.workflows.precedent_match import match as place

    given = [(source, path) for source, path in ((DisputeSource.CASE, case),
             (DisputeSource.JUDGMENT, judgment), (DisputeSource.FACTS, facts))
             if path is not None]  # fmt: skip
    if len(given) != 1:
        raise click.UsageError("give exactly one of --case, --judgment, --facts")
    source, dispute = given[0]
    request = MatchRequest(source, dispute, find_root(), file, include_superseded, limit)
    result = place(request)
    if as_json:
        from tribunal.atomic import dump_json

        click.echo(dump_json(result.to_json()), nl=False)
        return
    from tribunal.precedents.match import listing

    click.echo(listing(result), nl=False)
