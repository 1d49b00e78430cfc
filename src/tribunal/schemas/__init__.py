"""JSON Schemas for every file format, shipped as package data (C-7, STYLE 2)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema `<name>.schema.json` shipped in this package."""
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def validator_for(name: str) -> Any:
    """A checked validator (`validator_class`) for the schema `name`."""
    schema = load_schema(name)
    cls = validator_class()
    cls.check_schema(schema)
    return cls(schema)


def schema_validator(schema: dict[str, Any]) -> Any:
    """A validator (`validator_class`) for a schema built in code (a spec's case fields)."""
    return validator_class()(schema)


@cache
def validator_class() -> Any:
    """Draft 2020-12 with one rule added (C-3): a value of type `number` is finite.

    JSON and YAML parsers accept NaN and the infinities, and jsonschema takes them for numbers:
    a NaN would pass every bound (it fails no comparison), so a timeout, threshold, cost or
    weight of NaN would be accepted and silently mean nothing. Every input read against a
    schema refuses them here, with the one message "not a finite number"."""
    import math

    from jsonschema import Draft202012Validator, ValidationError, validators

    checked = Draft202012Validator.VALIDATORS["type"]

    def finite_type(validator: Any, types: Any, instance: Any, schema: Any) -> Any:
        names = [types] if isinstance(types, str) else types
        if (
            type(instance) is float
            and not math.isfinite(instance)
            and ("number" in names or "integer" in names)
        ):
            yield ValidationError(f"not a finite number: {instance!r}")
            return
        yield from checked(validator, types, instance, schema)

    return validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, validators={"type": finite_type}
    )


@cache
def quick_validator_for(name: str) -> Any:
    """The quick check of the schema `name` (see `quickcheck`): True only for certainly valid
    values, so callers ask jsonschema (`validator_for`) whenever it says False."""
    from tribunal.schemas.quickcheck import quick_validator

    return quick_validator(load_schema(name))
