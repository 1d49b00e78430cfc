"""The `tribunal` command line: a thin click layer over the library (C-1, C-2).

Subcommands are imported only when used or listed, and their modules import the library inside
the command body, so starting the CLI imports nothing heavy (no HTTP client, git, template engine
or sqlite) until a command needs it (C-1, X-5). This package is the only place that knows exit
codes: domain code raises `TribunalError`s, `TribunalGroup.invoke` maps them.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
import traceback
from typing import Any

import click

from tribunal import __version__
from tribunal.cli.exit_codes import ExitCode
from tribunal.errors import BadInput, TribunalError

# name -> "module:attribute". Add a line here when a command lands.
COMMANDS: dict[str, str] = {
    "arbitrate": "tribunal.cli.arbitrate:arbitrate",
    "envelope": "tribunal.cli.envelope:envelope",
    "evidence": "tribunal.cli.evidence:evidence",
    "hook": "tribunal.cli.hook:hook",
    "invariants": "tribunal.cli.invariants:invariants",
    "judgment": "tribunal.cli.judgment:judgment",
    "duel": "tribunal.cli.duel:duel",
    "readiness": "tribunal.cli.readiness:readiness",
    "matrix": "tribunal.cli.matrix:matrix",
    "ladder": "tribunal.cli.ladder:ladder",
    "seat": "tribunal.cli.seat:seat",
    "init": "tribunal.cli.init:init",
    "precedent": "tribunal.cli.precedent:precedent",
    "records": "tribunal.cli.records:records",
    "adjudicate": "tribunal.cli.adjudicate:adjudicate",
    "convene": "tribunal.cli.convene:convene",
    "panel": "tribunal.cli.panel:panel",
}


class TribunalGroup(click.Group):
    """A click group that loads subcommands lazily and maps tribunal errors to exit codes."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module_name), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.lazy[cmd_name]} is not a click command")
            return command
        return super().get_command(ctx, cmd_name)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        if parent is None:
            _require_utf8(args)
        if parent is None and "default_map" not in extra:
            # C-9: project settings, then TRIBUNAL_* variables, become click defaults; flags win.
            from tribunal.cli.settings import SettingDefaults

            extra["default_map"] = SettingDefaults(self)
        return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BadInput as error:
            # C-3: one clear line naming file, line and field; exit 2; nothing was written.
            click.echo(f"tribunal: error: {error}", err=True)
            ctx.exit(ExitCode.BAD_INPUT)
        except TribunalError as error:
            click.echo(f"tribunal: {error}", err=True)
            ctx.exit(ExitCode.NO_VERDICT)
        except KeyboardInterrupt:
            click.echo("tribunal: interrupted", err=True)
            ctx.exit(ExitCode.INTERRUPTED)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as error:  # the one place unexpected errors are reported (C-2)
            log = _log_internal_error()
            click.echo(
                f"tribunal: internal error: {type(error).__name__}: {error} (details: {log})",
                err=True,
            )
            ctx.exit(ExitCode.NO_VERDICT)


def _require_utf8(args: list[str]) -> None:
    """C-3: every argument is text the records can hold. Bytes that are not UTF-8 reach Python
    as lone surrogates and would fail deep inside a command (an internal error, exit 3); they
    are a usage error here, naming the argument, before any command runs."""
    for number, argument in enumerate(args, 1):
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError as error:
            raise click.UsageError(
                f"argument {number} ({argument!r}) is not UTF-8 text (character {error.start + 1})"
            ) from None


def _log_internal_error() -> str:
    """C-2: an unexpected error prints one line and where the traceback was logged."""
    with tempfile.NamedTemporaryFile(
        "w", prefix="tribunal-error-", suffix=".log", delete=False, encoding="utf-8"
    ) as handle:
        traceback.print_exc(file=handle)
    return handle.name


@click.group(
    cls=TribunalGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, "--version", prog_name="tribunal")
def cli() -> None:
    """Turn a disputed change into a reproducible verdict kept as files in the repository.

    Evidence (duel, invariants, matrix, proofs, juror seats) feeds courts that write
    judgment.md; recurring disputes become precedents.md entries.
    """


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    cli.main(args=argv if argv is not None else sys.argv[1:], prog_name="tribunal")
