"""The rules every YAML input is read by, whichever library reads it (C-3, C-5, S-5).

Two libraries read YAML (SPEC §1): ruamel.yaml for hand-written documents (line numbers) and
PyYAML's C loader for bulk case files (X-4). Both follow this module, so a file means the same
whichever reads it:

- scalars resolve by one table, the YAML 1.2 core schema as ruamel.yaml writes it: only
  true/false are booleans (`no`, `on` are strings), no timestamps (`2026-01-01` stays text), no
  sexagesimal numbers, `012` is twelve; forms without a digit (`0x_`, `._`) are text;
- their errors become one BadInput form (`yaml_error`);
- anchors and aliases are refused.

Hand-written inputs (specs, cases, fleets, charters, judgments' front matter, precedents) need no
anchors or aliases, and an alias is how a 1 KB file becomes a billion nodes once it is copied
into plain data ("billion laughs"). So the first anchor or alias is refused, with its line,
before any tree is built: in ruamel.yaml by the composer below, in PyYAML's C loader by a scan
of the parser's events.
"""

from __future__ import annotations

import re
from typing import Any

from tribunal.errors import BadInput

ANCHOR_PROBLEM = "anchors and aliases are not accepted"
DUPLICATE_KEY_PROBLEM = "duplicate key"
_OWN_PROBLEMS = (ANCHOR_PROBLEM, DUPLICATE_KEY_PROBLEM)  # said as they are, not as "malformed"

_BOOL = "tag:yaml.org,2002:bool"
_FLOAT = "tag:yaml.org,2002:float"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"

