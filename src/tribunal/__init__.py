"""tribunal: turn a disputed change into a reproducible verdict kept as files in the repository."""

from __future__ import annotations

__version__ = "0.1.0"
