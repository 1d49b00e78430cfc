"""C-2, C-3: an output path that cannot be written is bad usage (exit 2), never an internal error.

Every output of a command goes through `tribunal.outputs`: here each is given a path under a
regular file (`afile/...`), which the operating system refuses, and a path holding a node that
is no regular file (a symlink, a FIFO, a directory, a socket, a device), which is never replaced.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing import REPO
from testing.disputes import make_dispute

from tribunal.cli import cli

DUEL = [
    "duel",
    "--spec",
    "specs/autoscale_spec.yaml",
    "--cases",
    "cases/",
    "--out",
    "out/duel.json",
]
INVARIANTS = ["invariants", "--metrics", "metrics/validation_metrics.json"]
JUDGMENT = ["judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json"]
NEW = [
    "judgment", "new", "--verdict", "DEFERRED", "--reason", "manual:no_backup",
    "--evidence-ref", "fixtures/readiness_block_stateful.json",
]  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name in ("specs", "cases", "metrics", "fixtures"):
        shutil.copytree(REPO / name, root / name)
    (root / "afile").write_text("a regular file, not a directory\n", encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def refused(result: Result, path: str, option: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        f"tribunal: error: {path}: {option}: cannot write: "
        "a parent of this path is a file, not a directory"
    )


def test_invariants_out(repo: Path) -> None:
    refused(run(*INVARIANTS, "--out", "afile/i.json"), "afile/i.json", "--out")


def test_judgment_to(repo: Path) -> None:
    assert run(*DUEL).exit_code == 0
    assert run(*INVARIANTS, "--out", "out/invariants.json").exit_code == 0
    refused(run(*JUDGMENT, "--to", "afile/j.md"), "afile/j.md", "--to")


def test_judgment_new_to(repo: Path) -> None:
    refused(run(*NEW, "--to", "afile/j.md"), "afile/j.md", "--to")


def test_judgment_record_dir(repo: Path) -> None:
    assert run(*NEW, "--to", "out/judgment.md").exit_code == 0
    result = run("judgment", "record", "out/judgment.md", "--dir", "afile/judgments")
    refused(result, "afile/judgments", "--dir")
    assert not list(repo.glob("afile*/**/*.judgment.md"))


def test_readiness_out(repo: Path) -> None:
    result = run("readiness", "fixtures/readiness_block_stateful.json", "--out", "afile/r.json")
    refused(result, "afile/r.json", "--out")


# --- C-3: a command writes only regular files; any other node at an output path is bad input,
# and is left as it was (an atomic rename once swapped a symlink, a FIFO or a device for a file).

FILE_NODES = ["symlink to a file", "dangling symlink", "FIFO", "directory", "socket", "device"]
DIR_NODES = [
    "symlink to a directory",
    "dangling symlink",
    "FIFO",
    "regular file",
    "socket",
    "device",
]


def make_node(path: Path, kind: str) -> Callable[[], None]:
    """Put a node of `kind` at `path`; return a check that it is still there, untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    elsewhere = path.parent / "elsewhere"
    if kind == "symlink to a file":
        elsewhere.write_text("theirs\n", encoding="utf-8")
        path.symlink_to(elsewhere)
    elif kind == "symlink to a directory":
        elsewhere.mkdir()
        path.symlink_to(elsewhere, target_is_directory=True)
    elif kind == "dangling symlink":
        path.symlink_to(elsewhere)
    elif kind == "FIFO":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "regular file":
        path.write_text("a file, not a directory\n", encoding="utf-8")
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        try:
            sock.bind(str(path))
        except OSError:  # a path too long for a socket address
            pytest.skip("cannot bind a socket here")
        finally:
            sock.close()
    else:
        try:
            os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # a null device of our own
        except (PermissionError, OSError):
            pytest.skip("cannot make a device node here")
    before = os.lstat(path)
    listing = sorted(elsewhere.iterdir()) if elsewhere.is_dir() else None
    text = elsewhere.read_text(encoding="utf-8") if elsewhere.is_file() else None

    def untouched() -> None:
        after = os.lstat(path)
        assert (stat.S_IFMT(after.st_mode), after.st_ino) == (
            stat.S_IFMT(before.st_mode),
            before.st_ino,
        ), f"the {kind} at {path} was replaced"
        if listing is not None:
            assert sorted(elsewhere.iterdir()) == listing
        if text is not None:
            assert elsewhere.read_text(encoding="utf-8") == text
        else:
            assert not elsewhere.is_file() or kind == "symlink to a directory"
        if kind == "directory":
            assert list(path.iterdir()) == []

    return untouched


