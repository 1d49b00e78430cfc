"""X-4: commands over thousands of case files (duel, matrix) run without the cycle collector.

Such a run builds about a million small, long-lived objects (parsed cases, bindings, results)
and none of them in a reference cycle, so CPython's cyclic garbage collector would only walk
them again and again while they are built (a tenth of a 10,000-case duel). Reference counting
still frees everything as usual; the collector is switched back on when the command ends.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def bulk_work() -> Iterator[None]:
    """Pause the cyclic garbage collector for the `with` block (restored as it was found)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
