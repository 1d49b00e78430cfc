"""C-9: `tribunal init` (idempotent, never clobbering) and project configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from testing.records_repos import git, init_repo, records_repo, write

from tribunal.cli import cli
from tribunal.settings import load_settings
from tribunal.workflows.init import STARTER_NOTE


def invoke(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_init_writes_the_starter_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = init_repo(tmp_path / "r")
    write(repo, ".gitignore", "*.pyc")  # no final newline: kept, lines appended after it
    code, out, _ = invoke(repo, monkeypatch, "init")
    assert code == 0
    assert out.splitlines() == [
        "created  precedents.md",
        "created  .tribunalignore",
        "created  contract.yaml",
        "created  fleet.yaml",
        "created  replay/answers.yaml",
        "created  TRIBUNAL.md",
        "created  .gitattributes",
        "created  git config merge.tribunal-precedents.driver",
        "appended .gitignore",
        STARTER_NOTE,
    ]
    assert "recorded jurors" in STARTER_NOTE and "at best HOLD" in STARTER_NOTE
    assert (repo / ".gitignore").read_text() == "*.pyc\n.tribunal/\nout/\n.*.tmp\n"
    # C-4: a temporary file left by a killed writer is never committed by `git add -A`.
    for name in (".precedents.md.k3x_9zq1.tmp", "docs/.precedents.md.ab12cd34.tmp"):
        git(repo, "check-ignore", "-q", name)
    assert (repo / ".gitattributes").read_text() == "precedents.md merge=tribunal-precedents\n"
    assert git(repo, "config", "merge.tribunal-precedents.driver").strip() == (
        "tribunal precedent merge-file %O %A %B"
    )
    contract = yaml.safe_load((repo / "contract.yaml").read_text())
    assert {"intent", "criteria", "test_command"} <= set(contract)
    assert contract["test_runner"] == "pytest"
    fleet = yaml.safe_load((repo / "fleet.yaml").read_text())
    assert {rung["transport"] for rung in fleet["rungs"]} == {"replay"}
    families = {rung["family"] for rung in fleet["rungs"]} - {"my-builder"}
    assert len(families) >= 3 and "my-builder" in {rung["family"] for rung in fleet["rungs"]}
    answers = yaml.safe_load((repo / "replay" / "answers.yaml").read_text())
    assert yaml.safe_load(answers["defect"])["lens"] == "defect" and len(answers) == 8
    for reply in answers.values():  # recorded replies cite nothing but the review contract
        cited = {entry["location"] for entry in yaml.safe_load(reply)["checked"]}
        assert {location.partition(":")[0] for location in cited} == {"contract.yaml"}
    next_steps = (repo / "TRIBUNAL.md").read_text()
    assert "tribunal ladder --fleet fleet.yaml --builder my-builder" in next_steps
    assert "tribunal seat --fleet fleet.yaml --builder my-builder" in next_steps
    code, out, _ = invoke(repo, monkeypatch, "records", "check")
    assert code == 0


def test_init_is_idempotent_and_never_clobbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    precedents = (repo / "precedents.md").read_bytes()
    write(repo, "contract.yaml", "intent: mine\n")
    invoke(repo, monkeypatch, "init")
    snapshot = {p: p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git/" not in str(p)}
    code, out, _ = invoke(repo, monkeypatch, "init")
    assert code == 0 and "created" not in out and "appended" not in out
    assert {p: p.read_bytes() for p in snapshot} == snapshot
    assert (repo / "precedents.md").read_bytes() == precedents
    assert (repo / "contract.yaml").read_text() == "intent: mine\n"


def test_init_outside_git_says_the_driver_is_not_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = invoke(tmp_path, monkeypatch, "init")
    assert code == 0 and "note: not a git repository: merge driver not registered" in out


def _judgment_repo(tmp_path: Path) -> Path:
    repo = records_repo(tmp_path / "r")
    write(repo, "records/precedents.md", (repo / "precedents.md").read_text())
    return repo


ADD = [
    "precedent",
    "add",
    "--from-judgment",
    "judgments/2026-01-rate.judgment.md",
    "--applies-to",
    "a",
    "--next-check",
    "b",
]


@pytest.mark.parametrize("where", ["pyproject", "tribunal.toml"])
def test_settings_file_then_environment_then_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    repo = _judgment_repo(tmp_path)
    if where == "pyproject":
        write(repo, "pyproject.toml", '[tool.tribunal]\nprecedents = "records/precedents.md"\n')
    else:
        write(repo, "tribunal.toml", 'precedents = "records/precedents.md"\n')
    monkeypatch.chdir(repo / "judgments")  # relative settings are relative to the root
    result = CliRunner().invoke(cli, [*ADD[:3], "2026-01-rate.judgment.md", *ADD[4:]])
    assert result.exit_code == 0, result.output
    assert "PREC-002" in (repo / "records" / "precedents.md").read_text()
    assert "PREC-002" not in (repo / "precedents.md").read_text()

    write(repo, "env/precedents.md", "")
    monkeypatch.setenv("TRIBUNAL_PRECEDENTS", str(repo / "env" / "precedents.md"))
    assert invoke(repo, monkeypatch, *ADD) == (0, "PREC-001\n", "")
    assert "PREC-001" in (repo / "env" / "precedents.md").read_text()

    assert invoke(repo, monkeypatch, *ADD, "--file", "precedents.md") == (0, "PREC-002\n", "")
    assert "PREC-002" in (repo / "precedents.md").read_text()


def test_unknown_setting_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _judgment_repo(tmp_path)
    write(repo, "tribunal.toml", 'precedent_file = "x.md"\n')
    code, _, err = invoke(repo, monkeypatch, *ADD)
    # C-3: TOML gives no line, so the field path names the unknown setting.
    assert code == 2
    assert err == "tribunal: error: tribunal.toml: precedent_file: unknown field 'precedent_file'\n"
    write(repo, "tribunal.toml", "precedents = \n")
    code, _, err = invoke(repo, monkeypatch, *ADD)
    assert code == 2 and err.startswith("tribunal: error: tribunal.toml: malformed TOML")
    # C-3: an integer longer than Python converts (tomllib raised a bare ValueError: exit 3).
    write(repo, "tribunal.toml", "precedents = " + "9" * 5000 + "\n")
    code, _, err = invoke(repo, monkeypatch, *ADD)
    assert (code, err) == (
        2,
        "tribunal: error: tribunal.toml: malformed TOML: an integer too long to read\n",
    )


def test_load_settings(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.tribunal]\nfleet = "f.yaml"\nbuilder = "qwen"\n')
    write(tmp_path, "tribunal.toml", 'builder = "vendor-b"\n')
    assert load_settings(tmp_path, {"TRIBUNAL_OUT_DIR": "o", "TRIBUNAL_OTHER": "x"}) == {
        "fleet": str(tmp_path / "f.yaml"),
        "builder": "vendor-b",
        "out_dir": "o",
    }
