"""Which files are records (R-6): judgments and precedents.md among the files git tracks.

Under PATH, the files git tracks (outside a git repository: every file), minus the paths matched
by the root's `.tribunalignore` (gitignore syntax) and by `--exclude` globs (the same syntax).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput, TribunalError
from tribunal.frontmatter import has_front_matter_key

IGNORE_FILE = ".tribunalignore"
PRECEDENTS_NAME = "precedents.md"
_SNIFF_BYTES = 64 * 1024  # front matter sits at the top; a judgment's is far shorter than this


@dataclass
class RecordFiles:
    """The records found under a path, as absolute paths in a stable (sorted) order."""

    judgments: list[Path] = field(default_factory=list)
    precedents: list[Path] = field(default_factory=list)


def is_judgment_name(path: Path) -> bool:
    """R-6: `judgment.md` or `*.judgment.md`."""
    return path.name == "judgment.md" or path.name.endswith(".judgment.md")


def find_records(path: Path, root: Path, excludes: tuple[str, ...] = ()) -> RecordFiles:
    """Judgments and precedents files under `path` (see the module doc).

    A judgment is a Markdown file named `judgment.md` / `*.judgment.md`, or one whose front
    matter has a `verdict` key. Raises TribunalError when git cannot list the files.
    """
    root = root.resolve()
    ignored = _ignore_spec(root, excludes)
    found = RecordFiles()
    for file in listed_files(path.resolve(), root):
        relative = file.relative_to(root).as_posix() if _inside(file, root) else file.as_posix()
        if ignored is not None and ignored.match_file(relative):
            continue
        if file.name == PRECEDENTS_NAME:
            found.precedents.append(file)
        elif is_judgment_name(file) or (file.suffix.lower() == ".md" and _has_verdict(file)):
            found.judgments.append(file)
    return found


def listed_files(path: Path, root: Path) -> list[Path]:
    """Files under `path`: those git tracks when `root` is a git work tree, else every file."""
    if not (root / ".git").exists():
        if path.is_file():
            return [path]
        return sorted(
            Path(directory) / name for directory, _, names in os.walk(path) for name in names
        )
    target = path.relative_to(root).as_posix() if _inside(path, root) else str(path)
    completed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--", target or "."],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip()
        raise TribunalError(f"git ls-files failed in {root}: {message}")
    names = sorted(set(filter(None, completed.stdout.decode("utf-8", "replace").split("\0"))))
    return [root / name for name in names if (root / name).is_file()]


def _ignore_spec(root: Path, excludes: tuple[str, ...]) -> Any:
    """The root's `.tribunalignore` and the `--exclude` globs as one GitIgnoreSpec (None: none).

    C-3: a pattern pathspec cannot compile (`a\\`) is BadInput naming its file and line, or the
    option — never an internal error.
    """
    lines: list[str] = []
    ignore_file = root / IGNORE_FILE
    if ignore_file.is_file():
        lines.extend(ignore_file.read_text(encoding="utf-8", errors="replace").splitlines())
        for number, pattern in enumerate(lines, start=1):
            _check_pattern(pattern, source=IGNORE_FILE, line=number)
    for pattern in excludes:
        _check_pattern(pattern, field="--exclude")
    lines.extend(excludes)
    return _compile(lines) if lines else None


def _compile(lines: list[str]) -> Any:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _check_pattern(
    pattern: str, *, source: str | None = None, line: int | None = None, field: str | None = None
) -> None:
    try:
        _compile([pattern])
    except ValueError:  # pathspec's GitIgnorePatternError is a ValueError
        raise BadInput(
            f"{pattern!r} is not a valid gitignore pattern",
            source=source,
            line=line,
            field=field,
        ) from None


def _has_verdict(file: Path) -> bool:
    try:
        with file.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError:
        return False
    return has_front_matter_key(head.decode("utf-8", "replace"), "verdict")


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True
