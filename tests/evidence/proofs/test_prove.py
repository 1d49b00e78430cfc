"""B-4 proofs on real git repositories with base -> red -> fix commits and real pytest runs.

Each scenario is one repository, proven once; the scenarios are proven side by side (each
proving is its own worktrees and processes) so the suite stays fast. The timeout scenario runs
alone: its cap must not be eaten by a loaded machine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from testing.hermetic import make_hermetic
from testing.proof_projects import (
    CALC_RIGHT,
    CALC_WRONG,
    GENERIC,
    PYTEST,
    RED_TEST,
    Change,
    alive,
    change,
)

from tribunal.documents import first_schema_error
from tribunal.enums import CaseVerdict, Outcome, ProofName
from tribunal.errors import BadInput
from tribunal.evidence.proofs.prove import NO_COMMAND, NO_RED, run_proofs
from tribunal.evidence.proofs.report import ProofReport

NAMES = [name.value for name in ProofName]
HELD = dict.fromkeys(NAMES, "held")
IMPORTING = "from calc import negate\n\n\ndef test_negate():\n    assert negate(2) == -2\n"
BROKEN_ADD = CALC_RIGHT.replace("return a + b", "return a - b")


@dataclass(frozen=True)
class Scenario:
    """A repository and the contract options it is proven with."""

    subject: Change
    contract: dict[str, Any]


def honest(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT})
    # An uncommitted edit in the user's checkout: never judged, never touched (B-6).
    subject.repo.write("calc.py", CALC_WRONG + "# work in progress\n")
    return Scenario(subject, {})


def honest_elsewhere(path: Path) -> Scenario:
    """The honest change again, checked out at another path (C-6)."""
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), {})


def not_red(path: Path) -> Scenario:
    passing = "import calc\n\n\ndef test_add_zero():\n    assert calc.add(0, 0) == 0\n"
    red = {"tests/test_zero.py": passing}
    return Scenario(change(path, {"calc.py": CALC_RIGHT}, red_files=red), {})


def fake_green(path: Path) -> Scenario:
    # The real work is done by a conftest (a test file, never put back); calc.py changes only
    # cosmetically, so with calc.py back at its red version the new tests still pass.
    conftest = "import calc\n\ncalc.neg = lambda x: -x\n"
    fix = {"calc.py": "# tidy\n" + CALC_WRONG, "tests/conftest.py": conftest}
    return Scenario(change(path, fix), {})


def weakened(path: Path) -> Scenario:
    test = "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == calc.neg(2)\n"
    return Scenario(change(path, {"tests/test_neg.py": test}), {})


def regression(path: Path) -> Scenario:
    return Scenario(change(path, {"calc.py": BROKEN_ADD}), {})


def import_name(path: Path) -> Scenario:
    fixed = CALC_WRONG + "\n\ndef negate(x):\n    return -x\n"
    red = {"tests/test_negate.py": IMPORTING}
    return Scenario(change(path, {"calc.py": fixed}, red_files=red), {})


def import_missing(path: Path) -> Scenario:
    # The fix never adds `negate`: the new test still fails to collect at head.
    red = {"tests/test_negate.py": IMPORTING}
    return Scenario(change(path, {"calc.py": CALC_RIGHT}, red_files=red), {})


def collects_nothing(path: Path) -> Scenario:
    no_tests = "import calc\n\n\ndef helper():\n    return calc.neg(1)\n"
    red = {"tests/test_helper.py": no_tests}
    return Scenario(change(path, {"calc.py": CALC_RIGHT}, red_files=red), {})


def foreign_collection(path: Path) -> Scenario:
    # The fix breaks the old test module's import: exit 2 from a collection error elsewhere.
    old = "from calc import plus\n\n\ndef test_plus():\n    assert plus(2, 3) == 5\n"
    return Scenario(change(path, {"calc.py": CALC_RIGHT, "tests/test_old.py": old}), {})


def generic_honest(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT})
    return Scenario(subject, {"command": GENERIC, "runner": "generic"})


def generic_regression(path: Path) -> Scenario:
    subject = change(path, {"calc.py": BROKEN_ADD})
    return Scenario(subject, {"command": GENERIC, "runner": "generic"})


def generic_killed(path: Path) -> Scenario:
    # At head, importing calc kills the test process; the shell waits and reports exit 137.
    killer = CALC_RIGHT + "\n\nimport os, signal\n\nos.kill(os.getpid(), signal.SIGKILL)\n"
    subject = change(path, {"calc.py": killer})
    return Scenario(subject, {"command": GENERIC + "; exit $?", "runner": "generic"})


def whole_suite_command(path: Path) -> Scenario:
    # No {tests}: every run is the whole suite, where an old test fails all along. Only the
    # new test counts for red_first, and a test failing at base and head is no regression.
    broken = {"tests/test_known_bug.py": "def test_known_bug():\n    assert False\n"}
    passing = "import calc\n\n\ndef test_add_zero():\n    assert calc.add(0, 0) == 0\n"
    subject = change(
        path,
        {"calc.py": CALC_RIGHT},
        red_files={"tests/test_zero.py": passing},
        base_files=broken,
    )
    return Scenario(subject, {"command": PYTEST.replace("{tests} ", "")})


def first_test(path: Path) -> Scenario:
    # The repository's first test: at base the whole suite collects nothing (pytest exit 5).
    return Scenario(change(path, {"calc.py": CALC_RIGHT}, old_test=False), {})


def no_red(path: Path) -> Scenario:
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), {"red": None})


def no_command(path: Path) -> Scenario:
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), {"command": None})


def deleted_test(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT}, remove=("tests/test_neg.py",))
    return Scenario(subject, {"command": None})


def old_test_deleted(path: Path) -> Scenario:
    # The fix breaks `add` and deletes the old test that would have caught it.
    subject = change(path, {"calc.py": BROKEN_ADD}, remove=("tests/test_old.py",))
    return Scenario(subject, {})


def pytest_missing(path: Path) -> Scenario:
    # A real interpreter that cannot import pytest: `-S` leaves every site-packages off its path,
    # as a fresh virtualenv or a system Python without pytest would.
    command = PYTEST.replace("{python} -m pytest", "{python} -S -m pytest")
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), {"command": command})


def command_missing(path: Path) -> Scenario:
    # `pytest` named as a command where no such command is on PATH.
    command = PYTEST.replace("{python} -m pytest", "tribunal-no-such-pytest")
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), {"command": command})


def side_red(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT})
    subject.repo.git("checkout", "-q", "-b", "side", subject.base)
    side = subject.repo.commit("side red", {"tests/test_neg.py": RED_TEST})
    subject.repo.git("checkout", "-q", "main")
    # No test_command: the ancestry alone decides red_first, and no suite runs at all.
    return Scenario(subject, {"red": side, "command": None})


SCENARIOS: dict[str, Callable[[Path], Scenario]] = {
    build.__name__: build
    for build in (
        honest, honest_elsewhere, not_red, fake_green, weakened, regression, import_name,
        import_missing, collects_nothing, foreign_collection, generic_honest, generic_regression,
        generic_killed, whole_suite_command, first_test, no_red, no_command, deleted_test,
        old_test_deleted, side_red, pytest_missing, command_missing,
    )
}  # fmt: skip


@dataclass(frozen=True)
class Proven:
    scenario: Scenario
    report: ProofReport

    @property
    def subject(self) -> Change:
        return self.scenario.subject

    @property
    def statuses(self) -> dict[str, str]:
        return {record["name"]: record["status"] for record in self.report.proofs}

    @property
    def codes(self) -> list[str]:
        return [finding["code"] for finding in self.report.findings]

    def detail(self, name: ProofName) -> str:
        return self.report.record(name).detail


def prove(scenario: Scenario) -> Proven:
    subject = scenario.subject
    contract = subject.contract(**scenario.contract)
    return Proven(scenario, run_proofs(subject.path, subject.base, subject.head, contract))


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Proven]]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        scenarios = {
            name: build(tmp_path_factory.mktemp(name) / "repo") for name, build in SCENARIOS.items()
        }
        with ThreadPoolExecutor(max_workers=4) as pool:
            futures = {name: pool.submit(prove, scenario) for name, scenario in scenarios.items()}
            yield {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_report_has_five_valid_records_and_leaves_no_tree(
    proven: dict[str, Proven], name: str
) -> None:
    done = proven[name]
    assert [record["name"] for record in done.report.proofs] == NAMES
    assert first_schema_error(done.report.proofs, "proofs") is None
    assert "tribunal-proofs-" not in json.dumps([done.report.proofs, done.report.findings])
    assert done.subject.worktrees() == [f"worktree {done.subject.path}"]
    evidence = done.report.to_evidence(["contract.yaml"]).to_dict()
    assert first_schema_error(evidence, "evidence") is None
    assert evidence["details"]["proofs"] == done.report.proofs


def test_honest_fix_holds_every_proof(proven: dict[str, Proven]) -> None:
    done = proven["honest"]
    assert done.statuses == HELD
    assert done.report.outcome is Outcome.LAND
    assert done.report.to_evidence([]).verdict is CaseVerdict.PASS
    assert done.report.held and done.report.invalid is None and done.report.findings == []
    assert done.report.not_run == []
    assert done.report.new_tests == ("tests/test_neg.py",)
    assert done.report.proofs[-1]["changed_paths"] == ["calc.py"]
    # test_neg_zero passes at red already; the proof asks for one red test, not all.
    assert done.detail(ProofName.RED_FIRST) == (
        "at red: 1 passed, 1 failed; failing: tests/test_neg.py::test_neg"
    )
    assert (done.subject.path / "calc.py").read_text().endswith("# work in progress\n")


def test_proofs_are_the_same_wherever_the_repository_lives(proven: dict[str, Proven]) -> None:
    here, there = proven["honest"], proven["honest_elsewhere"]
    assert here.subject.path != there.subject.path and here.subject.head == there.subject.head
    assert here.report.proofs == there.report.proofs


def test_a_test_that_is_not_red_at_red_fails_red_first(proven: dict[str, Proven]) -> None:
    done = proven["not_red"]
    assert done.statuses["red_first"] == "failed"
    assert done.detail(ProofName.RED_FIRST) == "no new test fails or errors at red: 1 passed"
    assert done.statuses["green"] == "held" and done.statuses["tests_unchanged"] == "held"
    finding = done.report.findings[0]
    assert finding == {
        "severity": "blocker",
        "claim": "red_first_failed: no new test fails or errors at red: 1 passed",
        "evidence": "at red: 1 passed",
        "location": "tests/test_zero.py",
        "lens": "harness",
        "code": "red_first_failed",
    }
    assert done.report.outcome is Outcome.ITERATE and not done.report.held
    evidence = done.report.to_evidence(["contract.yaml"])
    assert (evidence.verdict, evidence.reason_code) == (CaseVerdict.FAIL, "red_first_failed")


def test_a_fix_the_tests_do_not_need_fails_fake_green(proven: dict[str, Proven]) -> None:
    done = proven["fake_green"]
    assert done.statuses == {**HELD, "fake_green": "failed"}
    assert done.codes == ["fake_green"]
    assert done.report.proofs[-1]["changed_paths"] == ["calc.py"]
    assert done.detail(ProofName.FAKE_GREEN).startswith(
        "red at red, passing with the fix undone: tests/test_neg.py::test_neg; "
    )
    assert done.report.findings[0]["evidence"].startswith("put back to red: calc.py; ")


def test_a_fix_that_weakens_the_red_test_fails_tests_unchanged(
    proven: dict[str, Proven],
) -> None:
    done = proven["weakened"]
    assert done.statuses["tests_unchanged"] == "failed"
    finding = next(f for f in done.report.findings if f["code"] == "tests_changed")
    assert finding["location"] == "tests/test_neg.py"
    # Nothing but the test changed: with nothing put back the weakened test still passes.
    assert done.statuses["fake_green"] == "failed"
    assert done.report.proofs[-1]["changed_paths"] == []


def test_a_deleted_red_test_is_a_changed_test(proven: dict[str, Proven]) -> None:
    done = proven["deleted_test"]
    assert done.statuses["tests_unchanged"] == "failed"
    assert done.detail(ProofName.TESTS_UNCHANGED) == (
        "new test files changed since red: tests/test_neg.py (deleted)"
    )


def test_a_broken_old_test_is_a_regression(proven: dict[str, Proven]) -> None:
    done = proven["regression"]
    assert done.statuses == {**HELD, "regression": "failed"}
    assert done.codes == ["regression"]
    assert done.detail(ProofName.REGRESSION) == (
        "passed at base, not at head: tests/test_old.py::test_add (failed)"
    )
    assert done.report.findings[0]["location"] == "tests/test_old.py"


def test_a_new_test_importing_the_name_the_fix_adds_is_red_not_invalid(
    proven: dict[str, Proven],
) -> None:
    done = proven["import_name"]
    assert done.statuses == HELD
    # The collection error at red, and again with calc.py put back, is the file erroring.
    assert done.detail(ProofName.RED_FIRST) == "at red: 1 error; failing: tests/test_negate.py"
    assert done.detail(ProofName.FAKE_GREEN) == "at head with the fix undone: 1 error"


def test_a_new_test_failing_at_head_is_not_green_never_invalid(
    proven: dict[str, Proven],
) -> None:
    done = proven["import_missing"]
    assert done.report.invalid is None
    assert done.statuses["green"] == "failed"
    assert "not_green" in done.codes
    # The suite at head stops at that collection error, so no old test ran: not proven.
    assert done.statuses["regression"] == "failed"
    assert "no old test ran" in done.detail(ProofName.REGRESSION)


def test_a_suite_that_collects_nothing_is_invalid(proven: dict[str, Proven]) -> None:
    done = proven["collects_nothing"]
    assert done.report.invalid == "red_first: pytest exited 5 at red (no tests collected)"
    assert done.report.outcome is Outcome.INVALID
    evidence = done.report.to_evidence([])
    assert (evidence.verdict, evidence.reason_code) == (CaseVerdict.DEFERRED, "invalid")
    assert done.report.proofs[0]["ok"] is False
    assert "red_first_failed" not in done.codes  # INVALID is no finding


def test_a_command_whose_interpreter_has_no_pytest_says_so_and_how_to_fix_it(
    proven: dict[str, Proven],
) -> None:
    done = proven["pytest_missing"]
    assert done.report.outcome is Outcome.INVALID  # it ran no test: nothing to read
    assert done.report.invalid == (
        f"red_first: the test command could not run pytest at red: {sys.executable} has no "
        "module named pytest; install pytest into the interpreter the command runs, or set "
        "test_command to an interpreter that has it ({python} is the one tribunal runs on)"
    )
    for name in ("red_first", "green", "regression", "fake_green"):
        assert done.statuses[name] == "invalid", name
        assert "has no module named pytest" in done.detail(ProofName(name))
    assert done.codes == []  # INVALID is no finding


def test_a_command_that_is_not_found_says_so_and_how_to_fix_it(
    proven: dict[str, Proven],
) -> None:
    done = proven["command_missing"]
    assert done.report.outcome is Outcome.INVALID
    assert done.report.invalid == (
        "red_first: the test command could not run pytest at red: 'tribunal-no-such-pytest' "
        "was not found (exit 127); install it, or set test_command to run pytest with an "
        "interpreter that has it ({python} -m pytest runs it on tribunal's own)"
    )


def test_a_repositorys_first_test_is_proven_on_an_empty_baseline(
    proven: dict[str, Proven],
) -> None:
    done = proven["first_test"]
    assert done.report.invalid is None
    assert done.statuses == HELD
    assert done.detail(ProofName.REGRESSION) == (
        "at base: no tests collected (an empty baseline); at head: 2 passed"
    )
    # Only at base: a red commit whose new tests collect nothing is still INVALID.
    assert proven["collects_nothing"].report.invalid is not None


def test_a_collection_error_outside_the_new_tests_is_invalid(
    proven: dict[str, Proven],
) -> None:
    done = proven["foreign_collection"]
    assert done.statuses["regression"] == "invalid"
    assert done.report.invalid == (
        "regression: pytest exited 2 at head: collection error in tests/test_old.py, "
        "not a new test file"
    )


def test_only_the_new_tests_count_when_the_command_runs_the_whole_suite(
    proven: dict[str, Proven],
) -> None:
    done = proven["whole_suite_command"]
    assert done.statuses == {
        **HELD,
        "red_first": "failed",
        "fake_green": "failed",
    }
    assert done.detail(ProofName.RED_FIRST) == "no new test fails or errors at red: 1 passed"
    assert done.detail(ProofName.REGRESSION) == (
        "at base: 1 passed, 1 failed; at head: 2 passed, 1 failed"
    )


def test_generic_runner_reads_exit_codes(proven: dict[str, Proven]) -> None:
    done = proven["generic_honest"]
    assert done.statuses == HELD
    assert done.detail(ProofName.RED_FIRST) == "the test command exited 1 at red"
    assert done.detail(ProofName.REGRESSION) == (
        "the test command exited 0 at base; the test command exited 0 at head"
    )


def test_generic_runner_killed_by_a_signal_the_shell_reports_is_invalid(
    proven: dict[str, Proven],
) -> None:
    # B-4: exit 128+N from the shell is signal N — the run did not finish, it did not fail.
    done = proven["generic_killed"]
    killed = "the run at head ended by signal SIGKILL (exit status 137)"
    assert done.statuses == {**HELD, "green": "invalid", "regression": "invalid"}
    assert done.report.invalid == f"green: {killed}"
    assert done.detail(ProofName.REGRESSION) == killed
    assert done.codes == []  # never a not_green or regression finding
    assert done.report.outcome is Outcome.INVALID


def test_a_deleted_old_test_is_a_regression_not_a_silent_pass(proven: dict[str, Proven]) -> None:
    # B-4: a test that passed at base and is missing at head never lets the change land.
    done = proven["old_test_deleted"]
    assert done.statuses["regression"] == "failed"
    assert (
        "tests/test_old.py::test_add (missing)" in done.report.record(ProofName.REGRESSION).detail
    )
    assert "regression" in done.codes


def test_generic_runner_regression_needs_exit_0_at_both(proven: dict[str, Proven]) -> None:
    done = proven["generic_regression"]
    assert done.statuses["regression"] == "failed"
    assert done.codes == ["regression"]


def test_without_red_only_regression_runs(proven: dict[str, Proven]) -> None:
    done = proven["no_red"]
    assert done.statuses == {**dict.fromkeys(NAMES, "not_run"), "regression": "held"}
    assert done.report.not_run == ["red_first", "tests_unchanged", "green", "fake_green"]
    assert done.detail(ProofName.GREEN) == NO_RED
    assert done.report.findings == [] and done.report.invalid is None
    assert done.report.outcome is Outcome.HOLD


def test_without_test_command_only_tests_unchanged_runs(proven: dict[str, Proven]) -> None:
    done = proven["no_command"]
    assert done.statuses == {**dict.fromkeys(NAMES, "not_run"), "tests_unchanged": "held"}
    assert done.detail(ProofName.REGRESSION) == NO_COMMAND
    assert done.report.runs == ()


def test_red_outside_head_history_fails_red_first(proven: dict[str, Proven]) -> None:
    done = proven["side_red"]
    side = done.scenario.contract["red"]
    assert done.statuses["red_first"] == "failed"
    assert done.detail(ProofName.RED_FIRST) == f"red {side[:10]} is not an ancestor of head"
    assert done.report.findings[0]["location"] == "contract.yaml"
    assert done.statuses["tests_unchanged"] == "held"  # the same test bytes at head


def test_red_that_names_no_commit_is_bad_input(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    with pytest.raises(BadInput) as raised:
        run_proofs(subject.path, subject.base, subject.head, subject.contract(red="nosuchref"))
    assert str(raised.value) == (
        f"contract.yaml:5: red: 'nosuchref' does not name a commit in {subject.path}"
    )


def test_a_repository_and_revisions_that_do_not_resolve_are_bad_input(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    contract = subject.contract()
    with pytest.raises(BadInput, match="--repo: not a git repository"):
        run_proofs(tmp_path, subject.base, subject.head, contract)
    with pytest.raises(BadInput, match="--base: 'nope' does not name a commit"):
        run_proofs(subject.path, "nope", subject.head, contract)
    with pytest.raises(BadInput, match="--head: '-x' does not name a commit"):
        run_proofs(subject.path, subject.base, "-x", contract)


def test_a_run_beyond_timeout_s_is_invalid_and_killed(tmp_path: Path) -> None:
    # At head `add` starts a child and sleeps: only the whole-suite run at head calls it.
    pids = tmp_path / "pids"
    sleepy = CALC_RIGHT.replace(
        "    return a + b\n",
        "    import os, subprocess, time\n"
        "    child = subprocess.Popen(['sleep', '60'])\n"
        f"    open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
        "    time.sleep(60)\n",
    )
    subject = change(tmp_path / "repo", {"calc.py": sleepy})
    # 5 s: generous enough that the runs which do not sleep finish under a loaded machine.
    report = run_proofs(subject.path, subject.base, subject.head, subject.contract(timeout_s=5))
    assert report.record(ProofName.REGRESSION).status.value == "invalid"
    assert report.invalid == (
        "regression: the run at head hit the timeout_s cap of 5 s (process group killed)"
    )
    assert report.record(ProofName.GREEN).ok  # the other runs are read as usual
    for pid in pids.read_text().split():
        assert not alive(int(pid))
    assert subject.worktrees() == [f"worktree {subject.path}"]
