"""C-3 for the duel: every bad spec or case is one line naming file (line, field), exit 2, and no
output file is created."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.duel_data import DROP, checkout, tutorial_case, write_case

from tribunal.cli import cli


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = checkout(tmp_path / "repo", shipped_cases=False)
    write_case(root / "cases", "a_good.json", tutorial_case(counterexample_id="good"))
    return root


def run_bad(root: Path, monkeypatch: pytest.MonkeyPatch, *, cases: str = "cases/") -> str:
    monkeypatch.chdir(root)
    args = ["duel", "--spec", "specs/autoscale_spec.yaml", "--cases", cases]
    result = CliRunner().invoke(cli, [*args, "--out", "out/duel.json"])
    assert result.exit_code == 2, result.output
    assert not (root / "out").exists()
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("tribunal: error: ")
    return lines[0].removeprefix("tribunal: error: ")


def edit_spec(root: Path, old: str, new: str) -> int:
    path = root / "specs" / "autoscale_spec.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("m.json", '{\n  "counterexample_id": "m",\n}\n', "cases/m.json:3: malformed JSON: "),
        (
            "m.yaml",
            "counterexample_id: m\ngiven_snapshot: [1, 2\n",
            "cases/m.yaml:3: malformed YAML",
        ),
        ("d.yaml", "counterexample_id: a\ncounterexample_id: b\n", "cases/d.yaml:2: duplicate key"),
        ("d.json", '{"a": 1,\n "a": 2}\n', "cases/d.json:2: duplicate key 'a'"),
        ("e.json", "   \n", "cases/e.json: file is empty"),
        ("b.yml", "\0\0", "cases/b.yml: binary file"),
        ("l.yaml", "- 1\n- 2\n", "cases/l.yaml: [1, 2] is not of type 'object'"),
    ],
)
def test_malformed_case_files(
    repo: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, expected: str
) -> None:
    write_case(repo / "cases", name, text)
    assert run_bad(repo, monkeypatch).startswith(expected)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"given_snapshot__current_replicas": "12"},
            "cases/x.json:6: given_snapshot.current_replicas: '12' is not of type 'integer' "
            "(declared integer_min_0)",
        ),
        (
            {"given_snapshot__current_replicas": True},
            "cases/x.json:6: given_snapshot.current_replicas: True is not of type 'integer' "
            "(declared integer_min_0)",
        ),
        (
            {"when_payload__scale_up_percent": 1001},
            "cases/x.json:16: when_payload.scale_up_percent: 1001 is greater than the maximum "
            "of 1000 (declared integer_range_1_1000)",
        ),
        (
            {"given_snapshot__clamp_policy": "maybe"},
            "cases/x.json:11: given_snapshot.clamp_policy: 'maybe' is not one of "
            "['hard_block', 'soft_clamp'] (declared enum:hard_block,soft_clamp)",
        ),
        (
            {"given_snapshot__zone": "eu"},
            "cases/x.json:13: given_snapshot.zone: field 'zone' is not declared by the spec "
            "(specs/autoscale_spec.yaml, given)",
        ),
        (
            {"when_payload__priority": 1},
            "cases/x.json:17: when_payload.priority: field 'priority' is not declared by the "
            "spec (specs/autoscale_spec.yaml, when.payload)",
        ),
        (
            {"given_snapshot__pod_cpu": DROP},
            "cases/x.json:4: given_snapshot: 'pod_cpu' is required",
        ),
        ({"minimality_trace": DROP}, "cases/x.json: 'minimality_trace' is required"),
        ({"minimality_trace": []}, "cases/x.json:18: minimality_trace: [] should be non-empty"),
        (
            {"assertion_id": "other_assertion"},
            "cases/x.json:3: assertion_id: assertion_id 'other_assertion' differs from the "
            "spec's 'allowed_delta_within_quota' (specs/autoscale_spec.yaml)",
        ),
        ({"surprise": 1}, "cases/x.json:29: surprise: unknown field 'surprise'"),
        (
            {"expected_failure__diagnostic": "X"},
            "cases/x.json:28: expected_failure.diagnostic: unknown field 'diagnostic'",
        ),
    ],
)
def test_bad_cases_name_file_line_and_field(
    repo: Path, monkeypatch: pytest.MonkeyPatch, changes: dict[str, object], expected: str
) -> None:
    write_case(repo / "cases", "x.json", tutorial_case(counterexample_id="x", **changes))
    assert run_bad(repo, monkeypatch) == expected


def test_counterexample_id_used_twice(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_case(repo / "cases", "b.json", tutorial_case(counterexample_id="good"))
    assert run_bad(repo, monkeypatch) == (
        "cases/b.json: counterexample_id: counterexample_id 'good' is also used by "
        "cases/a_good.json"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '"floor(remaining_quota / pod_cpu)"',
            "\"__import__('os')\"",
            "then.derive.quota_delta: call of '__import__' is not allowed",
        ),
        (
            '"max(0, max_replicas - current_replicas)"',
            '"max_replicas.bit_length()"',
            "then.derive.headroom_delta: attribute access is not allowed",
        ),
        (
            '"requested_delta > headroom_delta"',
            '"requested_delta > headroom_delta[0]"',
            "diagnostics[3].when: subscripts are not allowed",
        ),
    ],
)
def test_bad_spec_expressions(
    repo: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, message: str
) -> None:
    line = edit_spec(repo, old, new)
    assert run_bad(repo, monkeypatch).startswith(f"specs/autoscale_spec.yaml:{line}: {message}")


def test_missing_spec_file(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "specs" / "autoscale_spec.yaml").unlink()
    assert run_bad(repo, monkeypatch) == "specs/autoscale_spec.yaml: file not found"


def test_missing_cases_dir(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_bad(repo, monkeypatch, cases="nowhere") == "nowhere: directory not found"


def test_empty_cases_dir(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "empty").mkdir()
    (repo / "empty" / "notes.txt").write_text("not a case\n", encoding="utf-8")
    (repo / "empty" / "sub").mkdir()
    write_case(repo / "empty" / "sub", "deep.json", tutorial_case())  # no recursion (T-3)
    assert run_bad(repo, monkeypatch, cases="empty") == (
        "empty: no case files (*.json, *.yaml, *.yml) in the directory"
    )


def test_cases_are_read_in_name_order(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    for name in ("c.yml", "b.yaml", "0.json"):
        write_case(repo / "cases", name, tutorial_case(counterexample_id=f"id_{name}"))
    monkeypatch.chdir(repo)
    args = ["duel", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases", "--out", "o.json"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    document = json.loads((repo / "o.json").read_text(encoding="utf-8"))
    assert [r["evidence_ref"][0] for r in document["results"]] == [
        "cases/0.json",
        "cases/a_good.json",
        "cases/b.yaml",
        "cases/c.yml",
    ]


def test_out_is_a_directory_or_unwritable(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    args = ["duel", "--spec", "specs/autoscale_spec.yaml", "--cases", "cases"]
    (repo / "taken").mkdir()
    result = CliRunner().invoke(cli, [*args, "--out", "taken"])
    assert result.exit_code == 2
    assert result.stderr == "tribunal: error: taken: --out: is a directory, expected a file path\n"
    (repo / "blocker").write_text("a file, not a directory\n", encoding="utf-8")
    result = CliRunner().invoke(cli, [*args, "--out", "blocker/duel.json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("tribunal: error: blocker/duel.json: --out: cannot write: ")
