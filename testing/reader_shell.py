"""A page's shell blocks run the way its reader runs them: pasted into bash from the root of a
fresh copy of the checkout. Install steps are checked against pyproject.toml instead of re-run,
and the test command against .ci/run (it is what is running now); every other line runs.

The script `reader_script` builds names each block on stderr before running it, checks after
each one that the shell is still in the directory the reader started from, and prints `FINISHED`
last — a block that exits the shell never gets there.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from testing.checkout import copy_checkout
from testing.hermetic import GIT_IDENTITY
from testing.markdown_page import Fence

INSTALL = re.compile(r"^python3 -m pip install (?P<args>.+)$")
TEST_COMMAND = re.compile(r"^python3 -m pytest\b")
FINISHED = "reader_shell: every block ran"
BLOCK_MARK = "reader_shell: block at "
LEFT_HOME = 97  # the exit status of a script whose block left the starting directory


def check_install(args: str, repo: Path) -> None:
    """`-e .` or `-e '.[extra]'`: the line installs the checkout, and its extras exist in
    pyproject.toml; raises AssertionError otherwise."""
    words = shlex.split(args)
    assert words[0] == "-e", f"install lines install the checkout: {args}"
    match = re.fullmatch(r"\.(?:\[(?P<extras>[a-z,]+)\])?", words[1])
    assert match, f"unexpected install target {words[1]!r}"
    pyproject = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))
    declared = pyproject["project"].get("optional-dependencies", {})
    for extra in (match["extras"] or "").split(","):
        if extra:
            assert extra in declared, f"the page installs extra {extra!r} that pyproject lacks"


def runnable(block: str, repo: Path) -> str:
    """The block with its install steps and the test command checked and removed."""
    ci = (repo / ".ci" / "run").read_text(encoding="utf-8")
    kept: list[str] = []
    for line in block.splitlines():
        parts = [part.strip() for part in line.split("&&")]
        rest: list[str] = []
        for part in parts:
            if (install := INSTALL.match(part)) is not None:
                check_install(install["args"], repo)
            elif TEST_COMMAND.match(part):
                assert part in ci, f".ci/run must run the page's test command: {part}"
            else:
                rest.append(part)
        if rest:
            kept.append(" && ".join(rest))
    return "\n".join(kept) + "\n"


def reader_script(page_name: str, blocks: Sequence[Fence], repo: Path) -> str:
    """One bash script that runs `blocks` in order, as one reader's shell would."""
    parts = ['reader_shell_home="$PWD"']
    for fence in blocks:
        where = shlex.quote(f"{page_name}:{fence.line}")
        parts.append(f"printf '%s%s\\n' {shlex.quote(BLOCK_MARK)} {where} >&2")
        parts.append(runnable(fence.body, repo))
        parts.append(
            f'[ "$PWD" = "$reader_shell_home" ] || {{ printf "%s: %s\\n" {where}'
            ' "this block leaves the shell in $PWD, not where the reader started" >&2;'
            f" exit {LEFT_HOME}; }}"
        )
    parts.append(f"printf '%s\\n' {shlex.quote(FINISHED)}")
    return "\n".join(parts) + "\n"


def run_as_reader(script: str, repo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`script` run by `bash -euo pipefail` in a fresh copy of `repo` under `tmp_path`, with this
    interpreter's `python3` and `tribunal` first on PATH."""
    checkout = copy_checkout(repo, tmp_path)
    shim = tmp_path / "bin"
    shim.mkdir()
    # A wrapper, not a symlink: a symlinked venv interpreter outside the venv's bin/ finds no
    # pyvenv.cfg and runs without the venv's packages, so `python3 scripts/...` would miss them.
    wrapper = shim / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    # A reader's git may have no identity: each block that commits brings its own. Without the
    # suite's identity, and with git told not to guess one from the host name, a block that
    # commits without it fails on every machine.
    env = {
        name: value
        for name, value in os.environ.items()
        if not (name in GIT_IDENTITY and name.endswith(("_NAME", "_EMAIL")))
    }
    env.update(
        GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="user.useConfigOnly", GIT_CONFIG_VALUE_0="true"
    )
    env["PATH"] = os.pathsep.join([str(shim), str(Path(sys.executable).parent), env["PATH"]])
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=checkout,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def reader_failure(result: subprocess.CompletedProcess[str]) -> str | None:
    """None when every block ran; else which block stopped the shell, how, and its output."""
    if result.returncode == 0 and result.stdout.endswith(FINISHED + "\n"):
        return None
    marks = [line for line in result.stderr.splitlines() if line.startswith(BLOCK_MARK)]
    block = marks[-1].removeprefix(BLOCK_MARK) if marks else "(none: it stopped before the first)"
    if result.returncode == 0:
        how = "the shell ended (exit 0) before the last block was done: does a block exit?"
    else:
        how = f"exit {result.returncode}"
    return (
        f"the shell stopped in the block at {block}: {how}\n"
        f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
