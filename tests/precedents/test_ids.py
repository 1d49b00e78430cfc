"""R-2, R-5, C-3: a precedent ID is a number the index can hold (SQLite's signed 64-bit
integers): one beyond it, or too long for Python to convert, is bad input naming the file and
line, never an internal error (it once overflowed the index: exit 3); and allocation stops at
the last ID rather than writing one no command could read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from testing.records_repos import PRECEDENTS, records_repo, write
from testing.strategies import int_texts

from tribunal.cli import cli
from tribunal.precedents.entry import format_id, id_problem, parse_id

MAX_NUMBER = 2**63 - 1  # SQLite's largest integer: the index stores each ID's number as one


def numbers() -> st.SearchStrategy[str]:
    """ID digits around the index's limit, far beyond it, and past Python's conversion limit."""
    near = st.integers(min_value=MAX_NUMBER - 2, max_value=MAX_NUMBER + 2).map(str)
    far = st.integers(min_value=10**19, max_value=10**40).map(str)
    small = st.integers(min_value=1, max_value=10**6).map(lambda number: f"{number:03d}")
    return st.one_of(near, far, small, int_texts().filter(str.isdigit))


def invoke(repo: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@given(numbers())
def test_an_id_is_a_number_the_index_holds(digits: str) -> None:
    text = f"PREC-{digits}"
    number = int(digits) if len(digits) < 4000 else None
    if number is not None and 1 <= number <= MAX_NUMBER:
        assert parse_id(text) == number and id_problem(text) is None
        return
    assert parse_id(text) is None
    assert id_problem(text) == (
        f"{text if len(text) <= 40 else text[:40] + '...'} is not a precedent ID: "
        f"the highest is {format_id(MAX_NUMBER)}"
    )


@pytest.mark.parametrize(
    "digits", [str(MAX_NUMBER + 1), "9" * 20, "9" * 5000], ids=["2**63", "20 digits", "5000 digits"]
)
def test_search_and_check_refuse_an_id_beyond_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, digits: str
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "precedents.md", PRECEDENTS.replace("PREC-001", f"PREC-{digits}"))
    monkeypatch.chdir(repo)
    search = invoke(repo, "precedent", "search", "dedup")
    assert search.exit_code == 2, search.output
    assert search.stderr.startswith(
        f"tribunal: error: precedents.md:3: heading: PREC-{digits[:35]}"
    )
    assert search.stderr.rstrip().endswith(
        f"is not a precedent ID: the highest is PREC-{MAX_NUMBER}"
    )
    check = invoke(repo, "records", "check")
    assert check.exit_code == 1 and "precedents.md:3: " in check.stdout + check.stderr


def test_the_last_id_is_found_and_none_is_allocated_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "precedents.md", PRECEDENTS.replace("PREC-001", format_id(MAX_NUMBER)))
    monkeypatch.chdir(repo)
    found = invoke(repo, "precedent", "search", "dedup", "--json")
    assert found.exit_code == 0, found.output
    assert f'"case_id": "PREC-{MAX_NUMBER}"' in found.stdout
    before = (repo / "precedents.md").read_bytes()
    add = invoke(
        repo, "precedent", "add", "--from-judgment", "judgments/2026-01-rate.judgment.md",
        "--applies-to", "x", "--next-check", "y",
    )  # fmt: skip
    assert add.exit_code == 2, add.output
    assert (
        add.stderr
        == f"tribunal: error: precedents.md: no precedent ID is left after PREC-{MAX_NUMBER}\n"
    )
    assert (repo / "precedents.md").read_bytes() == before


@pytest.mark.parametrize("digits", [str(MAX_NUMBER + 1), "9" * 5000])
def test_an_id_argument_beyond_the_index_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, digits: str
) -> None:
    repo = records_repo(tmp_path / "r")
    monkeypatch.chdir(repo)
    renumber = invoke(repo, "precedent", "renumber", f"PREC-{digits}")
    assert renumber.exit_code == 2 and "occurs 0 time(s)" in renumber.stderr
    add = invoke(
        repo, "precedent", "add", "--from-judgment", "judgments/2026-01-rate.judgment.md",
        "--applies-to", "x", "--next-check", "y", "--supersedes", f"PREC-{digits}",
    )  # fmt: skip
    assert add.exit_code == 2, add.output
    assert "is not a precedent ID: the highest is" in add.stderr
