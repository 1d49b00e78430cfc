"""C-1, C-2: the CLI group, its help, version, lazy imports and the mapping of errors to exits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tribunal import __version__
from tribunal.cli import COMMANDS, TribunalGroup, cli
from tribunal.errors import BadInput, TribunalError

HEAVY = ("httpx", "git", "jinja2", "sqlite3", "jsonschema", "ruamel", "yaml", "filelock")


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"tribunal, version {__version__}\n"


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name}" in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.help, f"{name} lacks help text"
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0


def test_starting_the_cli_imports_nothing_heavy() -> None:
    """C-1: `tribunal --help` loads no HTTP client, git, template engine, sqlite or YAML."""
    code = (
        "import sys\n"
        "from tribunal.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print('HEAVY=' + ','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "HEAVY="


def _group_raising(error: BaseException) -> click.Group:
    @click.group(cls=TribunalGroup)
    def group() -> None:
        """A test group."""

    @group.command()
    def boom() -> None:
        """Raise."""
        raise error

    return group


def test_bad_input_is_one_line_and_exit_2() -> None:
    error = BadInput("unknown field 'x'", source="cases/a.json", line=3, field="given")
    group = _group_raising(error)
    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 2
    assert result.stderr == "tribunal: error: cases/a.json:3: given: unknown field 'x'\n"


def test_tribunal_error_exits_3() -> None:
    result = CliRunner().invoke(_group_raising(TribunalError("no verdict")), ["boom"])
    assert result.exit_code == 3
    assert result.stderr == "tribunal: no verdict\n"


def test_interrupt_exits_130() -> None:
    result = CliRunner().invoke(_group_raising(KeyboardInterrupt()), ["boom"])
    assert result.exit_code == 130


def test_internal_error_prints_one_line_and_logs_traceback() -> None:
    result = CliRunner().invoke(_group_raising(RuntimeError("kaput")), ["boom"])
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "RuntimeError: kaput" in lines[0]
    log = Path(lines[0].rsplit("(details: ", 1)[1].rstrip(")"))
    assert "Traceback" in log.read_text(encoding="utf-8")
    log.unlink()


@pytest.mark.parametrize(
    "argv",
    [
        [b"precedent", b"search", b"x\xff", b"--file", b"precedents.md"],
        [b"precedent", b"search", b"x", b"--domain", b"a\xff", b"--file", b"precedents.md"],
        [b"records", b"check", b"--exclude", b"\xfe*"],
    ],
)
def test_an_argument_that_is_not_utf8_is_a_usage_error(tmp_path: Path, argv: list[bytes]) -> None:
    """C-3: bytes a shell passes that are not UTF-8 stop every command at the door (exit 2,
    naming the argument), never deep inside one as an internal error."""
    (tmp_path / "precedents.md").write_text("# Precedents\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable.encode(), b"-m", b"tribunal", *argv],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert b"is not UTF-8 text" in result.stderr
    assert b"internal error" not in result.stderr
    assert not (tmp_path / ".tribunal").exists()  # nothing was read into an index
