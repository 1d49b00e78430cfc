"""Option sets shared by several commands (STYLE: reusable option sets are decorators)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

F = TypeVar("F", bound=Callable[..., object])


def spec_and_cases(function: F) -> F:
    """`--spec` and `--cases`, as `tribunal duel` and `tribunal matrix` take them (T-1)."""
    function = click.option(
        "--cases",
        "cases_dir",
        required=True,
        type=click.Path(path_type=Path),
        help="Directory of case files (*.json, *.yaml, *.yml directly in it, read in name order).",
    )(function)
    return click.option(
        "--spec",
        "spec_path",
        required=True,
        type=click.Path(path_type=Path),
        help="The spec YAML (e.g. specs/autoscale_spec.yaml).",
    )(function)


def out_file(what: str) -> Callable[[F], F]:
    """`--out FILE`: where a command writes `what` (parents created; overwritten, T-1)."""

    def decorate(function: F) -> F:
        return click.option(
            "--out",
            "out_path",
            required=True,
            type=click.Path(path_type=Path),
            help=f"Where to write {what} (parent directories are created; overwritten).",
        )(function)

    return decorate


def fleet_and_builder(function: F) -> F:
    """`--fleet` and `--builder`, as `ladder`, `seat` and `convene` take them (L-1, L-2); both may
    come from the project settings (C-9)."""
    function = click.option(
        "--builder",
        required=True,
        help="The model or family that built the change (a rung id, model id or family): "
        "every rung of its family is refused before any dispatch.",
    )(function)
    return click.option(
        "--fleet",
        required=True,
        type=click.Path(dir_okay=False, path_type=Path),
        help="Fleet file (YAML): rungs, tiers, lenses.",
    )(function)


def change_range(function: F) -> F:
    """`--repo`, `--base`, `--head`: the change judged, as `envelope` and `convene` take it — a
    commit range read from git objects, never the working tree (E-1, B-6)."""
    function = click.option(
        "--head",
        default="HEAD",
        show_default=True,
        help="The commit judged (read from git objects, never the working tree).",
    )(function)
    function = click.option(
        "--base", required=True, help="The revision the change is measured from."
    )(function)
    return click.option(
        "--repo",
        required=True,
        type=click.Path(file_okay=False, path_type=Path),
        help="The git repository holding the change.",
    )(function)
