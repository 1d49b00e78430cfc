"""Run a contract's `test_command` in a proof tree under the `timeout_s` cap (B-4, E-2).

The command is a shell command line (`/bin/sh -c`) run in its own process group with the
caller's environment, so the contract names the interpreter as one would in a shell
(`python -m pytest ...`, `.venv/bin/python ...` does NOT work: the tree is a fresh checkout)
or with `{python}`, the interpreter tribunal runs on. At the cap — and after every run, for
children left behind — the whole process group is killed; a run that hit the cap is never read
as a result (a timeout is not a survivor).

A signal ends a run two ways: the shell itself dies of it (a negative return code), or the shell
reports that the command it waited for did — exit status 128+N for signal N, as every POSIX
shell does. Both are a signal (B-4: INVALID), whatever the runner; a plain failure is any
other exit status.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

_TAIL_BYTES = 4096
SIGNAL_STATUS = 128  # POSIX shells: a command ended by signal N has exit status 128 + N
_POLL_S = (0.005, 0.05)  # first and longest wait between polls


@dataclass(frozen=True)
class CappedRun:
    """How one run ended: `exit_code` (None when ended by a signal or the cap)."""

    exit_code: int | None
    cap_s: float
    signal: int | None = None  # the signal that ended it (not at the cap)
    timed_out: bool = False
    output_tail: str = ""  # the run's last output, for logs; never in a recorded detail (C-6)
    shell_status: int | None = None  # the 128+N the shell reported for `signal`, if it did

    @property
    def why_not_clean(self) -> str | None:
        """Why this run cannot be read as a result (B-1 INVALID), or None."""
        if self.timed_out:
            return f"hit the timeout_s cap of {self.cap_s:g} s (process group killed)"
        if self.signal is not None:
            how = f" (exit status {self.shell_status})" if self.shell_status is not None else ""
            return f"ended by signal {_signal_name(self.signal)}{how}"
        return None


def run_capped(
    command: str, cwd: Path, timeout_s: float, *, tail_bytes: int = _TAIL_BYTES
) -> CappedRun:
    """Run `command` with `/bin/sh -c` in `cwd`, stdin closed, output captured (its last
    `tail_bytes` kept); kill its process group at `timeout_s` seconds. Returns the CappedRun;
    raises nothing for the command's own failures."""
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            ["/bin/sh", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # B-4: its own process group, killed as one
        )
        try:
            timed_out = not _exited_within(process.pid, timeout_s)
        finally:
            # The leader is not reaped yet, so its id still names this group, never a new one.
            _kill_group(process.pid)
            returncode = process.wait()
        output.seek(max(0, output.seek(0, os.SEEK_END) - tail_bytes))
        tail = output.read().decode("utf-8", "replace")
    if timed_out:
        return CappedRun(None, timeout_s, timed_out=True, output_tail=tail)
    if returncode < 0:
        return CappedRun(None, timeout_s, signal=-returncode, output_tail=tail)
    if SIGNAL_STATUS < returncode < SIGNAL_STATUS + signal.NSIG:
        # The shell waited for the command and reports that signal N ended it (B-4).
        number = returncode - SIGNAL_STATUS
        return CappedRun(None, timeout_s, number, output_tail=tail, shell_status=returncode)
    return CappedRun(returncode, timeout_s, output_tail=tail)


def _exited_within(pid: int, timeout_s: float) -> bool:
    """Wait for `pid` to exit without reaping it; False when `timeout_s` passed first."""
    deadline = time.monotonic() + timeout_s
    pause = _POLL_S[0]
    while True:
        state = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if state is not None:
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(pause, left))
        pause = min(pause * 2, _POLL_S[1])


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # nothing of the group is left
        os.killpg(pgid, signal.SIGKILL)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
