"""T-6, R-6: evidence_refs resolve inside the repository, with their pointer or line."""

from __future__ import annotations

from pathlib import Path

import pytest

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
