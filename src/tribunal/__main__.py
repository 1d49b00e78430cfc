"""`python -m tribunal` runs the CLI."""

from __future__ import annotations

from tribunal.cli import main

main()
