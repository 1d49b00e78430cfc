"""X-2: the envelope benchmark runs (`--quick`); speed itself is reported, not asserted."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_envelope_bench_quick_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "envelope_x2.py"), "--quick"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("X-2: 5 changed files of 20 KB in 400 files: build_envelope ")
