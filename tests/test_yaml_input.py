"""C-3, C-5, S-5: every YAML input refuses anchors and aliases (so an alias bomb is bad input),
every tag but the seven that fit, and every scalar that is no value of its tag — alike in both
YAML libraries."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from testing.duel_data import REPO, checkout
from testing.strategies import ACCEPTED_TAG_NAMES, int_texts, yaml_tags, yaml_values

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
    assert (code, stderr) == (2, f"tribunal: error: specs/bomb.yaml:{line}: a0: {REFUSAL}\n")
    assert not (root / "out").exists()


def test_case_alias_bomb_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bulk (PyYAML) case loader: before, the bomb surfaced on the error path, when the
    # line of the unknown field was looked up by re-reading the file with ruamel.
    root = checkout(tmp_path / "repo")
    shipped = (REPO / "cases" / "autoscale_duplicate_webhook.yaml").read_text(encoding="utf-8")
    line = len(shipped.splitlines()) + 1
    (root / "cases" / "zz_bomb.yaml").write_text(shipped + alias_bomb(4), encoding="utf-8")
    code, stderr = duel(root, monkeypatch, "specs/autoscale_spec.yaml", "cases/")
    assert (code, stderr) == (2, f"tribunal: error: cases/zz_bomb.yaml:{line}: a0: {REFUSAL}\n")
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


# --- tags: the seven accepted, each on a value that fits it; no other tag -----------------------


def _read(text: str, loader: str) -> object:
    from tribunal.yaml_input import load_bulk

    return parse_yaml(text, "in.yaml")[0] if loader == "ruamel" else load_bulk(text, "in.yaml")


def _plain_reading(text: str) -> object:
    """What `text` means written plainly after `k:` (the oracle of "fits"), or a marker."""
    try:
        data = parse_yaml(f"k: {text}\n", "plain.yaml")[0]
    except BadInput:
        return _NOT_PLAIN
    return data["k"] if isinstance(data, dict) and "k" in data else _NOT_PLAIN


_NOT_PLAIN = object()
_TYPES = {"int": int, "bool": bool, "null": type(None)}


def _expected(tag: str, value: str) -> object:
    """The value `k: <tag> <value>` must read as, or BadInput when the tag must be refused —
    decided without the tag rule: by the untagged reading of the node and of its text."""
    name = tag.removeprefix("!!").removeprefix("!<tag:yaml.org,2002:").removesuffix(">")
    if tag == name or name not in ACCEPTED_TAG_NAMES or (tag.startswith("!<") and ":" in name):
        return BadInput
    node = parse_yaml(f"k: {value}\n", "untagged.yaml")[0]["k"]
    if name == "seq":
        return node if isinstance(node, list) else BadInput
    if name == "map":
        return node if isinstance(node, dict) else BadInput
    if isinstance(node, list | dict):
        return BadInput
    text = value if not value or value[0] not in "\"'" else str(node)
    if name == "str":
        return text
    plain = _plain_reading(text) if text else None
    if name == "float":
        if type(plain) is float:
            return plain
        if type(plain) is int:
            try:
                return float(text)  # a decimal integer is a float's value too
            except ValueError:
                return BadInput
        return BadInput
    return plain if type(plain) is _TYPES[name] else BadInput


# A node in block context, and in flow context right after a JSON-like key's `:` (no space).
LAYOUTS = {"block": ("x: 1\nk: {tag} {value}\n", 2), "flow": ('{{"x": 1,\n"k":{tag} {value}}}', 2)}


@given(
    yaml_tags(),
    yaml_values(),
    st.sampled_from(["ruamel", "pyyaml"]),
    st.sampled_from(sorted(LAYOUTS)),
)
def test_a_tag_is_one_of_seven_on_a_value_that_fits_it(
    tag: str, value: str, loader: str, layout: str
) -> None:
    # C-3: `!!int abc`, `!!str [1]`, `!!null x` and every other tag (`!!binary` once became the
    # text "b'...'") are bad input naming file, line and field; both libraries read alike.
    form, line = LAYOUTS[layout]
    try:
        parse_yaml(f"k: {value}\n", "untagged.yaml")
        parse_yaml(form.format(tag="", value=value), "untagged.yaml")
    except BadInput:
        return  # not a node YAML can hold here, whatever its tag
    text = form.format(tag=tag, value=value)
    expected = _expected(tag, value)
    if expected is BadInput:
        with pytest.raises(BadInput) as info:
            _read(text, loader)
        assert (info.value.source, info.value.line, info.value.field) == ("in.yaml", line, "k")
        return
    data = _read(text, loader)
    assert isinstance(data, dict)
    assert same(data["k"], expected) or data["k"] == expected, (data["k"], expected)


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("a: !!binary aGVsbG8=\n", "a", "tag !!binary is not accepted"),
        ("a: !!timestamp 2026-01-01\n", "a", "tag !!timestamp is not accepted"),
        ("a: [1, !!python/object:os.system x]\n", "a[1]", "tag !!python/object:os.system"),
        ("a:\n  b: !!set {x: null}\n", "a.b", "tag !!set is not accepted"),
        ("a: !custom x\n", "a", "tag !custom is not accepted"),
        ("!!int a: 1\n", "a", "'a' is not an !!int"),
        ("a: !!int abc\n", "a", "'abc' is not an !!int"),
        ("a: !!bool yes\n", "a", "'yes' is not a !!bool"),
        ("a: !!null x\n", "a", "'x' is not an !!null"),
        ("a: !!str [1]\n", "a", "!!str does not fit a sequence"),
        ("a: {b: !!seq {c: 1}}\n", "a.b", "!!seq does not fit a mapping"),
    ],
)
def test_both_libraries_refuse_a_tag_alike(text: str, field: str, message: str) -> None:
    for loader in ("ruamel", "pyyaml"):
        with pytest.raises(BadInput) as info:
            _read(text, loader)
        assert (info.value.source, info.value.field) == ("in.yaml", field)
        assert info.value.line == text.count("\n", 0, text.index("!")) + 1
        assert info.value.message.startswith(message), info.value.message


def test_a_coercing_tag_in_a_fleet_is_bad_input_on_the_command_line(tmp_path: Path) -> None:
    from testing.fleets import SPEC_FLEET, write_fleet

    fleet = write_fleet(
        tmp_path, SPEC_FLEET.replace("model: qwen2.5-coder:14b", "model: !!binary cXdlbg==")
    )
    result = CliRunner().invoke(cli, ["ladder", "--fleet", str(fleet), "--builder", "vendor-b"])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"tribunal: error: {fleet}:7: rungs[2].model: tag !!binary ")


# --- integers: as long as Python converts, and not one digit longer -----------------------------


@given(int_texts(), st.sampled_from(["", "!!int "]), st.sampled_from(["ruamel", "pyyaml"]))
def test_an_integer_too_long_to_convert_is_bad_input(digits: str, tag: str, loader: str) -> None:
    text = f"a: 1\nb:\n  - {tag}{digits}\n"
    try:
        expected = int(digits)
    except ValueError:  # Python's own limit (sys.get_int_max_str_digits) is the oracle
        with pytest.raises(BadInput) as info:
            _read(text, loader)
        assert (info.value.line, info.value.field) == (3, "b[0]")
        assert info.value.message.startswith("integer too long")
        return
    assert _read(text, loader) == {"a": 1, "b": [expected]}


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('a: "\\ud800"\n', "a"),
        ('a: [x, "y\\udfff"]\n', "a[1]"),
        ('a: "\\ud83d\\ude00"\n', "a"),  # YAML escapes code points: a surrogate pair is two
        ('"\\udc80": 1\n', "\\udc80"),
    ],
)
def test_a_surrogate_in_yaml_text_is_bad_input(text: str, field: str) -> None:
    with pytest.raises(BadInput) as info:
        parse_yaml(text, "in.yaml")
    assert (info.value.line, info.value.field) == (1, field)
    assert "a surrogate, not a character" in info.value.message
    with pytest.raises(BadInput):  # PyYAML's parser refuses the escape itself
        _read(text, "pyyaml")
