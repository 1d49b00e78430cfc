"""C-10: how `scripts/*.py` start a tribunal command from a clone, before any install.

Only the standard library is imported here: the point is to say, in one line, which dependency is
missing and the exact command that installs it (exit 2), instead of a traceback.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import NoReturn

# import name -> distribution name (SPEC §1)
DEPENDENCIES = {
    "click": "click",
    "ruamel.yaml": "ruamel.yaml",
    "yaml": "PyYAML",
    "jsonschema": "jsonschema",
    "jinja2": "jinja2",
    "git": "gitpython",
    "httpx": "httpx",
    "filelock": "filelock",
}
CHECKOUT = Path(__file__).resolve().parents[2]  # src/tribunal/launch.py -> the clone


def missing_dependency() -> str | None:
    """The distribution name of the first dependency that cannot be imported, or None."""
    for module, distribution in DEPENDENCIES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return distribution
    return None


def install_command() -> str:
    """The exact command that installs the clone's dependencies, from the working directory."""
    target = os.path.relpath(CHECKOUT, Path.cwd())
    return f"python3 -m pip install -e {'.' if target == '.' else target}"


def launch(command: str, script: str, argv: list[str] | None = None) -> NoReturn:
    """Run `tribunal <command> <argv>` — the same click command — and exit with its code."""
    missing = missing_dependency()
    if missing is not None:
        print(
            f"{script}: error: missing dependency {missing!r}; install with: {install_command()}",
            file=sys.stderr,
        )
        raise SystemExit(2)
    from tribunal.cli import main

    main([command, *(sys.argv[1:] if argv is None else argv)])
    raise SystemExit(0)  # pragma: no cover - click always exits
