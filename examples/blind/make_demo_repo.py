"""Build the blind court's demonstration: a small repository with base -> red -> fix commits and
its review contract, in DIR (default: a fresh temporary directory). Prints DIR.

    python3 examples/blind/make_demo_repo.py blind-demo
    tribunal convene --repo blind-demo/repo --base base --contract blind-demo/contract.yaml \
      --fleet examples/blind/fleet.replay.yaml --builder vendor-a --out blind-demo/run

The project: `calc.py` whose `neg` returns its argument unchanged (base), a test that says it must
negate, committed red-first (tag `red`), then the fix. Commit dates and identity are fixed, so
the commits — and the envelope's receipt — are the same wherever this runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

CALC_BASE = "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return x\n"
CALC_FIXED = "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return -x\n"
OLD_TEST = "import calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n"
RED_TEST = (
    "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == -2\n\n\n"
    "def test_neg_zero():\n    assert calc.neg(0) == 0\n"
)
# {python}: the interpreter tribunal runs on; {tests}: the new test files; {junit}: a report.
# Plugins off: the demonstration needs none, and each proof run starts faster without them.
CONTRACT = """\
intent: neg returns the negation of its argument
criteria:
  - neg(2) == -2
  - neg(0) == 0
red: red
test_command: >-
  PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {python} -m pytest -q -p no:cacheprovider
  {tests} --junitxml={junit}
test_runner: pytest
timeout_s: 120
"""
IDENTITY = {
    "GIT_AUTHOR_NAME": "Demo Maker",
    "GIT_AUTHOR_EMAIL": "maker@example.invalid",
    "GIT_COMMITTER_NAME": "Demo Maker",
    "GIT_COMMITTER_EMAIL": "maker@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
}


def git(repo: Path, *args: str) -> None:
    """Run git in `repo` with the demo's fixed identity and dates."""
    env = {**os.environ, **IDENTITY}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def commit(repo: Path, message: str, files: dict[str, str], tag: str) -> None:
    """Write `files`, commit them as `message`, tag the commit `tag`."""
    for name, text in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    git(repo, "tag", tag)


def build(target: Path) -> Path:
    """The demo in `target`: `repo/` (tags base, red, fix) and `contract.yaml` beside it."""
    repo = target / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "base", {"calc.py": CALC_BASE, "tests/test_add.py": OLD_TEST}, "base")
    commit(repo, "red: neg must negate", {"tests/test_neg.py": RED_TEST}, "red")
    commit(repo, "fix: negate", {"calc.py": CALC_FIXED}, "fix")
    (target / "contract.yaml").write_text(CONTRACT, encoding="utf-8")
    return target


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="blind-demo-"))
    if target.exists() and any(target.iterdir()):
        print(f"make_demo_repo: {target} is not empty", file=sys.stderr)
        return 2
    print(build(target))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
