"""C-9 project configuration: `[tool.tribunal]` in the root's pyproject.toml or tribunal.toml,
then `TRIBUNAL_<SETTING>` environment variables, then flags.

Settings reach commands as click defaults (`default_map`), so a flag always wins and every
command sees the same values. The files are read only when a command has an option a setting
feeds, so `tribunal --help` reads nothing (C-1).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput

PATH_SETTINGS = ("precedents", "fleet", "templates_dir", "out_dir")
SETTINGS = (*PATH_SETTINGS[:2], "builder", *PATH_SETTINGS[2:])
ENV_PREFIX = "TRIBUNAL_"


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


def load_settings(root: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The project's settings: files (paths made absolute from `root`), then environment.

    tribunal.toml wins over pyproject.toml key by key. Raises BadInput for malformed TOML,
    unknown settings or values that are not strings.
    """
    settings: dict[str, str] = {}
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        table = _toml(pyproject, "pyproject.toml").get("tool", {}).get("tribunal", {})
        settings.update(_checked(table, "pyproject.toml", "tool.tribunal", root))
    dedicated = root / "tribunal.toml"
    if dedicated.is_file():
        settings.update(_checked(_toml(dedicated, "tribunal.toml"), "tribunal.toml", "", root))
    environ = os.environ if environ is None else environ
    for name in SETTINGS:
        value = environ.get(ENV_PREFIX + name.upper())
        if value:
            settings[name] = value  # as given, like a flag
    return settings


def _toml(path: Path, label: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise BadInput(f"malformed TOML: {error}", source=label) from None
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"cannot read: {error}", source=label) from None


def _checked(table: Any, label: str, prefix: str, root: Path) -> dict[str, str]:
    from tribunal.documents import first_schema_error

    if not isinstance(table, dict):
        raise BadInput("expected a table of settings", source=label, field=prefix or None)
    error = first_schema_error(table, "config")
    if error is not None:
        message, where = error
        field = ".".join(str(part) for part in (prefix, *where) if part != "")
        raise BadInput(message, source=label, field=field or None)
    return {
        name: str(root / value) if name in PATH_SETTINGS else value for name, value in table.items()
    }


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
        import click

        if not isinstance(self.command, click.Group):
            return None
        return self.command.get_command(click.Context(self.command), key)


def _cached_settings() -> Callable[[], dict[str, str]]:
    cache: list[dict[str, str]] = []

    def settings() -> dict[str, str]:
        if not cache:
            from tribunal.paths import find_root

            cache.append(load_settings(find_root()))
        return cache[0]

    return settings
