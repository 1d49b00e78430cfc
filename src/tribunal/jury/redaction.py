"""L-8, S-6: no API key value ever appears in a file, log, `raw_tail` or message.

Keys come only from the environment. Every text a transport hands back — the reply, the raw
tail, an error message — passes through `redact` with the keys that rung could have sent, so a
server that echoes the key back (in a reply or an error body) cannot plant it in a record.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterable

REDACTED = "[redacted]"
RAW_TAIL_BYTES = 2048  # L-6: a rejected rung keeps at most 2 KB of its reply


def redact(text: str, secrets: Iterable[str], *, cut: bool = False) -> str:
    """`text` with every occurrence of each secret (as sent, JSON-escaped or URL-quoted)
    replaced by `[redacted]`.

    `cut=True` says `text` was cut off at its end (a reply read no further than its cap): a
    trailing piece that begins a secret is masked too, so a key straddling the cut cannot leak
    its first half. Returns the redacted text.
    """
    forms = sorted(
        {form for secret in secrets if secret for form in _forms(secret)}, key=len, reverse=True
    )
    for form in forms:  # longest first: a key containing another key is masked whole
        text = text.replace(form, REDACTED)
    if cut:
        for form in forms:
            for size in range(len(form) - 1, 0, -1):
                if text.endswith(form[:size]):
                    text = text[:-size] + REDACTED
                    break
    return text


def raw_tail(text: str, secrets: Iterable[str], *, cut: bool = False) -> str:
    """The last 2 KB (UTF-8) of `text` after redaction (L-6 `raw_tail`). Redacting comes first
    so the tail can never start in the middle of a key."""
    shown = redact(text, secrets, cut=cut)
    # A lone surrogate (text a model or a parser let through) cannot be written as UTF-8: "?".
    data = shown.encode("utf-8", errors="replace")
    if len(data) <= RAW_TAIL_BYTES:
        return data.decode("utf-8")
    # A cut inside a multi-byte character drops that character's leftover bytes.
    return data[-RAW_TAIL_BYTES:].decode("utf-8", errors="ignore")


def _forms(secret: str) -> set[str]:
    """The spellings a server could echo a key in: as sent, inside a JSON string (with or
    without `/` escaped), URL-quoted."""
    escaped = json.dumps(secret)[1:-1]
    return {secret, escaped, escaped.replace("/", "\\/"), urllib.parse.quote(secret, safe="")}
