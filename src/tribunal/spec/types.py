"""T-2: the type language — a closed table of words, each mapped to a JSON Schema fragment.

Values are checked with jsonschema against these fragments, so `true` is never an integer and
`1.5` is never an `integer_min_0`. The words are the whole language: anything else is bad input.
"""

from __future__ import annotations

import re
from typing import Any

TYPE_WORDS: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "boolean": {"type": "boolean"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "integer_min_0": {"type": "integer", "minimum": 0},
    "integer_min_1": {"type": "integer", "minimum": 1},
    "number_positive": {"type": "number", "exclusiveMinimum": 0},
    "number_min_0": {"type": "number", "minimum": 0},
}
RANGE = re.compile(r"integer_range_(?P<low>-?\d+)_(?P<high>-?\d+)")
ENUM_PREFIX = "enum:"
_LONGEST_BOUND = 19  # characters of a range bound: beyond every value an expression can hold
DESCRIBED = (
    "string, boolean, integer, number, integer_min_0, integer_min_1, number_positive, "
    "number_min_0, integer_range_A_B, enum:a,b,..."
)


def type_schema(word: str) -> dict[str, Any]:
    """The JSON Schema fragment for the type word `word`.

    Raises ValueError (with a message for the user) when `word` is not in the language.
    """
    if word in TYPE_WORDS:
        return dict(TYPE_WORDS[word])
    match = RANGE.fullmatch(word)
    if match is not None:
        if max(len(match["low"]), len(match["high"])) > _LONGEST_BOUND:
            raise ValueError(f"type {word[:40]!r}...: a bound longer than {_LONGEST_BOUND} digits")
        low, high = int(match["low"]), int(match["high"])
        if low > high:
            raise ValueError(f"type {word!r}: the range is empty ({low} > {high})")
        return {"type": "integer", "minimum": low, "maximum": high}
    if word.startswith(ENUM_PREFIX):
        values = [value.strip() for value in word[len(ENUM_PREFIX) :].split(",")]
        if not all(values):
            raise ValueError(f"type {word!r}: an enum value is empty")
        if len(set(values)) != len(values):
            raise ValueError(f"type {word!r}: an enum value is repeated")
        return {"type": "string", "enum": values}
    raise ValueError(f"unknown type {word!r} (the type language is: {DESCRIBED})")
