"""Shared test setup: hermetic environment, derandomized hypothesis in CI."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from testing.hermetic import make_hermetic

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _hermetic(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """No test reads the user's configuration, keys or git identity."""
    make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
    yield
