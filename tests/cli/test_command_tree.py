"""The command line is an interface scripts and CI jobs drive exactly as written: every command,
its parameters, whether each is required, its type and its default are frozen in a golden file.

Moving code behind the commands must never change this tree. Adding a command or an optional
parameter is fine: regenerate the golden (`python -m tests.cli.test_command_tree --write`) in a
commit that says so. Help texts are not part of it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from tribunal.cli import cli

GOLDEN = Path(__file__).with_name("command_tree.json")


def _type(param: click.Parameter) -> dict[str, Any]:
    kind = param.type
    described: dict[str, Any] = {"name": kind.name}
    if isinstance(kind, click.Choice):
        described["choices"] = list(kind.choices)
    if isinstance(kind, click.IntRange | click.FloatRange):
        described |= {"min": kind.min, "max": kind.max}
    if isinstance(kind, click.Path):
        described |= {"exists": kind.exists, "file_okay": kind.file_okay, "dir_okay": kind.dir_okay}
    return described


def _default(param: click.Parameter) -> Any:
    default = param.default
    if callable(default):
        return "<callable>"
    if isinstance(default, tuple):
        return list(default)
    if default is None or isinstance(default, str | int | float | bool | list):
        return default
    return repr(default)


def _param(param: click.Parameter) -> dict[str, Any]:
    described: dict[str, Any] = {
        "name": param.name,
        "kind": param.param_type_name,
        "opts": list(param.opts),
        "secondary_opts": list(param.secondary_opts),
        "required": param.required,
        "type": _type(param),
        "default": _default(param),
        "multiple": param.multiple,
        "nargs": param.nargs,
    }
    if isinstance(param, click.Option):
        described |= {"is_flag": param.is_flag, "count": param.count}
    return described


def command_tree(command: click.Command = cli, name: str = "tribunal") -> dict[str, Any]:
    """Every command under `command`, by name, with its parameters (help texts left out)."""
    ctx = click.Context(command, info_name=name)
    described: dict[str, Any] = {"params": [_param(param) for param in command.params]}
    if isinstance(command, click.Group):
        described["commands"] = {
            sub: command_tree(found, sub)
            for sub in command.list_commands(ctx)
            if (found := command.get_command(ctx, sub)) is not None
        }
    return described


def test_the_command_tree_is_unchanged() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert command_tree() == golden, (
        "the command line changed; if on purpose (a new command or optional parameter), "
        "regenerate with: python -m tests.cli.test_command_tree --write"
    )


def test_the_golden_names_every_command() -> None:
    names = set(command_tree()["commands"])
    assert {"convene", "envelope", "judgment", "precedent", "records"} <= names


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        text = json.dumps(command_tree(), indent=2, sort_keys=True) + "\n"
        GOLDEN.write_text(text, encoding="utf-8")
        print(f"wrote {GOLDEN}")
