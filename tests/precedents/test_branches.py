"""R-3, C-9: two real git branches each add a precedent; the merge driver keeps both entries
whole, records check reports the duplicate ID, renumber fixes it, records check passes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.records_repos import commit_all, git, records_repo, write

from tribunal.cli import cli
from tribunal.precedents.merge import merge_precedents
from tribunal.precedents.parsing import parse_precedents


def tribunal(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tribunal", *args], cwd=repo, capture_output=True, text=True
    )


def add(repo: Path, applies_to: str) -> str:
    done = tribunal(
        repo,
        "precedent",
        "add",
        "--from-judgment",
        "judgments/2026-01-rate.judgment.md",
        "--applies-to",
        applies_to,
        "--next-check",
        "when it recurs",
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def commit_at(repo: Path, message: str, date: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_AUTHOR_DATE", date)
    monkeypatch.setenv("GIT_COMMITTER_DATE", date)
    commit_all(repo, message)


def test_two_branches_merge_then_renumber(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    assert tribunal(repo, "init").returncode == 0
    write(
        repo,
        "judgments/cites.judgment.md",
        (repo / "judgments/2026-01-rate.judgment.md").read_text().replace("PREC-001", "PREC-002"),
    )
    commit_all(repo, "init")
    # The driver runs as `tribunal` on PATH, as git runs it for a user.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    git(repo, "checkout", "-q", "-b", "feature")
    assert add(repo, "feature branch entry") == "PREC-002"
    commit_at(repo, "feature", "2026-01-02T00:00:00+00:00", monkeypatch)
    git(repo, "checkout", "-q", "main")
    assert add(repo, "main branch entry") == "PREC-002"
    commit_at(repo, "main", "2026-01-03T00:00:00+00:00", monkeypatch)  # the later commit
    git(repo, "merge", "-q", "--no-edit", "feature")  # clean: the driver appended theirs

    text = (repo / "precedents.md").read_text()
    assert "<<<<<<<" not in text
    parsed = parse_precedents(text, "precedents.md")
    assert parsed.problems == []
    main_entry, feature_entry = parsed.entries[1:]
    assert (main_entry.case_id, main_entry.applies_to_text) == ("PREC-002", "main branch entry")
    assert feature_entry.applies_to_text == "feature branch entry"  # whole, after ours

    check = tribunal(repo, "records", "check")
    assert check.returncode == 1
    assert check.stdout == (
        f"precedents.md:{feature_entry.line}: duplicate precedent ID PREC-002 "
        f"(lines {main_entry.line}, {feature_entry.line}); "
        "run `tribunal precedent renumber PREC-002`\n"
    )

    before = (repo / "precedents.md").read_bytes()
    done = tribunal(repo, "precedent", "renumber", "PREC-002")
    assert done.returncode == 0, done.stderr
    main_commit = git(repo, "log", "-1", "--format=%H", "main^1").strip()
    # main's entry came from the later commit, although it stands first in the file.
    assert done.stdout.splitlines() == [
        f"renumbered PREC-002 -> PREC-003 at precedents.md:{main_entry.line} "
        f"(added by commit {main_commit[:12]}); rewrote its heading and case_id only",
        f"kept PREC-002 at precedents.md:{feature_entry.line}",
        "judgments citing PREC-002 (not rewritten; check which entry they mean):",
        "  judgments/cites.judgment.md",
    ]
    after = (repo / "precedents.md").read_bytes()
    changed = [
        (n + 1, a, b)
        for n, (a, b) in enumerate(zip(before.splitlines(), after.splitlines(), strict=True))
        if a != b
    ]
    assert changed == [
        (main_entry.line, b"## PREC-002", b"## PREC-003"),
        (main_entry.id_line, b"case_id: PREC-002", b"case_id: PREC-003"),
    ]
    assert tribunal(repo, "records", "check").returncode == 0


def test_edit_of_existing_bytes_is_a_conflict(tmp_path: Path) -> None:
    repo = records_repo(tmp_path / "r")
    base = (repo / "precedents.md").read_bytes()
    ours = base + b"\nours\n"
    theirs = base.replace(b"rate-limit", b"RATE-LIMIT")
    for path, data in (("O", base), ("A", ours), ("B", theirs)):
        (tmp_path / path).write_bytes(data)
    result = CliRunner().invoke(
        cli, ["precedent", "merge-file", *(str(tmp_path / p) for p in "OAB")]
    )
    assert result.exit_code == 1
    assert "theirs changed existing bytes" in result.stderr
    merged = (tmp_path / "A").read_bytes()
    assert b"<<<<<<< ours" in merged and b">>>>>>> theirs" in merged


@pytest.mark.parametrize(
    ("base", "ours", "theirs", "merged"),
    [
        (b"P\n", b"P\nA\n", b"P\nB\n", b"P\nA\nB\n"),
        (b"P\n", b"P\nA\n", b"P\n", b"P\nA\n"),
        (b"P\n", b"P\n", b"P\nB\n", b"P\nB\n"),
        (b"P\n", b"P\nA\n", b"P\nA\n", b"P\nA\n"),
        (b"P\n", b"P\nA", b"P\nB\n", b"P\nA\nB\n"),
        (b"", b"P\n", b"P\nB\n", b"P\nB\n"),
    ],
)
def test_appends_merge_ours_first(base: bytes, ours: bytes, theirs: bytes, merged: bytes) -> None:
    outcome = merge_precedents(base, ours, theirs)
    assert (outcome.clean, outcome.data) == (True, merged)


def test_a_clean_textual_merge_of_an_edit_is_still_a_conflict() -> None:
    """git alone would merge two distant edits; an edit of an entry is never accepted."""
    base = b"a\n\n\n\n\nb\n"
    outcome = merge_precedents(base, b"A\n\n\n\n\nb\n", b"a\n\n\n\n\nB\n")
    assert not outcome.clean
    assert outcome.data.startswith(b"<<<<<<< ours\n") and outcome.data.endswith(b">>>>>>> theirs\n")


def test_renumber_needs_a_duplicate(tmp_path: Path) -> None:
    repo = records_repo(tmp_path / "r")
    done = tribunal(repo, "precedent", "renumber", "PREC-001")
    assert done.returncode == 2
    assert "PREC-001 occurs 1 time(s); only a duplicated ID is renumbered" in done.stderr


def test_renumber_outside_git_takes_the_later_in_the_file(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    entry = (
        "## PREC-004\n\n```yaml\ncase_id: PREC-004\nverdict: DENY\nevidence_ref: a\n"
        "applies_to: {text}\nnext_check: n\n```\n"
    )
    write(plain, "precedents.md", entry.format(text="first") + "\n" + entry.format(text="second"))
    done = tribunal(plain, "precedent", "renumber", "PREC-004")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("renumbered PREC-004 -> PREC-005 at precedents.md:11 (not")
    parsed = parse_precedents((plain / "precedents.md").read_text(), "p")
    assert [(e.case_id, e.applies_to_text) for e in parsed.entries] == [
        ("PREC-004", "first"),
        ("PREC-005", "second"),
    ]