@pytest.fixture
def no_hang() -> Iterator[None]:
    """A command that opens a FIFO waits for its other end forever: fail instead of hanging."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("the command waited on a FIFO")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def outs(repo: Path) -> Path:
    """The repository with the tutorial's outputs and a hand-made judgment to build on."""
    shutil.copytree(REPO / "matrix", repo / "matrix")
    assert run(*DUEL).exit_code == 0
    assert run(*INVARIANTS, "--out", "out/invariants.json").exit_code == 0
    assert run(*NEW, "--to", "judgments/j.judgment.md").exit_code == 0
    (repo / "base.md").write_text("# Precedents\n", encoding="utf-8")
    (repo / "diff.patch").write_text("+x\n", encoding="utf-8")
    return repo


HOOK = json.dumps(
    {"session_id": "s", "cwd": ".", "hook_event_name": "PostToolUse", "tool_name": "Edit",
     "tool_input": {}, "tool_response": {"success": True}}
)  # fmt: skip
ADD_FROM = ["--from-judgment", "judgments/j.judgment.md", "--applies-to", "x", "--next-check", "y"]
# name -> the command line, with OUT where the output path goes
FILE_OUTPUTS = {
    "duel --out": [*DUEL[:-1], "OUT"],
    "invariants --out": [*INVARIANTS, "--out", "OUT"],
    "matrix --out": ["matrix", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases/",
                     "--tiers", "matrix/tiers.json", "--out", "OUT"],
    "readiness --out": ["readiness", "fixtures/readiness_block_stateful.json", "--out", "OUT"],
    "judgment --to": [*JUDGMENT, "--to", "OUT"],
    "judgment new --to": [*NEW, "--to", "OUT"],
    "precedent add --file": ["precedent", "add", *ADD_FROM, "--file", "OUT"],
    "precedent renumber --file": ["precedent", "renumber", "PREC-001", "--file", "OUT"],
    "precedent merge-file OURS": ["precedent", "merge-file", "base.md", "OUT", "base.md"],
    "hook record --log": ["hook", "record", "--log", "OUT", "--diff", "diff.patch"],
    "hook record --save-diff": ["hook", "record", "--log", "out/hooks.ndjson",
                                "--diff", "diff.patch", "--save-diff", "OUT"],
    "adjudicate --ledger": ["adjudicate", "--ledger", "OUT", "--finding", "0123456789abcdef",
                            "--evidence", "specs/autoscale_spec.yaml:1", "--note", "n"],
    "arbitrate --to": ["arbitrate", "disputes/rate-limit", "--to", "OUT"],
    "init --precedents": ["init", "--precedents", "OUT"],
}  # fmt: skip


NAMED = {
    "symlink to a file": "a symbolic link",
    "symlink to a directory": "a symbolic link",
    "dangling symlink": "a symbolic link",
    "FIFO": "a FIFO",
    "socket": "a socket",
    "device": "a character device",
    "directory": "a directory",
    "regular file": "a regular file",
}


def refused_as(result: Result, path: str, option: str | None, kind: str, wanted: str) -> None:
    """Exit 2 with the one check's words (or click's own, for a node its option type refuses:
    a directory where a file goes, a file where a directory goes, a path that must exist)."""
    assert result.exit_code == 2, result.output
    last = result.stderr.splitlines()[-1]
    if last.startswith("Error: Invalid value"):
        return
    where = f"{path}: {option}: " if option else f"{path}: "
    if kind == "directory":
        assert last == f"tribunal: error: {where}is a directory, expected a file path"
    else:
        assert (
            last == f"tribunal: error: {where}is {NAMED[kind]}, not {wanted}: nothing was written"
        )


