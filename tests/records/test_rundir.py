"""B-5, S-3: the run dir — stamp before sweep, refusal of unstamped tribunal files, history,
0600/0700, verdicts as seats finish, summary last, and a real `kill -9` mid-run."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from testing import REPO
from testing.seat_records import EIGHT, passed

from tribunal.documents import first_schema_error
from tribunal.errors import BadInput
from tribunal.records.rundir import (
    LOCK_NAME,
    STAMP_NAME,
    claim,
    is_complete,
    new_run_id,
    read_stamp,
    verdict_name,
)

SRC = REPO / "src"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def finish(run_dir_path: Path, run_id: str, *, lenses: tuple[str, ...] = EIGHT[:2]) -> None:
    """A whole earlier run of ours in `run_dir_path`."""
    run = claim(run_dir_path, run_id=run_id)
    for lens in lenses:
        run.write_verdict(passed(lens))
    run.write_text("routing.json", "{}\n")
    run.write_text("envelope.md", "# envelope\n")
    run.write_text("manifest.json", "{}\n")
    run.write_text("judgment.md", f"---\nverdict: APPROVE\nrun_id: {run_id}\n---\nbody\n")
    run.write_summary({"run_id": run_id, "outcome": "LAND"})
    run.release()


def test_fresh_dir_is_created_stamped_and_owner_only(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "out"
    run = claim(out, run_id="abc123")
    assert mode(out) == 0o700
    stamp = json.loads((out / STAMP_NAME).read_text())
    assert stamp == {"tool": "tribunal", "run_id": "abc123"}
    assert first_schema_error(stamp, "stamp") is None
    assert mode(out / STAMP_NAME) == 0o600
    written = run.write_verdict(passed("defect"))
    assert written.name == "verdict_defect.json"
    assert mode(written) == 0o600
    assert json.loads(written.read_text())["run_id"] == "abc123"
    assert first_schema_error(json.loads(written.read_text()), "seat_record") is None


def test_run_ids_are_random() -> None:
    assert len({new_run_id() for _ in range(50)}) == 50


def test_summary_marks_completion_and_carries_the_run_id(tmp_path: Path) -> None:
    run = claim(tmp_path / "out")
    run.write_verdict(passed("defect"))
    assert not run.complete
    with pytest.raises(ValueError):
        run.write_summary({"run_id": "someone-else"})
    assert not is_complete(run.path)
    run.write_summary({"run_id": run.run_id})
    assert run.complete
    assert mode(run.path / "summary.json") == 0o600


@pytest.mark.parametrize("shaped", ["verdict_defect.json", "summary.json", "judgment.md"])
def test_unstamped_dir_with_tribunal_files_is_refused_and_nothing_touched(
    tmp_path: Path, shaped: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / shaped).write_text("theirs\n")
    (out / "notes.txt").write_text("foreign\n")
    before = {entry.name: entry.read_text() for entry in out.iterdir()}
    with pytest.raises(BadInput) as caught:
        claim(out, label="out")
    message = str(caught.value)
    assert shaped in message
    assert "nothing was deleted" in message
    assert "fresh directory" in message  # the remedy
    assert message.startswith("out: --out: ")
    assert {entry.name: entry.read_text() for entry in out.iterdir()} == before


def test_foreign_dir_with_only_foreign_files_is_used_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir(mode=0o755)
    os.chmod(out, 0o755)
    (out / "notes.txt").write_text("foreign\n")
    (out / "verdict.txt").write_text("not a verdict file\n")
    (out / "sub").mkdir()
    (out / "sub" / "summary.json").write_text("{}")
    run = claim(out)
    run.write_verdict(passed("defect"))
    run.write_summary({"run_id": run.run_id})
    run.release()
    assert (out / "notes.txt").read_text() == "foreign\n"
    assert (out / "verdict.txt").read_text() == "not a verdict file\n"
    assert (out / "sub" / "summary.json").read_text() == "{}"
    assert mode(out) == 0o755  # a foreign dir's mode is not ours to change
    # Claiming it again sweeps our files only.
    again = claim(out)
    assert again.swept_run_id == run.run_id
    assert (out / "notes.txt").read_text() == "foreign\n"
    assert (out / "sub" / "summary.json").read_text() == "{}"
    assert not (out / "verdict_defect.json").exists()


def test_reconvening_sweeps_the_earlier_run_into_history(tmp_path: Path) -> None:
    out = tmp_path / "out"
    finish(out, "first")
    (out / "keep.txt").write_text("foreign\n")
    run = claim(out, run_id="second")
    run.release()
    assert run.swept_run_id == "first"
    assert read_stamp(out) == "second"
    history = out / "history" / "first"
    # B-5, R-6: with the judgment and summary, every file the judgment can cite.
    cited = ["envelope.md", "manifest.json", "routing.json", *map(verdict_name, EIGHT[:2])]
    assert sorted(entry.name for entry in history.iterdir()) == sorted(
        ["judgment.md", "summary.json", *cited]
    )
    assert json.loads((history / "summary.json").read_text())["run_id"] == "first"
    assert json.loads((history / verdict_name(EIGHT[0])).read_text())["run_id"] == "first"
    assert mode(out / "history") == 0o700
    assert mode(history) == 0o700
    left = sorted(entry.name for entry in out.iterdir())
    assert left == [STAMP_NAME, "history", "keep.txt"]
    # A third run keeps both earlier ones.
    finish(out, "third")
    claim(out, run_id="fourth").release()
    assert sorted(entry.name for entry in (out / "history").iterdir()) == ["first", "third"]


def test_stamped_dir_with_history_is_not_mistaken_for_a_foreign_one(tmp_path: Path) -> None:
    out = tmp_path / "out"
    finish(out, "one")
    finish(out, "two")
    assert (out / "history" / "one" / "summary.json").is_file()


def test_a_stamp_that_is_not_ours_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / STAMP_NAME).write_text("something else\n")
    (out / "summary.json").write_text("{}")
    with pytest.raises(BadInput, match="not a tribunal stamp"):
        claim(out)
    assert (out / "summary.json").read_text() == "{}"
    assert (out / STAMP_NAME).read_text() == "something else\n"


def test_a_file_as_out_dir_is_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_text("x")
    with pytest.raises(BadInput, match="not a directory"):
        claim(target)


def test_unsafe_lens_ids_cannot_name_a_verdict_file() -> None:
    assert verdict_name("defect") == "verdict_defect.json"
    for bad in ("../x", "a/b", "", ".hidden"):
        with pytest.raises(BadInput):
            verdict_name(bad)


def test_history_dir_name_comes_from_the_file_not_a_hostile_value(tmp_path: Path) -> None:
    out = tmp_path / "out"
    claim(out, run_id="stamped").release()
    (out / "summary.json").write_text(json.dumps({"run_id": "../../escape"}))
    claim(out, run_id="next").release()
    # An unsafe run_id in the file falls back to the stamp's run id.
    assert (out / "history" / "stamped" / "summary.json").is_file()
    assert not (tmp_path / "escape").exists()


# --- S-3: kill -9 of a real process mid-run --------------------------------------------------

WRITER = """
import sys, time
sys.path.insert(0, {src!r})
from testing.seat_records import passed
from tribunal.records.rundir import claim
run = claim({out!r}, run_id={run_id!r})
lenses = {lenses!r}
for index, lens in enumerate(lenses):
    run.write_verdict(passed(lens))
    print("wrote", lens, flush=True)
