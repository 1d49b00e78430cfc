"""L-3, E-4: how many tokens a seat's prompt is taken to need — the one estimate routing,
`tribunal ladder` and the walk all check capacity with, and the one capacity formula."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tribunal.documents import load_json

if TYPE_CHECKING:
    from tribunal.jury.envelope.text import ExampleCitation

# L-3: the answer budget (max_output_tokens) of a rung that declares none.
DEFAULT_ANSWER_TOKENS = 4096


def tokens_for_bytes(size: int) -> int:
    """E-4: a text of `size` UTF-8 bytes is taken to need bytes / 2 tokens, rounded up
    (conservative for code, CJK and encoded blobs)."""
    return (size + 1) // 2


def estimate_tokens(text: str) -> int:
    """E-4: the token estimate of `text` (its UTF-8 bytes / 2, rounded up)."""
    return tokens_for_bytes(len(text.encode("utf-8")))


def holds(context_tokens: int | None, tokens: int, answer_budget: int) -> bool:
    """L-3: True when a context of `context_tokens` (None: unknown, holds anything) holds a
    `tokens` prompt plus the `answer_budget` — the one capacity formula."""
    return context_tokens is None or tokens + answer_budget <= context_tokens


def lens_prompt_tokens(
    envelope_bytes: int,
    *,
    tier: str,
    lens: str,
    question: str,
    preamble: str | None = None,
    example: ExampleCitation | None = None,
) -> int:
    """L-3: the estimate of the prompt `render_prompt` builds for `lens` over an envelope.md of
    `envelope_bytes` bytes whose example citation is `example` (E-5) — exactly what the walk
    estimates (the fence nonce has a fixed length), so `tribunal ladder` seats only what the
    walk would."""
    from tribunal.jury.prompt import render_prompt

    frame = render_prompt(
        tier=tier, lens=lens, question=question, envelope="", preamble=preamble, example=example
    )
    # With no envelope the frame holds one "\n" where envelope.md (ending in one) would go.
    return tokens_for_bytes(envelope_bytes + len(frame.encode("utf-8")) - 1)


def envelope_bytes(directory: Path, label: str | None = None) -> int:
    """The size in bytes of `directory/envelope.md` (E-1); when only `manifest.json` is there,
    the most bytes its `tokens_estimate` can stand for (2 x estimate + 1, E-4).

    Raises `BadInput` naming the manifest when it is missing, malformed, or has no non-negative
    integer `tokens_estimate`.
    """
    from tribunal.jury.envelope.text import ENVELOPE_NAME

    estimate = tokens_from_envelope(directory, label)
    text = Path(directory) / ENVELOPE_NAME
    if text.is_file():
        return text.stat().st_size
    return 2 * estimate + 1


def tokens_from_envelope(directory: Path, label: str | None = None) -> int:
    """`tokens_estimate` of `directory/manifest.json` (E-1, E-4).

    Returns the estimate; raises `BadInput` naming the manifest when it is missing, malformed,
    or has no non-negative integer `tokens_estimate`.
    """
    path = Path(directory) / "manifest.json"
    document = load_json(path, label if label is not None else str(path))
    data = document.data
    estimate = data.get("tokens_estimate") if isinstance(data, dict) else None
    if isinstance(estimate, bool) or not isinstance(estimate, int) or estimate < 0:
        raise document.bad(
            "must be a non-negative integer (is this an envelope directory?)",
            ("tokens_estimate",),
        )
    return estimate
