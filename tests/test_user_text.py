"""Requirement IDs are for maintainers (code comments, tests, commits, tests/requirement_index.md):
no `--help`, no message, no console line and no generated file carries one. Every command has
help text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from testing import REPO

from tribunal.cli import cli

# SPEC's requirement IDs (T-4, B-1, L-10 ...) and section marks (SPEC §11).
REQUIREMENT_ID = re.compile(r"(?<![\w-])(?:[TRELVBAPCXSWK]-[0-9]{1,2}|SPEC §?\d+)(?!\w)")
SOURCE = REPO / "src" / "tribunal"


def commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    ctx = click.Context(group)
    found: list[tuple[str, ...]] = [path]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            found += commands(command, (*path, name))
        elif command is not None:
            found.append((*path, name))
    return found


@pytest.mark.parametrize("path", commands(), ids=lambda path: " ".join(path) or "tribunal")
def test_every_command_has_help_without_requirement_ids(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    described = result.output.partition("\n\n")[2]
    assert described.strip(), f"{' '.join(path)} has no help text"
    assert REQUIREMENT_ID.findall(result.output) == []


def user_facing_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module a user may read: every one but the docstrings of modules,
    classes and functions that are not click commands (a command's docstring is its help)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    internal: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            decorators = getattr(node, "decorator_list", [])
            command = any(
                "command" in ast.unparse(d) or "group" in ast.unparse(d) for d in decorators
            )
            if not command:
                internal.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in internal
    ]


def test_no_message_or_generated_text_names_a_requirement_id() -> None:
    hits = [
        f"{path.relative_to(REPO)}:{line}: {REQUIREMENT_ID.search(text)[0]}"  # type: ignore[index]
        for path in sorted(SOURCE.rglob("*.py"))
        for line, text in user_facing_strings(path)
        if REQUIREMENT_ID.search(text)
    ]
    for template in sorted((REPO / "templates").glob("*.j2")):
        rendered_part = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)
        hits += [
            f"{template.relative_to(REPO)}: {hit}" for hit in REQUIREMENT_ID.findall(rendered_part)
        ]
    assert hits == []


def test_the_scan_finds_an_id_where_one_is_written(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        '"""Docstring of a module: B-1 is fine here."""\n'
        'def f():\n    """Internal: fine, L-2."""\n    raise ValueError("bad input (C-3)")\n',
        encoding="utf-8",
    )
    found = [text for _, text in user_facing_strings(module) if REQUIREMENT_ID.search(text)]
    assert found == ["bad input (C-3)"]
