"""The rules every YAML input is read by, whichever library reads it (C-3, C-5, S-5).

Two libraries read YAML (SPEC §1): ruamel.yaml for hand-written documents (line numbers) and
PyYAML's C loader for bulk case files (X-4). Both follow this module, so a file means the same
whichever reads it:

- scalars resolve by one table, the YAML 1.2 core schema as ruamel.yaml writes it: only
  true/false are booleans (`no`, `on` are strings), no timestamps (`2026-01-01` stays text), no
  sexagesimal numbers, `012` is twelve; forms without a digit (`0x_`, `._`) are text;
- the parser's events pass `EventRules` (one walker, fed by either library's parser): anchors
  and aliases are refused; a tag is one of `ACCEPTED_TAGS` — `!!str !!int !!float !!bool !!null
  !!seq !!map` — on a node it fits (`!!int abc`, `!!str [1]` and `!!null x` do not), so no tag
  coerces a value into something else (`!!binary`, `!!timestamp`, `!!set`, `!!python/...`,
  custom tags); and every scalar is a value of its tag, explicit or resolved: an integer longer
  than Python converts, and text holding a surrogate code point (`"\\ud800"`), are refused;
- their errors become one BadInput form (`yaml_error`), naming the file, the line and, for a
  rule of `EventRules`, the field path.

Hand-written inputs (specs, cases, fleets, charters, judgments' front matter, precedents) need no
anchors or aliases, and an alias is how a 1 KB file becomes a billion nodes once it is copied
into plain data ("billion laughs"). So the first anchor or alias is refused, with its line,
before any tree is built: in ruamel.yaml as its parser hands the event to the composer, in
PyYAML's C loader by a scan of the parser's events before the load.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from tribunal.errors import BadInput

ANCHOR_PROBLEM = "anchors and aliases are not accepted"
DUPLICATE_KEY_PROBLEM = "duplicate key"
_OWN_PROBLEMS = (ANCHOR_PROBLEM, DUPLICATE_KEY_PROBLEM)  # said as they are, not as "malformed"

_TAG_PREFIX = "tag:yaml.org,2002:"
_BOOL = "tag:yaml.org,2002:bool"
_FLOAT = "tag:yaml.org,2002:float"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"

_SCALAR, _SEQUENCE, _MAPPING = "a scalar", "a sequence", "a mapping"
# C-3: the only tags an input may carry, each with the kind of node it fits. Any other tag —
# `!!binary`, `!!timestamp`, `!!set`, `!!omap`, `!!python/...`, `!custom`, the bare `!` — would
# make the value something else than what is written, or nothing the loaders agree on.
ACCEPTED_TAGS = {
    _STR: _SCALAR,
    _INT: _SCALAR,
    _FLOAT: _SCALAR,
    _BOOL: _SCALAR,
    _NULL: _SCALAR,
    _SEQ: _SEQUENCE,
    _MAP: _MAPPING,
}

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
_FORMS = {tag: re.compile(pattern, re.X) for tag, pattern, _ in _CORE_RULES}
# A decimal integer is a float's value too (`!!float 1` is 1.0, as YAML 1.2's float form says).
_DECIMAL = re.compile(r"^[-+]?[0-9][0-9_]*$")
SURROGATE = re.compile("[\ud800-\udfff]")
# Where a tag or an anchor can start: the text's start, or after a space, a flow indicator, the
# `:` a JSON-like key may be followed by at once (`{"a":!!binary aGk=}`), or a byte order mark.
# Text without one holds neither, and PyYAML's parse needs no event scan.
_TAG_OR_ANCHOR = re.compile("(?:\\A|[\\s\\[{,:\ufeff])[!&]")
# A plain scalar this long may be an integer Python refuses to convert (its limit is thousands
# of digits); shorter ones are not looked at.
_LONG_SCALAR = 100


def core_resolvers() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """First character -> [(tag, pattern)], the shape both libraries look scalars up in."""
    table: dict[str, list[tuple[str, re.Pattern[str]]]] = {"": [(_NULL, re.compile("^$"))]}
    for tag, _, first in _CORE_RULES:
        compiled = _FORMS[tag]
        for char in first:
            table.setdefault(char, []).append((tag, compiled))
    return table


def core_int(text: str) -> int:
    """The value of an int scalar of the core table: `0b`, `0o`, `0x` or decimal (`012` is 12).

    Raises ValueError for a decimal longer than Python converts (`sys.get_int_max_str_digits`).
    """
    text = text.replace("_", "")
    sign = -1 if text[0] == "-" else 1
    text = text.lstrip("+-")
    base = {"0b": 2, "0o": 8, "0x": 16}.get(text[:2], 10)
    return sign * int(text[2:] if base != 10 else text, base)


def shown_tag(tag: str) -> str:
    """A tag as it is written: `tag:yaml.org,2002:binary` is `!!binary`."""
    return "!!" + tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else tag


def resolved_tag(value: str) -> str:
    """The core table's tag of the plain scalar `value` (`!!str` when no rule matches)."""
    for tag, pattern in core_resolvers().get(value[:1], ()):
        if pattern.match(value):
            return tag
    return _STR


