"""P-4, L-1, L-7: the strict scorecard schema a member's seat sends — a narrowing of what the card
reader accepts, never a widening: what it admits is read as a Scorecard for that seat, every
property is required, nothing else is allowed, and its locations are the verdict schema's."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testing.json_schemas import matches, strings, subschemas

from tribunal.courts.panel import (
    MalformedCard,
    Scorecard,
    ScorecardPhase,
    read_card,
    strict_scorecard_schema,
)
from tribunal.jury.verdict_schema import SchemaDialect, location_schema, strict_verdict_schema

ENVELOPE = {"limiter.py": "".join(f"line {n}\n" for n in range(1, 21)), "README.md": "# x\n"}
DIMENSIONS = ("correctness", "robustness")
KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum"}
KEYWORDS |= {"pattern", "minLength", "anyOf", "minimum", "maximum", "minItems"}
DIALECTS = list(SchemaDialect)

QUOTE = {"location": "limiter.py:14", "quote": "line 14"}
COMMAND = {"command": "python -m pytest -q tests/test_limiter.py", "output": "3 passed"}
SCENARIO = {
    "location": "limiter.py:14",
    "quote": "line 14",
    "input": "a burst straddling the window edge",
    "wrong_behaviour": "passes twice the limit",
    "kind": "correctness",
}
FINDING = {
    "location": "limiter.py:14",
    "quote": "line 14",
    "claim": "the window never advances",
    "severity": "major",
    "fix": None,
    "structural": False,
}
CARD: dict[str, Any] = {
    "lens": "adversary",
    "round": 2,
    "phase": "synthesis",
    "scores": {
        "correctness": {"evidence": [QUOTE, COMMAND], "score": 7, "confidence": 0.8},
        "robustness": {"evidence": [], "score": 3, "confidence": 1},
    },
    "failure_scenarios": [SCENARIO],
    "findings": [FINDING],
    "top_concern": "the window edge",
    "recommendation": "ITERATE",
    "escalation": None,
}


def schema_for(
    dialect: SchemaDialect = SchemaDialect.GRAMMAR,
    envelope: Mapping[str, str] | None = ENVELOPE,
    *,
    adversary: bool = False,
) -> dict[str, Any]:
    return strict_scorecard_schema(
        "adversary",
        2,
        ScorecardPhase.SYNTHESIS,
        DIMENSIONS,
        envelope,
        dialect,
        adversary=adversary,
    )


def changed(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A copy of CARD with the value at `path` replaced (`...` removes it)."""
    edited = json.loads(json.dumps(CARD))
    target: Any = edited
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return edited


def test_it_is_a_json_schema() -> None:
    for dialect in DIALECTS:
        jsonschema.Draft202012Validator.check_schema(schema_for(dialect))


def test_every_object_is_strict_and_every_property_required() -> None:
    schema = schema_for()
    objects = [node for node in subschemas(schema) if node.get("type") == "object"]
    # the card, its scores, two dimensions, two evidence forms each, a scenario, a finding
    assert len(objects) == 1 + 1 + 2 * (1 + 2) + 1 + 1
    for node in objects:
        assert node["additionalProperties"] is False
        assert node["required"] == list(node["properties"])
    assert list(schema["properties"]) == [
        "lens", "round", "phase", "scores", "failure_scenarios", "findings", "top_concern",
        "recommendation", "escalation",
    ]  # fmt: skip
    properties = schema["properties"]
    assert properties["lens"] == {"type": "string", "enum": ["adversary"]}
    assert properties["round"] == {"type": "integer", "enum": [2]}
    assert properties["phase"] == {"type": "string", "enum": ["synthesis"]}
    assert properties["recommendation"]["enum"] == ["SHIP", "SHIP_WITH_CAVEATS", "ITERATE", "BLOCK"]
    assert list(properties["scores"]["properties"]) == list(DIMENSIONS)
    dimension = properties["scores"]["properties"]["correctness"]
    assert list(dimension["properties"]) == ["evidence", "score", "confidence"]
    assert dimension["properties"]["score"] == {"type": "integer", "enum": list(range(1, 11))}
    confidences = dimension["properties"]["confidence"]["enum"]
    assert confidences == [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]
    forms = dimension["properties"]["evidence"]["items"]["anyOf"]
    assert [list(form["properties"]) for form in forms] == [
        ["location", "quote"],
        ["command", "output"],
    ]
    finding = properties["findings"]["items"]["properties"]
    assert list(finding) == ["location", "quote", "claim", "severity", "fix", "structural"]
    assert finding["severity"]["enum"] == ["blocker", "major", "minor", "info"]
    assert finding["structural"] == {"type": "boolean"}
    scenario = properties["failure_scenarios"]["items"]["properties"]
    assert list(scenario) == ["location", "quote", "input", "wrong_behaviour", "kind"]
    assert scenario["kind"]["enum"] == ["correctness", "safety", "other"]


