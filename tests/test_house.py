"""The house's contracts cover the whole package: every top-level module and package of
`tribunal` sits in exactly one layer of the import-linter contract, and every layer below the
command line is forbidden to import click. (lint-imports itself checks the arrows; a module left
out of every layer would be checked by nothing.)"""

from __future__ import annotations

import tomllib

from testing import REPO

PACKAGE = REPO / "src" / "tribunal"
ENTRY_POINTS = {"tribunal.launch", "tribunal.__main__"}


def contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    found = config["tool"]["importlinter"]["contracts"]
    return {str(contract["id"]): contract for contract in found}


def top_level_modules() -> set[str]:
    names = {f"tribunal.{path.stem}" for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    names |= {
        f"tribunal.{path.name}" for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()
    }
    return names


def layer_members(layer: str) -> list[str]:
    return [name.strip().strip("()") for part in layer.split("|") for name in part.split(":")]


def test_every_top_level_module_sits_in_exactly_one_layer() -> None:
    layers = contracts()["layers"]["layers"]
    assert isinstance(layers, list)
    named = [member for layer in layers for member in layer_members(str(layer))]
    assert sorted(named) == sorted(set(named)), "a module is named in two layers"
    assert set(named) == top_level_modules()


def test_everything_below_the_command_line_is_forbidden_click() -> None:
    forbidden = contracts()["click"]
    assert forbidden["forbidden_modules"] == ["click"]
    below = top_level_modules() - ENTRY_POINTS - {"tribunal.cli"}
    source = forbidden["source_modules"]
    assert isinstance(source, list)
    assert set(source) == below
