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
    """A checked Draft 2020-12 validator for the schema `name`."""
    from jsonschema import Draft202012Validator

    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def quick_validator_for(name: str) -> Any:
    """The quick check of the schema `name` (see `quickcheck`): True only for certainly valid
    values, so callers ask jsonschema (`validator_for`) whenever it says False."""
    from tribunal.schemas.quickcheck import quick_validator

    return quick_validator(load_schema(name))
