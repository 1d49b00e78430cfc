"""V-2's reading of a model's reply, for every answer that is a JSON object in free text: a
juror's verdict (`verdict`), a panel member's scorecard (`courts.panel.card_reader`).

The reply is untrusted text. Code fences are stripped, and only the LAST top-level JSON object
carrying the answer's key counts; two such objects that disagree make the reply contradictory,
never the last one's word. What "disagree" means is the answer's own business (a verdict's
`verdict` and `lens`, a card's numbers), so the caller says it. Reading is bounded: a reply over
1 MiB is refused before it is read (L-6), and a reply built to be slow to read fails in bounded
time, never a hang.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tribunal.documents import DuplicateKey, reject_duplicate_keys
from tribunal.jury.envelope.text import QUOTED_GUTTER

# L-6: a reply over 1 MiB is malformed and read no further (the transports' cap too).
MAX_REPLY_BYTES = 1 << 20

# V-2: a fence line (``` or ~~~ with an optional info string). Fence markers sharing a line with
# the JSON stay: the reader looks for objects, not for lines, so they cannot hide one.
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)[\w+.-]*[ \t]*$", re.M)
# V-2: where an answer object can start — an object whose first key is a string.
_OBJECT_START = re.compile(r'\{\s*"')
_WINDOW = 1024
_ATTEMPT_TOLL = 64
_WORK_BUDGET = 16 * MAX_REPLY_BYTES

Disagreement = Callable[[dict[str, Any], dict[str, Any]], str | None]


def over_cap(text: str) -> bool:
    """True when `text` is longer than a reply may be (L-6: read no further)."""
    return len(text.encode("utf-8", errors="replace")) > MAX_REPLY_BYTES


def strip_fences(text: str) -> str:
    """`text` without its code-fence lines (V-2)."""
    return _FENCE.sub("", text)


def copied(source: str, shown: str) -> bool:
    """S-2: True when an answer's JSON text occurs verbatim in what the seat was shown (also
    once fence lines are stripped from both, as they are from the reply, and once the
    envelope's line-number gutter is taken off: a file's answer spread over lines is shown
    numbered, E-5, and copied without the numbers)."""
    unfenced = _FENCE.sub("", shown)
    return source in shown or source in unfenced or source in QUOTED_GUTTER.sub("", unfenced)


def last_object(
    text: str,
    key: str,
    *,
    fail: Callable[[str], Exception],
    disagreement: Disagreement,
    name: str | None = None,
) -> tuple[dict[str, Any], str]:
    """V-2: the last top-level JSON object in `text` that carries `key`, and the exact text it
    was decoded from. `disagreement(earlier, later)` says how two such objects disagree, or
    None when they agree; `name` is what messages call the answer (default: `key`). Raises
    `fail(message)` when there is none, when two of them disagree (a contradictory reply is
    never the last one's word), on a duplicate key, or when the reply is too tangled to read
    within the work budget.

    Every `{"` is a possible start (prose braces simply fail to decode). Each attempt decodes a
    window that grows only while the object may run past it, and all attempts share one work
    budget, so a 1 MiB reply built to be slow to read is malformed in bounded time, never a hang.
    """
    decoder = json.JSONDecoder(object_pairs_hook=reject_duplicate_keys)
    budget = _WORK_BUDGET
    last: tuple[dict[str, Any], str] | None = None
    position = 0
    for match in _OBJECT_START.finditer(text):
        start = match.start()
        if start < position:
            continue  # inside an object already read: nested objects are not answers of their own
        window = _WINDOW
        value = None
        while True:
            chunk = text[start : start + window]
            retry = False
            # Charge what the decoder read (plus a toll per attempt), not the window's size.
            try:
                value, end = decoder.raw_decode(chunk)
                spent = end
            except json.JSONDecodeError as error:
                retry = start + len(chunk) < len(text) and _cut_short(error, len(chunk))
                unterminated = error.msg.startswith("Unterminated string")
                spent = len(chunk) if retry or unterminated else error.pos + 1
            except RecursionError:
                spent = len(chunk)
            except DuplicateKey as exc:
                raise fail(f"duplicate key {short(exc.key)} in a JSON object") from None
            budget -= spent + _ATTEMPT_TOLL
            if budget < 0:
                raise fail(f"reply too tangled to read a {name or key} from")
            if not retry:
                break
            window *= 4
        if value is None:
            continue
        position = start + end
        if isinstance(value, dict) and key in value:
            if last is not None:
                words = disagreement(last[0], value)
                if words is not None:
                    raise fail(f"contradictory reply: {words}")
            last = value, text[start:position]
    if last is None:
        raise fail(f'no JSON object carrying "{key}" in the reply')
    return last


def _cut_short(error: json.JSONDecodeError, length: int) -> bool:
    """True when decoding may have failed only because the window ended (a string, literal,
    number or escape cut at its edge), so a wider window could still succeed."""
    return error.msg.startswith("Unterminated string") or error.pos >= length - 16


def canonical(value: Any) -> str:
    """`value` as canonical JSON text, for comparing what two objects of one reply say (a model
    may write any field as any JSON value)."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (ValueError, RecursionError):  # too deep to write back: compared by identity
        return f"<{type(value).__name__} {id(value)}>"


def short(value: Any) -> str:
    """`value` as JSON text of at most 60 characters, for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."
