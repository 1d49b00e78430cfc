"""Evidence before claims (P-5): before any panel member sits, tribunal itself runs every
verification command of the criteria at head, in a temporary worktree, each under the criteria's
`timeout_s` cap — the executor's claimed output is never evidence.

Each run keeps its exit code and the last 8 KB of its output (`verification.json`). A command
that exits non-zero failed (a blocker finding of the lens `harness`, `verification_failed`); one
that hit the cap or was ended by a signal could not run cleanly, and the outcome is INVALID.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.evidence.proofs.capped import run_capped
from tribunal.evidence.proofs.repo import ProofRepo

OUTPUT_TAIL_BYTES = 8 * 1024  # P-5: the output tail recorded
VERIFICATION_NAME = "verification.json"


@dataclass(frozen=True)
class CommandRun:
    """One verification command as written, and how it ended: `exit_code` (None when ended by
    the cap or a signal), `invalid` says why it could not run cleanly (else None)."""

    command: str
    exit_code: int | None
    output: str
    invalid: str | None = None

    @property
    def failed(self) -> bool:
        """True when it ran cleanly and exited non-zero."""
        return self.invalid is None and self.exit_code != 0

    def to_dict(self) -> dict[str, Any]:
        """The `verification.json` entry."""
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "ok": self.invalid is None and self.exit_code == 0,
            "invalid": self.invalid,
            "output": self.output,
        }


@dataclass(frozen=True)
class Verification:
    """Every verification command's run, in the criteria's order, at commit `head`."""

    head: str
    runs: tuple[CommandRun, ...] = ()

    @property
    def invalid(self) -> str | None:
        """Why a command could not run cleanly (the first), or None."""
        return next((f"{run.command}: {run.invalid}" for run in self.runs if run.invalid), None)

    @property
    def failed(self) -> tuple[CommandRun, ...]:
        """The commands that ran cleanly and failed."""
        return tuple(run for run in self.runs if run.failed)

    def output_of(self, command: str) -> str | None:
        """The fresh output of `command` (as written in the criteria), or None when no
        verification command is written so."""
        return next((run.output for run in self.runs if run.command == command), None)

    def to_dict(self) -> dict[str, Any]:
        """The `verification.json` document."""
        return {"head": self.head, "commands": [run.to_dict() for run in self.runs]}


def render_command(command: str, python: str = sys.executable) -> str:
    """A verification command with `{python}` replaced by the interpreter tribunal runs on."""
    return command.replace("{python}", shlex.quote(python))


def run_verification(
    repo: Path, head: str, commands: Sequence[str], *, timeout_s: float, label: str | None = None
) -> Verification:
    """Run every command at `head` in one fresh worktree of `repo` (removed afterwards). Returns
    the Verification (never raises for a command that fails or hits the cap). Raises BadInput
    when `repo` is no git repository; NotFinished when the worktree cannot be made."""
    if not commands:
        return Verification(head)
    with ProofRepo.open(repo, label) as git_repo:
        tree = git_repo.checkout("verification", head)
        runs = tuple(_run(command, tree, timeout_s) for command in commands)
    return Verification(head, runs)


def _run(command: str, tree: Path, timeout_s: float) -> CommandRun:
    capped = run_capped(render_command(command), tree, timeout_s, tail_bytes=OUTPUT_TAIL_BYTES)
    return CommandRun(command, capped.exit_code, capped.output_tail, capped.why_not_clean)
