"""T-2: loading a spec file — schema check, type words, and every expression compiled once.

Everything that can be wrong with a spec is found here, at load time, and raised as one
`BadInput` naming the spec file, the line and the key (C-3): unknown type words, defaults of the
wrong type, names declared twice, expressions outside the evaluator's whitelist.
"""

from __future__ import annotations

import keyword
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tribunal.documents import Document, format_field, load_any, validate
from tribunal.spec.expression import Expression, compile_expression
from tribunal.spec.model import (
    BOUND_BY_DIAGNOSTICS,
    Derivation,
    Diagnostic,
    FieldDecl,
    Spec,
)
from tribunal.spec.types import type_schema


def load_spec(path: Path, label: str | None = None) -> Spec:
    """Load, check and compile the spec at `path`; `label` is its C-8 display path.

    Returns the Spec; raises BadInput naming file, line and key for anything wrong in it.
    """
    document = load_any(path, label)
    validate(document, "spec")
    data = document.data
    taken: dict[str, str] = {}  # name -> where it was first bound, for clear duplicate errors
    given = _fields(document, ("given",), taken)
    payload = _fields(document, ("when", "payload"), taken)
    for name in BOUND_BY_DIAGNOSTICS:
        taken[name] = "diagnostics"
    derive = _derivations(document, ("then", "derive"), taken)
    diagnostics = _diagnostics(document)
    derive_after = _derivations(document, ("then", "derive_after"), taken)
    invariants = tuple(
        _expression(document, ("then", "invariants", index), text)
        for index, text in enumerate(data["then"]["invariants"])
    )
    return Spec(
        label=document.label,
        spec_id=data["spec_id"],
        scenario=data["scenario"],
        assertion_id=data["then"]["assertion_id"],
        rule=data["then"]["rule"],
        given=given,
        payload=payload,
        derive=derive,
        diagnostics=diagnostics,
        derive_after=derive_after,
        invariants=invariants,
        verdicts=dict(data["verdicts"]),
        next_steps=dict(data["next_steps"]),
        lines={key: line for key in data if (line := document.line_of((key,))) is not None},
    )


def _expression(document: Document, where: tuple[str | int, ...], text: Any) -> Expression:
    if isinstance(text, bool):
        text = "True" if text else "False"
    return compile_expression(
        str(text), source=document.label, line=document.line_of(where), field=format_field(where)
    )


def _claim(
    document: Document, where: Sequence[str | int], name: str, taken: dict[str, str]
) -> None:
    """One binding namespace: a field, a derive entry and a diagnostics name never share a name."""
    if keyword.iskeyword(name) or name in ("True", "False", "None"):
        raise document.bad(f"{name!r} is a reserved word and cannot be a name", where)
    if name in taken:
        raise document.bad(f"name {name!r} is already bound by {taken[name]}", where)
    taken[name] = format_field(where)


def _fields(
    document: Document, where: tuple[str, ...], taken: dict[str, str]
) -> tuple[FieldDecl, ...]:
    node: Any = document.data
    for key in where:
        node = node[key]
    fields: list[FieldDecl] = []
    for name, declaration in node.items():
        at = (*where, name)
        _claim(document, at, name, taken)
        if isinstance(declaration, str):
            word, options = declaration, {}
        else:
            word, options = declaration["type"], declaration
        try:
            schema = type_schema(word.strip())
        except ValueError as error:
            raise document.bad(str(error), at) from None
        modifiers = [key for key in ("required", "optional", "default") if key in options]
        if len(modifiers) > 1:
            raise document.bad(
                f"declare at most one of required, optional, default (got {', '.join(modifiers)})",
                at,
            )
        required = options.get("required", True) and not options.get("optional", False)
        has_default = "default" in options
        default = options.get("default")
        if has_default:
            _check_default(document, (*at, "default"), schema, default)
            required = False
        fields.append(
            FieldDecl(
                name=name,
                type_word=word.strip(),
                schema=schema,
                required=bool(required),
                has_default=has_default,
                default=default,
            )
        )
    return tuple(fields)


def _check_default(
    document: Document, where: tuple[str, ...], schema: dict[str, Any], default: Any
) -> None:
    """T-2: a default must have its field's type (jsonschema decides unless certainly valid)."""
    from tribunal.schemas.quickcheck import quick_validator

    if quick_validator(schema)(default):
        return
    from tribunal.schemas import schema_validator

    errors = list(schema_validator(schema).iter_errors(default))
    if errors:
        raise document.bad(f"default {errors[0].message}", where)


def _derivations(
    document: Document, where: tuple[str, ...], taken: dict[str, str]
) -> tuple[Derivation, ...]:
    entries = document.data["then"].get(where[-1], {})
    derivations: list[Derivation] = []
    for name, text in entries.items():
        at = (*where, name)
        _claim(document, at, name, taken)
        derivations.append(Derivation(name, _expression(document, at, text)))
    return tuple(derivations)


def _diagnostics(document: Document) -> tuple[Diagnostic, ...]:
    diagnostics: list[Diagnostic] = []
    seen: set[str] = set()
    for index, entry in enumerate(document.data["diagnostics"]):
        if entry["code"] in seen:
            raise document.bad(
                f"diagnostic code {entry['code']!r} is declared twice",
                ("diagnostics", index, "code"),
            )
        seen.add(entry["code"])
        when = _expression(document, ("diagnostics", index, "when"), entry["when"])
        diagnostics.append(Diagnostic(entry["code"], when, entry["halt_before"]))
    return tuple(diagnostics)