def test_only_the_adversary_is_asked_for_a_failure_scenario() -> None:
    assert "minItems" not in schema_for()["properties"]["failure_scenarios"]
    assert schema_for(adversary=True)["properties"]["failure_scenarios"]["minItems"] == 1
    assert matches(schema_for(), changed(("failure_scenarios",), []))
    assert not matches(schema_for(adversary=True), changed(("failure_scenarios",), []))
    assert "minItems" not in schema_for(adversary=True)["properties"]["findings"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_location_is_held_as_the_verdict_schema_holds_it(dialect: SchemaDialect) -> None:
    schema = schema_for(dialect)
    expected = location_schema(ENVELOPE, dialect)
    verdict = strict_verdict_schema("defect", ENVELOPE, dialect)
    assert expected == verdict["properties"]["checked"]["items"]["properties"]["location"]
    locations = [node["properties"]["location"] for node in subschemas(schema)
                 if "location" in node.get("properties", {})]  # fmt: skip
    assert len(locations) == 2 + 1 + 1  # each dimension's quote evidence, a scenario, a finding
    assert all(location == expected for location in locations)


@pytest.mark.parametrize(
    ("card", "valid"),
    [
        (CARD, True),
        (changed(("escalation",), "ESCALATE: the limiter drops every request"), True),
        (changed(("findings", 0, "fix"), "advance start"), True),
        (changed(("lens",), "quality"), False),
        (changed(("round",), 1), False),
        (changed(("phase",), "score"), False),
        (changed(("scores", "robustness"), ...), False),
        (changed(("scores", "speed"), CARD["scores"]["robustness"]), False),
        (changed(("scores", "robustness", "score"), 0), False),
        (changed(("scores", "robustness", "score"), 11), False),
        (changed(("scores", "robustness", "score"), 3.5), False),
        (changed(("scores", "robustness", "confidence"), 1.2), False),
        (changed(("scores", "robustness", "confidence"), -0.1), False),
        (changed(("scores", "robustness", "evidence"), [{**QUOTE, **COMMAND}]), False),
        (changed(("scores", "robustness", "evidence"), [{"quote": "line 3"}]), False),
        (changed(("scores", "robustness", "evidence"), ["limiter.py:3"]), False),
        (changed(("scores", "robustness", "evidence"), ...), False),
        (changed(("findings", 0, "severity"), "critical"), False),
        (changed(("findings", 0, "structural"), ...), False),
        (changed(("failure_scenarios", 0, "kind"), "performance"), False),
        (changed(("recommendation",), "ESCALATE"), False),
        (changed(("escalation",), ""), False),
        (changed(("escalation",), ...), False),
        (changed(("notes",), "x"), False),
        (changed(("findings", 0, "location"), "limiter.py:21"), False),  # 20 lines
        (changed(("findings", 0, "location"), "other.py:1"), False),
    ],
)
def test_what_the_schema_admits(card: dict[str, Any], valid: bool) -> None:
    for dialect in DIALECTS:
        assert matches(schema_for(dialect), card) is valid


def test_an_admitted_card_is_read_as_a_scorecard() -> None:
    card = read_card(
        json.dumps(CARD),
        lens="adversary",
        round=2,
        phase=ScorecardPhase.SYNTHESIS,
        dimensions=DIMENSIONS,
        rung="r",
        adversary=True,
    )
    assert isinstance(card, Scorecard)
    assert [score.score for score in card.scores.values()] == [7, 3]


def test_openai_strict_gets_patterns_and_grammar_servers_get_min_length() -> None:
    openai = schema_for(SchemaDialect.OPENAI_STRICT)
    grammar = schema_for(SchemaDialect.GRAMMAR)
    assert not [node for node in subschemas(openai) if "minLength" in node]
    claim = grammar["properties"]["findings"]["items"]["properties"]["claim"]
    assert claim == {"type": "string", "minLength": 1}
    assert openai["properties"]["top_concern"] == {"type": "string", "pattern": "^.+$"}
    # llama.cpp writes a patterned string without JSON escaping: only `location` has a pattern.
    patterned = [node for node in subschemas(grammar) if "pattern" in node]
    assert patterned and all(node == location_schema(ENVELOPE) for node in patterned)


def test_without_a_citable_file_a_blank_citation_is_admitted_and_still_malformed() -> None:
    # The one narrowing a grammar server's schema cannot write (see the module docstring).
    blank = changed(("scores", "robustness", "evidence"), [{"location": " ", "quote": " "}])
    assert matches(schema_for(envelope=None), blank)
    outcome = read_card(
        json.dumps(blank),
        lens="adversary",
        round=2,
        phase=ScorecardPhase.SYNTHESIS,
        dimensions=DIMENSIONS,
        rung="r",
        adversary=True,
    )
    assert isinstance(outcome, MalformedCard)
    assert outcome.detail == "scores.robustness.evidence[0]: evidence needs a quote or a location"
    assert not matches(schema_for(), blank)  # with a file to cite, it is not admitted


# -- properties ---------------------------------------------------------------------------------

lens_ids = st.from_regex(r"[a-z][a-z_]{0,15}", fullmatch=True)
dimension_ids = st.lists(
    st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True), min_size=1, max_size=3, unique=True
)
# Envelopes with at least one file to cite (see the docstring for the case of none).
citable = st.dictionaries(
    st.from_regex(r"[a-z]{1,6}(/[a-z]{1,6})?\.(py|md)", fullmatch=True),
    st.integers(min_value=1, max_value=150).map(lambda lines: "line\n" * lines),
    min_size=1,
    max_size=3,
)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Any JSON value valid against `schema` (the keywords the strict schema uses; another one
    fails this test instead of being ignored)."""
    assert set(schema) <= KEYWORDS, set(schema) - KEYWORDS
    if "anyOf" in schema:
        return st.one_of([from_schema(branch) for branch in schema["anyOf"]])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema["type"]
    if kind == "object":
        return st.fixed_dictionaries({k: from_schema(v) for k, v in schema["properties"].items()})
    if kind == "array":
        return st.lists(
            from_schema(schema["items"]), min_size=schema.get("minItems", 0), max_size=3
        )
    if kind == "integer":
        return st.integers(min_value=schema["minimum"], max_value=schema["maximum"])
    if kind == "number":
        low, high = schema["minimum"], schema["maximum"]
        return st.integers(low, high) | st.floats(min_value=low, max_value=high)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    assert kind == "string"
    if "pattern" in schema:  # a JSON Schema pattern is searched for, as jsonschema does
        return st.from_regex(schema["pattern"])
    return st.text(min_size=schema.get("minLength", 0), max_size=20)


@settings(max_examples=150, deadline=None)
@given(
    lens_ids,
    st.integers(min_value=1, max_value=9),
    st.sampled_from(list(ScorecardPhase)),
    dimension_ids,
    citable,
    st.sampled_from(DIALECTS),
    st.booleans(),
    st.data(),
)
def test_anything_the_strict_schema_admits_the_card_reader_reads_as_a_scorecard(
    lens: str,
    round: int,
    phase: ScorecardPhase,
    dimensions: list[str],
    envelope: Mapping[str, str],
    dialect: SchemaDialect,
    adversary: bool,
    data: st.DataObject,
) -> None:
    schema = strict_scorecard_schema(
        lens, round, phase, dimensions, envelope, dialect, adversary=adversary
    )
    obj = data.draw(from_schema(schema))
    assert matches(schema, obj)
    card = read_card(
        json.dumps(obj),
        lens=lens,
        round=round,
        phase=phase,
        dimensions=dimensions,
        rung="r",
        adversary=adversary,
    )
    assert isinstance(card, Scorecard), card
    assert (card.lens, card.round, card.phase) == (lens, round, phase)
    assert {d: s.score for d, s in card.scores.items()} == {
        d: entry["score"] for d, entry in obj["scores"].items()
    }
    assert len(card.findings) == len(obj["findings"])
    assert len(card.failure_scenarios) == len(obj["failure_scenarios"])
    # A blank escalation is none (`Scorecard.escalates`); any other text escalates.
    assert (card.escalation is None) is (obj["escalation"] is None or not obj["escalation"].strip())


@settings(max_examples=100, deadline=None)
@given(lens_ids, dimension_ids, citable, st.sampled_from(DIALECTS), st.booleans())
def test_no_backslash_and_every_pattern_anchored(
    lens: str,
    dimensions: list[str],
    envelope: Mapping[str, str],
    dialect: SchemaDialect,
    adversary: bool,
) -> None:
    schema = strict_scorecard_schema(
        lens, 1, ScorecardPhase.SCORE, dimensions, envelope, dialect, adversary=adversary
    )
    assert not [text for text in strings(schema) if "\\" in text]
    for node in subschemas(schema):
        assert set(node) <= KEYWORDS
        if "pattern" in node:
            assert node["pattern"].startswith("^") and node["pattern"].endswith("$")
            assert "(?" not in node["pattern"]  # llama.cpp's converter takes plain groups only
            re.compile(node["pattern"])


def test_the_protocols_example_line_is_left_out_of_the_location_pattern() -> None:
    files = {"calc.py": "import os\nx = 1\n"}
    schema = strict_scorecard_schema(
        "quality", 1, ScorecardPhase.SCORE, ["correctness"], files, example=("calc.py", 1)
    )
    locations = [node["properties"]["location"] for node in subschemas(schema)
                 if "location" in node.get("properties", {})]  # fmt: skip
    assert locations and all(node == locations[0] for node in locations)
    pattern = re.compile(locations[0]["pattern"])
    assert pattern.fullmatch("calc.py:2") and not pattern.fullmatch("calc.py:1")
