"""The run dir of `tribunal convene` on real repositories (B-5, S-3, C-3, C-6): a convening
killed with -9 leaves valid verdicts and no summary and can be convened again; a foreign
unstamped dir holding tribunal-shaped files is refused untouched; foreign files are left alone;
bad input writes nothing; on a replay fleet two convenings differ only in run_id."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testing import REPO
from testing.convening import (
    contract_file,
    convene,
    convene_args,
    convening_process,
    jury,
    passing,
)
from testing.hermetic import make_hermetic
from testing.jurors import held, slow
from testing.proof_projects import CALC_RIGHT, Change, alive, change
from testing.seat_records import EIGHT

from tribunal.records.rundir import LOCK_NAME, STAMP_NAME

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
    assert "cannot write" in ran.stderr  # the ledger: checked as every output is, then opened
    assert not out.exists()


# --- B-5: one convening per run dir; every file names its run ------------------------------


def carried_run_ids(out: Path) -> dict[str, str | None]:
    """Each file of the run dir (history aside) with the run_id it carries, None for none."""
    found: dict[str, str | None] = {}
    for path in sorted(out.iterdir()):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json" or path.name == STAMP_NAME:
            found[path.name] = json.loads(text).get("run_id")
        elif path.name == "envelope.md":
            first = text.splitlines()[0]
            found[path.name] = first.removeprefix("<!-- run_id: ").removesuffix(" -->")
        else:  # judgment.md: its front matter
            fields = [line for line in text.split("\n---", 1)[0].splitlines() if ": " in line]
            found[path.name] = dict(line.split(": ", 1) for line in fields).get("run_id")
    return found


def test_a_second_convening_into_a_run_dir_in_use_is_refused_naming_its_holder(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    release = threading.Event()
    with jury(tmp_path) as court:
        court.all_pass(skip=["telemetry"])
        court.answer("telemetry", held(release, passing("telemetry")))
        args = convene_args(subject.path, subject.base, contract, court.fleet, out, "--no-proofs")
        first = convening_process(*args, "--ledger", str(tmp_path / "first.json"))
        try:
            deadline = time.monotonic() + 60
            while not (out / LOCK_NAME).is_file() or not (out / "routing.json").is_file():
                assert first.poll() is None, "the first convening ended before the second came"
                assert time.monotonic() < deadline, "the first convening never claimed its dir"
                time.sleep(0.02)
            second = convene(
                subject.path, subject.base, contract, court.fleet, out,
                "--no-proofs", "--ledger", str(tmp_path / "second.json"), process=True,
            )  # fmt: skip
        finally:
            release.set()
            _, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    run_id = json.loads((out / "summary.json").read_text(encoding="utf-8"))["run_id"]
    assert second.exit_code == 2, second.stdout + second.stderr
    holder = f"run {run_id}, process {first.pid} on host {socket.gethostname()}"
    assert second.stderr == (
        f"tribunal: error: {out}: --out: is in use by another convening ({holder}); nothing "
        "was touched. Wait for it to end, or give --out another directory\n"
    )
    assert not (tmp_path / "second.json").exists()  # the refused one recorded nothing
    # Every file of the run dir is the first convening's, and says so; the lock is gone.
    carried = carried_run_ids(out)
    assert set(carried) == {
        STAMP_NAME, "envelope.md", "manifest.json", "routing.json", "judgment.md",
        "summary.json", *(f"verdict_{lens}.json" for lens in EIGHT),
    }  # fmt: skip
    assert carried == dict.fromkeys(carried, run_id)


# --- B-4, B-5: worktrees killed with their convening are pruned; a live one never is --------

SLEEPING_CONTRACT = """\
intent: neg returns the negation
criteria: [neg(2) == -2]
test_command: echo $$ >> {pids} && exec sleep 60
test_runner: generic
red: {red}
timeout_s: 120
"""


def tribunal_worktrees(subject: Change) -> list[Path]:
    return [
        Path(line.removeprefix("worktree "))
        for line in subject.worktrees()
        if Path(line.removeprefix("worktree ")).name.startswith("tribunal-")
    ]


def proving(process: subprocess.Popen[str], subject: Change, pids: Path, runs: int) -> None:
    """Wait until `process` sits in its proofs: `runs` test runs started in tribunal worktrees."""
    deadline = time.monotonic() + 60
    while not pids.is_file() or len(pids.read_text().split()) < runs:
        assert process.poll() is None, "the convening ended before its proofs ran"
        assert time.monotonic() < deadline, "no proof started"
        time.sleep(0.02)


def test_worktrees_a_killed_convening_left_are_pruned_and_a_live_ones_kept(
    subject: Change, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    contract = tmp_path / "sleeping.yaml"
    contract.write_text(SLEEPING_CONTRACT.format(pids=pids, red=subject.red), encoding="utf-8")
    with jury(tmp_path) as court:
        court.all_pass()
        args = convene_args(subject.path, subject.base, contract, court.fleet, tmp_path / "a")
        killed = convening_process(*args, "--ledger", str(tmp_path / "a.json"))
        try:
            proving(killed, subject, pids, 1)
        finally:
            os.kill(killed.pid, signal.SIGKILL)
            killed.communicate()
        left = tribunal_worktrees(subject)
        assert left and all(tree.exists() for tree in left)  # registered in the user's repo
        killed_run = json.loads((tmp_path / "a" / STAMP_NAME).read_text())["run_id"]
        assert all(tree.name.startswith(f"tribunal-{killed_run}.") for tree in left)

        # The next convening — still sitting in its own proofs — prunes the killed one's.
        args = convene_args(subject.path, subject.base, contract, court.fleet, tmp_path / "b")
        live = convening_process(*args, "--ledger", str(tmp_path / "b.json"))
        try:
            proving(live, subject, pids, 2)
            live_run = json.loads((tmp_path / "b" / STAMP_NAME).read_text())["run_id"]
            mine = tribunal_worktrees(subject)
            assert mine and all(tree.name.startswith(f"tribunal-{live_run}.") for tree in mine)
            assert not any(tree.exists() for tree in left)

            # A third convening meanwhile never touches the live one's worktrees.
            ran = convene(
                subject.path, subject.base, contract, court.fleet, tmp_path / "c",
                "--no-proofs", "--ledger", str(tmp_path / "c.json"),
            )  # fmt: skip
            assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
            assert "abandoned" not in ran.stderr
            assert tribunal_worktrees(subject) == mine and all(tree.is_dir() for tree in mine)
            live.send_signal(signal.SIGINT)  # Ctrl-C: it removes its own worktrees
            _, stderr = live.communicate(timeout=30)
        finally:
            if live.poll() is None:
                os.kill(live.pid, signal.SIGKILL)
                live.communicate()
            for pid in pids.read_text().split():  # the killed convening's orphaned test run
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(int(pid), signal.SIGKILL)
    assert live.returncode == 130, stderr
    assert f"removed a worktree that run {killed_run} abandoned: {left[0]}" in stderr
    assert subject.worktrees() == [f"worktree {subject.path}"]
    assert not any(tree.parent.exists() for tree in [*left, *mine])


# --- L-7, S-3: a harness seat abandoned by Ctrl-C is ended and its worktree removed ---------

STALLING_HARNESS = """\
import os, sys, time
with open(sys.argv[1], "a", encoding="utf-8") as seen:
    seen.write(f"{os.getpid()} {os.getcwd()}\\n")
