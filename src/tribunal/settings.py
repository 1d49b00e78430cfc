"""C-9 project settings: `[tool.tribunal]` in the root's pyproject.toml or tribunal.toml, then
`TRIBUNAL_<SETTING>` environment variables (flags win over both; the command line applies them
as click defaults, see `tribunal.cli.settings`).

Also the scratch directories of a root (T-1, R-1): `out`, and the `out_dir` setting.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.paths import SCRATCH_DIRS

PATH_SETTINGS = ("precedents", "fleet", "templates_dir", "out_dir")
SETTINGS = (*PATH_SETTINGS[:2], "builder", *PATH_SETTINGS[2:])
ENV_PREFIX = "TRIBUNAL_"


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
    except ValueError:  # tomllib converts an integer longer than Python allows, and fails
        raise BadInput("malformed TOML: an integer too long to read", source=label) from None


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


def scratch_dirs(root: Path) -> tuple[str, ...]:
    """The root-relative scratch directories: `out` (T-1), and the `out_dir` setting (C-9) when
    it lies inside `root`. Raises BadInput for a malformed configuration file."""
    dirs = list(SCRATCH_DIRS)
    configured = load_settings(root).get("out_dir")
    if configured:
        try:
            relative = Path(configured).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            relative = ""  # outside the repository: no evidence_ref can point there anyway
        if relative not in ("", ".") and relative not in dirs:
            dirs.append(relative)
    return tuple(dirs)
