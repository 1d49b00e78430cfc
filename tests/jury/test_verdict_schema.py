"""L-1, L-7: the strict verdict schema a seat sends — a narrowing of V-1, never a widening: what
it admits the V-1 parser accepts for the seated lens, its locations name lines that exist, and
no pattern holds a backslash or runs unanchored (llama.cpp's grammar builder needs both)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testing.json_schemas import matches, strings, subschemas

from tribunal.enums import CitationStatus, ResponseFormat, SeatVerdict, Transport
from tribunal.jury.citations import CitationSources
from tribunal.jury.verdict import parse_verdict
from tribunal.jury.verdict_schema import (
    SchemaDialect,
    line_range,
    lines_except,
    location_pattern,
    path_literal,
    schema_dialect,
    strict_verdict_schema,
)

# `[` in a path is written `[[]`, which Python's regex compiler flags as a possible nested set.
pytestmark = pytest.mark.filterwarnings("ignore:Possible nested set:FutureWarning")

ENVELOPE = {
    "calc.py": "def add(a, b):\n    return a + b\n\ndef neg(x):\n    return -x\n",
    "tests/test_calc.py": "import calc\n" * 12,
    "empty.txt": "",
}
KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum"}
KEYWORDS |= {"pattern", "minLength"}
DIALECTS = list(SchemaDialect)
PASS: dict[str, Any] = {"lens": "defect", "checked": [], "findings": [], "verdict": "pass"}


def location_of(schema: dict[str, Any]) -> dict[str, Any]:
    location: dict[str, Any] = schema["properties"]["checked"]["items"]["properties"]["location"]
    return location


def test_every_object_is_strict_and_every_property_required() -> None:
    schema = strict_verdict_schema("defect", ENVELOPE)
    objects = [node for node in subschemas(schema) if node.get("type") == "object"]
    assert len(objects) == 3  # the verdict, a checked entry, a finding
    for node in objects:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])
    assert list(schema["properties"]) == ["lens", "checked", "findings", "verdict"]
    assert schema["properties"]["lens"] == {"type": "string", "enum": ["defect"]}
    assert schema["properties"]["verdict"]["enum"] == ["pass", "refuse"]
    finding = schema["properties"]["findings"]["items"]
    assert finding["type"] == "object"  # no string form
    assert finding["properties"]["severity"]["enum"] == ["blocker", "major", "minor", "info"]
    assert list(finding["properties"]) == ["location", "evidence", "claim", "severity"]
    assert "minItems" not in schema["properties"]["checked"]  # V-1: `checked` is optional


@pytest.mark.parametrize(
    ("obj", "valid"),
    [
        (PASS, True),
        ({"lens": "proportion", "checked": [], "findings": [], "verdict": "pass"}, False),
        ({"lens": ["defect"], "checked": [], "findings": [], "verdict": "pass"}, False),
        ({"lens": "defect", "findings": [], "verdict": "pass"}, False),
        ({"lens": "defect", "checked": [], "findings": [], "verdict": "hold"}, False),
        ({**PASS, "findings": ["[major] calc.py:1 x"], "verdict": "refuse"}, False),
        ({"lens": "defect", "checked": [], "findings": [], "verdict": "pass", "note": "x"}, False),
    ],
)
def test_what_the_schema_admits(obj: dict[str, Any], valid: bool) -> None:
    assert matches(strict_verdict_schema("defect", ENVELOPE), obj) is valid


@pytest.mark.parametrize(
    ("location", "valid"),
    [
        ("calc.py:1", True),
        ("calc.py:5", True),
        ("calc.py:6", False),  # calc.py has five lines
        ("calc.py:0", False),
        ("calc.py:01", False),
        ("calc.py", False),
        ("calcXpy:1", False),  # `.` is a literal dot, not any character
        ("calc.py:1-2", False),
        ("calc.py, line 1", False),
        ("path:line", False),
        ("tests/test_calc.py:12", True),
        ("tests/test_calc.py:13", False),
        ("empty.txt:1", False),  # a file without lines cannot be cited
        ("other.py:1", False),
        (" calc.py:1", False),
    ],
)
def test_a_location_names_a_file_of_the_envelope_and_a_line_it_has(
    location: str, valid: bool
) -> None:
    entry = {"location": location, "evidence": "", "claim": "c"}
    schema = strict_verdict_schema("defect", ENVELOPE)
    obj = {"lens": "defect", "checked": [entry], "findings": [], "verdict": "pass"}
    assert matches(schema, obj) is valid


def test_line_ranges_admit_exactly_the_lines_that_exist() -> None:
    for last in [*range(1, 1200), 9999, 10000, 10001, 123456]:
        pattern = re.compile(f"^({line_range(last)})$")
        probes = {*range(0, min(last, 1200) + 3), last - 1, last, last + 1, 10 * last}
        for number in probes:
            assert bool(pattern.fullmatch(str(number))) is (1 <= number <= last), (last, number)
        assert not pattern.fullmatch("0" + str(last))


@given(st.integers(min_value=1, max_value=10**7), st.integers(min_value=0, max_value=10**8))
def test_a_line_range_is_exact_and_small(last: int, number: int) -> None:
    pattern = line_range(last)
    assert bool(re.fullmatch(f"({pattern})", str(number))) is (1 <= number <= last)
    assert len(pattern) <= 40 * len(str(last))  # grows with the digits, not with the lines


def test_line_range_needs_a_line() -> None:
    with pytest.raises(ValueError, match="no line range"):
        line_range(0)


@pytest.mark.parametrize(
    ("path", "written"),
    [
        ("calc.py", "calc[.]py"),
        ("a+b (1)/{x}|y*?$.md", "a[+]b [(]1[)]/[{]x[}][|]y[*][?][$][.]md"),
        ("pages/[id].tsx", "pages/[[]id.[.]tsx"),
        ("a^b\\c", "a.b.c"),
        ("é/ü.py", "é/ü[.]py"),
        ('say"hi".py', None),
        ("tab\there.py", None),
        ("v1:2", None),  # V-4 reads `v1:2:1` as line 2 of `v1`
        ("v1:2.py", "v1:2[.]py"),
        (" lead.py", None),  # V-4 reads locations stripped
        ("a:b.py", "a:b[.]py"),
    ],
)
def test_paths_are_written_without_a_backslash(path: str, written: str | None) -> None:
    assert path_literal(path) == written


def test_a_wildcard_stands_only_for_the_character_no_class_can_hold() -> None:
    pattern = location_pattern({"pages/[id].tsx": "x\n"})
    assert pattern is not None
    assert re.fullmatch(pattern, "pages/[id].tsx:1")
    assert re.fullmatch(pattern, "pages/[idX.tsx:1")  # V-4 marks it outside the envelope
    assert CitationSources({"pages/[id].tsx": "x\n"}).mark("pages/[idX.tsx:1", None).status is (
        CitationStatus.OUTSIDE_ENVELOPE
    )
    assert not re.fullmatch(pattern, "pages/Xid].tsx:1")


def test_without_a_citable_file_a_location_is_any_non_empty_string() -> None:
    for envelope in (None, {}, {"empty.txt": ""}, {'a"b.py': "x\n"}):
        for dialect in DIALECTS:
            location = location_of(strict_verdict_schema("defect", envelope, dialect))
            assert (
                location
                == strict_verdict_schema("x", None, dialect)["properties"]["checked"]["items"][
                    "properties"
                ]["claim"]
            )


def test_the_dialect_of_each_rung() -> None:
    assert schema_dialect(Transport.OPENAI, ResponseFormat.JSON_SCHEMA) is (
        SchemaDialect.OPENAI_STRICT
    )
    assert schema_dialect("openai", ResponseFormat.JSON_OBJECT_SCHEMA) is SchemaDialect.GRAMMAR
    for transport in (Transport.OLLAMA, Transport.ANTHROPIC):
        for form in (ResponseFormat.JSON_SCHEMA, ResponseFormat.JSON_OBJECT_SCHEMA):
            assert schema_dialect(transport, form) is SchemaDialect.GRAMMAR


def test_openai_strict_gets_patterns_and_grammar_servers_get_min_length() -> None:
    """OpenAI's strict mode takes no minLength; llama.cpp escapes only an unpatterned string."""
    openai = strict_verdict_schema("defect", ENVELOPE, SchemaDialect.OPENAI_STRICT)
    grammar = strict_verdict_schema("defect", ENVELOPE, SchemaDialect.GRAMMAR)
    assert not [node for node in subschemas(openai) if "minLength" in node]
    claim = ("properties", "findings", "items", "properties", "claim")
    assert _at(openai, claim) == {"type": "string", "pattern": "^.+$"}
    assert _at(grammar, claim) == {"type": "string", "minLength": 1}
    for schema in (openai, grammar):
        assert _at(schema, (*claim[:-1], "evidence")) == {"type": "string"}
        assert not matches(schema, {**PASS, "findings": [_finding(claim="")]})


