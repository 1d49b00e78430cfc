"""Named pause points for crash and concurrency tests (C-4, S-4).

A test makes a subprocess stop at a named point — `TRIBUNAL_PAUSE_AT=<name>` — to kill it there
with SIGKILL, or to widen a race window. At the point the process touches the file named by
`TRIBUNAL_PAUSE_MARKER` (if set), then sleeps `TRIBUNAL_PAUSE_SECONDS` (default 60). Unset, a
pause point costs one dictionary lookup.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def pause_point(name: str) -> Callable[[], None] | None:
    """The pause for point `name` when the environment asks for it, else None."""
    if os.environ.get("TRIBUNAL_PAUSE_AT") != name:
        return None

    def pause() -> None:
        marker = os.environ.get("TRIBUNAL_PAUSE_MARKER")
        if marker:
            Path(marker).touch()
        time.sleep(float(os.environ.get("TRIBUNAL_PAUSE_SECONDS", "60")))

    return pause


def pause_here(name: str) -> None:
    """Pause now if the environment names point `name`."""
    pause = pause_point(name)
    if pause is not None:
        pause()
