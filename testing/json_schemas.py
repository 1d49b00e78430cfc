"""Walking the strict JSON schemas a seat sends (a verdict's, a scorecard's) in tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema


def matches(schema: dict[str, Any], value: Any) -> bool:
    """True when `value` is valid against `schema` (JSON Schema 2020-12)."""
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema object in `schema`, itself included: properties, items and anyOf branches."""
    if isinstance(schema, dict):
        yield schema
        for item in schema.get("properties", {}).values():
            yield from subschemas(item)
        if "items" in schema:
            yield from subschemas(schema["items"])
        for branch in schema.get("anyOf", []):
            yield from subschemas(branch)


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
