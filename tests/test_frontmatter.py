"""T-6 frame of judgment.md: front matter dumped by the YAML library and read back with lines."""

from __future__ import annotations

import pytest

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
