"""P-1: frozen criteria — validated on load, numbers exact, the lenses the panel seats, the hash
of the file's bytes."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

import pytest
from testing.slices import CRITERIA

from tribunal.enums import PanelRisk
from tribunal.errors import BadInput
from tribunal.evidence.slice.criteria import load_criteria


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "criteria.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_the_three_lenses_and_an_exact_target(tmp_path: Path) -> None:
    path = write(tmp_path, CRITERIA)
    criteria = load_criteria(path, "criteria.yaml")
    assert criteria.slice_id == "rate-limiter-window"
    assert [lens.id for lens in criteria.lenses] == ["quality", "fitness", "adversary"]
    assert [lens.adversary for lens in criteria.lenses] == [False, False, True]
    assert criteria.target == Fraction(4, 5)
    assert [d.weight for d in criteria.dimensions] == [1, 1, 1]
    assert (criteria.rounds, criteria.dispatches, criteria.timeout_s) == (3, 5, 300.0)
    assert criteria.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert criteria.risk is PanelRisk.NORMAL


def test_decimals_are_read_exactly(tmp_path: Path) -> None:
    text = CRITERIA.replace("weight: 1,", "weight: 0.1,") + "target: 0.7\n"
    criteria = load_criteria(write(tmp_path, text), "criteria.yaml")
    assert criteria.target == Fraction(7, 10)
    assert criteria.dimensions[0].weight == Fraction(1, 10)


def test_low_risk_seats_quality_and_the_adversary(tmp_path: Path) -> None:
    criteria = load_criteria(write(tmp_path, CRITERIA + "risk: low\n"), "criteria.yaml")
    assert [lens.id for lens in criteria.lenses] == ["quality", "adversary"]


def test_high_risk_lists_two_lenses_of_its_own(tmp_path: Path) -> None:
    own = (
        "lenses: [quality, fitness, adversary, {id: privacy, question: Who sees the logs?},\n"
        "  {id: cost, question: What does it cost per request?}]\nrisk: high\n"
    )
    criteria = load_criteria(write(tmp_path, CRITERIA + own), "criteria.yaml")
    assert [lens.id for lens in criteria.lenses][-2:] == ["privacy", "cost"]
    assert criteria.lenses[3].question == "Who sees the logs?"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("risk: high\n", "a high-risk slice lists its lenses"),
        ("risk: high\nlenses: [quality, adversary, {id: a, question: q}]\n", "adds 2 lenses"),
        ("lenses: [quality, fitness]\n", "the panel needs an adversary"),
        ("lenses: [quality, helper, adversary]\n", "is not a default lens"),
        ("lenses: [adversary, adversary]\n", "is listed twice"),
        ("target: .nan\n", "target"),
        ("target: 1.5\n", "target"),
        ("timeout_s: .inf\n", "timeout_s"),
        ("references: [../secrets.md]\n", "a reference is a path inside the repository"),
        ("budget: {rounds: 0}\n", "budget.rounds"),
        ("sliced: x\n", "sliced"),
    ],
)
def test_bad_criteria_are_bad_input_naming_the_field(
    tmp_path: Path, extra: str, message: str
) -> None:
    with pytest.raises(BadInput, match=message) as caught:
        load_criteria(write(tmp_path, CRITERIA + extra), "criteria.yaml")
    assert str(caught.value).startswith("criteria.yaml:")


def test_a_dimension_listed_twice_names_its_line(tmp_path: Path) -> None:
    text = CRITERIA.replace("{id: clarity, weight: 1}", "{id: robustness, weight: 2}")
    with pytest.raises(BadInput, match="dimension 'robustness' is listed twice") as caught:
        load_criteria(write(tmp_path, text), "criteria.yaml")
    assert str(caught.value).startswith("criteria.yaml:6: dimensions[2]")


def test_criteria_committed_at_base_are_read_from_that_commit(tmp_path: Path) -> None:
    from testing.gitrepo import GitRepo

    from tribunal.evidence.slice.criteria import bytes_at

    repo = GitRepo(tmp_path / "repo")
    base = repo.commit("criteria first", {"criteria.yaml": CRITERIA})
    path = repo.write("criteria.yaml", CRITERIA + "risk: low\n")
    assert bytes_at(repo.path, base, path) == CRITERIA.encode()
    assert bytes_at(repo.path, base, repo.path / "missing.yaml") is None
    assert bytes_at(repo.path, base, tmp_path / "outside.yaml") is None
