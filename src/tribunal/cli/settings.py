"""Project settings as click defaults (C-9): a setting is the default of the parameter it is
bound to, so a flag always wins and every command sees the same values. The files are read only
when a command has an option a setting feeds, so `tribunal --help` reads nothing (C-1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import click

from tribunal.paths import find_root
from tribunal.settings import load_settings


@dataclass(frozen=True)
class Binding:
    """Setting `setting` is the default of the click parameter `param` in commands under
    `scope` (a command path such as ("precedent",); () is every command)."""

    setting: str
    param: str
    scope: tuple[str, ...] = ()


# Add a line when a command grows an option that a setting should feed.
BINDINGS: tuple[Binding, ...] = (
    Binding("precedents", "file", ("precedent",)),
    Binding("precedents", "precedents"),
    Binding("fleet", "fleet"),
    Binding("builder", "builder"),
    Binding("templates_dir", "templates"),
    Binding("templates_dir", "templates_dir"),
    Binding("out_dir", "out_dir"),
)


class SettingDefaults(Mapping[str, Any]):
    """A click `default_map` that follows the command tree: `get(<subcommand>)` gives the
    subcommand's defaults, `[param]` the setting bound to that parameter in this scope."""

    def __init__(
        self,
        command: Any,
        path: tuple[str, ...] = (),
        settings: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self.command = command
        self.path = path
        self._settings = settings if settings is not None else _cached_settings()

    def get(self, key: str, default: Any = None) -> Any:
        sub = self._subcommand(key)
        if sub is not None:
            return SettingDefaults(sub, (*self.path, key), self._settings)
        try:
            return self[key]
        except KeyError:
            return default

    def __getitem__(self, key: str) -> Any:
        for binding in BINDINGS:
            if binding.param == key and self.path[: len(binding.scope)] == binding.scope:
                value = self._settings().get(binding.setting)
                if value is not None:
                    return value
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({b.param for b in BINDINGS if b.param in self}))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def _subcommand(self, key: str) -> Any:
        if not isinstance(self.command, click.Group):
            return None
        return self.command.get_command(click.Context(self.command), key)


def _cached_settings() -> Callable[[], dict[str, str]]:
    cache: list[dict[str, str]] = []

    def settings() -> dict[str, str]:
        if not cache:
            cache.append(load_settings(find_root()))
        return cache[0]

    return settings
