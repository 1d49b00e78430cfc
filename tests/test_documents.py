"""C-3, C-5: loading inputs names file, line and field; duplicates, empty and binary files fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from testing.strategies import int_texts

from tribunal.atomic import write_atomic, write_json
from tribunal.cli import cli
from tribunal.documents import format_field, load_any, load_json, load_yaml, parse_json, validate
from tribunal.errors import BadInput
from tribunal.paths import display_path, find_root


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_yaml_lines_are_recorded(tmp_path: Path) -> None:
    doc = load_yaml(write(tmp_path, "a.yaml", "top:\n  inner: 1\n  list:\n    - x\n    - y\n"))
    assert doc.data == {"top": {"inner": 1, "list": ["x", "y"]}}
    assert doc.line_of(("top", "inner")) == 2
    assert doc.line_of(("top", "list", 1)) == 5
    assert doc.line_of(("top", "missing")) == 1


def test_yaml_duplicate_key_names_line(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        load_yaml(write(tmp_path, "d.yaml", "a: 1\nb: 2\na: 3\n"), "d.yaml")
    assert info.value.source == "d.yaml" and info.value.line == 3
    assert "duplicate" in str(info.value)


def test_malformed_yaml_names_line(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        load_yaml(write(tmp_path, "m.yaml", "a: 1\nb: [1, 2\nc: 3\n"), "m.yaml")
    assert str(info.value).startswith("m.yaml:")
    assert info.value.line is not None


def test_json_duplicate_key_and_malformed(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        load_json(write(tmp_path, "d.json", '{\n  "a": 1,\n  "a": 2\n}\n'), "d.json")
    assert info.value.line == 3 and "duplicate key 'a'" in str(info.value)
    with pytest.raises(BadInput) as info:
        load_json(write(tmp_path, "m.json", '{\n  "a": 1,\n}\n'), "m.json")
    assert info.value.line == 3 and "malformed JSON" in str(info.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "file is empty"),
        (b"  \n", "file is empty"),
        (b"a\0b", "binary"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_empty_and_binary_files(tmp_path: Path, content: bytes, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        load_any(write(tmp_path, "x.json", content))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match=r"x\.yaml: file not found"):
        load_any(tmp_path / "x.yaml", "x.yaml")


def test_validate_names_field_and_line(tmp_path: Path) -> None:
    record = {"kind": "duel", "verdict": "MAYBE", "reason_code": "x", "evidence_ref": []}
    path = write(tmp_path, "e.json", json.dumps(record, indent=2))
    with pytest.raises(BadInput) as info:
        validate(load_any(path, "e.json"), "evidence")
    assert info.value.field == "verdict" and info.value.line == 3


def test_validate_unknown_field(tmp_path: Path) -> None:
    text = "kind: duel\nverdict: PASS\nreason_code: x\nevidence_ref: []\nextra: 1\n"
    path = write(tmp_path, "e.yaml", text)
    with pytest.raises(BadInput, match="unknown field 'extra'"):
        validate(load_any(path, "e.yaml"), "evidence")


def test_format_field() -> None:
    assert format_field(("results", 3, "verdict")) == "results[3].verdict"
    assert format_field(()) == ""


def test_atomic_write_creates_parents_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "out.json"
    write_json(target, {"b": 1, "a": [1, 2]})
    assert target.read_text() == '{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}\n'
    write_atomic(target, "x", mode=0o600)
    assert target.read_text() == "x" and (target.stat().st_mode & 0o777) == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.json"]


def test_root_and_display_path(tmp_path: Path) -> None:
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "sub").mkdir()
    root = find_root(tmp_path / "repo" / "sub")
    assert root == (tmp_path / "repo").resolve()
    assert display_path(tmp_path / "repo" / "sub" / "f.json", root) == "sub/f.json"
    outside = str(tmp_path / "elsewhere.json")
    assert display_path(outside, root) == outside
    assert find_root(tmp_path / "repo" / "sub").name == "repo"


# --- JSON the decoder takes but no output could hold ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "field", "code_point"),
    [
        ('{"a": "\\ud800"}', 1, "a", "D800"),
        ('{\n  "a": 1,\n  "b": ["x", "\\udc00y"]\n}', 3, "b[1]", "DC00"),
        ('{\n  "a": {\n    "c": "\\uDBFF\\u0041"\n  }\n}', 3, "a.c", "DBFF"),  # high, no low
        ('{"k\\udfff": 1}', None, "k\\udfff", "DFFF"),  # a key
        ('["\\ude00\\ud83d"]', 1, "[0]", "DE00"),  # low before high: no pair
    ],
)
def test_a_lone_surrogate_in_json_is_bad_input(
    tmp_path: Path, text: str, line: int | None, field: str, code_point: str
) -> None:
    # C-3: json.loads gives a str no UTF-8 output can be written from (once an internal error).
    with pytest.raises(BadInput) as info:
        load_json(write(tmp_path, "s.json", text), "s.json")
    assert (info.value.source, info.value.line, info.value.field) == ("s.json", line, field)
    assert info.value.message == f"text holds U+{code_point}, a surrogate, not a character"


@pytest.mark.parametrize(
    ("text", "value"),
    [('{"a": "\\ud83d\\ude00"}', "\U0001f600"), ('{"a": "\\\\ud800"}', "\\ud800")],
)
def test_surrogate_pairs_and_escaped_backslashes_are_text(
    tmp_path: Path, text: str, value: str
) -> None:
    assert load_json(write(tmp_path, "s.json", text), "s.json").data == {"a": value}


@given(int_texts().filter(lambda text: not text.startswith("+")))
def test_a_json_integer_too_long_to_convert_is_bad_input(digits: str) -> None:
    text = '{\n  "a": 1,\n  "b": [' + digits + "]\n}\n"
    try:
        expected = int(digits)
    except ValueError:
        with pytest.raises(BadInput) as info:
            parse_json(text, "n.json")
        assert (info.value.source, info.value.line, info.value.field) == ("n.json", 3, "b[0]")
        assert info.value.message.startswith("integer too long")
        return
    assert parse_json(text, "n.json") == {"a": 1, "b": [expected]}


@pytest.mark.parametrize(
    "metrics",
    [
        '{"session_id": "\\udc80", "thresholds": {}}',
        '{"x\\ud800": 1, "thresholds": {"x_max": 2}}',
        '{"x": 1, "thresholds": {"x_max": ' + "9" * 5000 + "}}",
    ],
)
def test_json_no_output_could_hold_is_bad_input_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metrics: str
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "m.json", metrics)
    result = CliRunner().invoke(cli, ["invariants", "--metrics", "m.json", "--out", "out/i.json"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("tribunal: error: m.json")
    assert not (tmp_path / "out").exists()
