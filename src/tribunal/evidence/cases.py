"""T-3: counterexample case files — the `*.json`, `*.yaml`, `*.yml` directly in a directory.

Cases are bulk input (X-4: ten thousand files), so JSON goes through the stdlib and YAML through
PyYAML's C loader (`yaml_input.load_bulk`: the same scalars as a spec, duplicate keys and anchors
refused, C-5); each case is checked against ONE
schema built per spec: the case shape of `case.schema.json` with `given_snapshot` and
`when_payload` replaced by the spec's declared fields (T-2 type language). Line numbers are looked
up only when there is an error to report.
"""

from __future__ import annotations

import copy
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import Document, parse_json, read_text
from tribunal.errors import BadInput
from tribunal.spec.model import FieldDecl, Spec
from tribunal.yaml_input import load_bulk

CASE_SUFFIXES = (".json", ".yaml", ".yml")
FIELD_SECTIONS = {"given_snapshot": "given", "when_payload": "when.payload"}


@dataclass(slots=True)  # one per case file, so slots and no `frozen` (five times the cost)
class Case:
    """One counterexample, validated against the spec it is run with."""

    label: str  # the case file's C-8 path
    counterexample_id: str
    assertion_id: str
    given: dict[str, Any]
    payload: dict[str, Any]
    minimality_trace: list[str]
    expected: dict[str, Any]
    description: str | None = None


def case_files(directory: Path, label: str) -> list[Path]:
    """The case files directly in `directory`, in name order (no recursion, T-3).

    Raises BadInput when the directory is missing, not a directory, or holds no case file.
    """
    return [directory / name for name in case_names(directory, label)]


def case_names(directory: Path, label: str) -> list[str]:
    """The names of the case files directly in `directory`, sorted (see `case_files`).

    X-4: one `os.scandir`, whose entries know their type without a `stat` per file.
    """
    if not directory.exists():
        raise BadInput("directory not found", source=label)
    if not directory.is_dir():
        raise BadInput("not a directory", source=label)
    with os.scandir(directory) as entries:
        names = sorted(
            entry.name
            for entry in entries
            if os.path.splitext(entry.name)[1] in CASE_SUFFIXES
            and not entry.name.startswith(".")
            and entry.is_file()
        )
    if not names:
        raise BadInput("no case files (*.json, *.yaml, *.yml) in the directory", source=label)
    return names


def load_cases(directory: Path, label: str, spec: Spec) -> list[Case]:
    """Load and check every case file of `directory` (shown as `label`) against `spec`.

    Returns the cases in name order; raises BadInput naming the file, line and field of the
    first problem (C-3), including a counterexample_id used twice.
    """
    checker = CaseChecker(spec)
    prefix = "" if label in ("", ".") else label.rstrip("/") + "/"
    cases: list[Case] = []
    seen: dict[str, str] = {}
    base = os.path.join(directory, "")  # with its separator: a name is then simply appended
    for name in case_names(directory, label):
        case = checker.read(base + name, prefix + name, name.endswith(".json"))
        if case.counterexample_id in seen:
            raise BadInput(
                f"counterexample_id {case.counterexample_id!r} is also used by "
                f"{seen[case.counterexample_id]}",
                source=case.label,
                field="counterexample_id",
            )
        seen[case.counterexample_id] = case.label
        cases.append(case)
    return cases


class CaseChecker:
    """Loads case files and checks them against one spec (the schema is built once)."""

    def __init__(self, spec: Spec) -> None:
        from tribunal.schemas import load_schema
        from tribunal.schemas.quickcheck import quick_validator

        self.spec = spec
        schema = copy.deepcopy(load_schema("case"))
        schema["properties"]["given_snapshot"] = _fields_schema(spec.given)
        schema["properties"]["when_payload"] = _fields_schema(spec.payload)
        self.schema = schema
        # a sound quick yes for the common valid case; jsonschema decides everything else.
        self.certainly_valid = quick_validator(schema)
        self.declared = {
            "given_snapshot": {decl.name: decl for decl in spec.given},
            "when_payload": {decl.name: decl for decl in spec.payload},
        }

    @functools.cached_property
    def validator(self) -> Any:
        """jsonschema's validator for the case schema — built only when the quick check is not
        sure (X-4: valid cases never import jsonschema)."""
        from tribunal.schemas import schema_validator

        return schema_validator(self.schema)

    def load(self, path: str | os.PathLike[str], label: str) -> Case:
        """Read, parse and check one case file. Raises BadInput naming file, line and field."""
        return self.read(path, label, os.path.splitext(path)[1] == ".json")

    def read(self, path: str | os.PathLike[str], label: str, is_json: bool) -> Case:
        """`load`, told whether the file is JSON (else YAML) by a caller that knows it."""
        text = read_text(path, label)
        data = parse_json(text, label) if is_json else load_bulk(text, label)
        if not self.certainly_valid(data):
            self._check(Document(path=Path(path), label=label, data=data, text=text))
        if data["assertion_id"] != self.spec.assertion_id:
            document = Document(path=Path(path), label=label, data=data, text=text)
            raise document.bad(
                f"assertion_id {data['assertion_id']!r} differs from the spec's "
                f"{self.spec.assertion_id!r} ({self.spec.label})",
                ("assertion_id",),
            )
        return Case(
            label=label,
            counterexample_id=data["counterexample_id"],
            assertion_id=data["assertion_id"],
            given=data["given_snapshot"],
            payload=data["when_payload"],
            minimality_trace=data["minimality_trace"],
            expected=data["expected_failure"],
            description=data.get("description"),
        )

    def _check(self, document: Document) -> None:
        """jsonschema's verdict on a case the quick check was not sure of; raises BadInput."""
        if self.validator.is_valid(document.data):
            return
        from jsonschema.exceptions import best_match

        error = best_match(self.validator.iter_errors(document.data))
        where = tuple(error.absolute_path)
        section = where[0] if where else None
        if section in self.declared:
            declared = self.declared[str(section)]
            if error.validator == "additionalProperties" and len(where) == 1:
                extra = sorted(set(error.instance) - set(declared), key=str)
                raise document.bad(
                    f"field {extra[0]!r} is not declared by the spec ({self.spec.label}, "
                    f"{FIELD_SECTIONS[str(section)]})",
                    (*where, str(extra[0])),
                )
            if len(where) == 2 and where[1] in declared:
                decl = declared[str(where[1])]
                raise document.bad(f"{error.message} (declared {decl.type_word})", where)
        if error.validator == "additionalProperties":
            extra = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=str)
            raise document.bad(f"unknown field {extra[0]!r}", (*where, str(extra[0])))
        raise document.bad(
            str(error.message).replace(" is a required property", " is required"), where
        )


def _fields_schema(fields: Sequence[FieldDecl]) -> dict[str, Any]:
    """The declared fields as one JSON Schema object (T-2: unknown fields are errors)."""
    return {
        "type": "object",
        "properties": {decl.name: decl.schema for decl in fields},
        "required": [decl.name for decl in fields if decl.required],
        "additionalProperties": False,
    }
