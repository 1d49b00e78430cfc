"""B-4 proofs on real git repositories with base -> red -> fix commits and real pytest runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.proof_projects import (
    CALC_RIGHT,
    CALC_WRONG,
    GENERIC,
    RED_TEST,
    Change,
    alive,
    change,
)
from tribunal.documents import first_schema_error
from tribunal.enums import ProofName
from tribunal.errors import BadInput
from tribunal.evidence.proof_record import ProofReport
from tribunal.evidence.proofs import NO_COMMAND, NO_RED, run_proofs

NAMES = [name.value for name in ProofName]
HELD = dict.fromkeys(NAMES, "held")


def prove(subject: Change, **contract: object) -> ProofReport:
    """Run the proofs and check what every report must be: five records in B-4 order, valid
    against the schema, no scratch path in them, and no worktree left behind."""
    report = run_proofs(
        subject.path,
        subject.base,
        subject.head,
        subject.contract(**contract),  # type: ignore[arg-type]
    )
    assert [record["name"] for record in report.proofs] == NAMES
    assert first_schema_error(report.proofs, "proofs") is None
    assert "tribunal-proofs-" not in json.dumps(report.proofs)
    assert subject.worktrees() == [f"worktree {subject.path}"]
    return report


def statuses(report: ProofReport) -> dict[str, str]:
    return {record["name"]: record["status"] for record in report.proofs}


def codes(report: ProofReport) -> list[str]:
    return [finding["code"] for finding in report.findings]


def detail(report: ProofReport, name: ProofName) -> str:
    return report.record(name).detail


def test_honest_fix_holds_every_proof(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    report = prove(subject)
    assert statuses(report) == HELD
    assert report.held and report.invalid is None and report.findings == []
    assert report.not_run == []
    assert report.new_tests == ("tests/test_neg.py",)
    fake_green = report.proofs[-1]
    assert fake_green["changed_paths"] == ["calc.py"]
    assert "tests/test_neg.py::test_neg" in detail(report, ProofName.RED_FIRST)
    # test_neg_zero passes at red already; the proof asks for one red test, not all.
    assert detail(report, ProofName.RED_FIRST) == (
        "at red: 1 passed, 1 failed; failing: tests/test_neg.py::test_neg"
    )


def test_a_test_that_is_not_red_at_red_fails_red_first(tmp_path: Path) -> None:
    passing = "import calc\n\n\ndef test_add_zero():\n    assert calc.add(0, 0) == 0\n"
    subject = change(
        tmp_path / "repo",
        {"calc.py": CALC_RIGHT},
        red_files={"tests/test_zero.py": passing},
    )
    report = prove(subject)
    assert statuses(report)["red_first"] == "failed"
    assert statuses(report)["green"] == "held"
    assert statuses(report)["tests_unchanged"] == "held"
    assert "red_first_failed" in codes(report)
    finding = report.findings[0]
    assert finding["severity"] == "blocker" and finding["lens"] == "harness"
    assert finding["location"] == "tests/test_zero.py"
    assert report.invalid is None and not report.held


def test_a_fix_the_tests_do_not_need_fails_fake_green(tmp_path: Path) -> None:
    # The real work is done by a conftest (a test file, never put back); calc.py changes only
    # cosmetically, so with calc.py back at its red version the new tests still pass.
    conftest = "import calc\n\ncalc.neg = lambda x: -x\n"
    subject = change(
        tmp_path / "repo",
        {"calc.py": "# tidy\n" + CALC_WRONG, "tests/conftest.py": conftest},
    )
    report = prove(subject)
    assert statuses(report) == {**HELD, "fake_green": "failed"}
    assert codes(report) == ["fake_green"]
    assert report.proofs[-1]["changed_paths"] == ["calc.py"]
    assert "tests/test_neg.py::test_neg" in detail(report, ProofName.FAKE_GREEN)
    assert "calc.py" in report.findings[0]["evidence"]


def test_a_fix_that_weakens_the_red_test_fails_tests_unchanged(tmp_path: Path) -> None:
    weakened = "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == calc.neg(2)\n"
    subject = change(tmp_path / "repo", {"tests/test_neg.py": weakened})
    report = prove(subject)
    assert statuses(report)["tests_unchanged"] == "failed"
    assert "tests_changed" in codes(report)
    finding = next(f for f in report.findings if f["code"] == "tests_changed")
    assert finding["location"] == "tests/test_neg.py"
    # Nothing but the test changed: with nothing put back the weakened test still passes.
    assert statuses(report)["fake_green"] == "failed"
    assert report.proofs[-1]["changed_paths"] == []


def test_a_deleted_red_test_is_a_changed_test(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT}, remove=("tests/test_neg.py",))
    report = run_proofs(subject.path, subject.base, subject.head, subject.contract(command=None))
    assert statuses(report)["tests_unchanged"] == "failed"
    assert "tests/test_neg.py (deleted)" in detail(report, ProofName.TESTS_UNCHANGED)


def test_a_broken_old_test_is_a_regression(tmp_path: Path) -> None:
    broken = CALC_RIGHT.replace("return a + b", "return a - b")
    subject = change(tmp_path / "repo", {"calc.py": broken})
    report = prove(subject)
    assert statuses(report) == {**HELD, "regression": "failed"}
    assert codes(report) == ["regression"]
    assert "tests/test_old.py::test_add (failed)" in detail(report, ProofName.REGRESSION)
    assert report.findings[0]["location"] == "tests/test_old.py"


def test_a_new_test_importing_the_name_the_fix_adds_is_red_not_invalid(tmp_path: Path) -> None:
    importing = "from calc import negate\n\n\ndef test_negate():\n    assert negate(2) == -2\n"
    fixed = CALC_WRONG + "\n\ndef negate(x):\n    return -x\n"
    subject = change(
        tmp_path / "repo", {"calc.py": fixed}, red_files={"tests/test_negate.py": importing}
    )
    report = prove(subject)
    assert statuses(report) == HELD
    # The collection error at red, and again with calc.py put back, is the file erroring.
    assert "failing: tests/test_negate.py" in detail(report, ProofName.RED_FIRST)
    assert "1 error" in detail(report, ProofName.FAKE_GREEN)


def test_a_new_test_failing_at_head_is_not_green_never_invalid(tmp_path: Path) -> None:
    importing = "from calc import negate\n\n\ndef test_negate():\n    assert negate(2) == -2\n"
    subject = change(
        tmp_path / "repo",
        {"calc.py": CALC_RIGHT},  # the fix never adds `negate`
        red_files={"tests/test_negate.py": importing},
    )
    report = prove(subject)
    assert report.invalid is None
    assert statuses(report)["green"] == "failed"
    assert "not_green" in codes(report)
    # The suite at head stops at that collection error, so no old test ran: not proven.
    assert statuses(report)["regression"] == "failed"
    assert "no old test ran" in detail(report, ProofName.REGRESSION)


def test_a_suite_that_collects_nothing_is_invalid(tmp_path: Path) -> None:
    no_tests = "import calc\n\n\ndef helper():\n    return calc.neg(1)\n"
    subject = change(
        tmp_path / "repo", {"calc.py": CALC_RIGHT}, red_files={"tests/test_helper.py": no_tests}
    )
    report = prove(subject)
    assert report.invalid is not None
    assert report.invalid.startswith("red_first: pytest exited 5 at red (no tests collected)")
    assert statuses(report)["red_first"] == "invalid"
    assert report.proofs[0]["ok"] is False
    assert "red_first_failed" not in codes(report)  # INVALID is no finding


def test_a_collection_error_outside_the_new_tests_is_invalid(tmp_path: Path) -> None:
    # The fix breaks the old test module's import: exit 2 from a collection error elsewhere.
    old = "from calc import plus\n\n\ndef test_plus():\n    assert plus(2, 3) == 5\n"
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT, "tests/test_old.py": old})
    report = prove(subject)
    assert statuses(report)["regression"] == "invalid"
    assert report.invalid == (
        "regression: pytest exited 2 at head: collection error in tests/test_old.py, "
        "not a new test file"
    )


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
    report = prove(subject, timeout_s=2)
    assert statuses(report)["regression"] == "invalid"
    assert report.invalid == (
        "regression: the run at head hit the timeout_s cap of 2 s (process group killed)"
    )
    assert statuses(report)["green"] == "held"  # the other runs are read as usual
    for pid in pids.read_text().split():
        assert not alive(int(pid))


def test_generic_runner_reads_exit_codes(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    report = prove(subject, command=GENERIC, runner="generic")
    assert statuses(report) == HELD
    assert "the test command exited 1 at red" in detail(report, ProofName.RED_FIRST)
    assert detail(report, ProofName.REGRESSION) == (
        "the test command exited 0 at base; the test command exited 0 at head"
    )


def test_generic_runner_regression_needs_exit_0_at_both(tmp_path: Path) -> None:
    broken = CALC_RIGHT.replace("return a + b", "return a - b")
    subject = change(tmp_path / "repo", {"calc.py": broken})
    report = prove(subject, command=GENERIC, runner="generic")
    assert statuses(report)["regression"] == "failed"
    assert codes(report) == ["regression"]


def test_without_red_only_regression_runs(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    report = prove(subject, red=None)
    assert statuses(report) == {
        **dict.fromkeys(NAMES, "not_run"),
        "regression": "held",
    }
    assert report.not_run == ["red_first", "tests_unchanged", "green", "fake_green"]
    assert detail(report, ProofName.GREEN) == NO_RED
    assert report.findings == [] and report.invalid is None and not report.held


def test_without_test_command_only_tests_unchanged_runs(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    report = prove(subject, command=None)
    assert statuses(report) == {**dict.fromkeys(NAMES, "not_run"), "tests_unchanged": "held"}
    assert report.runs == ()
    assert detail(report, ProofName.REGRESSION) == NO_COMMAND


def test_red_that_names_no_commit_is_bad_input(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    with pytest.raises(BadInput) as raised:
        run_proofs(subject.path, subject.base, subject.head, subject.contract(red="nosuchref"))
    assert str(raised.value) == (
        f"contract.yaml:5: red: 'nosuchref' does not name a commit in {subject.path}"
    )


def test_red_outside_head_history_fails_red_first(tmp_path: Path) -> None:
    subject = change(tmp_path / "repo", {"calc.py": CALC_RIGHT})
    subject.repo.git("checkout", "-q", "-b", "side", subject.base)
    side = subject.repo.commit("side red", {"tests/test_neg.py": RED_TEST})
    subject.repo.git("checkout", "-q", "main")
    # No test_command: the ancestry alone decides red_first, and no suite runs at all.
    report = prove(subject, red=side, command=None)
    assert statuses(report)["red_first"] == "failed"
    assert detail(report, ProofName.RED_FIRST) == f"red {side[:10]} is not an ancestor of head"
    assert report.findings[0]["location"] == "contract.yaml"
    # The same test bytes at head: unchanged.
    assert statuses(report)["tests_unchanged"] == "held"
