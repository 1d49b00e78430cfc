"""The run dir of `tribunal convene` on real repositories (B-5, S-3, C-3, C-6): a convening
killed with -9 leaves valid verdicts and no summary and can be convened again; a foreign
unstamped dir holding tribunal-shaped files is refused untouched; foreign files are left alone;
bad input writes nothing; on a replay fleet two convenings differ only in run_id."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testing import REPO
from testing.convening import contract_file, convene, jury, passing
from testing.hermetic import make_hermetic
from testing.jurors import slow
from testing.proof_projects import CALC_RIGHT, Change, alive, change
from testing.seat_records import EIGHT

EXAMPLE = REPO / "examples" / "blind"


@pytest.fixture(scope="module")
def subject(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Change]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        yield change(tmp_path_factory.mktemp("runs") / "repo", {"calc.py": CALC_RIGHT})


@pytest.fixture
def contract(subject: Change, tmp_path: Path) -> Path:
    return contract_file(tmp_path / "contract.yaml", subject.red, command=None)


def snapshot(path: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(item.relative_to(path)): (item.read_bytes(), item.stat().st_mtime_ns)
        for item in sorted(path.rglob("*"))
        if item.is_file()
    }


def test_kill_9_mid_convening_keeps_written_verdicts_and_a_second_convening_works(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    ledger = str(tmp_path / "ledger.json")
    with jury(tmp_path) as court:
        court.all_pass(skip=["telemetry", "state_continuity"])
        # S-3: two seats stall; the others finish and are written.
        court.answer("telemetry", slow(60, passing("telemetry")))
        court.answer("state_continuity", slow(60, passing("state_continuity")))
        args = [
            sys.executable, "-m", "tribunal", "convene", "--repo", str(subject.path),
            "--base", subject.base, "--contract", str(contract), "--fleet", str(court.fleet),
            "--builder", "vendor-a", "--out", str(out), "--ledger", ledger, "--no-proofs",
        ]  # fmt: skip
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while len(list(out.glob("verdict_*.json"))) < len(EIGHT) - 2:
                assert process.poll() is None, "the convening ended before it was killed"
                assert time.monotonic() < deadline, "no verdicts were written"
                time.sleep(0.02)
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
        assert not alive(process.pid)
        stamp = json.loads((out / ".tribunal-stamp").read_text(encoding="utf-8"))
        written = sorted(out.glob("verdict_*.json"))
        assert len(written) == len(EIGHT) - 2
        for path in written:
            verdict = json.loads(path.read_text(encoding="utf-8"))  # whole, valid JSON
            assert verdict["run_id"] == stamp["run_id"] and verdict["verdict"] == "pass"
        assert not (out / "summary.json").exists()  # recognisably incomplete
        assert not (out / "verdict_telemetry.json").exists()

        with jury(tmp_path, name="again.yaml") as again:
            again.all_pass()
            ran = convene(
                subject.path, subject.base, contract, again.fleet, out,
                "--ledger", ledger, "--no-proofs",
            )  # fmt: skip
    assert (ran.exit_code, ran.outcome) == (0, "LAND")
    assert ran.summary["run_id"] != stamp["run_id"]
    assert len(list(out.glob("verdict_*.json"))) == len(EIGHT)


def test_ctrl_c_mid_convening_exits_130_at_once_keeping_the_written_verdicts(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    # L-9, S-3, C-2: SIGINT stops the waiting for stalled seats; what was delivered stays.
    out = tmp_path / "out"
    ledger = tmp_path / "ledger.json"
    with jury(tmp_path) as court:
        court.all_pass(skip=["telemetry", "state_continuity"])
        court.answer("telemetry", slow(60, passing("telemetry")))
        court.answer("state_continuity", slow(60, passing("state_continuity")))
        args = [
            sys.executable, "-m", "tribunal", "convene", "--repo", str(subject.path),
            "--base", subject.base, "--contract", str(contract), "--fleet", str(court.fleet),
            "--builder", "vendor-a", "--out", str(out), "--ledger", str(ledger), "--no-proofs",
        ]  # fmt: skip
        process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        try:
            deadline = time.monotonic() + 60
            while len(list(out.glob("verdict_*.json"))) < len(EIGHT) - 2:
                assert process.poll() is None, "the convening ended before it was interrupted"
                assert time.monotonic() < deadline, "no verdicts were written"
                time.sleep(0.02)
            process.send_signal(signal.SIGINT)
            # The stalled seats answer after 60 s: an exit well before that did not wait.
            _, stderr = process.communicate(timeout=15)
        finally:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
    assert process.returncode == 130, stderr
    assert stderr == "tribunal: interrupted\n"
    stamp = json.loads((out / ".tribunal-stamp").read_text(encoding="utf-8"))
    written = sorted(out.glob("verdict_*.json"))
    assert len(written) == len(EIGHT) - 2
    for path in written:
        verdict = json.loads(path.read_text(encoding="utf-8"))  # whole, valid JSON
        assert verdict["run_id"] == stamp["run_id"] and verdict["verdict"] == "pass"
    assert not (out / "verdict_telemetry.json").exists()
    assert not (out / "summary.json").exists()  # recognisably incomplete
    assert not (out / "judgment.md").exists()
    assert not ledger.exists()  # no round recorded for a sitting that did not finish


def test_a_foreign_unstamped_dir_with_tribunal_shaped_files_is_refused_untouched(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "summary.json").write_text('{"mine": true}\n', encoding="utf-8")
    (out / "verdict_defect.json").write_text("{}\n", encoding="utf-8")
    (out / "notes.txt").write_text("keep me\n", encoding="utf-8")
    before = snapshot(out)
    with jury(tmp_path) as court:
        court.all_pass()
        ran = convene(subject.path, subject.base, contract, court.fleet, out, "--no-proofs")
        assert not [r for s in court.servers.values() for r in s.chat_requests()]
    assert ran.exit_code == 2
    assert "summary.json, verdict_defect.json" in ran.stderr
    assert "nothing was deleted" in ran.stderr
    assert snapshot(out) == before
    assert not (out / ".tribunal-stamp").exists()


def test_a_dir_of_only_foreign_files_is_used_and_its_files_left_alone(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    out = tmp_path / "shared"
    out.mkdir()
    (out / "notes.txt").write_text("keep me\n", encoding="utf-8")
    before = snapshot(out)
    with jury(tmp_path) as court:
        court.all_pass()
        ran = convene(subject.path, subject.base, contract, court.fleet, out, "--no-proofs")
    assert (ran.exit_code, ran.outcome) == (0, "LAND")
    assert snapshot(out)["notes.txt"] == before["notes.txt"]


@pytest.mark.parametrize(
    ("builder", "contract_extra", "message"),
    [
        ("nobody", "", "--builder: 'nobody' names no rung id"),
        ("vendor-a", "deny: [neg]\n", "identity term 'neg' (deny list)"),
        ("vendor-a", "red: no-such-commit\n", "red: 'no-such-commit' does not name a commit"),
        ("vendor-a", "intent: [not, text]\n", "intent"),
    ],
)
def test_bad_input_writes_nothing_and_dispatches_nothing(
    subject: Change, tmp_path: Path, builder: str, contract_extra: str, message: str
) -> None:
    path = tmp_path / "contract.yaml"
    text = "criteria: [neg(2) == -2]\n" + contract_extra
    if "intent:" not in contract_extra:
        text = "intent: neg returns the negation\n" + text
    path.write_text(text, encoding="utf-8")
    ledger = tmp_path / "ledger.json"
    with jury(tmp_path) as court:
        court.all_pass()
        ran = convene(
            subject.path, subject.base, path, court.fleet, tmp_path / "out",
            "--ledger", str(ledger), builder=builder,
        )  # fmt: skip
        assert not [r for s in court.servers.values() for r in s.chat_requests()]
    assert ran.exit_code == 2, ran.stdout + ran.stderr
    assert ran.stderr.startswith("tribunal: error: ") and message in ran.stderr
    assert len(ran.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists() and not ledger.exists()


def test_on_a_replay_fleet_two_convenings_differ_only_in_run_id(tmp_path: Path) -> None:
    # C-6, with the shipped demonstration (examples/blind) and its recorded answers.
    demo = tmp_path / "demo"
    subprocess.run([sys.executable, str(EXAMPLE / "make_demo_repo.py"), str(demo)], check=True)
    fleet = EXAMPLE / "fleet.replay.yaml"
    runs = []
    for name in ("first", "second"):
        ran = convene(
            demo / "repo", "base", demo / "contract.yaml", fleet, tmp_path / name,
            "--ledger", str(tmp_path / f"{name}.json"), "--no-proofs",
        )  # fmt: skip
        assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
        assert "recorded answers (replay, not live models)" in ran.stdout
        runs.append(ran)
    first, second = (ran.summary["run_id"] for ran in runs)
    assert first != second
    # B-1: a recorded reply reports no usage, so a replay rung's counts and price are null.
    costs = runs[0].summary["costs"]
    answered = [rung for rung, entry in costs.items() if rung != "total_usd" and entry["calls"]]
    assert answered and costs["total_usd"] is None
    for rung in answered:
        assert costs[rung]["prompt_tokens"] is None and costs[rung]["usd"] is None
    files = sorted(path.name for path in runs[0].out.iterdir())
    assert files == sorted(path.name for path in runs[1].out.iterdir())
    for name in files:
        text = (runs[0].out / name).read_text(encoding="utf-8").replace(first, "RUN")
        other = (runs[1].out / name).read_text(encoding="utf-8").replace(second, "RUN")
        assert text == other, name
    console = [
        ran.stdout.replace(run_id, "RUN").replace(str(ran.out), "OUT")
        for ran, run_id in zip(runs, (first, second), strict=True)
    ]
    assert console[0] == console[1]
    # Every convening says where it wrote its run dir and its judgment.
    assert console[0].endswith("run dir: OUT\njudgment: OUT/judgment.md\n")
    # Convening again into a stamped dir: the earlier judgment and summary go to history.
    again = convene(
        demo / "repo", "base", demo / "contract.yaml", fleet, runs[0].out,
        "--ledger", str(tmp_path / "first.json"), "--no-proofs",
    )  # fmt: skip
    assert again.summary["round"] == 2, again.stdout + again.stderr
    assert (runs[0].out / "history" / first / "summary.json").is_file()
    assert (runs[0].out / "history" / first / "judgment.md").is_file()
    # B-5, R-6: the history judgment's evidence moved with it, so both judgments resolve.
    assert (runs[0].out / "history" / first / "verdict_defect.json").is_file()
    # Run from the out dir: C-8 roots the check there (no git checkout around tmp_path).
    checked = subprocess.run(
        [sys.executable, "-m", "tribunal", "records", "check", "."],
        cwd=runs[0].out, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 judgment(s)" in checked.stdout and "no problems" in checked.stdout
    judged = subprocess.run(
        [sys.executable, "-m", "tribunal", "judgment", "--check", f"history/{first}/judgment.md"],
        cwd=runs[0].out, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert judged.returncode == 0, judged.stdout + judged.stderr
    assert judged.stderr.endswith(": APPROVE outcome:land\n"), judged.stderr


@pytest.mark.parametrize("where", ["proc", "under_a_file"])
def test_an_unwritable_ledger_is_bad_input_before_any_seat_sits(
    subject: Change, contract: Path, tmp_path: Path, where: str
) -> None:
    # C-3: the ledger is first written after the seats ran; an unwritable one is refused first.
    if where == "proc":
        ledger = Path("/proc/nope/ledger.json")
    else:
        (tmp_path / "a_file").write_text("not a dir\n", encoding="utf-8")
        ledger = tmp_path / "a_file" / "ledger.json"
    out = tmp_path / "out"
    with jury(tmp_path) as court:
        court.all_pass()
        ran = convene(
            subject.path, subject.base, contract, court.fleet, out,
            "--ledger", str(ledger), "--no-proofs",
        )  # fmt: skip
        assert not [r for s in court.servers.values() for r in s.chat_requests()]
    assert ran.exit_code == 2, ran.stdout + ran.stderr
    assert ran.stderr.startswith("tribunal: error: ") and "--ledger" in ran.stderr, ran.stderr
    assert "cannot write the ledger" in ran.stderr
    assert not out.exists()
