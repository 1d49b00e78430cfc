"""The other members' cards as a member sees them in the synthesis phase (P-6): anonymised —
`Member 1..n`, with no lens, rung, model or family.

The card is projected onto the P-4 card's own fields, at every depth: whatever else a caller's
card carries (a rung, a model, a family, a seat, a fingerprint) is dropped, so nothing that is
not the card's content can name who wrote it. The content itself is shown verbatim: quotes and
claims are evidence, and a member's prose is not rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tribunal.errors import BadInput


# P-6: what a card may show of itself to the other members: the P-4 fields but the lens, and
# inside them only the P-4 fields. Anything else — a rung, a model, a family, a seat — is dropped.
@dataclass(frozen=True)
class _Each:
    """A mapping of any keys (the dimension ids), each value of `shape`."""

    shape: Any


_EVIDENCE = dict.fromkeys(("quote", "location", "command", "output"))
_SCORE = {"score": None, "confidence": None, "evidence": [_EVIDENCE]}
_SCENARIO = dict.fromkeys(("input", "wrong_behaviour", "kind", "location", "quote"))
_FINDING = dict.fromkeys(("severity", "claim", "location", "quote", "fix", "structural"))
_CARD = {
    "round": None,
    "phase": None,
    "scores": _Each(_SCORE),
    "failure_scenarios": [_SCENARIO],
    "findings": [_FINDING],
    "top_concern": None,
    "recommendation": None,
    "escalation": None,
}


def anonymise(card: Mapping[str, Any]) -> dict[str, Any]:
    """`card` (a P-4 card as parsed JSON) as the other members see it: only the card's own
    fields, without its lens, and nothing else — no rung, model, family or any field the card
    format does not name, at any depth. Returns a new dict; raises BadInput when a field the
    format names holds a value of the wrong kind."""
    shown = _project(card, _CARD, "card")
    assert isinstance(shown, dict)
    return shown


def _project(value: Any, shape: Any, where: str) -> Any:
    if shape is None:
        if value is None or isinstance(value, str | int | float | bool):
            return value
        raise BadInput(
            f"expected a JSON number, string, true, false or null, got {value!r}", field=where
        )
    if isinstance(shape, list):
        if not isinstance(value, list | tuple):
            raise BadInput(f"expected a list, got {value!r}", field=where)
        return [_project(item, shape[0], f"{where}[{index}]") for index, item in enumerate(value)]
    if not isinstance(value, Mapping):
        raise BadInput(f"expected an object, got {value!r}", field=where)
    if isinstance(shape, _Each):
        return {
            str(key): _project(item, shape.shape, f"{where}.{key}") for key, item in value.items()
        }
    return {
        key: _project(value[key], inner, f"{where}.{key}")
        for key, inner in shape.items()
        if key in value
    }
