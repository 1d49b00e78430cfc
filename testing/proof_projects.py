"""Tiny Python projects in real git repositories with base -> red -> fix commits (B-4 tests).

The project: `calc.py` with `add` (right) and `neg` (wrong at base: it returns x); an old test
of `add`; the red commit adds `tests/test_neg.py`; the fix commit is what each scenario varies.
Suites run with the real `python -m pytest` of the test venv (`{python}`), plugins off and no
cache, so every run is a fraction of a second.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from testing.gitrepo import GitRepo
from tribunal.jury.envelope.contract import Contract, load_contract

PYTEST = (
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {python} -m pytest -q -p no:cacheprovider "
    "{tests} --junitxml={junit}"
)
GENERIC = "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {python} -m pytest -q -p no:cacheprovider {tests}"

CALC_WRONG = "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return x\n"
CALC_RIGHT = "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return -x\n"
OLD_TEST = "import calc\n\n\ndef test_add():\n    assert calc.add(2, 3) == 5\n"
RED_TEST = (
    "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == -2\n\n\n"
    "def test_neg_zero():\n    assert calc.neg(0) == 0\n"
)


@dataclass(frozen=True)
class Change:
    """A repository with its three commits."""

    repo: GitRepo
    base: str
    red: str
    head: str

    @property
    def path(self) -> Path:
        return self.repo.path

    def contract(
        self,
        *,
        command: str | None = PYTEST,
        runner: str = "pytest",
        red: str | None = "",
        timeout_s: float = 60,
    ) -> Contract:
        """A contract for this change, written outside the repository; `red=""` means the
        change's own red commit, None no `red` at all."""
        lines = ["intent: neg returns the negation", "criteria: [neg(2) == -2]"]
        if command is not None:
            lines.append(f"test_command: '{command}'")
        lines.append(f"test_runner: {runner}")
        if red is not None:
            lines.append(f"red: '{red or self.red}'")
        lines.append(f"timeout_s: {timeout_s}")
        path = self.path.parent / f"{self.path.name}-contract.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return load_contract(path, "contract.yaml")

    def worktrees(self) -> list[str]:
        """Every worktree git knows for the repository (the main one only, after proofs)."""
        listing = self.repo.git("worktree", "list", "--porcelain")
        return [line for line in listing.splitlines() if line.startswith("worktree ")]


def change(
    path: Path,
    fix: dict[str, str],
    *,
    red_files: dict[str, str] | None = None,
    base_files: dict[str, str] | None = None,
    remove: tuple[str, ...] = (),
    old_test: bool = True,
) -> Change:
    """base (wrong `neg`, an old passing test unless not `old_test`) -> red (`red_files`,
    default the neg test) -> fix (`fix` written, `remove` deleted)."""
    repo = GitRepo(path)
    old = {"tests/test_old.py": OLD_TEST} if old_test else {}
    base = repo.commit("base", {"calc.py": CALC_WRONG, **old, **(base_files or {})})
    red_files = red_files if red_files is not None else {"tests/test_neg.py": RED_TEST}
    red = repo.commit("red", red_files)
    head = repo.commit("fix", fix, remove=remove)
    return Change(repo, base, red, head)


def alive(pid: int) -> bool:
    """True while `pid` still runs 5 s after it was killed (SIGKILL lands asynchronously; a
    zombie waiting for its reaper does not run)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except FileNotFoundError:
            return False
        if "\nState:\tZ" in status:
            return False
        time.sleep(0.01)
    return True
