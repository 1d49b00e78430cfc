"""The hermetic environment every test runs in (conftest applies it to each test; a module
fixture that builds repositories before any test runs applies it for itself)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def make_hermetic(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """No test reads the user's configuration, keys or git identity: HOME is `home`, every
    TRIBUNAL_*, GIT_* and *_API_KEY variable is dropped, git gets a fixed identity and dates."""
    monkeypatch.setenv("HOME", str(home))
    for name in list(os.environ):
        if name.startswith(("TRIBUNAL_", "GIT_")) or name.endswith("_API_KEY"):
            monkeypatch.delenv(name, raising=False)
    for name, value in GIT_IDENTITY.items():
        monkeypatch.setenv(name, value)
