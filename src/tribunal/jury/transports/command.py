"""The `command` transport (L-7): a harness CLI (`qwen -p`, `claude -p`, `codex exec --sandbox
read-only`, `llm -m MODEL`) fed the prompt on stdin, its reply read from stdout.

It runs in its own process group with cwd = a separate detached worktree of the head under
review, hashed before and after: a harness juror reads the repository, never writes it, and any
changed byte annuls its verdict (L-6 `annulled`). Running out of time kills the whole process
group; stdout is read no further than 1 MiB (then the group is killed too: `malformed`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tribunal.errors import BadInput
from tribunal.jury.redaction import raw_tail, redact
from tribunal.jury.transports.base import (
    Reply,
    SeatRequest,
    TransportConfig,
    TransportContext,
    Usage,
    api_key,
    checked_reply,
)
from tribunal.jury.transports.deadline import Deadline
from tribunal.jury.transports.failures import Annulled, NotAnswered, Oversize
from tribunal.jury.transports.registry import TransportRegistry
from tribunal.jury.transports.worktree import InFlight, detached_worktree
from tribunal.jury.verdict import MAX_REPLY_BYTES

STDERR_KEEP = 64 * 1024  # the end of stderr is kept for the raw tail of a failed harness
_CHUNK = 64 * 1024
_REAP_S = 5.0  # after a kill, how long the pipes may take to close


@dataclass(frozen=True)
class HarnessRun:
    """How one harness process ended."""

    returncode: int | None  # None when it was killed
    stdout: bytes
    stderr_tail: bytes
    timed_out: bool
    oversize: bool


class CommandTransport:
    """A harness CLI run on its own worktree."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config
        self.context = context

    def answer(self, request: SeatRequest) -> Reply:
        """Run the harness once; return its reply or raise a RungFailure (L-6). Raises BadInput
        when the rung has no `command` or the request no `checkout`."""
        if not self.config.command:
            raise BadInput(f"rung {self.config.id!r} has no command", field="command")
        if request.checkout is None:
            raise BadInput(
                f"rung {self.config.id!r} runs a harness: it needs the repository and head",
                field="--repo",
            )
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        deadline = Deadline.for_call(self.config, request)
        checkout = request.checkout
        with (
            checkout.sitting.run() as flight,
            detached_worktree(
                checkout.repo, checkout.head, owner=checkout.owner, flight=flight
            ) as tree,
        ):
            before = tree.fingerprint()
            run = run_harness(
                self.config.command,
                request.prompt,
                cwd=tree.path,
                deadline=deadline,
                environ=self.context.environ,
                flight=flight,
            )
            changed = tree.changed_since(before)
        text = run.stdout.decode("utf-8", errors="replace")
        tail = raw_tail(text, secrets, cut=run.oversize)
        if changed:  # first: a harness that wrote is annulled whatever else it did
            shown = ", ".join(changed[:10]) + (" ..." if len(changed) > 10 else "")
            raise Annulled(
                f"the harness changed its worktree: {shown}",
                rung=self.config.id,
                changed_paths=changed,
                raw_tail=tail,
            )
        errors = raw_tail(run.stderr_tail.decode("utf-8", errors="replace"), secrets)
        if run.timed_out:
            raise NotAnswered(
                f"no answer within {deadline.seconds:g} s (process group killed)",
                rung=self.config.id,
                raw_tail=errors or tail,
            )
        if run.oversize:
            raise Oversize(
                f"reply over {MAX_REPLY_BYTES} bytes, read no further",
                rung=self.config.id,
                raw_tail=tail,
            )
        if run.returncode != 0:
            raise NotAnswered(
                f"the harness exited with status {run.returncode}",
                rung=self.config.id,
                raw_tail=errors or tail,
            )
        return checked_reply(
            Reply(
                rung=self.config.id,
                text=redact(text, secrets),
                finish_reason=None,
                usage=Usage(),
                status=None,
                raw_tail=tail,
            )
        )


def run_harness(
    command: Sequence[str],
    prompt: str,
    *,
    cwd: Path,
    deadline: Deadline,
    environ: Mapping[str, str],
    flight: InFlight | None = None,
) -> HarnessRun:
    """Run `command` in `cwd` in a new process group with `prompt` on stdin. Returns how it
    ended; the group is killed on the deadline or once stdout passes 1 MiB, or by `flight`'s
    sitting when Ctrl-C abandons it. Raises NotAnswered when the command cannot be started."""
    try:
        process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(environ),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: a timeout kills the whole tree
        )
    except OSError as error:
        raise NotAnswered(
            f"cannot run {command[0]!r}: {error.strerror}", rung=deadline.rung
        ) from None
    assert process.stdin and process.stdout and process.stderr
    if flight is not None:
        flight.started(process.pid)  # its own session: the group id is its pid
    stdout = bytearray()
    stderr = bytearray()
    over = threading.Event()
    threads = [
        threading.Thread(target=_feed, args=(process.stdin, prompt.encode("utf-8")), daemon=True),
        threading.Thread(
            target=_read_stdout, args=(process, process.stdout, stdout, over), daemon=True
        ),
        threading.Thread(target=_read_stderr, args=(process.stderr, stderr), daemon=True),
    ]
    for thread in threads:
        thread.start()
    timed_out = False
    try:
        process.wait(timeout=max(deadline.remaining(), 0.001))
    except (subprocess.TimeoutExpired, NotAnswered):
        timed_out = True
    # whatever the leader did, nothing it started outlives it (or keeps writing the worktree)
    _kill_group(process)
    if flight is not None:
        flight.exited()  # before the reaping frees the process id
    process.wait()
    for thread in threads:
        thread.join(timeout=_REAP_S)
    process.stdout.close()
    process.stderr.close()
    oversize = over.is_set()
    return HarnessRun(
        returncode=None if timed_out or oversize else process.returncode,
        stdout=bytes(stdout[:MAX_REPLY_BYTES]),
        stderr_tail=bytes(stderr),
        timed_out=timed_out and not oversize,
        oversize=oversize,
    )


def _feed(pipe: IO[bytes], data: bytes) -> None:
    # a harness may stop reading early (it answered, or died): that is its choice, not ours
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError):
        return


def _read_stdout(
    process: subprocess.Popen[bytes], pipe: IO[bytes], into: bytearray, over: threading.Event
) -> None:
    with contextlib.suppress(OSError):  # the pipe closed under a reader that outlived its wait
        while chunk := os.read(pipe.fileno(), _CHUNK):
            into += chunk
            if len(into) > MAX_REPLY_BYTES:  # L-6: read no further; memory stays bounded
                over.set()
                _kill_group(process)
                return


def _read_stderr(pipe: IO[bytes], into: bytearray) -> None:
    with contextlib.suppress(OSError):
        while chunk := os.read(pipe.fileno(), _CHUNK):
            into += chunk
            del into[:-STDERR_KEEP]


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        return  # the group is already gone


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `command`."""
    registry.register("command", CommandTransport)
