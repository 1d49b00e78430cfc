"""A precedent's `next_check.when` (R-2, R-4): a T-2 expression over a later dispute's fields.

The expression is compiled by the spec's evaluator (`tribunal.spec.compile_expression`) — the
same whitelist, bounds and messages as a spec's expressions — when a precedent is added, when
`records check` reads precedents.md, and when `precedent match` loads the entries. A bad
expression is bad input at add time (nothing appended) and a `file:line` problem in the check.
"""

from __future__ import annotations

from functools import lru_cache

from tribunal.errors import BadInput
from tribunal.precedents.entry import Precedent, PrecedentsFile
from tribunal.spec import Expression, compile_expression

WHEN_FIELD = "next_check.when"


def compile_when(
    text: str, *, source: str | None = None, line: int | None = None, field: str = WHEN_FIELD
) -> Expression:
    """The compiled `when` expression. Raises BadInput naming `source`, `line` and `field`."""
    compiled = _compiled(text)
    if isinstance(compiled, BadInput):
        raise BadInput(compiled.message, source=source, line=line, field=field)
    return compiled


def entry_when(entry: Precedent, label: str) -> Expression | None:
    """The compiled `next_check.when` of `entry`, or None when its next_check is prose only.

    Raises BadInput naming the file, the line of `when` (where the parse recorded it) and the
    field.
    """
    text = entry.next_check_when
    if text is None:
        return None
    return compile_when(text, source=label, line=entry.line_of(WHEN_FIELD))


def when_problems(parsed: PrecedentsFile) -> list[BadInput]:
    """R-6: one problem per entry whose `next_check.when` does not compile."""
    problems: list[BadInput] = []
    for entry in parsed.entries:
        try:
            entry_when(entry, parsed.label)
        except BadInput as error:
            problems.append(error)
    return problems


@lru_cache(maxsize=4096)
def _compiled(text: str) -> Expression | BadInput:
    # Many entries share a few conditions: compile each distinct text once per process.
    try:
        return compile_expression(text)
    except BadInput as error:
        return error
