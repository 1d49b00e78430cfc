"""The facts of a later dispute (R-4): what `precedent match` and `judgment --facts` look up.

- a facts file is a YAML or JSON mapping of field names to values;
- a case file's facts are its top-level scalars (`counterexample_id`, `assertion_id`, ...), then
  its `given_snapshot`, then its `when_payload` (a later one wins a name clash: the payload is
  what the dispute is about);
- a judgment's facts are its front matter.

Values are kept as loaded, except dates and times (YAML), which become ISO text so the facts
print as JSON (C-7).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import Document, load_any, validate
from tribunal.errors import BadInput
from tribunal.frontmatter import read_judgment

SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class Facts:
    """A dispute's fields, and the file they came from (its C-8 label)."""

    label: str
    values: dict[str, Any]

    def strings(self) -> list[str]:
        """The string values, top level and inside top-level lists, in field order: the text a
        prose-scoped precedent is ranked against (R-4)."""
        found: list[str] = []
        for value in self.values.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item.strip():
                    found.append(item)
        return found


def facts_file(path: Path, label: str) -> Facts:
    """The facts of a YAML or JSON mapping. Raises BadInput when it is not one."""
    document = load_any(path, label)
    return Facts(label, _fields(document, document.data, ()))


def case_facts(path: Path, label: str) -> Facts:
    """The facts of a counterexample case file (T-3 shape, checked against the `case` schema).

    Raises BadInput for a file that is not a case.
    """
    document = load_any(path, label)
    if not isinstance(document.data, dict):
        raise document.bad("a case file is a mapping")
    validate(document, "case")
    data = document.data
    scalars = {key: value for key, value in data.items() if isinstance(value, SCALARS)}
    values = {
        **_fields(document, scalars, ()),
        **_fields(document, data["given_snapshot"], ("given_snapshot",)),
        **_fields(document, data["when_payload"], ("when_payload",)),
    }
    return Facts(label, values)


def judgment_facts(path: Path, label: str) -> Facts:
    """The facts of a judgment: its front matter (validated). Raises BadInput otherwise."""
    judgment = read_judgment(path, label)
    return Facts(label, _fields(judgment.front, judgment.fields, ()))


def _fields(document: Document, data: Any, where: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        message = "facts must be a mapping of field names to values"
        if not where:  # the whole document: its first line
            raise BadInput(message, source=document.label, line=1)
        raise document.bad(message, where)
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str):
            raise document.bad(f"field name {key!r} is not text", where)
        fields[key] = _plain(value)
    return fields


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