def _at(schema: dict[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = schema
    for key in path:
        node = node[key]
    return node


def _finding(claim: str) -> dict[str, Any]:
    return {"location": "calc.py:1", "evidence": "", "claim": claim, "severity": "minor"}


# -- properties ---------------------------------------------------------------------------------

PATH_CHARACTERS = st.characters(
    categories=("L", "N", "P", "S", "Zs"), include_characters='./-_[](){}*+?|$^\\:"é'
)
envelopes = st.dictionaries(
    st.text(PATH_CHARACTERS, min_size=1, max_size=12),
    st.integers(min_value=0, max_value=250).map(lambda lines: "line\n" * lines),
    max_size=4,
)
lens_ids = st.from_regex(r"[a-z][a-z_]{0,15}", fullmatch=True)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Any JSON value valid against `schema` (the keywords the strict schema uses; another one
    fails this test instead of being ignored)."""
    assert set(schema) <= KEYWORDS, set(schema) - KEYWORDS
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "object":
        return st.fixed_dictionaries({k: from_schema(v) for k, v in schema["properties"].items()})
    if kind == "array":
        return st.lists(from_schema(schema["items"]), max_size=3)
    assert kind == "string"
    if "pattern" in schema:  # a JSON Schema pattern is searched for, as jsonschema does
        return st.from_regex(schema["pattern"])
    return st.text(min_size=schema.get("minLength", 0), max_size=20)


@settings(max_examples=150, deadline=None)
@given(lens_ids, envelopes, st.sampled_from(DIALECTS), st.data())
def test_anything_the_strict_schema_admits_the_verdict_parser_accepts(
    lens: str, envelope: Mapping[str, str], dialect: SchemaDialect, data: st.DataObject
) -> None:
    schema = strict_verdict_schema(lens, envelope, dialect)
    obj = data.draw(from_schema(schema))
    assert matches(schema, obj)
    verdict = parse_verdict(json.dumps(obj), lens=lens)  # raises on anything V-1 refuses
    assert verdict.lens == lens
    assert verdict.verdict in (SeatVerdict.PASS, SeatVerdict.REFUSE)
    assert len(verdict.findings) == len(obj["findings"])
    assert len(verdict.checked) == len(obj["checked"])


@settings(max_examples=150, deadline=None)
@given(lens_ids, envelopes, st.sampled_from(DIALECTS))
def test_no_backslash_and_every_pattern_anchored(
    lens: str, envelope: Mapping[str, str], dialect: SchemaDialect
) -> None:
    schema = strict_verdict_schema(lens, envelope, dialect)
    assert not [text for text in strings(schema) if "\\" in text]
    for node in subschemas(schema):
        if "pattern" in node:
            assert node["pattern"].startswith("^") and node["pattern"].endswith("$")
            assert "(?" not in node["pattern"]  # llama.cpp's converter takes plain groups only
            re.compile(node["pattern"])


@settings(max_examples=150, deadline=None)
@given(envelopes, st.data())
def test_every_location_the_pattern_admits_is_a_line_that_exists(
    envelope: Mapping[str, str], data: st.DataObject
) -> None:
    pattern = location_pattern(envelope)
    if pattern is None:
        assert all(path_literal(path) is None or not text for path, text in envelope.items())
        return
    location = data.draw(st.from_regex(pattern, fullmatch=True))
    mark = CitationSources(envelope).mark(location, None).status
    exact = not any(c in "]^\\" for path in envelope for c in path)
    outside = mark is CitationStatus.OUTSIDE_ENVELOPE
    assert mark is CitationStatus.VERIFIED or (not exact and outside)


@settings(max_examples=100, deadline=None)
@given(envelopes)
def test_every_line_of_every_citable_file_is_admitted(envelope: Mapping[str, str]) -> None:
    pattern = location_pattern(envelope)
    for path, text in envelope.items():
        count = len(text.splitlines())
        if path_literal(path) is None or count == 0:
            continue
        assert pattern is not None
        for line in {1, count // 2 + 1, count}:
            assert re.fullmatch(pattern, f"{path}:{line}"), (path, line)


@settings(max_examples=60)
@given(st.integers(1, 1500), st.data())
def test_the_example_line_is_left_out_and_every_other_line_kept(
    last: int, data: st.DataObject
) -> None:
    skip = data.draw(st.integers(1, last))
    alternatives = lines_except(last, skip)
    if last == 1:
        assert alternatives is None
        return
    assert alternatives is not None and "\\" not in alternatives
    pattern = re.compile(f"^({alternatives})$")
    others = data.draw(st.lists(st.integers(0, 2000), max_size=20))
    for number in {1, skip - 1, skip, skip + 1, last, last + 1, *others}:
        assert bool(pattern.match(str(number))) == (1 <= number <= last and number != skip)
    assert not pattern.match("0") and not pattern.match(f"0{skip}")


def test_the_strict_schema_leaves_the_example_line_out_of_locations() -> None:
    envelope = {"calc.py": "a\nb\nc\n", "tests/test_calc.py": "import calc\nx\n"}
    schema = strict_verdict_schema("defect", envelope, example=("tests/test_calc.py", 1))
    checked = schema["properties"]["checked"]["items"]
    pattern = re.compile(checked["properties"]["location"]["pattern"])
    assert not pattern.match("tests/test_calc.py:1")
    assert all(pattern.match(spot) for spot in ("tests/test_calc.py:2", "calc.py:1", "calc.py:3"))
