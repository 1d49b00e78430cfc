"""Convenings for tests: a fleet of real juror servers on 127.0.0.1, verdicts that cite the
change of `testing.proof_projects` (calc.py's fixed `neg`), and a way to run `tribunal convene`
in-process and read what it wrote."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from testing.jurors import Behaviour, JurorServer, reply, verdict
from testing.seat_records import EIGHT
from tribunal.cli import cli

FUSED = ("resource_economy", "boundary_condition")
# V-4: a citation that names a file of the envelope, a line that exists, and verbatim evidence.
CITED = [{"claim": "neg returns the negation", "location": "calc.py:6", "evidence": "return -x"}]
FAMILIES = ("vendor-a", "vendor-b", "vendor-c")

# Three families; the builder (vendor-a) is refused on every ladder, so every lens still sits.
FLEET = """\
rungs:
  - {{id: juror-a, family: vendor-a, transport: openai, endpoint: "{a}", model: a-1, timeout_s: 20}}
  - {{id: juror-b, family: vendor-b, transport: openai, endpoint: "{b}", model: b-1, timeout_s: 20}}
  - {{id: juror-c, family: vendor-c, transport: openai, endpoint: "{c}", model: c-1, timeout_s: 20}}
tiers:
  deep_state: [juror-a, juror-b, juror-c]
  operator_safety: [{safety}]
  generalist: [juror-c, juror-b]
  fast_structural: {{primary: [juror-a, juror-b], verifier: [juror-c, juror-a]}}
"""


def passing(lens: str, *, bare: bool = False, findings: list[Any] | None = None) -> Behaviour:
    """A pass for `lens`, citing the fix (bare: no `checked` entries, no findings)."""
    return reply(verdict(lens, "pass", findings=findings, checked=None if bare else CITED))


def refusing(lens: str, claim: str = "neg(-0.0) keeps the sign") -> Behaviour:
    """A refuse for `lens` with one major finding at calc.py:6."""
    found = [
        {"severity": "major", "claim": claim, "evidence": "return -x", "location": "calc.py:6"}
    ]
    return reply(verdict(lens, "refuse", findings=found, checked=CITED))


@dataclass
class Jury:
    """One juror server per family (juror-a, juror-b, juror-c) and the fleet file naming them."""

    servers: dict[str, JurorServer]
    fleet: Path

    def answer(
        self, lens: str, behaviour: Behaviour, *, families: Iterable[str] = FAMILIES
    ) -> None:
        """Every request for `lens` to the servers of `families` gets `behaviour`."""
        for family in families:
            self.servers[family].when(f'"lens": "{lens}"', behaviour)

    def all_pass(self, *, bare: bool = False, skip: Sequence[str] = ()) -> None:
        """Every lens not in `skip` passes, citing the fix."""
        for lens in EIGHT:
            if lens not in skip:
                self.answer(lens, passing(lens, bare=bare))

    def prompts(self) -> list[str]:
        """Every prompt any server received."""
        return [r.prompt for server in self.servers.values() for r in server.chat_requests()]


@contextmanager
def jury(
    where: Path, *, safety: str = "juror-b, juror-c", name: str = "fleet.yaml"
) -> Iterator[Jury]:
    """Three live juror servers and a fleet file at `where/name` pointing at them."""
    with ExitStack() as stack:
        servers = {family: stack.enter_context(JurorServer("openai")) for family in FAMILIES}
        fleet = where / name
        fleet.write_text(
            FLEET.format(
                a=servers["vendor-a"].endpoint,
                b=servers["vendor-b"].endpoint,
                c=servers["vendor-c"].endpoint,
                safety=safety,
            ),
            encoding="utf-8",
        )
        yield Jury(servers, fleet)


@dataclass(frozen=True)
class Ran:
    """What one `tribunal convene` did: its exit code, its output, its run dir."""

    exit_code: int
    stdout: str
    stderr: str
    out: Path

    @property
    def summary(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.out / "summary.json").read_text(encoding="utf-8"))
        return data

    @property
    def outcome(self) -> str:
        return str(self.summary["outcome"])

    def seat(self, lens: str) -> dict[str, Any]:
        return next(seat for seat in self.summary["seats"] if seat["lens"] == lens)


def convene_args(
    repo: Path,
    base: str,
    contract: Path,
    fleet: Path,
    out: Path,
    *extra: str,
    builder: str = "vendor-a",
) -> list[str]:
    """The arguments of `tribunal convene` (after `tribunal`)."""
    return [
        "convene", "--repo", str(repo), "--base", base, "--contract", str(contract),
        "--fleet", str(fleet), "--builder", builder, "--out", str(out), *extra,
    ]  # fmt: skip


def convening_process(*args: str, stderr: int = subprocess.PIPE) -> subprocess.Popen[str]:
    """`tribunal convene ARGS` started as a process of its own (stdout discarded), for the tests
    that signal it or race it against another."""
    return subprocess.Popen(
        [sys.executable, "-m", "tribunal", *args],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )


def convene(
    repo: Path,
    base: str,
    contract: Path,
    fleet: Path,
    out: Path,
    *extra: str,
    builder: str = "vendor-a",
    env: dict[str, str] | None = None,
    process: bool = False,
) -> Ran:
    """`tribunal convene` in-process (CliRunner), or as a process of its own (`process`)."""
    args = convene_args(repo, base, contract, fleet, out, *extra, builder=builder)
    if process:
        # A process of its own: CliRunner swaps sys.stdout, so two at once in threads mix.
        done = subprocess.run(
            [sys.executable, "-m", "tribunal", *args],
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        return Ran(done.returncode, done.stdout, done.stderr, out)
    result = CliRunner().invoke(cli, args, env={**os.environ, **(env or {})})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Ran(result.exit_code, result.stdout, result.stderr, out)


def contract_file(
    path: Path, red: str | None, *, command: str | None, timeout_s: float = 60
) -> Path:
    """A review contract for calc.py's `neg` at `path`."""
    lines = ["intent: neg returns the negation", "criteria: [neg(2) == -2]"]
    if command is not None:
        lines.append(f"test_command: '{command}'")
    if red is not None:
        lines.append(f"red: '{red}'")
    lines.append(f"timeout_s: {timeout_s}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