time.sleep(60)
"""


def test_ctrl_c_ends_the_harness_seats_it_abandons_and_removes_their_worktrees(
    subject: Change, contract: Path, tmp_path: Path
) -> None:
    script = tmp_path / "harness.py"
    script.write_text(STALLING_HARNESS, encoding="utf-8")
    seen = tmp_path / "seen.txt"
    with jury(tmp_path) as court:
        court.all_pass()
        harness = (
            f"  - {{id: harness-h, family: vendor-h, transport: command, timeout_s: 90, "
            f"command: [{json.dumps(sys.executable)}, {json.dumps(str(script))}, "
            f"{json.dumps(str(seen))}]}}\n"
        )
        text = court.fleet.read_text(encoding="utf-8").replace("tiers:\n", harness + "tiers:\n")
        court.fleet.write_text(text.replace("deep_state: [", "deep_state: [harness-h, "))
        out = tmp_path / "out"
        args = convene_args(subject.path, subject.base, contract, court.fleet, out, "--no-proofs")
        process = convening_process(*args, "--ledger", str(tmp_path / "ledger.json"))
        try:
            deadline = time.monotonic() + 60
            # Both deep_state seats sit in a harness; the six others have their verdicts.
            while (
                not seen.is_file()
                or len(seen.read_text().splitlines()) < 2
                or len(list(out.glob("verdict_*.json"))) < len(EIGHT) - 2
            ):
                assert process.poll() is None, "the convening ended before it was interrupted"
                assert time.monotonic() < deadline, "the harness seats never sat"
                time.sleep(0.02)
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=15)
        finally:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.communicate()
    assert process.returncode == 130, stderr
    sat = [line.split(" ", 1) for line in seen.read_text().splitlines()]
    for pid, cwd in sat:
        assert not alive(int(pid)), "a harness outlived the convening"
        assert not Path(cwd).exists()
        assert Path(cwd).name == f"tribunal-{carried_run_ids(out)[STAMP_NAME]}.seat"
    assert subject.worktrees() == [f"worktree {subject.path}"]
