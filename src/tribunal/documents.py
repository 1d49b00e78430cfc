"""Loading input documents: YAML and JSON with line numbers, checked against shipped schemas.

C-3/C-5: malformed text, duplicate keys, empty or binary files and schema violations all become
one `BadInput` naming the file, the line where known, and the field path. Hand-written YAML goes
through ruamel.yaml (line numbers, duplicate keys are errors); JSON through the stdlib with a
duplicate-key hook. Line numbers for JSON fields are looked up only on the error path.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import os_refusal
from tribunal.yaml_input import SURROGATE, text_problem

FieldPath = tuple[str | int, ...]

YAML_SUFFIXES = (".yaml", ".yml")
JSON_SUFFIXES = (".json",)


@dataclass
class Document:
    """A loaded input: plain Python data plus where each field stands in the file."""

    path: Path
    label: str  # how the file is named in messages and outputs (C-8)
    data: Any
    text: str
    _lines: dict[FieldPath, int] | None = field(default=None, repr=False)

    def line_of(self, where: Sequence[str | int]) -> int | None:
        """1-based line of the field at `where` (or of its nearest parent), or None."""
        if self._lines is None:
            self._lines = _yaml_lines(self.text)
        path = tuple(where)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return None

    def bad(self, message: str, where: Sequence[str | int] = ()) -> BadInput:
        """A BadInput about the field at `where` in this document."""
        return BadInput(
            message,
            source=self.label,
            line=self.line_of(where) if where else None,
            field=format_field(where) or None,
        )


def format_field(where: Iterable[str | int]) -> str:
    """`("results", 3, "verdict")` -> `results[3].verdict`. A key that is no text (it holds a
    surrogate, `"\\ud800"` in JSON) is written with that escape, so the message can be printed."""
    text = ""
    for part in where:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = str(part)
            if not name.isascii():
                name = name.encode("utf-8", "backslashreplace").decode("utf-8")
            text += f".{name}" if text else name
    return text


def read_text(path: str | os.PathLike[str], label: str) -> str:
    """Read a UTF-8 text input; a missing, empty or binary file is bad input (C-3)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        raise BadInput("file not found", source=label) from None
    except IsADirectoryError:
        raise BadInput("is a directory, expected a file", source=label) from None
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot read: {os_refusal(exc)}", source=label) from None
    if not raw.strip():
        raise BadInput("file is empty", source=label)
    return decode_text(raw, label)


def decode_text(raw: bytes, label: str) -> str:
    """`raw` as UTF-8 text (a file's bytes, or stdin's); binary input or bytes that are not
    UTF-8 are bad input (C-3)."""
    if b"\0" in raw:
        raise BadInput("binary file, expected UTF-8 text", source=label)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"not UTF-8 text (byte {exc.start})", source=label) from None


def load_yaml(path: Path, label: str | None = None) -> Document:
    """Load hand-written YAML with ruamel.yaml: duplicate keys are errors, lines are kept."""
    label = label if label is not None else str(path)
    text = read_text(path, label)
    data, lines = parse_yaml(text, label)
    return Document(path=Path(path), label=label, data=data, text=text, _lines=lines)


def load_json(path: Path, label: str | None = None) -> Document:
    """Load JSON with the stdlib; duplicate keys are errors (C-5 holds for JSON too)."""
    label = label if label is not None else str(path)
    text = read_text(path, label)
    data = parse_json(text, label)
    return Document(path=Path(path), label=label, data=data, text=text)


def load_any(path: Path, label: str | None = None) -> Document:
    """Load a JSON or YAML document, chosen by the file's suffix (YAML for anything else)."""
    if Path(path).suffix.lower() in JSON_SUFFIXES:
        return load_json(path, label)
    return load_yaml(path, label)


