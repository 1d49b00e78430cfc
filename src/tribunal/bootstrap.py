"""C-10: the tutorial's `scripts/*.py` run from a clone, before the package is installed.

A script puts `src/` on `sys.path` and calls `run_script`, which checks the dependencies first
(a missing one is one line with the exact install command, exit 2) and then runs the very same
click command as `tribunal <name>` (T-1). Only the standard library is imported here, because the
point is to report what is missing.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path
from typing import NoReturn

# The import names of the dependencies the tutorial track needs (SPEC §1).
TUTORIAL_MODULES = ("click", "ruamel.yaml", "yaml", "jsonschema", "jinja2")

CHECKOUT = Path(__file__).resolve().parents[2]


def missing_module(modules: tuple[str, ...] = TUTORIAL_MODULES) -> str | None:
    """The first of `modules` that cannot be imported, or None when all can."""
    for name in modules:
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # the parent package of a dotted name is missing
            found = None
        if found is None:
            return name
    return None


def install_command() -> str:
    """The exact command that installs the dependencies of this checkout."""
    target = "." if Path.cwd().resolve() == CHECKOUT else shlex.quote(os.fspath(CHECKOUT))
    return f"python3 -m pip install -e {target}"


def run_script(command: str, argv: list[str] | None = None) -> NoReturn:
    """Run `tribunal <command> <argv>` (default argv: this process's arguments); never returns."""
    script = Path(sys.argv[0]).name
    missing = missing_module()
    if missing is not None:
        print(
            f"{script}: error: missing dependency {missing!r}; install with: {install_command()}",
            file=sys.stderr,
        )
        sys.exit(2)
    from tribunal.cli import cli

    args = [command, *(sys.argv[1:] if argv is None else argv)]
    cli.main(args=args, prog_name="tribunal")
    sys.exit(0)  # click's main exits itself; this line only satisfies NoReturn
