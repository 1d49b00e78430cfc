"""T-8: `bash smoke_all.sh` — the README's main job — passes on the shipped data and fails when
its output drifts from the goldens."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from testing import REPO
from testing.checkout import copy_checkout


def run_smoke(checkout: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    shim = tmp_path / "bin"
    shim.mkdir(exist_ok=True)
    wrapper = shim / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    env = {**os.environ, "PATH": os.pathsep.join([str(shim), os.environ["PATH"]])}
    return subprocess.run(
        ["bash", "smoke_all.sh"], cwd=checkout, env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip


def test_smoke_all_passes(tmp_path: Path) -> None:
    result = run_smoke(REPO, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "smoke_all: PASS"


def test_smoke_all_fails_when_the_judgment_drifts(tmp_path: Path) -> None:
    checkout = copy_checkout(REPO, tmp_path)
    golden = checkout / "tests" / "golden" / "judgment.md"
    golden.write_text(golden.read_text(encoding="utf-8").replace("APPROVE", "DENY", 1))
    result = run_smoke(checkout, tmp_path)
    assert result.returncode == 1
    assert "smoke_all: FAIL: out/judgment.md differs" in result.stderr


def test_smoke_all_fails_when_a_negative_fixture_passes(tmp_path: Path) -> None:
    checkout = copy_checkout(REPO, tmp_path)
    shutil.rmtree(checkout / "tests" / "fixtures" / "got_through")
    shutil.copytree(checkout / "cases", checkout / "tests" / "fixtures" / "got_through")
    result = run_smoke(checkout, tmp_path)
    assert result.returncode == 1
    assert "expected exit 1 from" in result.stderr
