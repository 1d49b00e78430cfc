"""One run of the contract's suite (or of the new tests) in one proof tree, read by its runner.

B-1/B-4: with pytest, exit codes 3, 4 and 5, exit 2 from a collection error outside the new test
files, a signal or the `timeout_s` cap make the run INVALID — it did not run the selected tests,
so nothing can be read from it. A new test file that fails to collect (a test importing the name
the fix adds) is not INVALID: that file counts as one erroring test. The one exception to exit 5:
the whole suite at `base` collecting nothing is an empty baseline (a change that adds the
repository's first test), not INVALID. With `generic`, only the exit code is read, and only the
cap or a signal make a run INVALID — a signal the shell reports as exit 128+N included
(`capped`): a command killed by SIGKILL did not fail, it did not finish.

A pytest command that cannot run pytest at all — the interpreter it names has no pytest
(`No module named pytest`), or the command itself is not found (exit 127) — is INVALID too (it
ran no test), and its detail says so and how to fix it, instead of a bare exit code.
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tribunal.enums import SuiteRunner, TestOutcome
from tribunal.evidence.proofs.capped import run_capped
from tribunal.evidence.proofs.junit import NodeIds, file_of, read_junit
from tribunal.jury.envelope.contract import Contract

# pytest's documented exit codes (pytest.ExitCode).
PYTEST_EXITS = {
    0: "all tests passed",
    1: "some tests failed",
    2: "interrupted",
    3: "internal error",
    4: "usage error",
    5: "no tests collected",
}
_NEVER_READ = frozenset({3, 4, 5})
NO_TESTS_COLLECTED = 5
EMPTY_BASELINE = "no tests collected (an empty baseline)"
# What an interpreter without pytest says (`python -m pytest`, or a script importing it).
_NO_PYTEST = re.compile(
    r"^(?:(?P<interpreter>\S*(?:python|pypy)[\w.]*): |ModuleNotFoundError: )"
    r"No module named '?pytest'?$",
    re.M,
)
# What /bin/sh says for a command it cannot find (dash: `sh: 1: x: not found`; bash's wording).
_NOT_FOUND = re.compile(r"(?:^|: )(?P<command>[^\s:]+): (?:command )?not found$", re.M)
COMMAND_NOT_FOUND = 127


@dataclass(frozen=True)
class SuiteRun:
    """What one run came to. `invalid` says why it cannot be read (B-1 INVALID), else None.

    `outcomes` (pytest) holds every reported test by node id; a new test file that failed to
    collect is one entry, its path, with outcome `error`, and is listed in `broken_files`.
    """

    where: str
    runner: SuiteRunner
    exit_code: int | None
    invalid: str | None = None
    outcomes: Mapping[str, TestOutcome] = field(default_factory=dict)
    broken_files: tuple[str, ...] = ()
    output_tail: str = ""

    @property
    def failing(self) -> list[str]:
        """Node ids that failed or errored, sorted (pytest)."""
        return sorted(node for node, outcome in self.outcomes.items() if outcome.fails)

    @property
    def not_passing(self) -> list[str]:
        """Node ids that did not pass — failed, errored or skipped — sorted (pytest)."""
        passed = TestOutcome.PASSED
        return sorted(node for node, outcome in self.outcomes.items() if outcome is not passed)

    @property
    def passes(self) -> bool:
        """True when the run passed: (pytest) tests were reported and every one passed;
        (generic) exit 0."""
        if self.invalid is not None:
            return False
        if self.runner is SuiteRunner.GENERIC:
            return self.exit_code == 0
        return bool(self.outcomes) and not self.not_passing

    def within(self, files: Sequence[str]) -> SuiteRun:
        """This run seen through the tests of `files` only (pytest): a command without
        `{tests}` runs the whole suite, and only the new tests count for red, green, fake."""
        wanted = set(files)
        outcomes = {n: o for n, o in self.outcomes.items() if file_of(n) in wanted}
        broken = tuple(path for path in self.broken_files if path in wanted)
        return replace(self, outcomes=outcomes, broken_files=broken)

    def for_files(self, files: Sequence[str]) -> SuiteRun | None:
        """`within(files)`, or None when one of `files` reported no test: then this run did
        not run them all."""
        seen = self.within(files)
        return seen if {file_of(node) for node in seen.outcomes} == set(files) else None

    @property
    def fails(self) -> bool:
        """True when the run shows a failure: (pytest) a test failed or errored; (generic) a
        non-zero exit."""
        if self.invalid is not None:
            return False
        if self.runner is SuiteRunner.GENERIC:
            return self.exit_code != 0
        return bool(self.failing)

    def summary(self) -> str:
        """A short, deterministic account of the run for a proof's detail (C-6)."""
        if self.invalid is not None:
            return self.invalid
        if self.runner is SuiteRunner.GENERIC:
            return f"the test command exited {self.exit_code} at {self.where}"
        counts = {outcome: 0 for outcome in TestOutcome}
        for outcome in self.outcomes.values():
            counts[outcome] += 1
        shown = ", ".join(f"{n} {o.value}" for o, n in reversed(counts.items()) if n)
        if not shown and self.exit_code == NO_TESTS_COLLECTED:
            shown = EMPTY_BASELINE
        return f"at {self.where}: {shown or 'no tests'}"