def scalar_problem(tag: str | None, value: str, plain: bool) -> str | None:
    """Why the scalar `value` (written `plain`, or quoted) does not fit `tag` (None: the tag it
    resolves to), or None when it fits. The one rule for scalars, whichever library parses."""
    if tag is None:
        if plain and len(value) > _LONG_SCALAR and resolved_tag(value) == _INT:
            return _int_problem(value)
        return text_problem(value)
    kind = ACCEPTED_TAGS.get(tag)
    if kind is None:
        return tag_problem(tag)
    if kind != _SCALAR:
        return f"{shown_tag(tag)} does not fit a scalar ({value!r})"
    if tag == _STR:
        return text_problem(value)
    if _FORMS[tag].match(value) is None and not (tag == _FLOAT and _DECIMAL.match(value)):
        article = "an" if tag in (_INT, _NULL) else "a"
        return f"{value!r} is not {article} {shown_tag(tag)}"
    return _int_problem(value) if tag == _INT else None


def collection_problem(tag: str | None, kind: str) -> str | None:
    """Why a sequence or mapping (`kind`) does not fit its explicit `tag`, or None."""
    if tag is None:
        return None
    fits = ACCEPTED_TAGS.get(tag)
    if fits is None:
        return tag_problem(tag)
    return None if fits == kind else f"{shown_tag(tag)} does not fit {kind}"


def tag_problem(tag: str) -> str:
    """The message for a tag outside ACCEPTED_TAGS."""
    accepted = ", ".join(shown_tag(name) for name in ACCEPTED_TAGS)
    return f"tag {shown_tag(tag)} is not accepted (only {accepted}): write the value plainly"


def _int_problem(value: str) -> str | None:
    try:
        core_int(value)
    except ValueError:
        digits = sum(char.isdigit() for char in value)
        return f"integer too long ({digits} digits): write a shorter number"
    return None


def text_problem(value: str) -> str | None:
    """Why `value` is not text (it holds a surrogate code point), or None."""
    if value.isascii():
        return None
    found = SURROGATE.search(value)
    if found is None:
        return None
    return f"text holds U+{ord(found.group()):04X}, a surrogate, not a character"


def yaml_error(label: str, mark: Any, problem: str | None) -> BadInput:
    """C-3: the one BadInput for a YAML parser's complaint `problem` at `mark` (an object with a
    0-based `line`, or None), whichever library made it."""
    text = problem or "malformed YAML"
    if not text.startswith(_OWN_PROBLEMS) and problem:
        text = f"malformed YAML: {text}"
    return refusal(label, mark, text)


def refusal(label: str, mark: Any, problem: str, where: Sequence[str | int] = ()) -> BadInput:
    """The BadInput saying `problem` of the node at `mark` (0-based `line`, or None) and field
    path `where` in the document `label`."""
    from tribunal.documents import format_field

    line = mark.line + 1 if mark is not None else None
    return BadInput(problem, source=label, line=line, field=format_field(where) or None)


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