@pytest.mark.parametrize("kind", FILE_NODES)
@pytest.mark.parametrize("command", sorted(FILE_OUTPUTS))
def test_an_output_file_is_never_written_through_another_node(
    outs: Path, no_hang: None, command: str, kind: str
) -> None:
    make_dispute(outs)  # disputes/rate-limit, decided by arbitrate when nothing is wrong
    untouched = make_node(outs / "out" / "target", kind)
    args = [("out/target" if arg == "OUT" else arg) for arg in FILE_OUTPUTS[command]]
    result = CliRunner().invoke(cli, args, input=HOOK)
    option = None if command.startswith("init") else command.rsplit(" ", 1)[1]
    refused_as(result, "out/target", option, kind, "a regular file")
    untouched()


DIR_OUTPUTS = {
    "envelope --out": ["envelope", "--repo", "git", "--base", "HEAD~1", "--contract",
                       "contract.yaml", "--out", "OUT"],
    "convene --out": ["convene", "--repo", "git", "--base", "HEAD~1", "--contract",
                      "contract.yaml", "--fleet", "fleet.yaml", "--builder", "b", "--out", "OUT"],
    "judgment record --dir": ["judgment", "record", "judgments/j.judgment.md", "--dir", "OUT"],
}  # fmt: skip


@pytest.mark.parametrize("kind", DIR_NODES)
@pytest.mark.parametrize("command", sorted(DIR_OUTPUTS))
def test_an_output_dir_is_a_directory_or_nothing(
    outs: Path, no_hang: None, command: str, kind: str
) -> None:
    (outs / "contract.yaml").write_text("intent: x\ncriteria: [y]\n", encoding="utf-8")
    (outs / "fleet.yaml").write_text("rungs: []\n", encoding="utf-8")
    untouched = make_node(outs / "out" / "target", kind)
    args = [("out/target" if arg == "OUT" else arg) for arg in DIR_OUTPUTS[command]]
    result = CliRunner().invoke(cli, args)
    refused_as(result, "out/target", command.rsplit(" ", 1)[1], kind, "a directory")
    untouched()


@pytest.mark.parametrize("kind", ["symlink to a file", "dangling symlink", "FIFO", "directory"])
@pytest.mark.parametrize(
    ("command", "name"),
    [("envelope --out", "envelope.md"), ("envelope --out", "manifest.json"),
     ("convene --out", "summary.json"), ("convene --out", ".tribunal-stamp")],
)  # fmt: skip
def test_a_file_an_output_dir_gets_is_never_written_through_another_node(
    outs: Path, no_hang: None, command: str, name: str, kind: str
) -> None:
    (outs / "contract.yaml").write_text("intent: x\ncriteria: [y]\n", encoding="utf-8")
    (outs / "fleet.yaml").write_text("rungs: []\n", encoding="utf-8")
    (outs / "out" / "target").mkdir(parents=True)
    untouched = make_node(outs / "out" / "target" / name, kind)
    args = [("out/target" if arg == "OUT" else arg) for arg in DIR_OUTPUTS[command]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, (command, kind, result.output)
    assert result.stderr.startswith(f"tribunal: error: out/target/{name}: --out: is ")
    untouched()


@pytest.mark.parametrize("kind", ["symlink to a file", "FIFO", "socket"])
def test_a_refusal_names_the_node(repo: Path, kind: str) -> None:
    make_node(repo / "out" / "duel.json", kind)
    result = run(*DUEL)
    words = {"symlink to a file": "a symbolic link", "FIFO": "a FIFO", "socket": "a socket"}
    assert result.stderr == (
        f"tribunal: error: out/duel.json: --out: is {words[kind]}, not a regular file: "
        "nothing was written\n"
    )


def test_a_write_that_meets_a_node_made_meanwhile_replaces_nothing(tmp_path: Path) -> None:
    # The check is made again just before the rename, for writers that checked earlier.
    from tribunal.atomic import write_atomic
    from tribunal.errors import BadInput

    target = tmp_path / "out.json"
    untouched = make_node(target, "symlink to a file")
    with pytest.raises(BadInput, match="is a symbolic link, not a regular file"):
        write_atomic(target, "{}\n")
    untouched()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
