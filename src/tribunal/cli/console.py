"""What the court commands print, written so that a reader who goes away cannot change the
outcome: `tribunal convene ... | head -1` closes the pipe while the report is still being
printed, and the write fails (EPIPE). By then the records are written; what is left to print
goes nowhere, and the command still exits with its outcome's code (C-2) — never the internal
error a failed write would otherwise become."""

from __future__ import annotations

import os
import sys

import click


def say(message: str, *, err: bool = False, nl: bool = True) -> None:
    """`click.echo(message)`, to stdout (or stderr with `err`); once the reader is gone, the
    stream is pointed at the null device and the rest is dropped. Raises nothing for that."""
    try:
        click.echo(message, err=err, nl=nl)
    except BrokenPipeError:
        stream = sys.stderr if err else sys.stdout
        # The buffered rest, and every later write and the flush at exit, go to /dev/null.
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stream.fileno())
        finally:
            os.close(devnull)