def parse_json(text: str, label: str) -> Any:
    """Parse JSON text, naming `label`, the line and (where known) the field in any error:
    malformed text, a duplicate key, an integer longer than Python converts, a string holding
    a lone surrogate (`"\\ud800"`: no character, and no output could be written with it)."""
    try:
        if text.startswith("\ufeff"):
            # What json.loads says of a byte order mark (the decoder itself does not check).
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        data = _JSON_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"malformed JSON: {exc.msg}", source=label, line=exc.lineno) from None
    except DuplicateKey as exc:
        # ruamel reads JSON as YAML and knows the line of the second occurrence.
        try:
            parse_yaml(text, label)
        except BadInput as located:
            line = located.line
        else:
            line = None
        raise BadInput(f"duplicate key {exc.key!r}", source=label, line=line) from None
    except RecursionError:
        raise BadInput("malformed JSON: nested too deeply", source=label) from None
    except ValueError as exc:
        # An integer longer than Python converts (the decoder says neither line nor field):
        # ruamel reads JSON as YAML, and the YAML rules refuse that integer with both.
        parse_yaml(text, label)
        raise BadInput(f"malformed JSON: {exc}", source=label) from None
    # a lone surrogate needs an escape, or text that was not UTF-8 (stdin read with
    # surrogateescape): most text has neither, and is not walked.
    if _SURROGATE_ESCAPE.search(text) is not None or (
        not text.isascii() and SURROGATE.search(text) is not None
    ):
        _refuse_surrogates(data, text, label)
    return data


# `\ud800`..`\udfff`: JSON's only way to write a surrogate (pairs decode into one character).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refuse_surrogates(data: Any, text: str, label: str) -> None:
    """C-3: raise BadInput at the first key or string of `data` holding a lone surrogate."""
    found = _first_surrogate(data, ())
    if found is None:
        return
    where, holder = found
    # The field's line, read from the text with every surrogate escape made harmless.
    lines = _yaml_lines(_SURROGATE_ESCAPE.sub(r"\\u0020", text))
    document = Document(path=Path(label), label=label, data=data, text=text, _lines=lines)
    raise document.bad(text_problem(holder) or "text holds a surrogate", where)


def _first_surrogate(node: Any, where: FieldPath) -> tuple[FieldPath, str] | None:
    """(field path, the key or string) of the first key or string in `node` holding a
    surrogate, or None."""
    if isinstance(node, str):
        return (where, node) if text_problem(node) else None
    if isinstance(node, dict):
        for key, value in node.items():
            if text_problem(key):
                return (*where, key), key
            found = _first_surrogate(value, (*where, key))
            if found is not None:
                return found
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found = _first_surrogate(value, (*where, index))
            if found is not None:
                return found
    return None


def reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """C-5: an object with a key written twice is an error (the first such key is named)."""
    result = dict(pairs)  # built in C; only a short dict means a key came twice
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return result


# one decoder for every JSON input (json.loads with a hook would build one per call).
_JSON_DECODER = json.JSONDecoder(object_pairs_hook=reject_duplicate_keys)


class DuplicateKey(Exception):
    """Raised by `reject_duplicate_keys` inside a JSON decode; callers turn it into their error."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def parse_yaml(text: str, label: str) -> tuple[Any, dict[FieldPath, int]]:
    """Parse YAML text into plain data plus the 1-based line of every field; BadInput on error."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from tribunal.yaml_input import EventRules, ruamel_parser, ruamel_resolver, yaml_bad_input

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    yaml.Resolver = ruamel_resolver()  # the core table the bulk case loader reads by too
    yaml.Parser = ruamel_parser()
    # S-5, C-3: no anchors or aliases (so no alias bombs), no tag that coerces a value.
    yaml.parser.rules = EventRules(label)
    try:
        tree = yaml.load(text)
    except (YAMLError, RecursionError) as exc:
        raise yaml_bad_input(exc, label) from None
    lines: dict[FieldPath, int] = {}
    return _plain(tree, (), lines), lines


