"""L-1, L-7: the strict verdict schema a seat sends when its rung asks for a schema form.

A strict derivative of the V-1 schema, built per seat: every property required, no additional
properties, findings and `checked` entries as objects only (no string form), `verdict` exactly
pass or refuse, the seated lens a one-value enum, and `location` held by an anchored `pattern`
to the `path:line` citations the envelope can back. Anything valid against it is a V-1 verdict
for that lens (a property test holds this), so the schema only narrows what V-1 accepts. A
schema sent is not a schema obeyed: every reply is still read and checked (V-2..V-4).

`checked` is required as a property but may be empty: V-1 makes `checked` optional and V-3
counts a bare pass (low information, never the only evidence). Forcing an entry would make the
decoder fabricate a citation — small models then copy the nearest example — so the schema asks
for what V-1 asks, and the prompt asks for `checked` entries (E-5). `checked` comes before
`findings`, and both before `verdict`: the decoder writes what it looked at before it judges.

Line numbers. A digit pattern (`[1-9][0-9]*`) admits lines that do not exist; an alternation of
every line number grows the grammar with the file. Each file's lines are instead written as the
exact range 1..N in digit classes (`[1-9]|[1-9][0-9]|1[0-4][0-9]|15[0-3]` for 153 lines): it
admits exactly the lines V-4 counts, and its size grows with the number of digits, not lines.

Paths. Patterns never hold a backslash (llama.cpp's grammar builder fails on one, and its
server can crash): a regex character is written as a one-character class (`.` as `[.]`, `[` as
`[[]`). The three no class can hold without a backslash (`]`, `^`, `\\`) are written `.`: the
pattern then admits any character in that one place (`pages/[id].tsx` stays citable), and V-4
marks a path that differs there `outside_envelope`. A path a JSON string cannot hold as it is
(`"`, control characters), or one V-4 would not read back from `path:1` (a `:` before a digit,
surrounding spaces), is left out: its file cannot be cited under a schema form. With no citable
file at all, `location` is any non-empty string (V-4 still marks it).

Dialects. OpenAI's strict mode takes `pattern` but not `minLength`; llama.cpp's grammar writes a
patterned string without JSON escaping (a `"` in a claim would end it early) but a `minLength`
one with it. So a non-empty string is `pattern: "^.+$"` for OpenAI structured outputs and
`minLength: 1` for grammar servers (llama.cpp, Ollama) and Anthropic's tool input.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from tribunal.enums import CitationStatus, ResponseFormat, Severity, Transport
from tribunal.jury.citations import CitationSources

SCHEMA_NAME = "verdict"  # OpenAI's json_schema `name`, Anthropic's tool name
# Characters a pattern writes as a one-character class: every character ECMA-262 and Python
# regexes give a meaning outside a class, except the three no class can hold without `\`.
_CLASSED = frozenset(".*+?()[{}|$")
_ANY = frozenset("]^\\")  # no class holds these without a backslash: `.` stands for them
_UNCITABLE = frozenset('"')  # a JSON string cannot hold it as it is


class SchemaDialect(Enum):
    """The keywords a server's structured output honours (see the module docstring)."""

    OPENAI_STRICT = "openai_strict"  # pattern, no minLength
    GRAMMAR = "grammar"  # llama.cpp, Ollama, Anthropic tool input: minLength


def schema_dialect(transport: Transport | str, form: ResponseFormat) -> SchemaDialect:
    """The dialect the strict schema is written in for a rung of `transport` sending `form`:
    OpenAI structured outputs (`openai` + `json_schema`), else a grammar server's."""
    if transport == Transport.OPENAI and form is ResponseFormat.JSON_SCHEMA:
        return SchemaDialect.OPENAI_STRICT
    return SchemaDialect.GRAMMAR


def strict_verdict_schema(
    lens: str,
    envelope: Mapping[str, str] | None,
    dialect: SchemaDialect = SchemaDialect.GRAMMAR,
    *,
    example: tuple[str, int] | None = None,
) -> dict[str, Any]:
    """The strict verdict schema of a seat of `lens` over `envelope` (path -> the text the
    juror was shown; None: no envelope, `location` any non-empty string); `example` is the
    output protocol's example citation (path, line), which the location pattern leaves out.
    Returns a new JSON Schema object; raises nothing."""
    text = non_empty_text(dialect)
    cited = {
        "location": location_schema(envelope, dialect, example=example),
        "evidence": {"type": "string"},
        "claim": text,
    }
    finding = {
        **cited,
        "severity": {"type": "string", "enum": [severity.value for severity in Severity]},
    }
    return strict_object(
        {
            "lens": {"type": "string", "enum": [lens]},
            "checked": {"type": "array", "items": strict_object(cited)},
            "findings": {"type": "array", "items": strict_object(finding)},
            "verdict": {"type": "string", "enum": ["pass", "refuse"]},
        }
    )


def location_schema(
    envelope: Mapping[str, str] | None,
    dialect: SchemaDialect = SchemaDialect.GRAMMAR,
    *,
    example: tuple[str, int] | None = None,
) -> dict[str, Any]:
    """The schema of a `location` citing `envelope`: a string held by `location_pattern` (the
    example's line left out), or any non-empty string when no file can be cited (or there is
    no envelope)."""
    pattern = location_pattern(envelope or {}, example=example)
    if pattern is None:
        return non_empty_text(dialect)
    return {"type": "string", "pattern": pattern}


