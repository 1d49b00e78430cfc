"""The plain block YAML that precedents are written in, read without a YAML library (X-3).

An index rebuild reads 100,000 entries; PyYAML's constructor costs ~0.2 ms an entry, which alone
breaks the 15 s budget. Entries written by `tribunal precedent add` (and most written by hand)
use a small, unambiguous subset of block YAML:

    key: scalar
    key:
    - scalar            (or indented by two)
    key:
      key: scalar
      key:
      - scalar          (or indented by two more)

where a scalar is `"text"` (no `\\` or `"` inside), `'text'` (no `'` inside), or a plain scalar
that starts with a letter, `_` or `/` and is certainly a string: no `: `, no ` #`, no trailing
`:` or space, printable, and not a YAML 1.1 boolean or null word.

`plain_mapping` returns exactly what a YAML safe load returns for such text, and None for
anything else (a comment, a blank line, flow style, a block scalar, an anchor, a duplicate key,
any doubt), so the caller falls back to the YAML library. It may refuse more, never answer
differently: tests/records/test_plain_yaml.py holds it to `yaml.safe_load` with hypothesis.
"""

from __future__ import annotations

import re
from typing import Any

# Field names of entries and of their applies_to / next_check mappings: nothing else is
# read here, so a key can never resolve to anything but itself.
KEYS = frozenset(
    {"case_id", "verdict", "evidence_ref", "applies_to", "next_check", "supersedes"}
    | {"domains", "tiers", "modes", "text", "when"}
)
_TOP = re.compile(r"([a-z_]+):(?: (.*))?")
_NESTED = re.compile(r"  ([a-z_]+):(?: (.*))?")
_PLAIN = re.compile(r"[^\W\d/]|/")  # the first character of a plain scalar: a letter, _ or /
# YAML 1.1 (PyYAML) resolves these plain words to booleans or null.
_RESOLVED = frozenset(
    {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE"}
    | {"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~"}
)


def plain_mapping(text: str) -> dict[str, Any] | None:
    """The mapping `text` holds when it is in the plain subset (see the module doc), else None."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not all(line.isprintable() for line in lines):
        return None  # tabs, CR, NEL, line separators, control characters: the YAML library
    result: dict[str, Any] = {}
    index = 0
    while index < len(lines):
        match = _TOP.fullmatch(lines[index])
        if match is None or match[1] not in KEYS or match[1] in result:
            return None
        index += 1
        if match[2] is not None:
            value = scalar(match[2])
            if value is None:
                return None
            result[match[1]] = value
            continue
        items, index = _sequence(lines, index, ("- ", "  - "))
        if items:
            result[match[1]] = items
            continue
        nested, index = _nested(lines, index)
        if not nested:
            return None
        result[match[1]] = nested
    return result or None


def scalar(text: str) -> str | None:
    """The string a one-line scalar certainly denotes, or None when in doubt."""
    if text[:1] == '"':
        inner = text[1:-1]
        ok = len(text) >= 2 and text[-1] == '"' and '"' not in inner and "\\" not in inner
        return inner if ok else None
    if text[:1] == "'":
        inner = text[1:-1]
        return inner if len(text) >= 2 and text[-1] == "'" and "'" not in inner else None
    if (
        not _PLAIN.match(text)
        or ": " in text
        or " #" in text
        or text[-1] in ": "
        or text in _RESOLVED
    ):
        return None
    return text


def _sequence(lines: list[str], index: int, prefixes: tuple[str, ...]) -> tuple[list[str], int]:
    """Items of a block sequence of scalars starting at `index` (one indentation throughout)."""
    items: list[str] = []
    prefix = next((p for p in prefixes if index < len(lines) and lines[index].startswith(p)), None)
    if prefix is None:
        return items, index
    while index < len(lines) and lines[index].startswith(prefix):
        value = scalar(lines[index][len(prefix) :])
        if value is None:
            return [], len(lines) + 1  # stops the caller: not in the subset
        items.append(value)
        index += 1
    return items, index


def _nested(lines: list[str], index: int) -> tuple[dict[str, Any], int]:
    """A mapping indented by two, its values scalars or sequences of scalars."""
    nested: dict[str, Any] = {}
    while index < len(lines) and lines[index].startswith("  ") and lines[index][2:3] != "-":
        match = _NESTED.fullmatch(lines[index])
        if match is None or match[1] not in KEYS or match[1] in nested:
            return {}, index
        index += 1
        if match[2] is not None:
            value = scalar(match[2])
            if value is None:
                return {}, index
            nested[match[1]] = value
            continue
        items, index = _sequence(lines, index, ("  - ", "    - "))
        if not items:
            return {}, index
        nested[match[1]] = items
    return nested, index
