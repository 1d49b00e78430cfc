"""The benchmarks run (`--quick`); speed itself is measured by `bench/run.py` and reported in
docs/benchmarks.md, never asserted by a test."""

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
    sys.path.insert(0, str(REPO / "bench"))
    from run import BENCHMARKS

    header = lines.index("| name | what | measured | target | met |")
    rows = [line.split("|")[1].strip() for line in lines[header + 2 :] if line.startswith("| ")]
    assert set(rows) == set(BENCHMARKS)