while True:
    # Keep rewriting the next verdict, so the kill lands in the middle of writes.
    run.write_verdict(passed("boundary_condition"))
"""


def test_kill_9_mid_run_leaves_valid_verdicts_no_summary_and_a_reclaimable_dir(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    lenses = EIGHT[:5]
    script = WRITER.format(src=str(SRC), out=str(out), run_id="killed", lenses=lenses)
    root = REPO
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=root
    )
    assert process.stdout is not None
    for lens in lenses:
        assert process.stdout.readline().split() == ["wrote", lens]
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL
    process.stdout.close()

    # Verdicts already written stay whole, valid JSON; the run is recognisably incomplete.
    verdicts = sorted(out.glob("verdict_*.json"))
    assert {path.name for path in verdicts} >= {f"verdict_{lens}.json" for lens in lenses}
    for path in verdicts:
        document = json.loads(path.read_text())
        assert document["run_id"] == "killed"
        assert first_schema_error(document, "seat_record") is None
    assert not is_complete(out)
    assert read_stamp(out) == "killed"

    # Convening again into the same stamped dir works and sweeps the broken run.
    run = claim(out, run_id="again")
    assert run.swept_run_id == "killed"
    # The killed run's lock died with it; the lock file now names the new holder.
    assert sorted(entry.name for entry in out.iterdir()) == [LOCK_NAME, STAMP_NAME]
    assert json.loads((out / LOCK_NAME).read_text())["run_id"] == "again"
    run.write_verdict(passed("defect"))
    run.write_summary({"run_id": "again"})
    assert is_complete(out)
    run.release()
    assert not (out / LOCK_NAME).exists()


def test_sweep_removes_our_leftover_temporary_files_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    claim(out, run_id="one").release()
    (out / ".verdict_defect.json.k2j4_x9q.tmp").write_text('{"run_')
    (out / ".notes.txt.abc.tmp").write_text("foreign")
    claim(out, run_id="two").release()
    assert not (out / ".verdict_defect.json.k2j4_x9q.tmp").exists()
    assert (out / ".notes.txt.abc.tmp").read_text() == "foreign"


def test_a_claim_cut_short_files_the_earlier_summary_under_its_own_run_id(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    finish(out, "old")
    # A crash right after the new stamp was written, before the sweep: the stamp names the new
    # run, the summary and judgment are still the old run's.
    (out / STAMP_NAME).write_text(json.dumps({"tool": "tribunal", "run_id": "cut"}))
    claim(out, run_id="next").release()
    assert (out / "history" / "old" / "summary.json").is_file()
    assert (out / "history" / "old" / "judgment.md").is_file()
    assert (out / "history" / "old" / verdict_name(EIGHT[0])).is_file()
    assert not (out / "history" / "cut").exists()


def test_routing_and_envelope_are_written_owner_only_with_the_run_id(tmp_path: Path) -> None:
    from tribunal.jury.envelope.build import Envelope

    run = claim(tmp_path / "out", run_id="r9")
    routing = run.write_routing({"fleet": "fleet.yaml", "lenses": []})
    assert json.loads(routing.read_text()) == {"run_id": "r9", "fleet": "fleet.yaml", "lenses": []}
    envelope = Envelope("repo", "a" * 40, "b" * 40, "c" * 64, (), (), "# envelope\n")
    with pytest.raises(ValueError, match="run_id"):
        run.write_envelope(envelope)  # B-5: every file of the run names it
    run.write_envelope(envelope.for_run("r9"))
    for name in ("routing.json", "envelope.md", "manifest.json"):
        assert mode(run.path / name) == 0o600
    assert json.loads((run.path / "manifest.json").read_text())["run_id"] == "r9"
    assert (run.path / "envelope.md").read_text() == "<!-- run_id: r9 -->\n# envelope\n"
    run.release()
    # All three are run files: the next claim sweeps them.
    claim(run.path).release()
    assert not any((run.path / name).exists() for name in ("routing.json", "envelope.md"))
