"""DEVELOPERS.md point 1: the README's shell blocks run verbatim in a temporary copy.

Install steps are checked against pyproject.toml instead of re-run; the test command is checked
against .ci/run instead of re-run (it is what is running now).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

FENCE = re.compile(r"^```(?P<lang>bash|sh)\n(?P<body>.*?)^```", re.M | re.S)
INSTALL = re.compile(r"^python3 -m pip install (?P<args>.+)$")
TEST_COMMAND = re.compile(r"^python3 -m pytest\b")


def readme_blocks() -> list[str]:
    return [m["body"] for m in FENCE.finditer((REPO / "README.md").read_text(encoding="utf-8"))]


def check_install(args: str) -> None:
    """`-e .` or `-e '.[extra]'`: the extras must exist in pyproject.toml."""
    words = shlex.split(args)
    assert words[0] == "-e", f"install lines install the checkout: {args}"
    match = re.fullmatch(r"\.(?:\[(?P<extras>[a-z,]+)\])?", words[1])
    assert match, f"unexpected install target {words[1]!r}"
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    declared = pyproject["project"].get("optional-dependencies", {})
    for extra in (match["extras"] or "").split(","):
        if extra:
            assert extra in declared, f"README installs extra {extra!r} that pyproject lacks"


def runnable(block: str) -> str:
    """The block with install steps and the test command checked and removed."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    kept: list[str] = []
    for line in block.splitlines():
        parts = [part.strip() for part in line.split("&&")]
        rest: list[str] = []
        for part in parts:
            if (install := INSTALL.match(part)) is not None:
                check_install(install["args"])
            elif TEST_COMMAND.match(part):
                assert part in ci, f".ci/run must run the README's test command: {part}"
            else:
                rest.append(part)
        if rest:
            kept.append(" && ".join(rest))
    return "\n".join(kept) + "\n"


def copy_checkout(target: Path) -> Path:
    """A copy of the files git tracks (or the whole tree outside git), as a fresh user gets."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=False,
    )
    dest = target / "checkout"
    if listed.returncode == 0:
        for name in filter(None, listed.stdout.decode().split("\0")):
            source = REPO / name
            if source.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, dest / name)
    else:
        shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__"))
    return dest


def test_readme_has_both_commands() -> None:
    blocks = readme_blocks()
    joined = "\n".join(blocks)
    assert re.search(r"^python3 -m pip install -e \. && ", joined, re.M), "main-job command"
    assert re.search(r"^python3 -m pip install -e '\.\[test\]' && python3 -m pytest$", joined, re.M)


@pytest.mark.parametrize("index", range(len(readme_blocks())))
def test_readme_block_runs(index: int, tmp_path: Path) -> None:
    script = runnable(readme_blocks()[index])
    checkout = copy_checkout(tmp_path)
    shim = tmp_path / "bin"
    shim.mkdir()
    # A wrapper, not a symlink: a symlinked venv interpreter outside the venv's bin/ finds no
    # pyvenv.cfg and runs without the venv's packages, so `python3 scripts/...` would miss them.
    wrapper = shim / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(shim), str(Path(sys.executable).parent), env["PATH"]])
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, (
        f"README block {index} failed ({result.returncode}):\n{script}\n"
        f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