def _yaml_lines(text: str) -> dict[FieldPath, int]:
    """Field lines of a document already parsed once (JSON is YAML for this purpose)."""
    try:
        _, lines = parse_yaml(text, "")
    except BadInput:
        return {}
    return lines


def _plain(node: Any, where: FieldPath, lines: dict[FieldPath, int]) -> Any:
    """ruamel's round-trip tree -> plain dict/list/str/int/float/bool/None, recording lines."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar

    if isinstance(node, CommentedMap):
        result: dict[str, Any] = {}
        for key, value in node.items():
            child = (*where, str(key))
            with contextlib.suppress(KeyError, TypeError, AttributeError):
                lines[child] = node.lc.key(key)[0] + 1
            result[str(key)] = _plain(value, child, lines)
        return result
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            child = (*where, index)
            with contextlib.suppress(KeyError, TypeError, AttributeError, IndexError):
                lines[child] = node.lc.item(index)[0] + 1
            items.append(_plain(value, child, lines))
        return items
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    if isinstance(node, TaggedScalar):
        return str(node.value)  # `!!str 12`: the only tagged scalar the tag rule lets through
    # The tag rule (yaml_input.EventRules) admits nothing else: no date, set, bytes or object.
    raise TypeError(f"a YAML value of type {type(node).__name__} passed the tag rule")


def validate(document: Document, schema_name: str) -> None:
    """Check `document.data` against the shipped schema `schema_name`; raise BadInput on the first
    (best-matching) violation, naming its field path and line."""
    from tribunal.schemas import quick_validator_for

    if quick_validator_for(schema_name)(document.data):
        return  # certainly valid; jsonschema is asked (and imported) only when not sure
    error = first_schema_error(document.data, schema_name)
    if error is not None:
        message, where = error
        raise document.bad(message, where)


def first_schema_error(data: Any, schema_name: str) -> tuple[str, FieldPath] | None:
    """The best-matching violation of `schema_name` by `data` as (message, field path), or None."""
    from jsonschema.exceptions import best_match

    from tribunal.schemas import validator_for

    errors = list(validator_for(schema_name).iter_errors(data))
    if not errors:
        return None
    best = best_match(errors)
    path = tuple(best.absolute_path)
    unknown = _unknown_keys(best)
    if unknown:
        # C-3: point at the unknown key itself, so its line is reported, not its parent's.
        return f"unknown field {unknown[0]!r}", (*path, unknown[0])
    return _schema_message(best), path


def _unknown_keys(error: Any) -> list[str]:
    """The keys an `additionalProperties` violation names, sorted (empty for other errors)."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    return sorted(str(key) for key in set(error.instance) - set(error.schema.get("properties", {})))


def _schema_message(error: Any) -> str:
    unknown = _unknown_keys(error)
    if unknown:
        return f"unknown field {unknown[0]!r}"
    if error.validator == "required":
        return str(error.message).replace(" is a required property", " is required")
    return str(error.message)


def schema_errors(data: Any, schema_name: str) -> list[tuple[str, FieldPath]]:
    """Every violation of `schema_name` by `data` as (message, field path), one per offending
    field: unknown and missing fields one by one, otherwise the best match per top-level field.
    Used where a checker reports all problems of a document, not only the first (R-6)."""
    from jsonschema.exceptions import best_match

    from tribunal.schemas import validator_for

    found: list[tuple[str, FieldPath]] = []
    by_field: dict[str | int, list[Any]] = {}
    for error in validator_for(schema_name).iter_errors(data):
        path = tuple(error.absolute_path)
        if path:
            by_field.setdefault(path[0], []).append(error)
        elif error.validator == "additionalProperties":
            known = set(error.schema.get("properties", {}))
            for key in sorted(str(k) for k in error.instance if k not in known):
                found.append((f"unknown field {key!r}", (key,)))
        else:
            found.append((_schema_message(error), ()))
    for errors in by_field.values():
        best = best_match(errors)
        found.append((_schema_message(best), tuple(best.absolute_path)))
    return found
