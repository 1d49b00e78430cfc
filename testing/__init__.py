"""Helpers the test suite shares (as pre-commit keeps its `testing/`): real git repositories and
disputes built in tmp_path, fault-injecting juror servers speaking each provider's protocol on
127.0.0.1, fleets that seat them, and the reader's shell that runs the docs' blocks."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent  # the checkout under test
