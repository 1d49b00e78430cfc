"""The files of the checkout as a fresh clone has them: what git tracks, plus new files not
ignored (so a file added but not yet committed counts), or the whole tree outside git."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

SKIPPED = (".venv", ".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache")


def tracked_files(repo: Path) -> list[str]:
    """The checkout's file names relative to `repo`, with `/`, sorted."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=repo,
        capture_output=True,
        check=False,
    )
    if listed.returncode == 0:
        names = filter(None, listed.stdout.decode("utf-8").split("\0"))
        return sorted(name for name in names if (repo / name).is_file())
    return sorted(
        path.relative_to(repo).as_posix()
        for path in repo.rglob("*")
        if path.is_file() and not set(path.relative_to(repo).parts) & set(SKIPPED)
    )


def copy_checkout(repo: Path, target: Path) -> Path:
    """A copy of the checkout's files in `target/checkout`, as a fresh user gets them; returns
    its path."""
    dest = target / "checkout"
    for name in tracked_files(repo):
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, dest / name)
    dest.mkdir(parents=True, exist_ok=True)
    return dest
