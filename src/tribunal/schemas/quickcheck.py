"""A fast yes for bulk input: a schema compiled into plain Python checks (X-4).

jsonschema stays the authority: `quick_validator(schema)` returns a function that answers True
only when the value is certainly valid under the keywords it understands, and False otherwise
("not sure"). Callers run jsonschema whenever the quick answer is False — for the verdict and
for the error message — so the quick check can never let an invalid document through as long as
its True is sound (property tests hold it to that). A sub-schema with a keyword the quick check
does not know compiles to a check that is never sure, so its parents are never sure of a value
that reaches it.

Speed (X-4): types are matched exactly (`type(v) is int`, so `True` is never an integer and
anything but the plain types the parsers produce is "not sure"), and each schema compiles to ONE
function per accepted type that tests all of that type's keywords, so checking a value is one or
two calls, not one per keyword.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$defs", "title", "description", "$comment", "examples", "default"}
)
# JSON Schema type names -> the exact Python types the JSON and YAML loaders produce for them.
# Exact types keep the answer sound: bool is not int here, and a float that happens to be
# integral (which jsonschema would call an integer) is merely "not sure".
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "null": (type(None),),
    "object": (dict,),
    "array": (list,),
    "number": (int, float),
    "integer": (int,),
}
_ALL_TYPES: tuple[type, ...] = (str, bool, type(None), dict, list, int, float)
_STRING_KEYWORDS = frozenset({"minLength", "maxLength", "pattern", "enum", "const"})
_NUMBER_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_OBJECT_KEYWORDS = frozenset(
    {"properties", "required", "additionalProperties", "propertyNames", "minProperties"}
)
_ARRAY_KEYWORDS = frozenset({"items", "minItems", "uniqueItems"})
_KNOWN = (
    _STRING_KEYWORDS
    | _NUMBER_KEYWORDS
    | _OBJECT_KEYWORDS
    | _ARRAY_KEYWORDS
    | {"type", "$ref", "if", "then", "else"}
)


def quick_validator(schema: Any) -> Check:
    """A function that is True only for values certainly valid against `schema`."""
    return _Compiler(schema).compile(schema)


def _yes(value: Any) -> bool:
    return True


def _never_sure(value: Any) -> bool:
    return False


class _Unsupported(Exception):
    pass


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.resolving: set[str] = set()

    def compile(self, schema: Any) -> Check:
        return self._schema(schema)

    def _schema(self, schema: Any) -> Check:
        """The check for `schema`; one with a keyword not modelled here is never sure."""
        try:
            return self._modelled(schema)
        except _Unsupported:
            return _never_sure

    def _modelled(self, schema: Any) -> Check:
        if schema is True or schema == {}:
            return _yes
        if not isinstance(schema, dict):
            raise _Unsupported
        keywords = {key: value for key, value in schema.items() if key not in _ANNOTATIONS}
        if not keywords.keys() <= _KNOWN:
            raise _Unsupported
        checks: list[Check] = []
        if keywords.keys() - {"$ref", "if", "then", "else"}:
            checks.append(self._typed(keywords))
        if "$ref" in keywords:
            checks.append(self._ref(keywords["$ref"]))
        if "if" in keywords:
            checks.append(self._conditional(keywords))
        if not checks:
            return _yes
        if len(checks) == 1:
            return checks[0]

        def every(value: Any) -> bool:
            for check in checks:  # noqa: SIM110 - a plain loop is faster than all() here (X-4)
                if not check(value):
                    return False
            return True

        return every

    def _ref(self, pointer: Any) -> Check:
        """A local `#/$defs/...` reference, compiled in place (a recursive one is never sure)."""
        if (
            not isinstance(pointer, str)
            or not pointer.startswith("#/")
            or pointer in self.resolving
        ):
            raise _Unsupported
        target = self.root
        for part in pointer[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                raise _Unsupported
            target = target[part]
        self.resolving.add(pointer)
        try:
            return self._modelled(target)
        finally:
            self.resolving.discard(pointer)

    def _conditional(self, keywords: dict[str, Any]) -> Check:
        """`if`/`then`/`else`: sound only when `if` is decided exactly, so it must be a bare
        `type` test, answered as jsonschema answers it for the plain types."""
        condition = keywords["if"]
        if not isinstance(condition, dict) or condition.keys() != {"type"}:
            raise _Unsupported
        names = condition["type"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(name in _TYPES for name in names):
            raise _Unsupported
        then = self._schema(keywords.get("then", True))
        otherwise = self._schema(keywords.get("else", True))

        def conditional(value: Any) -> bool:
            kind = type(value)
            if kind not in _ALL_TYPES:
                return False  # jsonschema's answer for other types is not modelled: not sure
            holds = any(_is_type(value, name) for name in names)
            return then(value) if holds else otherwise(value)

        return conditional

    def _typed(self, keywords: dict[str, Any]) -> Check:
        """The `type` keyword and every type-specific keyword, as one check per exact type
        (each with its own exact type test, so a single-type schema is a single call)."""
        if "type" in keywords:
            names = keywords["type"]
            names = [names] if isinstance(names, str) else names
            if not isinstance(names, list) or not all(name in _TYPES for name in names):
                raise _Unsupported
            allowed = tuple(dict.fromkeys(kind for name in names for kind in _TYPES[name]))
        else:
            allowed = _ALL_TYPES
        members = _string_members(keywords)
        if members is not None:
            allowed = tuple(kind for kind in allowed if kind is str)  # enum/const of strings
        numbers = tuple(kind for kind in allowed if kind is int or kind is float)
        table: dict[type, Check] = {}
        for kind in allowed:
            if kind is str:
                table[kind] = _string_check(keywords, members)
            elif kind is int or kind is float:
                table[kind] = _number_check(keywords, numbers)
            elif kind is dict:
                table[kind] = self._object_check(keywords)
            elif kind is list:
                table[kind] = self._array_check(keywords)
            elif kind is bool:
                table[kind] = _is_bool
            else:
                table[kind] = _is_null
        checks = set(table.values())
        if not checks:
            return _never_sure
        if len(checks) == 1:
            return checks.pop()  # e.g. `number`: one check for int and float

        def dispatch(value: Any) -> bool:
            check = table.get(type(value))
            return check is not None and check(value)

        return dispatch

    def _object_check(self, keywords: dict[str, Any]) -> Check:
        if not keywords.keys() & _OBJECT_KEYWORDS:
            return _is_object
        if "properties" in keywords and not isinstance(keywords["properties"], dict):
            raise _Unsupported
        properties = {
            name: self._schema(sub) for name, sub in keywords.get("properties", {}).items()
        }
        required = frozenset(keywords.get("required", ()))
        fewest = keywords.get("minProperties", 0)
        additional: Check | None = None  # None: a name outside `properties` is allowed as is
        if "additionalProperties" in keywords:
            argument = keywords["additionalProperties"]
            additional = _never_sure if argument is False else self._schema(argument)
        names = self._schema(keywords["propertyNames"]) if "propertyNames" in keywords else None
        if keywords.get("additionalProperties") is False and names is None:
            known = properties.keys()

            def check_closed_object(value: Any) -> bool:
                # every name among the declared ones (all strings) is one set test in C.
                if type(value) is not dict or len(value) < fewest:
                    return False
                keys = value.keys()
                if not keys >= required or not keys <= known:
                    return False
                for name, item in value.items():  # noqa: SIM110 - speed, as above
                    if not properties[name](item):
                        return False
                return True

            return check_closed_object

        def check_object(value: Any) -> bool:
            if type(value) is not dict or len(value) < fewest or not value.keys() >= required:
                return False
            for name, item in value.items():
                if type(name) is not str or (names is not None and not names(name)):
                    return False
                check = properties.get(name, additional)
                if check is not None and not check(item):
                    return False
            return True

        return check_object

    def _array_check(self, keywords: dict[str, Any]) -> Check:
        if not keywords.keys() & _ARRAY_KEYWORDS:
            return _is_array
        items = self._schema(keywords["items"]) if "items" in keywords else _yes
        fewest = keywords.get("minItems", 0)
        unique = keywords.get("uniqueItems", False)
        if type(unique) is not bool:
            raise _Unsupported

        def check_array(value: Any) -> bool:
            if type(value) is not list or len(value) < fewest:
                return False
            for item in value:
                if not items(item):
                    return False
            # uniqueItems: sure only for strings, where jsonschema's equality is Python's.
            return not unique or (
                all(type(item) is str for item in value) and len(set(value)) == len(value)
            )

        return check_array


def _is_bool(value: Any) -> bool:
    return value is True or value is False


def _is_null(value: Any) -> bool:
    return value is None


def _is_object(value: Any) -> bool:
    return type(value) is dict


def _is_array(value: Any) -> bool:
    return type(value) is list


def _is_string(value: Any) -> bool:
    return type(value) is str


def _is_type(value: Any, name: str) -> bool:
    """jsonschema's type test for a value of one of the plain types (2020-12 semantics)."""
    if name == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    return type(value) in _TYPES[name]