def location_pattern(
    envelope: Mapping[str, str], *, example: tuple[str, int] | None = None
) -> str | None:
    """The anchored pattern admitting exactly `path:line` for every citable file of `envelope`
    and every line it has (V-4's count) — but the example's line (`example`: path, line), or
    None when no file can be cited.

    E-5: small models copy the protocol's example citation (a live 0.5B juror cited its line in
    every seat), and a copy never counts; leaving that line out of the grammar makes a juror
    under a schema form cite a line of its own choosing instead. The line is one no review
    needs (the protocol picks an import or another plain line of a test file)."""
    choices = []
    for path, text in envelope.items():
        count = len(text.splitlines())  # V-4: the lines a citation may name
        literal = path_literal(path)
        if literal is None or count == 0:
            continue
        skip = example[1] if example is not None and example[0] == path else None
        lines = line_range(count) if skip is None else lines_except(count, skip)
        if lines is not None:
            choices.append(f"{literal}:({lines})")
    if not choices:
        return None
    return f"^({'|'.join(choices)})$"


def path_literal(path: str) -> str | None:
    """`path` as a pattern with no backslash that matches it — exactly, but for `.` in the place
    of `]`, `^` or `\\`; None when a JSON string cannot hold the path as it is (a `"`, a
    control character) or V-4 would not read `path:1` as a line of it."""
    if not path or any(c in _UNCITABLE or ord(c) < 0x20 or ord(c) == 0x7F for c in path):
        return None
    # V-4 is the judge of a location: a path it does not read back from `path:1` (a `:` before
    # a digit, surrounding spaces) could only ever be cited as some other file, or none.
    if CitationSources({path: "\n"}).mark(f"{path}:1", None).status is not CitationStatus.VERIFIED:
        return None
    return "".join(_character(c) for c in path)


def _character(c: str) -> str:
    if c in _ANY:
        return "."
    return f"[{c}]" if c in _CLASSED else c


def line_range(last: int) -> str:
    """An alternation (no anchors, no backslash) matching exactly the decimal numbers 1..`last`
    written without leading zeros. Raises ValueError when `last` < 1."""
    if last < 1:
        raise ValueError(f"no line range up to {last}")
    digits = str(last)
    shorter = [_digit_run(length) for length in range(1, len(digits))]
    return "|".join([*shorter, *_up_to(digits, first=True)])


def lines_except(last: int, skip: int) -> str | None:
    """An alternation (no anchors, no backslash) matching exactly the numbers 1..`last` but
    `skip`, or None when no number is left."""
    parts = [*([line_range(skip - 1)] if skip > 1 else []), *number_range(skip + 1, last)]
    return "|".join(parts) if parts else None


def number_range(low: int, high: int) -> list[str]:
    """Alternatives (no anchors, no backslash) matching exactly the numbers `low`..`high`
    (both at least 1) written without leading zeros; none when `low` > `high`."""
    alternatives: list[str] = []
    for length in range(len(str(low)), len(str(high)) + 1):
        first, last = max(low, 10 ** (length - 1)), min(high, 10**length - 1)
        if first <= last:
            alternatives += _same_length(str(first), str(last))
    return alternatives


def _same_length(low: str, high: str) -> list[str]:
    """Alternatives matching every digit string from `low` to `high` (of one length)."""
    if len(low) == 1:
        return [_digit_class(int(low), int(high))]
    if low[0] == high[0]:
        return [low[0] + _group(_same_length(low[1:], high[1:]))]
    rest = len(low) - 1
    parts = [low[0] + _group(_same_length(low[1:], "9" * rest))]
    if int(high[0]) - int(low[0]) > 1:
        parts.append(_digit_class(int(low[0]) + 1, int(high[0]) - 1) + "[0-9]" * rest)
    parts.append(high[0] + _group(_same_length("0" * rest, high[1:])))
    return parts


def _group(alternatives: list[str]) -> str:
    return alternatives[0] if len(alternatives) == 1 else f"({'|'.join(alternatives)})"


def _digit_run(length: int) -> str:
    """Every number of exactly `length` digits (no leading zero)."""
    return "[1-9]" + "[0-9]" * (length - 1)


def _up_to(digits: str, *, first: bool) -> list[str]:
    """Alternatives matching every string of len(digits) digits that is <= `digits` (the first
    digit at least 1 when `first`)."""
    low = 1 if first else 0
    head, rest = int(digits[0]), digits[1:]
    if not rest:
        return [_digit_class(low, head)]
    alternatives = []
    if head - 1 >= low:  # a smaller leading digit: any digits after it
        alternatives.append(_digit_class(low, head - 1) + "[0-9]" * len(rest))
    tails = _up_to(rest, first=False)
    tail = tails[0] if len(tails) == 1 else f"({'|'.join(tails)})"
    alternatives.append(f"{head}{tail}")
    return alternatives


def _digit_class(low: int, high: int) -> str:
    return str(low) if low == high else f"[{low}-{high}]"


def non_empty_text(dialect: SchemaDialect) -> dict[str, Any]:
    """A non-empty string in `dialect`'s keywords (see the module docstring). Returns a new
    schema object."""
    if dialect is SchemaDialect.OPENAI_STRICT:
        return {"type": "string", "pattern": "^.+$"}
    return {"type": "string", "minLength": 1}


def strict_object(properties: dict[str, Any]) -> dict[str, Any]:
    """A strict object: every property required, nothing else allowed."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
