"""C-3, C-5, S-5: every YAML input refuses anchors and aliases, so an alias bomb is bad input."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from testing.duel_data import REPO, checkout

from tribunal.cli import cli
from tribunal.documents import load_yaml, parse_yaml
from tribunal.errors import BadInput


def alias_bomb(levels: int, first_line: int = 1) -> str:
    """Nine-way nested aliases: 9**(levels + 1) strings once copied into plain data."""
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, levels + 1):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


REFUSAL = "anchors and aliases are not accepted (&a0, *a0): write the value out"


def duel(root: Path, monkeypatch: pytest.MonkeyPatch, spec: str, cases: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    args = ["duel", "--spec", spec, "--cases", cases, "--out", "out/duel.json"]
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stderr


def test_spec_alias_bomb_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = checkout(tmp_path / "repo")
    shipped = (root / "specs" / "autoscale_spec.yaml").read_text(encoding="utf-8")
    line = len(shipped.splitlines()) + 1
    (root / "specs" / "bomb.yaml").write_text(shipped + alias_bomb(4), encoding="utf-8")
    code, stderr = duel(root, monkeypatch, "specs/bomb.yaml", "cases/")
    assert (code, stderr) == (2, f"tribunal: error: specs/bomb.yaml:{line}: {REFUSAL}\n")
    assert not (root / "out").exists()


def test_case_alias_bomb_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bulk (PyYAML) case loader: before, the bomb surfaced on the error path, when the
    # line of the unknown field was looked up by re-reading the file with ruamel.
    root = checkout(tmp_path / "repo")
    shipped = (REPO / "cases" / "autoscale_duplicate_webhook.yaml").read_text(encoding="utf-8")
    line = len(shipped.splitlines()) + 1
    (root / "cases" / "zz_bomb.yaml").write_text(shipped + alias_bomb(4), encoding="utf-8")
    code, stderr = duel(root, monkeypatch, "specs/autoscale_spec.yaml", "cases/")
    assert (code, stderr) == (2, f"tribunal: error: cases/zz_bomb.yaml:{line}: {REFUSAL}\n")
    assert not (root / "out").exists()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a: &x 1\nb: 2\n", 1),  # an anchor nothing refers to is refused too
        ("a: 1\nb: &x {c: 1}\nd: *x\n", 2),
        ("a:\n  - 1\n  - &x [2]\n", 3),
        ("&x top: 1\n", 1),  # an anchored key
    ],
)
def test_ruamel_inputs_refuse_anchors(text: str, line: int) -> None:
    with pytest.raises(BadInput) as info:
        parse_yaml(text, "in.yaml")
    assert (info.value.source, info.value.line) == ("in.yaml", line)
    assert info.value.message.startswith("anchors and aliases are not accepted (&x, *x)")


def test_a_deep_bomb_is_refused_without_building_it(tmp_path: Path) -> None:
    # Nine levels would be 9**10 (3.5 billion) strings: refused before any copy is made.
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(9), encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(BadInput):
            load_yaml(path, "bomb.yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_ampersands_in_text_are_not_anchors(tmp_path: Path) -> None:
    text = 'a: "R&D"\nb: R & D\n'
    assert parse_yaml(text, "in.yaml")[0] == {"a": "R&D", "b": "R & D"}


# --- one reading of scalars for both libraries --------------------------------------------------


def same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True  # both NaN
    return type(a) is type(b) and a == b


SCALARS = [
    "no", "yes", "on", "off", "y", "True", "false", "null", "~", "", "012", "08", "0o12",
    "0x1F", "0b101", "1_000", "1:20", "1:20.5", "1e3", "-.5", ".inf", ".NaN", "1.",
    "2026-01-01", "2026-01-01T10:00:00Z", "2026-01-01 10:00:00", "=", "<<", "0x_", "._", "+_",
]  # fmt: skip


@pytest.mark.parametrize("scalar", SCALARS)
def test_a_case_file_reads_scalars_as_a_spec_does(scalar: str) -> None:
    from tribunal.yaml_input import load_bulk

    text = f"k: {scalar}\n{scalar or 'empty'}: 1\n"
    spec_reading, _ = parse_yaml(text, "in.yaml")
    case_reading = load_bulk(text, "in.yaml")
    assert list(case_reading) == list(spec_reading)
    for key in spec_reading:
        assert same(case_reading[key], spec_reading[key])


@given(st.text(alphabet="0123456789_.-+eEoxbBaAfFnNuUlLrRtTsS:~ ", min_size=1, max_size=8))
def test_both_libraries_agree_on_any_plain_scalar(scalar: str) -> None:
    from tribunal.yaml_input import load_bulk

    text = f"k: {scalar}\n"
    try:
        spec_reading = parse_yaml(text, "in.yaml")[0]
    except BadInput:
        with pytest.raises(BadInput):
            load_bulk(text, "in.yaml")
        return
    assert same(load_bulk(text, "in.yaml"), spec_reading) or same(
        load_bulk(text, "in.yaml")["k"], spec_reading["k"]
    )


@pytest.mark.parametrize(("scalar", "value"), [("no", "no"), ("2026-01-01", "2026-01-01")])
def test_no_and_a_date_in_a_case_file_are_strings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scalar: str, value: str
) -> None:
    # `cluster_id` is declared `string`: YAML 1.1 would make these a boolean and a date.
    root = checkout(tmp_path / "repo", shipped_cases=False)
    shipped = (REPO / "cases" / "autoscale_duplicate_webhook.yaml").read_text(encoding="utf-8")
    text = shipped.replace("cluster_id: prod-eu-1", f"cluster_id: {scalar}")
    assert text != shipped
    (root / "cases" / "c.yaml").write_text(text, encoding="utf-8")
    code, stderr = duel(root, monkeypatch, "specs/autoscale_spec.yaml", "cases/")
    assert (code, stderr) == (0, "PASS      autoscale_duplicate_webhook\n")
    document = json.loads((root / "out" / "duel.json").read_text(encoding="utf-8"))
    assert document["results"][0]["counterexample_id"] == "autoscale_duplicate_webhook"
    assert parse_yaml(text, "c.yaml")[0]["given_snapshot"]["cluster_id"] == value


def test_both_libraries_report_errors_in_one_form() -> None:
    from tribunal.yaml_input import load_bulk

    for text, line, start in [
        ("a: 1\nb: [1, 2\nc: 3\n", 3, "malformed YAML: "),
        ("a: 1\na: 2\n", 2, "duplicate key 'a'"),
    ]:
        with pytest.raises(BadInput) as info:
            load_bulk(text, "c.yaml")
        assert (info.value.source, info.value.line) == ("c.yaml", line)
        assert info.value.message.startswith(start)
    with pytest.raises(BadInput) as info:
        parse_yaml("a: 1\nb: [1, 2\nc: 3\n", "s.yaml")
    assert (info.value.source, info.value.line) == ("s.yaml", 3)
    assert info.value.message.startswith("malformed YAML: ")