# (tag, pattern, first characters): ruamel.yaml's YAML 1.2 rules for these four tags, each number
# form made to hold a digit (ruamel itself fails on `0x_` with an IndexError); no timestamp,
# merge or value rule.
_CORE_RULES = (
    (_BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (
        _FLOAT,
        r"""^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+
        |[-+]?\.[0-9_]*[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        "-+0123456789.",
    ),
    (
        _INT,
        r"""^(?:[-+]?0b[0-1_]*[0-1][0-1_]*
        |[-+]?0o[0-7_]*[0-7][0-7_]*
        |[-+]?[0-9][0-9_]*
        |[-+]?0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*)$""",
        "-+0123456789",
    ),
    (_NULL, r"^(?:~|null|Null|NULL|)$", "~nN"),
)


def core_resolvers() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """First character -> [(tag, pattern)], the shape both libraries look scalars up in."""
    table: dict[str, list[tuple[str, re.Pattern[str]]]] = {"": [(_NULL, re.compile("^$"))]}
    for tag, pattern, first in _CORE_RULES:
        compiled = re.compile(pattern, re.X)
        for char in first:
            table.setdefault(char, []).append((tag, compiled))
    return table


def core_int(text: str) -> int:
    """The value of an int scalar of the core table: `0b`, `0o`, `0x` or decimal (`012` is 12)."""
    text = text.replace("_", "")
    sign = -1 if text[0] == "-" else 1
    text = text.lstrip("+-")
    base = {"0b": 2, "0o": 8, "0x": 16}.get(text[:2], 10)
    return sign * int(text[2:] if base != 10 else text, base)


def yaml_error(label: str, mark: Any, problem: str | None) -> BadInput:
    """C-3: the one BadInput for a YAML parser's complaint `problem` at `mark` (an object with a
    0-based `line`, or None), whichever library made it."""
    line = mark.line + 1 if mark is not None else None
    text = problem or "malformed YAML"
    if not text.startswith(_OWN_PROBLEMS) and problem:
        text = f"malformed YAML: {text}"
    return BadInput(text, source=label, line=line)


def yaml_bad_input(error: BaseException, label: str) -> BadInput:
    """`yaml_error` for an exception of either library (a YAMLError, marked or not) or a
    RecursionError met while parsing."""
    if isinstance(error, RecursionError):
        return BadInput("malformed YAML: nested too deeply", source=label)
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    problem = getattr(error, "problem", None) or getattr(error, "context", None)
    if mark is None and problem is None:
        return BadInput(f"malformed YAML: {error}", source=label)
    return yaml_error(label, mark, problem)


def anchor_problem(name: str) -> str:
    """The message for an anchor or alias called `name`."""
    return f"{ANCHOR_PROBLEM} (&{name}, *{name}): write the value out"


def refuse_anchors(text: str, loader: Any, label: str) -> None:
    """Raise BadInput at the first anchor or alias of `text`, read with the PyYAML `loader`.

    X-4: text without `&` holds no anchor, hence no alias that resolves (an undefined alias is
    a parse error of its own), so only such text is scanned — at the C parser's speed, building
    nothing. A parse error met by the scan propagates as the library's YAMLError.
    """
    if "&" not in text:
        return
    import yaml

    for event in yaml.parse(text, Loader=loader):
        name = getattr(event, "anchor", None)
        if name is not None:
            mark = event.start_mark
            line = mark.line + 1 if mark is not None else None
            raise BadInput(anchor_problem(name), source=label, line=line)


_RESOLVER: Any = None


def ruamel_resolver() -> Any:
    """A ruamel.yaml Resolver that looks every scalar up in `core_resolvers` (whatever `%YAML`
    directive the document carries)."""
    global _RESOLVER
    if _RESOLVER is not None:
        return _RESOLVER
    from ruamel.yaml.resolver import VersionedResolver

    table = core_resolvers()

    class CoreResolver(VersionedResolver):
        @property
        def versioned_resolver(self) -> Any:
            return table

    _RESOLVER = CoreResolver
    return CoreResolver


_COMPOSER: Any = None


def ruamel_composer() -> Any:
    """A ruamel.yaml Composer that raises ComposerError at the first anchor or alias."""
    global _COMPOSER
    if _COMPOSER is not None:
        return _COMPOSER
    from ruamel.yaml.composer import Composer, ComposerError

    class PlainComposer(Composer):
        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            name = getattr(event, "anchor", None)
            if name is not None:  # an anchored node, or an alias (its anchor's name)
                raise ComposerError(None, None, anchor_problem(name), event.start_mark)
            return super().compose_node(parent, index)

    _COMPOSER = PlainComposer
    return PlainComposer


def load_bulk(text: str, label: str) -> Any:
    """Parse bulk YAML (case files) with PyYAML's C loader by this module's rules: scalars by
    the core table, duplicate keys and anchors refused. Raises BadInput naming file and line."""
    import yaml

    loader = bulk_loader()
    try:
        refuse_anchors(text, loader, label)  # S-5: no alias bombs
        # C-5: a SafeLoader subclass (C when available), never the unsafe full loader.
        return yaml.load(text, Loader=loader)
    except (yaml.YAMLError, RecursionError) as error:
        raise yaml_bad_input(error, label) from None


_BULK_LOADER: Any = None


def bulk_loader() -> Any:
    """PyYAML's safe loader (C when available) resolving scalars by `core_resolvers`, whose
    mappings reject duplicate keys (C-5)."""
    global _BULK_LOADER
    if _BULK_LOADER is not None:
        return _BULK_LOADER
    import yaml
    from yaml.constructor import ConstructorError

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class BulkLoader(base):  # type: ignore[misc, valid-type]
        # the table replaces PyYAML's YAML 1.1 one; looking a scalar up costs the same.
        yaml_implicit_resolvers = core_resolvers()

    def mapping(loader: Any, node: Any) -> dict[Any, Any]:
        loader.flatten_mapping(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, (list, dict)):
                raise ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
            if type(key) is not str:
                key = str(key)  # as documents.parse_yaml gives keys: inputs are JSON-shaped
            duplicate = key in result
            if duplicate:
                raise ConstructorError(
                    None, None, f"{DUPLICATE_KEY_PROBLEM} {key!r}", key_node.start_mark
                )
            result[key] = loader.construct_object(value_node, deep=True)
        return result

    def integer(loader: Any, node: Any) -> int:
        return core_int(loader.construct_scalar(node))

    BulkLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    BulkLoader.add_constructor(_INT, integer)
    _BULK_LOADER = BulkLoader
    return BulkLoader
