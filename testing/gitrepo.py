"""Real git repositories in tmp_path for tests (identity and dates come from conftest's env)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


class GitRepo:
    """A throwaway repository: write files, commit, and run git, all for real."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run git in the repository and return its stdout as text."""
        return self.git_bytes(*args, env=env).decode("utf-8")

    def git_bytes(self, *args: str, env: dict[str, str] | None = None) -> bytes:
        """Run git in the repository and return its stdout as bytes."""
        full_env = {**os.environ, **(env or {})}
        return subprocess.run(
            ["git", *args], cwd=self.path, env=full_env, capture_output=True, check=True
        ).stdout

    def write(self, relative: str, content: str | bytes) -> Path:
        """Write a file (parents created) without staging it."""
        path = self.path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    def commit(
        self,
        message: str,
        files: dict[str, str | bytes] | None = None,
        *,
        remove: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> str:
        """Write `files`, delete `remove`, stage everything, commit; return the commit id."""
        for relative, content in (files or {}).items():
            self.write(relative, content)
        for relative in remove:
            (self.path / relative).unlink()
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, env=env)
        return self.git("rev-parse", "HEAD").strip()
