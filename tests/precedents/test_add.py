"""R-3, C-4, S-4: `tribunal precedent add` — next ID, append-only, locked, crash-safe."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.records_repos import JUDGMENT, PRECEDENTS, records_repo, write

from tribunal.cli import cli
from tribunal.precedents.parsing import parse_precedents

ADD = ["precedent", "add", "--from-judgment", "judgments/2026-01-rate.judgment.md"]
WHAT = ["--applies-to", "rate-limit without dedup", "--next-check", "burst above 60"]


def invoke(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_add_appends_the_next_id_and_keeps_every_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    before = (repo / "precedents.md").read_bytes()
    code, out, err = invoke(
        repo,
        monkeypatch,
        *ADD,
        *WHAT,
        "--domain",
        "billing",
        "--tier",
        "all",
        "--next-check-when",
        "burst_window_sec > 60",
    )
    assert (code, out, err) == (0, "PREC-002\n", "")
    after = (repo / "precedents.md").read_bytes()
    assert after.startswith(before)
    assert after[len(before) :].decode() == (
        "\n## PREC-002\n\n```yaml\ncase_id: PREC-002\nverdict: DENY\nevidence_ref:\n"
        "- metrics/m.json#/silent_p0_ratio\n- specs/s.yaml:2\napplies_to:\n  domains:\n"
        "  - billing\n  tiers:\n  - all\n  text: rate-limit without dedup\nnext_check:\n"
        "  when: burst_window_sec > 60\n  text: burst above 60\n```\n"
    )
    assert (repo / ".tribunal" / "precedents.lock").exists()
    code, out, _ = invoke(repo, monkeypatch, "records", "check")
    assert code == 0, out


def test_gaps_are_never_reused_and_ids_grow_past_999(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "precedents.md", PRECEDENTS.replace("PREC-001", "PREC-999"))
    assert invoke(repo, monkeypatch, *ADD, *WHAT)[:2] == (0, "PREC-1000\n")
    assert invoke(repo, monkeypatch, *ADD, *WHAT)[:2] == (0, "PREC-1001\n")


def test_supersedes_must_name_an_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    before = (repo / "precedents.md").read_bytes()
    code, _, err = invoke(repo, monkeypatch, *ADD, *WHAT, "--supersedes", "PREC-007")
    assert code == 2 and "no entry PREC-007 to supersede" in err
    assert (repo / "precedents.md").read_bytes() == before
    assert invoke(repo, monkeypatch, *ADD, *WHAT, "--supersedes", "PREC-001")[:2] == (
        0,
        "PREC-002\n",
    )
    assert "supersedes: PREC-001\n" in (repo / "precedents.md").read_text()


@pytest.mark.parametrize(
    ("precedents", "judgment", "message"),
    [
        (PRECEDENTS.replace("DENY", "MAYBE"), JUDGMENT, "precedents.md:7: verdict: 'MAYBE'"),
        (PRECEDENTS, JUDGMENT.replace("DENY", "MAYBE"), "rate.judgment.md:2: verdict"),
        (PRECEDENTS, "no front matter\n", "no YAML front matter"),
    ],
)
def test_bad_input_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, precedents: str, judgment: str, message: str
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "precedents.md", precedents)
    write(repo, "judgments/2026-01-rate.judgment.md", judgment)
    code, out, err = invoke(repo, monkeypatch, *ADD, *WHAT)
    assert (code, out) == (2, "")
    assert message in err and err.startswith("tribunal: error: ")
    assert (repo / "precedents.md").read_text() == precedents


def test_empty_option_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    code, _, err = invoke(repo, monkeypatch, *ADD, "--applies-to", "", "--next-check", "x")
    assert code == 2 and "--applies-to" in err


def test_run_dir_judgment_refs_become_root_relative(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "out/run/.tribunal-stamp", "x\n")
    write(repo, "out/run/verdict_defect.json", "{}\n")
    write(
        repo,
        "out/run/judgment.md",
        JUDGMENT.replace(
            "- metrics/m.json#/silent_p0_ratio\n- specs/s.yaml:2\n", "- verdict_defect.json\n"
        ),
    )
    code, _, _ = invoke(
        repo, monkeypatch, "precedent", "add", "--from-judgment", "out/run/judgment.md", *WHAT
    )
    assert code == 0
    assert "evidence_ref: out/run/verdict_defect.json\n" in (repo / "precedents.md").read_text()


def test_add_creates_a_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    code, out, _ = invoke(repo, monkeypatch, *ADD, *WHAT, "--file", "docs/precedents.md")
    assert (code, out) == (0, "PREC-001\n")
    parsed = parse_precedents((repo / "docs" / "precedents.md").read_text(), "p")
    assert [e.case_id for e in parsed.entries] == ["PREC-001"] and parsed.problems == []


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(extra)
    return env


def _add_process(repo: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tribunal", *ADD, *WHAT],
        cwd=repo,
        env=_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def test_twenty_concurrent_adds_get_distinct_ids(tmp_path: Path) -> None:
    """S-4. The pause inside the lock widens the race window: without the lock, processes
    read the same highest ID and collide (or overwrite each other's entry)."""
    repo = records_repo(tmp_path / "r")
    pause = {"TRIBUNAL_PAUSE_AT": "precedent-add:allocated", "TRIBUNAL_PAUSE_SECONDS": "0.05"}
    processes = [_add_process(repo, **pause) for _ in range(20)]
    outputs = [process.communicate(timeout=120) for process in processes]
    assert [p.returncode for p in processes] == [0] * 20, outputs
    ids = sorted(out.strip() for out, _ in outputs)
    assert ids == [f"PREC-{n:03d}" for n in range(2, 22)]
    parsed = parse_precedents((repo / "precedents.md").read_text(), "precedents.md")
    assert parsed.problems == [] and parsed.duplicate_problems() == []
    assert sorted(e.case_id for e in parsed.entries) == ["PREC-001", *ids]


def test_kill_in_the_middle_of_an_add_leaves_the_file_whole(tmp_path: Path) -> None:
    """C-4: SIGKILL while half the new file is written leaves the old file, byte for byte."""
    repo = records_repo(tmp_path / "r")
    before = (repo / "precedents.md").read_bytes()
    marker = tmp_path / "paused"
    process = _add_process(
        repo, TRIBUNAL_PAUSE_AT="precedent-add:mid-write", TRIBUNAL_PAUSE_MARKER=str(marker)
    )
    deadline = time.monotonic() + 60
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert marker.exists(), process.communicate()
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    assert (repo / "precedents.md").read_bytes() == before
    # The killed writer's temporary file (half the new file) is left beside the target...
    assert [p.name for p in repo.glob(".precedents.md.*.tmp")] != []
    (repo / ".precedents.md.tmp").write_text("not a temporary file of ours\n")
    # The lock died with the process: the next add goes through and continues the numbering.
    again = _add_process(repo)
    out, err = again.communicate(timeout=60)
    assert (again.returncode, out) == (0, "PREC-002\n"), err
    parsed = parse_precedents((repo / "precedents.md").read_text(), "precedents.md")
    assert [e.case_id for e in parsed.entries] == ["PREC-001", "PREC-002"] and not parsed.problems
    # ... and swept by the next add, under the lock (C-4); other files are left alone.
    leftovers = sorted(p.name for p in repo.iterdir() if p.name.endswith(".tmp"))
    assert leftovers == [".precedents.md.tmp"]


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ("burst.window > 60", "attribute access is not allowed"),
        ("burst_window_sec >", "syntax error"),
        ("__import__('os')", "call of '__import__' is not allowed"),
        ("x ** 1000", "exponent 1000 beyond bound"),
    ],
)
def test_a_bad_next_check_when_is_bad_input_and_appends_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str, message: str
) -> None:
    """R-2, T-2: the condition is compiled by the spec's evaluator before anything is written."""
    repo = records_repo(tmp_path / "r")
    before = (repo / "precedents.md").read_bytes()
    code, out, err = invoke(repo, monkeypatch, *ADD, *WHAT, "--next-check-when", when)
    assert (code, out) == (2, "")
    assert err.startswith("tribunal: error: --next-check-when: ") and message in err
    assert (repo / "precedents.md").read_bytes() == before


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("/etc/hostname", "absolute path"),
        ("../outside.json", "escapes the repository"),
        ("metrics/missing.json", "no such file"),
        ("metrics/m.json#/nope", "pointer does not resolve"),
    ],
)
def test_add_refuses_a_judgment_whose_refs_do_not_resolve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, message: str
) -> None:
    """R-2, C-3: refs are checked as records check does; nothing is appended."""
    repo = records_repo(tmp_path / "r")
    (tmp_path / "outside.json").write_text("{}\n")
    write(
        repo,
        "judgments/2026-01-rate.judgment.md",
        JUDGMENT.replace("- specs/s.yaml:2\n", f"- {ref}\n"),
    )
    before = (repo / "precedents.md").read_bytes()
    code, out, err = invoke(repo, monkeypatch, *ADD, *WHAT)
    assert (code, out) == (2, "")
    assert err.startswith("tribunal: error: judgments/2026-01-rate.judgment.md:6: evidence_ref: ")
    assert message in err
    assert (repo / "precedents.md").read_bytes() == before


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--domain", ""], "--domain"),
        (["--tier", "billing", "--tier", ""], "--tier"),
        (["--mode", ""], "--mode"),
        (["--domain", "billing", "--applies-to", ""], "--applies-to"),
    ],
)
def test_an_empty_scope_option_names_that_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], option: str
) -> None:
    """R-3: the message names the option the bad value came from, not --applies-to for all."""
    repo = records_repo(tmp_path / "r")
    before = (repo / "precedents.md").read_bytes()
    code, out, err = invoke(repo, monkeypatch, *ADD, *WHAT, *args)
    assert (code, out) == (2, "")
    assert err == f"tribunal: error: {option}: '' should be non-empty\n"
    assert (repo / "precedents.md").read_bytes() == before


