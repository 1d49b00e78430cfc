"""The rules every YAML input is read by, whichever library reads it (C-3, C-5, S-5).

Hand-written inputs (specs, cases, fleets, charters, judgments' front matter, precedents) need no
anchors or aliases, and an alias is how a 1 KB file becomes a billion nodes once it is copied
into plain data ("billion laughs"). So the first anchor or alias is refused, with its line,
before any tree is built: in ruamel.yaml by the composer below, in PyYAML's C loader by a scan
of the parser's events.
"""

from __future__ import annotations

from typing import Any

from tribunal.errors import BadInput

ANCHOR_PROBLEM = "anchors and aliases are not accepted"


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