class _Open:
    """A collection being read: a mapping (at a key, or at the value of `key`) or a sequence
    (at item `index`)."""

    __slots__ = ("at_key", "index", "key", "mapping")

    def __init__(self, mapping: bool) -> None:
        self.mapping = mapping
        self.at_key = True
        self.key = ""
        self.index = 0


class EventRules:
    """The rules of this module, applied to one document's parser events in order (either
    library's events: they share names and fields). `see` raises BadInput naming the label, the
    line and the field path of the first node breaking one: an anchor or alias, a tag outside
    ACCEPTED_TAGS or on a node it does not fit, a scalar that is no value of its tag."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.open: list[_Open] = []

    def see(self, event: Any) -> None:
        """Check the next event of the document."""
        name = type(event).__name__
        if name == "ScalarEvent":
            problem = scalar_problem(event.tag, event.value, bool(event.implicit[0]))
            self._check(event, problem, event.value)
            self._done(event.value)
        elif name == "MappingStartEvent" or name == "SequenceStartEvent":
            mapping = name == "MappingStartEvent"
            self._check(event, collection_problem(event.tag, _MAPPING if mapping else _SEQUENCE))
            self.open.append(_Open(mapping))
        elif name == "MappingEndEvent" or name == "SequenceEndEvent":
            self.open.pop()
            self._done("?")
        elif name == "AliasEvent":
            self._refuse(event, anchor_problem(event.anchor), "?")

    def _check(self, event: Any, problem: str | None, text: str = "?") -> None:
        if event.anchor is not None:
            problem = anchor_problem(event.anchor)
        if problem is not None:
            self._refuse(event, problem, text)

    def _refuse(self, event: Any, problem: str, text: str) -> None:
        where: list[str | int] = []
        for frame in self.open:
            if not frame.mapping:
                where.append(frame.index)
            else:
                where.append(text if frame.at_key else frame.key)  # a key names itself
        raise refusal(self.label, event.start_mark, problem, where)

    def _done(self, text: str) -> None:
        """A node ended: its parent moves on to the next key, value or item."""
        if not self.open:
            return
        frame = self.open[-1]
        if not frame.mapping:
            frame.index += 1
        elif frame.at_key:
            frame.key, frame.at_key = text, False
        else:
            frame.at_key = True


def check_events(events: Iterable[Any], label: str) -> None:
    """Pass every event of `events` (one parse of one document) through EventRules."""
    rules = EventRules(label)
    for event in events:
        rules.see(event)


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


_PARSER: Any = None


def ruamel_parser() -> Any:
    """ruamel.yaml's round-trip Parser, handing every event to its `rules` (an EventRules the
    loader sets) as the composer takes it: the first anchor, alias or unfit tag is refused
    before any node is built."""
    global _PARSER
    if _PARSER is not None:
        return _PARSER
    from ruamel.yaml.parser import RoundTripParser

    class CheckedParser(RoundTripParser):
        rules: EventRules | None = None

        def get_event(self) -> Any:
            event = super().get_event()
            if self.rules is not None:
                self.rules.see(event)
            return event

    _PARSER = CheckedParser
    return CheckedParser


def load_bulk(text: str, label: str) -> Any:
    """Parse bulk YAML (case files) with PyYAML's C loader by this module's rules: scalars by
    the core table, duplicate keys refused, events by EventRules. Raises BadInput naming file,
    line and, for a rule of EventRules, the field."""
    import yaml

    loader = bulk_loader()
    try:
        if _TAG_OR_ANCHOR.search(text):
            # S-5, C-3: no alias bombs, no coercing tags — refused before anything is built.
            check_events(yaml.parse(text, Loader=loader), label)
        # C-5: a SafeLoader subclass (C when available), never the unsafe full loader.
        return yaml.load(text, Loader=loader)
    except (yaml.YAMLError, RecursionError) as error:
        raise yaml_bad_input(error, label) from None
    except ValueError as error:
        # Only a scalar that is no value of its tag gets here (an integer too long): the rules
        # find it, with its line and field.
        check_events(yaml.parse(text, Loader=loader), label)
        raise BadInput(f"malformed YAML: {error}", source=label) from None


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
