"""T-6, R-6: evidence_refs resolve inside the repository, with their pointer or line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tribunal.cli import cli
from tribunal.errors import BrokenRef
from tribunal.refs import EvidenceRef, parse_ref, resolve_ref


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "m.json").write_text('{"a/b": {"x": [1, 2]}, "silent_p0_ratio": 0}\n')
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "s.yaml").write_text("spec_id: x\nthen:\n  rule: y\n")
    return tmp_path


def test_parse_forms() -> None:
    assert parse_ref("metrics/m.json#/a") == EvidenceRef("metrics/m.json", pointer="/a")
    assert parse_ref("specs/s.yaml:3") == EvidenceRef("specs/s.yaml", line=3)
    assert parse_ref("cases/c.json") == EvidenceRef("cases/c.json")
    assert str(parse_ref("specs/s.yaml:3")) == "specs/s.yaml:3"


@pytest.mark.parametrize(
    "ref",
    [
        "metrics/m.json",
        "metrics/m.json#/silent_p0_ratio",
        "metrics/m.json#/a~1b/x/1",
        "specs/s.yaml:3",
        "specs/s.yaml#/then/rule",
    ],
)
def test_resolves(repo: Path, ref: str) -> None:
    assert resolve_ref(ref, base=repo, root=repo).is_file()


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("metrics/none.json", "no such file"),
        ("metrics/m.json#/missing", "pointer does not resolve"),
        ("metrics/m.json#/a~1b/x/2", "pointer does not resolve"),
        ("specs/s.yaml:4", "line 4 does not exist"),
        ("specs/s.yaml:0", "line 0 does not exist"),
        ("../outside.json", "escapes the repository"),
        ("/etc/passwd", "absolute path"),
        ("metrics/m.json#a", "pointer starts with"),
    ],
)
def test_broken(repo: Path, ref: str, message: str) -> None:
    (repo.parent / "outside.json").write_text("{}")
    with pytest.raises(BrokenRef, match=message):
        resolve_ref(ref, base=repo, root=repo)


# C-3: refs the operating system cannot take as a path (once an internal error, exit 3).
UNOPENABLE = [
    ("metrics/m\0.json", "the path holds a NUL byte"),
    ("metrics/" + "m" * 300 + ".json", "File name too long"),
    ("metrics/" + "m" * 300 + ".json:3", "File name too long"),
    ("/".join(["d" * 200] * 30), "File name too long"),
    ("metrics/m.json/inner", "no such file"),
]


@pytest.mark.parametrize(("ref", "why"), UNOPENABLE)
def test_a_ref_the_system_refuses_is_broken(repo: Path, ref: str, why: str) -> None:
    with pytest.raises(BrokenRef, match=why):
        resolve_ref(ref, base=repo, root=repo)


def test_a_line_number_too_long_to_convert_is_broken(repo: Path) -> None:
    with pytest.raises(BrokenRef, match="line number too large"):
        resolve_ref("specs/s.yaml:" + "9" * 5000, base=repo, root=repo)


@pytest.mark.parametrize(("ref", "why"), [*UNOPENABLE, ("specs/s.yaml:" + "9" * 5000, "too large")])
def test_judgment_new_refuses_such_a_ref_as_bad_input(
    repo: Path, monkeypatch: pytest.MonkeyPatch, ref: str, why: str
) -> None:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(
        cli,
        ["judgment", "new", "--verdict", "DEFERRED", "--reason", "manual:x", "--evidence-ref", ref,
         "--to", "out/j.md"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tribunal: error: ") and why in result.stderr
    assert not (repo / "out").exists()


@pytest.mark.parametrize(("ref", "why"), UNOPENABLE[:2])
def test_a_judgment_citing_such_a_ref_fails_its_check_and_is_not_filed(
    repo: Path, monkeypatch: pytest.MonkeyPatch, ref: str, why: str
) -> None:
    monkeypatch.chdir(repo)
    escaped = json.dumps(ref)  # YAML's double quotes read JSON's escapes (`\u0000`)
    judgment = repo / "judgments" / "j.md"
    judgment.parent.mkdir()
    judgment.write_text(
        f"---\nverdict: DEFERRED\nreason: manual:x\nevidence_ref: {escaped}\n---\nbody\n",
        encoding="utf-8",
    )
    check = CliRunner().invoke(cli, ["judgment", "--check", "judgments/j.md"])
    assert check.exit_code == 2, check.output
    assert check.stderr.startswith("tribunal: error: judgments/j.md:4: evidence_ref: ")
    assert why in check.stderr
    add = CliRunner().invoke(
        cli,
        ["precedent", "add", "--from-judgment", "judgments/j.md", "--applies-to", "x",
         "--next-check", "y", "--file", "precedents.md"],
    )  # fmt: skip
    assert add.exit_code == 2, add.output
    assert why in add.stderr and not (repo / "precedents.md").exists()
