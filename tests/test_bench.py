"""DEVELOPERS.md point 6: the benchmarks run (`--quick`); speed itself is reported, not asserted."""

from __future__ import annotations

import subprocess
import sys

from testing import REPO


def test_bench_quick_runs_every_benchmark() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Machine: ")
    measured = {line.split("|")[1].strip() for line in lines if line.startswith("| X-")}
    sys.path.insert(0, str(REPO / "bench"))
    from run import BENCHMARKS

    assert measured == set(BENCHMARKS)
