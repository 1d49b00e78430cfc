"""X-3, S-5: the plain-YAML reader of the bulk path answers exactly as `yaml.safe_load`, or not at
all (None: the caller falls back to the YAML library)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from tribunal.precedents.add import render_entry
from tribunal.precedents.entry import Precedent
from tribunal.precedents.parsing import parse_precedents
from tribunal.precedents.plain_yaml import KEYS, plain_mapping


def safe_load(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return "<error>"


def agrees(text: str) -> bool:
    got = plain_mapping(text)
    return got is None or got == safe_load(text)


# Characters that matter to YAML, plus letters, digits, CJK and a few unusual code points.
ALPHABET = st.sampled_from(
    list("abcXYZ_/ 09.-:#'\"\\,[]{}!&*|>%@`?=~\t\r\n\x85\u2028\ufeff東京限流é½")
)
WORDS = st.sampled_from(
    ["yes", "No", "on", "OFF", "null", "~", "true", "1", "0x1F", "1:20", "2026-01-01", ".inf",
     "a: b", "a #b", "a:", "-x", "x y", "PREC-001", "metrics/m.json#/x", "specs/s.yaml:2"]
)  # fmt: skip
SCALAR = st.one_of(st.text(ALPHABET, max_size=12), WORDS)


@st.composite
def rendered(draw: st.DrawFn) -> str:
    """A mapping of entry keys written in assorted styles, some in the subset, some not."""

    def value(text: str) -> str:
        style = draw(st.sampled_from(["plain", "double", "single"]))
        return {"plain": text, "double": f'"{text}"', "single": f"'{text}'"}[style]

    lines: list[str] = []
    keys = draw(st.lists(st.sampled_from([*sorted(KEYS), "on", "Key"]), min_size=1, max_size=5))
    for key in keys:
        shape = draw(st.sampled_from(["scalar", "list", "nested"]))
        if shape == "scalar":
            lines.append(f"{key}: {value(draw(SCALAR))}")
            continue
        lines.append(f"{key}:")
        if shape == "list":
            indent = draw(st.sampled_from(["", "  "]))
            lines.extend(f"{indent}- {value(item)}" for item in draw(st.lists(SCALAR, max_size=3)))
            continue
        for sub in draw(st.lists(st.sampled_from(sorted(KEYS)), min_size=1, max_size=3)):
            if draw(st.booleans()):
                lines.append(f"  {sub}: {value(draw(SCALAR))}")
            else:
                lines.append(f"  {sub}:")
                indent = draw(st.sampled_from(["  ", "    "]))
                items = draw(st.lists(SCALAR, max_size=3))
                lines.extend(f"{indent}- {value(item)}" for item in items)
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", "\n# c\n"]))


@given(rendered())
def test_rendered_mappings_read_as_yaml_reads_them(text: str) -> None:
    assert agrees(text)


@given(st.text(ALPHABET, max_size=80))
def test_arbitrary_text_reads_as_yaml_reads_it_or_not_at_all(text: str) -> None:
    assert agrees("case_id: " + text)
    assert agrees(text)


@given(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
    st.sampled_from(["APPROVE", "DENY"]),
)
def test_entries_written_by_add_take_the_plain_path(text: str, verdict: str) -> None:
    fields = {
        "case_id": "PREC-001",
        "verdict": verdict,
        "evidence_ref": ["a.json", "b.yaml:2"],
        "applies_to": {"domains": ["billing"], "text": text},
        "next_check": {"when": "x > 1", "text": text},
    }
    block = render_entry(fields).split("```yaml\n", 1)[1].rsplit("```", 1)[0]
    assert agrees(block)


def test_the_written_form_is_read_without_the_yaml_library() -> None:
    block = (
        "case_id: PREC-001\nverdict: DENY\nevidence_ref:\n- metrics/m.json#/silent_p0_ratio\n"
        '- specs/s.yaml:2\napplies_to:\n  domains:\n  - billing\n  tiers:\n    - "all"\n'
        "  text: rate-limit without tenant_id dedup\nnext_check:\n"
        "  when: burst_window_sec > 60\n  text: '東京 re-check'\n"
    )
    assert plain_mapping(block) == safe_load(block)
    assert plain_mapping(block) is not None


@pytest.mark.parametrize(
    "text",
    [
        "verdict: yes\n",  # a boolean in YAML 1.1
        "case_id: PREC-001\ncase_id: PREC-002\n",  # duplicate key
        "case_id: PREC-001 # a comment\n",
        "case_id: PREC-001\n\nverdict: DENY\n",  # a blank line
        "applies_to: {text: x}\n",  # flow style
        "applies_to: |\n  x\n",  # block scalar
        "applies_to: a\n  continued\n",  # a folded plain scalar
        'applies_to: "a \\" b"\n',  # an escape
        "supersedes:\n",  # null
        "colour: red\n",  # not an entry field
    ],
)
def test_anything_in_doubt_is_left_to_the_yaml_library(text: str) -> None:
    assert plain_mapping(text) is None


def test_the_bulk_parse_gives_the_strict_parse_fields() -> None:
    text = (
        "# P\n\n## PREC-001\n\n```yaml\ncase_id: PREC-001\nverdict: DENY\nevidence_ref: a.json\n"
        'applies_to:\n  modes:\n  - strict\n  text: x\nnext_check: "y"\n```\n'
    )
    bulk: list[Precedent] = parse_precedents(text, "p", strict=False).entries
    strict = parse_precedents(text, "p").entries
    assert [e.fields for e in bulk] == [e.fields for e in strict] and bulk
