"""B-4 runs: the timeout_s cap kills the whole process group; JUnit XML read per test."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.proof_projects import PYTEST, alive

from tribunal.enums import TestOutcome
from tribunal.evidence.proofs.capped import run_capped
from tribunal.evidence.proofs.junit import NodeIds, read_junit
from tribunal.jury.envelope.contract import load_contract


def test_the_cap_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    run = run_capped(f"sleep 30 & echo $! > {pid_file}; wait", tmp_path, 0.5)
    assert run.timed_out and run.exit_code is None
    assert run.why_not_clean == "hit the timeout_s cap of 0.5 s (process group killed)"
    assert not alive(int(pid_file.read_text()))


def test_children_left_behind_by_a_finished_run_are_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    run = run_capped(f"sleep 30 & echo $! > {pid_file}; echo done", tmp_path, 10)
    assert run.exit_code == 0 and not run.timed_out and run.why_not_clean is None
    assert run.output_tail == "done\n"
    assert not alive(int(pid_file.read_text()))


def test_a_signal_is_not_an_exit_code(tmp_path: Path) -> None:
    run = run_capped("kill -TERM $$", tmp_path, 10)
    assert run.exit_code is None and run.signal == 15
    assert run.why_not_clean == "ended by signal SIGTERM"


@pytest.mark.parametrize(("number", "name"), [(9, "SIGKILL"), (15, "SIGTERM"), (2, "SIGINT")])
def test_a_signal_the_shell_reports_as_128_plus_n_is_a_signal(
    tmp_path: Path, number: int, name: str
) -> None:
    # The shell waits for the command (it is not the last one), so it reports 128+N itself.
    run = run_capped(f"sh -c 'kill -{number} $$'; exit $?", tmp_path, 10)
    assert run.exit_code is None and run.signal == number
    assert run.why_not_clean == f"ended by signal {name} (exit status {128 + number})"


@pytest.mark.parametrize("code", [1, 2, 127, 128, 200, 255])
def test_other_exit_statuses_are_exit_codes(tmp_path: Path, code: int) -> None:
    run = run_capped(f"exit {code}", tmp_path, 10)
    assert (run.exit_code, run.signal, run.why_not_clean) == (code, None, None)


def test_exit_codes_and_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "marker").write_text("x")
    assert run_capped("test -f marker && exit 7", tmp_path, 10).exit_code == 7


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="test_x" name="test_a" />
<testcase classname="test_x.TestK" name="test_b"><failure message="no" /></testcase>
<testcase classname="test_x" name="test_c"><skipped message="s" /></testcase>
<testcase classname="test_x" name="test_d" />
<testcase classname="test_x" name="test_d"><error message="teardown" /></testcase>
<testcase classname="" name="pkg.test_y"><error message="collection failure" /></testcase>
<testcase classname="elsewhere" name="test_e" />
</testsuite></testsuites>"""


def test_junit_outcomes_by_node_id(tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    report.write_text(JUNIT, encoding="utf-8")
    # pytest's rootdir was `tests/`: module names are the dotted tail of the file paths.
    ids = NodeIds(["tests/test_x.py", "tests/pkg/test_y.py", "src/calc.py"])
    tests = read_junit(report, ids)
    assert tests is not None
    assert [(t.node_id, t.outcome, t.collection_error) for t in tests] == [
        ("tests/test_x.py::test_a", TestOutcome.PASSED, False),
        ("tests/test_x.py::TestK::test_b", TestOutcome.FAILED, False),
        ("tests/test_x.py::test_c", TestOutcome.SKIPPED, False),
        ("tests/test_x.py::test_d", TestOutcome.ERROR, False),  # a teardown error counts
        ("tests/pkg/test_y.py", TestOutcome.ERROR, True),
        ("elsewhere::test_e", TestOutcome.PASSED, False),
    ]


def test_an_ambiguous_module_tail_names_no_file() -> None:
    ids = NodeIds(["a/test_x.py", "b/test_x.py"])
    assert ids.file_of_module("test_x") is None
    assert ids.file_of_module("a.test_x") == "a/test_x.py"


def test_no_report_reads_as_none(tmp_path: Path) -> None:
    assert read_junit(tmp_path / "missing.xml", NodeIds([])) is None
    broken = tmp_path / "broken.xml"
    broken.write_text("<testsuites>", encoding="utf-8")
    assert read_junit(broken, NodeIds([])) is None


def test_test_command_placeholders(tmp_path: Path) -> None:
    contract = tmp_path / "contract.yaml"
    contract.write_text(f"intent: x\ncriteria: [y]\ntest_command: '{PYTEST}'\n", encoding="utf-8")
    rendered = load_contract(contract).render_test_command(["'a b.py'"], "/r/j.xml", "/py/python")
    assert rendered == (
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 /py/python -m pytest -q -p no:cacheprovider "
        "'a b.py' --junitxml=/r/j.xml"
    )
