"""A fast yes for bulk input: a schema compiled into plain Python checks (X-4).

jsonschema stays the authority: `quick_validator(schema)` returns a function that answers True
only when the value is certainly valid under the keywords it understands, and False otherwise
("not sure"). Callers run jsonschema whenever the quick answer is False — for the verdict and
for the error message — so the quick check can never let an invalid document through as long as
its True is sound (a property test holds it to that). A schema with a keyword the quick check does
not know compiles to a function that is never sure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "$comment", "examples"})
_TYPES: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


def quick_validator(schema: Any) -> Check:
    """A function that is True only for values certainly valid against `schema`."""
    try:
        return _compile(schema)
    except _Unsupported:
        return lambda value: False


class _Unsupported(Exception):
    pass


def _compile(schema: Any) -> Check:
    if schema is True or schema == {}:
        return lambda value: True
    if not isinstance(schema, dict):
        raise _Unsupported
    checks = tuple(
        _keyword(keyword, argument, schema)
        for keyword, argument in schema.items()
        if keyword not in _ANNOTATIONS
    )
    if len(checks) == 1:
        return checks[0]

    def every(value: Any) -> bool:
        for check in checks:  # noqa: SIM110 - a plain loop is faster than all() here (X-4)
            if not check(value):
                return False
        return True

    return every


def _not_a_number(value: Any) -> bool:
    """Bounds apply to numbers only (booleans are not numbers); NaN fails every comparison."""
    return not isinstance(value, int | float) or isinstance(value, bool)


def _keyword(keyword: str, argument: Any, schema: dict[str, Any]) -> Check:
    if keyword == "type":
        names = [argument] if isinstance(argument, str) else list(argument)
        if not all(name in _TYPES for name in names):
            raise _Unsupported
        tests = [_TYPES[name] for name in names]
        if len(tests) == 1:
            return tests[0]
        return lambda v: any(test(v) for test in tests)
    if keyword == "enum":
        if not all(isinstance(member, str) for member in argument):
            raise _Unsupported
        members = frozenset(argument)
        return lambda v: isinstance(v, str) and v in members
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = argument
        compare: Callable[[Any], bool] = {
            "minimum": lambda v: v >= bound,
            "maximum": lambda v: v <= bound,
            "exclusiveMinimum": lambda v: v > bound,
            "exclusiveMaximum": lambda v: v < bound,
        }[keyword]
        return lambda v: _not_a_number(v) or compare(v)
    if keyword == "minLength":
        return lambda v: not isinstance(v, str) or len(v) >= argument
    if keyword == "pattern":
        pattern = re.compile(argument)
        return lambda v: not isinstance(v, str) or pattern.search(v) is not None
    if keyword == "required":
        required = tuple(argument)
        return lambda v: not isinstance(v, dict) or all(name in v for name in required)
    if keyword == "minItems":
        return lambda v: not isinstance(v, list) or len(v) >= argument
    if keyword == "items":
        item = _compile(argument)
        return lambda v: not isinstance(v, list) or all(item(element) for element in v)
    if keyword == "properties":
        properties = {name: _compile(sub) for name, sub in argument.items()}

        def check_properties(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            for name, check in properties.items():  # noqa: SIM110 - speed, as above
                if name in v and not check(v[name]):
                    return False
            return True

        return check_properties
    if keyword == "additionalProperties":
        if argument is not False or "patternProperties" in schema:
            raise _Unsupported
        known = frozenset(schema.get("properties", {}))
        return lambda v: (
            not isinstance(v, dict) or all(isinstance(name, str) and name in known for name in v)
        )
    raise _Unsupported