@pytest.mark.parametrize("command", ["add", "renumber"])
def test_a_precedents_file_outside_the_repository_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """C-3: nothing is created outside the root (the lock and the index stay in the repo)."""
    repo = records_repo(tmp_path / "r")
    outside = tmp_path / "elsewhere" / "deeper" / "precedents.md"
    if command == "renumber":
        write(tmp_path, "elsewhere/deeper/precedents.md", PRECEDENTS + PRECEDENTS[13:])
        args = ["precedent", "renumber", "PREC-001"]
        before: bytes | None = outside.read_bytes()
    else:
        args, before = [*ADD, *WHAT], None
    code, out, err = invoke(repo, monkeypatch, *args, "--file", str(outside))
    assert (code, out) == (2, "")
    assert err.startswith("tribunal: error: --file: ") and "outside the repository" in err
    if before is None:
        assert not (tmp_path / "elsewhere").exists()
    else:
        assert outside.read_bytes() == before


def test_add_never_reuses_an_entry_like_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-2, R-3: a `### PREC-004` entry is reported, and add refuses the file (exit 2) rather
    than allocating PREC-002..004 beside it."""
    repo = records_repo(tmp_path / "r")
    block = PRECEDENTS.split("```yaml\n")[1].replace("PREC-001", "PREC-004")
    write(repo, "precedents.md", f"{PRECEDENTS}\n### PREC-004\n\n```yaml\n{block}")
    before = (repo / "precedents.md").read_bytes()
    code, out, err = invoke(repo, monkeypatch, *ADD, *WHAT)
    assert (code, out) == (2, "")
    assert err.startswith("tribunal: error: precedents.md:13: heading: PREC-004 is a level-3")
    assert (repo / "precedents.md").read_bytes() == before
