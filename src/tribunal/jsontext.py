"""C-6: the one JSON text of every output — `json.dumps(indent=2, ensure_ascii=False)` — fast.

The stdlib encodes with indentation in pure Python, through generators (X-4: a fifth of a
10,000-case duel). `indented_json` writes the very same text with plain loops over the plain
types (`dict` with `str` keys, `list`, `tuple`, `str`, `int`, `float`, `bool`, `None`), strings
through the stdlib's own C string encoder; anything else — a subclass, another key type, a
cycle, nesting too deep for plain recursion — is handed to `json.dumps` whole, so the text is
always the stdlib's (a property test holds the two to byte identity).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C string encoder when there is one
from typing import Any

_INDENT = "  "
_INFINITY = float("inf")


class _NotPlain(Exception):
    """A value the fast writer leaves to the stdlib."""


def indented_json(document: Any) -> str:
    """`json.dumps(document, indent=2, ensure_ascii=False)`, byte for byte."""
    out: list[str] = []
    try:
        _value(document, out, "\n")
    except (_NotPlain, RecursionError):
        return json.dumps(document, indent=2, ensure_ascii=False)
    return "".join(out)


def _scalar(value: Any) -> str:
    """A scalar as the stdlib writes it; raises _NotPlain for anything that is not one."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is float:
        if value != value:
            return "NaN"
        if value == _INFINITY:
            return "Infinity"
        if value == -_INFINITY:
            return "-Infinity"
        return float.__repr__(value)
    raise _NotPlain


def _value(value: Any, out: list[str], indent: str) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = indent + _INDENT
        separator = "{" + inner
        comma = "," + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain  # the stdlib turns other keys into strings: leave it to it
            item_kind = type(item)
            # The common scalars inline, key and value in one piece; the rest by _scalar.
            if item_kind is str:
                out.append(f"{separator}{encode_basestring(key)}: {encode_basestring(item)}")
            elif item_kind is int:
                out.append(f"{separator}{encode_basestring(key)}: {int.__repr__(item)}")
            elif item_kind is dict or item_kind is list or item_kind is tuple:
                out.append(f"{separator}{encode_basestring(key)}: ")
                _value(item, out, inner)
            else:
                out.append(f"{separator}{encode_basestring(key)}: {_scalar(item)}")
            separator = comma
        out.append(indent + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = indent + _INDENT
        separator = "[" + inner
        comma = "," + inner
        for item in value:
            item_kind = type(item)
            if item_kind is str:
                out.append(separator + encode_basestring(item))
            elif item_kind is dict or item_kind is list or item_kind is tuple:
                out.append(separator)
                _value(item, out, inner)
            else:
                out.append(separator + _scalar(item))
            separator = comma
        out.append(indent + "]")
    else:
        out.append(_scalar(value))


def printable(value: Any) -> Any:
    """T-5: integral floats print as integers (`0.0` -> `0`); anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