class Suite:
    """The contract's `test_command` bound to its `test_runner` and `timeout_s`."""

    def __init__(self, contract: Contract, command: str) -> None:
        self.contract = contract
        self.command = command  # the unrendered test_command

    def run(
        self,
        tree: Path,
        where: str,
        *,
        tests: Sequence[str],
        junit: Path,
        tree_files: Iterable[str],
        new_tests: frozenset[str],
        baseline: bool = False,
    ) -> SuiteRun:
        """Run the command in `tree` (`{tests}` = `tests`, none for the whole suite) and read
        the result. `tree_files` names the tree's files (to name tests by file), `new_tests` the
        files whose collection errors count as erroring tests; `baseline` marks the whole suite
        at base, where collecting nothing is an empty baseline. Never raises for a test
        failure."""
        runner = self.contract.test_runner
        command = self.contract.render_test_command(
            [shlex.quote(path) for path in tests],
            shlex.quote(str(junit)),
            shlex.quote(sys.executable),
        )
        assert command is not None  # Suite is only built for a contract with a test_command
        if runner is SuiteRunner.PYTEST and "{junit}" not in self.command:
            command += f" --junitxml={shlex.quote(str(junit))}"  # B-4: per-test outcomes
        capped = run_capped(command, tree, self.contract.timeout_s)
        why = capped.why_not_clean
        if why is not None:
            why = f"the run at {where} {why}"
            return SuiteRun(where, runner, None, why, output_tail=capped.output_tail)
        code = capped.exit_code
        assert code is not None  # a run not ended by a signal or the cap has an exit code
        if runner is SuiteRunner.GENERIC:
            return SuiteRun(where, runner, code, output_tail=capped.output_tail)
        ids = NodeIds(tree_files)
        return _read_pytest(where, code, junit, ids, new_tests, capped.output_tail, baseline)


def _read_pytest(
    where: str,
    code: int,
    junit: Path,
    ids: NodeIds,
    new_tests: frozenset[str],
    tail: str,
    baseline: bool,
) -> SuiteRun:
    def invalid(why: str) -> SuiteRun:
        return SuiteRun(where, SuiteRunner.PYTEST, code, why, output_tail=tail)

    if code == NO_TESTS_COLLECTED and baseline:
        # B-4: before a repository's first test there is nothing to regress from; at red, at
        # head and with the fix undone, collecting nothing still voids the run.
        return SuiteRun(where, SuiteRunner.PYTEST, code, None, output_tail=tail)
    if code in _NEVER_READ:
        return invalid(f"pytest exited {code} at {where} ({PYTEST_EXITS[code]})")
    if code not in PYTEST_EXITS:
        return invalid(
            _cannot_run_pytest(where, code, tail)
            or f"the test command exited {code} at {where}, which is no pytest exit code"
        )
    reported = read_junit(junit, ids)
    if reported is None:
        return invalid(
            _cannot_run_pytest(where, code, tail)
            or f"pytest exited {code} at {where} and wrote no readable JUnit report"
        )
    outcomes: dict[str, TestOutcome] = {}
    broken: list[str] = []
    foreign: list[str] = []
    for test in reported:
        if test.collection_error:
            (broken if file_of(test.node_id) in new_tests else foreign).append(test.node_id)
        outcomes[test.node_id] = test.outcome
    if foreign:
        # B-4: a collection error is not a kill — outside the new test files it voids the run.
        return invalid(
            f"pytest exited {code} at {where}: collection error in {', '.join(sorted(foreign))},"
            " not a new test file"
        )
    if code == 2 and not broken:
        return invalid(f"pytest exited 2 at {where} ({PYTEST_EXITS[2]})")
    return SuiteRun(where, SuiteRunner.PYTEST, code, None, outcomes, tuple(sorted(broken)), tail)


def _cannot_run_pytest(where: str, code: int, tail: str) -> str | None:
    """Why a run that reported no test could not run pytest at all, and how to fix it; None
    when its output says neither that pytest is missing nor that the command was not found."""
    missing = _NO_PYTEST.search(tail)
    if missing is not None:
        interpreter = missing["interpreter"] or "the interpreter it runs"
        return (
            f"the test command could not run pytest at {where}: {interpreter} has no module "
            "named pytest; install pytest into the interpreter the command runs, or set "
            "test_command to an interpreter that has it ({python} is the one tribunal runs on)"
        )
    found = _NOT_FOUND.search(tail) if code == COMMAND_NOT_FOUND else None
    if found is not None:
        return (
            f"the test command could not run pytest at {where}: {found['command']!r} was not "
            f"found (exit {code}); install it, or set test_command to run pytest with an "
            "interpreter that has it ({python} -m pytest runs it on tribunal's own)"
        )
    return None