def _string_members(keywords: dict[str, Any]) -> frozenset[str] | None:
    """The allowed strings of `enum`/`const`, or None when neither is given."""
    members: frozenset[str] | None = None
    if "enum" in keywords:
        if not isinstance(keywords["enum"], list) or not all(
            isinstance(member, str) for member in keywords["enum"]
        ):
            raise _Unsupported
        members = frozenset(keywords["enum"])
    if "const" in keywords:
        if not isinstance(keywords["const"], str):
            raise _Unsupported
        const = frozenset({keywords["const"]})
        members = const if members is None else members & const
    return members


def _string_check(keywords: dict[str, Any], members: frozenset[str] | None) -> Check:
    if not keywords.keys() & _STRING_KEYWORDS:
        return _is_string
    if members is not None and keywords.keys() & _STRING_KEYWORDS <= {"enum", "const"}:
        return lambda value: type(value) is str and value in members
    shortest = keywords.get("minLength", 0)
    longest = keywords.get("maxLength")
    pattern = re.compile(keywords["pattern"]) if "pattern" in keywords else None

    def check_string(value: Any) -> bool:
        if type(value) is not str or len(value) < shortest:
            return False
        if longest is not None and len(value) > longest:
            return False
        if members is not None and value not in members:
            return False
        return pattern is None or pattern.search(value) is not None

    return check_string


def _number_check(keywords: dict[str, Any], kinds: tuple[type, ...]) -> Check:
    """Numbers of the exact types `kinds` (int, float) within the bounds given."""
    for keyword in _NUMBER_KEYWORDS & keywords.keys():
        if type(keywords[keyword]) not in (int, float):
            raise _Unsupported
    # An absent bound is infinite: then only the infinities themselves are "not sure", and NaN
    # fails every comparison, so it is never sure.
    low = keywords.get("minimum", -math.inf)
    high = keywords.get("maximum", math.inf)
    above = keywords.get("exclusiveMinimum", -math.inf)
    below = keywords.get("exclusiveMaximum", math.inf)
    if kinds == (int,):
        return lambda value: type(value) is int and low <= value <= high and above < value < below
    return lambda value: type(value) in kinds and low <= value <= high and above < value < below
