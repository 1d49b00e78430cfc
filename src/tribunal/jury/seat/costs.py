"""B-1 `costs`: what each rung's answered calls used, as the servers reported it.

A sitting's `CostBook` is shared by every seat thread (L-9), so it takes a lock. A token count a
server did not report stays unknown (None, `null` in summary.json) — never 0, never a guess
(L-3) — and a rung's `usd` is unknown as soon as one of its counts is, or when the rung declares
no `cost` (L-1).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tribunal.jury.fleet import Rung
from tribunal.jury.transports import Usage

USD_DIGITS = 9  # C-6: a fixed rounding, so float noise never reaches summary.json


@dataclass(frozen=True)
class RungUsage:
    """The sum over one rung's answered calls; a count is None once any call left it out."""

    calls: int = 0
    prompt_tokens: int | None = 0
    completion_tokens: int | None = 0

    def plus(self, usage: Usage) -> RungUsage:
        """This sum with one more answered call using `usage`."""
        return RungUsage(
            calls=self.calls + 1,
            prompt_tokens=_add(self.prompt_tokens, usage.prompt_tokens),
            completion_tokens=_add(self.completion_tokens, usage.completion_tokens),
        )


class CostBook:
    """Per rung id, the usage of every answered call of one sitting (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rungs: dict[str, RungUsage] = {}

    def record(self, rung: str, usage: Usage) -> None:
        """Count one answered call of `rung` using `usage`."""
        with self._lock:
            self._rungs[rung] = self._rungs.get(rung, RungUsage()).plus(usage)

    def usage(self, rung: str) -> RungUsage:
        """What `rung` used so far (zero calls when it never answered)."""
        with self._lock:
            return self._rungs.get(rung, RungUsage())


def costs_document(rungs: Iterable[Rung], book: CostBook) -> dict[str, Any]:
    """The `costs` object of summary.json: one entry per rung in fleet order, `{calls,
    prompt_tokens, completion_tokens, usd}`, then `total_usd` — the sum over the rungs that
    answered, None when any of them has an unknown `usd`."""
    document: dict[str, Any] = {}
    total: float | None = 0.0
    for rung in rungs:
        used = book.usage(rung.id)
        usd = _usd(rung, used)
        document[rung.id] = {
            "calls": used.calls,
            "prompt_tokens": used.prompt_tokens,
            "completion_tokens": used.completion_tokens,
            "usd": usd,
        }
        if used.calls:
            total = None if total is None or usd is None else total + usd
    document["total_usd"] = None if total is None else round(total, USD_DIGITS)
    return document


def _usd(rung: Rung, used: RungUsage) -> float | None:
    """L-1: prompt/1e6 * input_per_mtok + completion/1e6 * output_per_mtok; None without a
    declared `cost` (or one of its two prices) or with a count the server did not report."""
    cost = rung.cost or {}
    prompt_price, completion_price = cost.get("input_per_mtok"), cost.get("output_per_mtok")
    if prompt_price is None or completion_price is None:
        return None
    if used.prompt_tokens is None or used.completion_tokens is None:
        return None
    spent = (used.prompt_tokens * prompt_price + used.completion_tokens * completion_price) / 1e6
    return round(spent, USD_DIGITS)


def _add(total: int | None, count: int | None) -> int | None:
    return None if total is None or count is None else total + count
