"""T-6 frame of judgment.md: front matter dumped by the YAML library and read back with lines."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testing.strategies import identifiers

from tribunal.errors import BadInput
from tribunal.frontmatter import (
    has_front_matter_key,
    parse_judgment,
    render_judgment,
)

FIELDS = {
    "verdict": "DENY",
    "reason": "violates_invariant:silent_p0_ratio",
    "evidence_ref": ["metrics/validation_metrics.json#/silent_p0_ratio"],
    "next_step": "Implementor adds a severity check: before auto-escalation",
    "linked_precedents": [],
    "reproduce": ["python3 scripts/run_duel.py --spec specs/autoscale_spec.yaml --cases cases/"],
}


def test_round_trip_keeps_order_and_values() -> None:
    text = render_judgment(FIELDS, "# Judgment\n")
    assert text.startswith("---\nverdict: DENY\nreason: violates_invariant:silent_p0_ratio\n")
    parsed = parse_judgment(text, "j.md")
    assert parsed.fields == FIELDS
    assert list(parsed.fields) == list(FIELDS)
    assert parsed.body == "# Judgment\n"


def test_lines_are_true_to_the_file() -> None:
    text = render_judgment(FIELDS, "body\n")
    parsed = parse_judgment(text, "j.md")
    assert text.splitlines()[parsed.front.line_of(("next_step",)) - 1].startswith("next_step:")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("verdict: DENY\n", "no YAML front matter"),
        ("---\nverdict: DENY\n", "not closed"),
        ("---\nverdict: MAYBE\nreason: clean\nevidence_ref: a\n---\n", "'MAYBE' is not one of"),
        ("---\nverdict: DENY\nreason: clean\n---\n", "'evidence_ref' is required"),
        ("---\nverdict: DENY\nreason: clean\nevidence_ref: []\n---\n", "evidence_ref"),
        ("---\nverdict: DENY\nverdict: DENY\n---\n", "duplicate"),
        ("---\n- a\n---\n", "must be a mapping"),
    ],
)
def test_bad_judgments(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message) as info:
        parse_judgment(text, "j.md")
    assert str(info.value).startswith("j.md")


def test_error_line_points_into_the_file() -> None:
    text = "---\nreason: clean\nevidence_ref: a\nverdict: MAYBE\n---\n"
    with pytest.raises(BadInput) as info:
        parse_judgment(text, "j.md")
    assert info.value.line == 4 and info.value.field == "verdict"


def test_has_front_matter_key() -> None:
    assert has_front_matter_key("---\nverdict: DENY\n---\n", "verdict")
    assert not has_front_matter_key("# no front matter\nverdict: x\n", "verdict")


@settings(max_examples=200)
@given(
    st.dictionaries(
        identifiers(), identifiers() | st.lists(identifiers(), max_size=3), max_size=4
    ).filter(lambda extra: not {"verdict", "reason", "evidence_ref"} & extra.keys())
)
def test_front_matter_holds_any_text_on_its_lines_and_reads_back(extra: dict[str, Any]) -> None:
    # C-3, T-6: no value closes the front matter or starts a line of its own, and what is
    # written reads back as it was (a NEL, once, read back as a space; a long text was folded).
    fields = {"verdict": "DENY", "reason": "manual:x", "evidence_ref": "a.json", **extra}
    text = render_judgment(fields, "# Judgment\n")
    lines = text.split("\n")
    assert lines.count("---") == 2 and lines[0] == "---"
    assert lines[lines.index("---", 1) + 1] == "# Judgment"
    assert not any(mark in text for mark in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    assert [line for line in lines if line.startswith("verdict:")] == ["verdict: DENY"]
    assert parse_judgment(text, "j.md").fields == fields
