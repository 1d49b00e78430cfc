"""A-3 `schema` evidence: every record validates against the JSON Schema the dispute names.

Records are the lines of an NDJSON file (`.ndjson`, `.jsonl`) or a whole JSON document. Each
violation is reported as `file:line: field: message`; a record file or schema that is absent or
malformed makes the kind missing, never bad input.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.documents import Document, format_field, parse_json, read_text
from tribunal.enums import DisputeEvidenceKind
from tribunal.errors import BadInput
from tribunal.evidence.dispute.checks import KindCheck, Shortfall
from tribunal.markdown import code

if TYPE_CHECKING:
    from tribunal.evidence.dispute.model import Dispute

LINE_SUFFIXES = (".ndjson", ".jsonl")


def check_schema_records(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    """Check `evidence.schema` ({records: [paths], schema: path}) of `dispute`."""
    kind = DisputeEvidenceKind.SCHEMA
    records = list(declared.get("records") or [])
    schema_text = declared.get("schema")
    shortfalls: list[Shortfall] = []
    files: list[str] = []
    if not records:
        shortfalls.append(Shortfall(where, "evidence.schema.records lists no record file"))
    if not schema_text:
        shortfalls.append(Shortfall(where, "evidence.schema.schema names no JSON Schema"))
        return KindCheck(kind, where, (), "no JSON Schema named", tuple(shortfalls))
    schema_path = dispute.evidence_file(schema_text, ("evidence", "schema", "schema"))
    schema_label = dispute.file_label(schema_text)
    validator, problem = _validator(schema_path, schema_label, dispute.root)
    if validator is None:
        shortfalls.append(problem or Shortfall(schema_label, "unusable JSON Schema"))
        return KindCheck(kind, where, (), "JSON Schema unusable", tuple(shortfalls))
    from referencing.exceptions import Unresolvable

    count = 0
    for index, text in enumerate(records):
        path = dispute.evidence_file(text, ("evidence", "schema", "records", index))
        label = dispute.file_label(text)
        try:
            checked, found = _check_file(path, label, validator)
        except Unresolvable as exc:
            # a `$ref` that names no file inside the repository leaves the kind missing.
            why = f"schema evidence missing: unresolvable $ref {_ref_of(exc)}"
            shortfalls.append(Shortfall(schema_label, why))
            return KindCheck(kind, where, (), "JSON Schema unusable", tuple(shortfalls))
        count += checked
        shortfalls.extend(found)
        if path.is_file():
            files.append(label)
    files.append(schema_label)
    summary = f"{count} record(s) in {len(records)} file(s) checked against {code(schema_label)}"
    return KindCheck(kind, where, tuple(files), summary, tuple(shortfalls))


def _validator(path: Path, label: str, root: Path) -> tuple[Any, Shortfall | None]:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    try:
        schema = parse_json(read_text(path, label), label)
    except BadInput as exc:
        return None, Shortfall(_where(exc, label), exc.message)
    if not isinstance(schema, dict):
        return None, Shortfall(label, "a JSON Schema must be an object")
    cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        return None, Shortfall(label, f"not a valid JSON Schema: {exc.message}")
    # relative `$ref`s resolve to files inside the repository, never to the network.
    # relative `$ref`s resolve against the schema file, to files inside the repository.
    anchored = schema if "$id" in schema else {**schema, "$id": path.resolve().as_uri()}
    registry = _file_registry(root)
    return cls(anchored, registry=registry, format_checker=record_format_checker()), None


def _file_registry(root: Path) -> Any:
    """A `referencing` registry that retrieves `file:` URIs under `root`, and nothing else."""
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource
    from referencing.jsonschema import DRAFT202012

    top = root.resolve()

    def retrieve(uri: str) -> Resource[Any]:
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(uri)
        if parts.scheme != "file":
            raise NoSuchResource(uri)
        target = Path(unquote(parts.path)).resolve()
        if not target.is_file() or not target.is_relative_to(top):
            raise NoSuchResource(uri)
        try:
            contents = parse_json(read_text(target, uri), uri)
        except BadInput as exc:
            raise NoSuchResource(uri) from exc
        return Resource.from_contents(contents, default_specification=DRAFT202012)

    # Refs to URLs or outside the repository are never fetched: they stay unresolvable (C-8).
    return Registry(retrieve=retrieve)  # type: ignore[call-arg]  # attrs field, untyped init


def record_format_checker() -> Any:
    """jsonschema's FormatChecker with stdlib `date-time` and `date` checks (A-3)."""
    from jsonschema import FormatChecker

    checker = FormatChecker()
    checker.checks("date-time", raises=ValueError)(_is_date_time)
    checker.checks("date", raises=ValueError)(_is_date)
    return checker


def _is_date_time(value: object) -> bool:
    # RFC 3339 date-time: a date, `T`, a time and an offset (`Z` or ±hh:mm).
    if not isinstance(value, str):
        return True
    text = value[:-1] + "+00:00" if value[-1:] in ("Z", "z") else value
    if len(text) < 20 or text[10] not in "Tt":
        raise ValueError(f"{value!r} is not an RFC 3339 date-time")
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        raise ValueError(f"{value!r} has no UTC offset")
    return True


def _is_date(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if len(value) != 10:
        raise ValueError(f"{value!r} is not a full date (YYYY-MM-DD)")
    date.fromisoformat(value)
    return True


def _check_file(path: Path, label: str, validator: Any) -> tuple[int, list[Shortfall]]:
    """(records checked, shortfalls) for one record file."""
    try:
        text = read_text(path, label)
    except BadInput as exc:
        return 0, [Shortfall(_where(exc, label), exc.message)]
    if path.suffix.lower() in LINE_SUFFIXES:
        shortfalls: list[Shortfall] = []
        count = 0
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            count += 1
            shortfalls.extend(_check_record(line, f"{label}:{number}", validator, number))
        if count == 0:
            shortfalls.append(Shortfall(label, "holds no record"))
        return count, shortfalls
    return 1, _check_record(text, label, validator, None)


def _check_record(text: str, where: str, validator: Any, line: int | None) -> list[Shortfall]:
    try:
        record = parse_json(text, where)
    except BadInput as exc:
        return [Shortfall(where, exc.message, where if line else None)]
    found = []
    for error in validator.iter_errors(record):
        at = where
        if line is None:
            document = Document(Path(where), where, record, text)
            number = document.line_of(tuple(error.absolute_path))
            at = f"{where}:{number}" if number is not None else where
        found.append(Shortfall(at, _message(error), at))
    return found


def _message(error: Any) -> str:
    """`field: message`; a `required` violation names the missing field, not its parent."""
    path = [*error.absolute_path]
    if error.validator == "required" and "'" in error.message:
        missing = str(error.message).split("'")[1]
        return f"{format_field([*path, missing])}: required field is missing"
    field = format_field(path)
    return f"{field}: {error.message}" if field else str(error.message)


def _ref_of(error: Exception) -> str:
    """The ref an Unresolvable names, shown relative (never the checkout's absolute path)."""
    ref = str(getattr(error, "ref", "") or error)
    return f"{code(ref)} (outside the repository, a URL, or no such file)"


def _where(error: BadInput, label: str) -> str:
    return label if error.line is None else f"{label}:{error.line}"
