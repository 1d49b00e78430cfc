"""R-2: precedents.md in its written form and the tutorial's list form; every malformed case
names its line; prose is kept; S-5: only our own errors escape the parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribunal.enums import PrecedentForm
from tribunal.errors import TribunalError
from tribunal.precedents.entry import format_id, id_problem, parse_id
from tribunal.precedents.parsing import parse_precedents

ENTRY = """## {id}

```yaml
case_id: {id}
verdict: DENY
evidence_ref: tests/a.json
applies_to: "rate-limit without tenant_id dedup"
next_check: "burst_window_sec rises above 60"
```
"""

WRITTEN = (
    "# Precedents\n\nWhy this file exists.\n\n"
    + ENTRY.format(id="PREC-001")
    + "\nProse between sections.\n\n"
    + ENTRY.format(id="PREC-002")
)

TUTORIAL = """Übertragen Sie einen wiederholenden Konflikt:

   - case_id: "PREC-001"
     verdict: "DENY"
     evidence_ref: "tests/regression_001.json"
     applies_to: "auto-remediation ohne vollständigen audit_trace"
     next_check: "Duell wiederholen bei Änderung von manual_review_floor"

*Erwartung: der nächste analoge Streit wird durch Verweis auf PREC-001 gelöst.*

```yaml
- case_id: PREC-021
  verdict: DENY
  evidence_ref: "tests/rate_limit_tenant_isolation.json"
  applies_to: "rate-limit ohne Deduplizierung von tenant_id, alle Tiers"
  next_check: "burst_window_sec steigt über 60"
- case_id: PREC-022
  verdict: APPROVE
  evidence_ref: [a.json, b.json]
  applies_to: {domains: [billing], tiers: all, text: "scoped"}
  next_check: {when: "burst_window_sec > 60", text: "re-run the duel"}
```
"""


@pytest.mark.parametrize("strict", [True, False])
def test_written_form(strict: bool) -> None:
    parsed = parse_precedents(WRITTEN, "precedents.md", strict=strict)
    assert parsed.problems == []
    assert [e.case_id for e in parsed.entries] == ["PREC-001", "PREC-002"]
    first = parsed.entries[0]
    assert first.form is PrecedentForm.SECTION
    assert (first.line, first.id_line) == (5, 8)
    raw = WRITTEN.encode()
    assert raw[first.span[0] : first.span[1]] == ENTRY.format(id="PREC-001").encode()
    # Prose is everything outside the spans, and it is kept byte for byte.
    prose = raw[: first.span[0]] + raw[first.span[1] : parsed.entries[1].span[0]]
    assert prose == b"# Precedents\n\nWhy this file exists.\n\n\nProse between sections.\n\n"
    assert parsed.highest == 2


@pytest.mark.parametrize("strict", [True, False])
def test_tutorial_list_form_bare_and_fenced(strict: bool) -> None:
    parsed = parse_precedents(TUTORIAL, "capstone/precedents.md", strict=strict)
    assert parsed.problems == []
    assert [(e.case_id, e.form, e.line) for e in parsed.entries] == [
        ("PREC-001", PrecedentForm.LIST_ITEM, 3),
        ("PREC-021", PrecedentForm.LIST_ITEM, 12),
        ("PREC-022", PrecedentForm.LIST_ITEM, 17),
    ]
    bare = parsed.entries[0]
    assert TUTORIAL.encode()[bare.span[0] : bare.span[1]].decode().endswith('floor"\n')
    scoped = parsed.entries[2]
    assert scoped.scope("domains") == ["billing"] and scoped.scope("tiers") == ["all"]
    assert scoped.scope("modes") is None
    assert scoped.next_check_when == "burst_window_sec > 60"
    assert scoped.evidence_refs == ["a.json", "b.json"]


def _section(body: str, heading: str = "PREC-001") -> str:
    return f"# P\n\n## {heading}\n\n```yaml\n{body}```\n"


GOOD = "case_id: PREC-001\nverdict: DENY\nevidence_ref: a.json\napplies_to: x\nnext_check: y\n"


ITEM = "- " + GOOD.replace("\n", "\n  ").rstrip(" ")


ITEM = "- " + GOOD.replace("\n", "\n  ").rstrip(" ")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_section(GOOD + "colour: red\n"), 11, "unknown field 'colour'"),
        (_section(GOOD, heading="PREC-002"), 6, "disagrees with the heading PREC-002 (line 3)"),
        (_section(GOOD.replace("DENY", "MAYBE")), 7, "verdict: 'MAYBE' is not one of"),
        (_section(GOOD.replace("verdict: DENY\n", "")), 3, "'verdict' is required"),
        (_section(GOOD + "next_check: z\n"), 11, "duplicate key"),
        (_section(GOOD.replace("a.json", "[a.json")), 9, "malformed YAML"),
        (
            _section(GOOD.replace("x\n", "{tiers: [t], planet: mars}\n")),
            9,
            "applies_to: unknown field 'planet'",
        ),
        (_section(GOOD.replace("y\n", "{when: a > 1}\n")), 10, "next_check"),
        (_section(GOOD.replace("a.json", "[]")), 8, "evidence_ref"),
        (_section(GOOD + "supersedes: PREC-1\n"), 11, "supersedes: 'PREC-1' is not a preced"),
        (_section(GOOD + "supersedes: PREC-001\n"), 11, "cannot supersede itself"),
        (_section(GOOD, heading="PREC-01"), 3, "heading: 'PREC-01' is not a precedent ID"),
        (_section(GOOD, heading="PREC-0001"), 3, "PREC-0001 is not canonical: write PREC-001"),
        (_section(GOOD.replace("001", "000"), heading="PREC-000"), 3, "numbers start at"),
        ("## PREC-001\n\nno block\n\n## Other\n", 1, "no fenced yaml block"),
        ("## PREC-001\n\n```yaml\n" + GOOD, 3, "not closed"),
        (_section("- just\n- a list\n"), 3, "an entry is a mapping"),
        ("- case_id: PREC-007\n  verdict: DENY\n", 1, "'evidence_ref' is required"),
    ],
)
@pytest.mark.parametrize("strict", [True, False])
def test_malformed_entries_name_their_line(
    text: str, line: int, message: str, strict: bool
) -> None:
    parsed = parse_precedents(text, "precedents.md", strict=strict)
    assert parsed.entries == []
    assert [(p.line, message in str(p)) for p in parsed.problems][:1] == [(line, True)], [
        str(p) for p in parsed.problems
    ]
    assert str(parsed.problems[0]).startswith(f"precedents.md:{line}: ")
    with pytest.raises(TribunalError):
        parsed.require_clean()


@pytest.mark.parametrize("strict", [True, False])
def test_heading_then_the_tutorial_item(strict: bool) -> None:
    text = "## PREC-003\n\n" + ITEM.replace("001", "003") + "\nProse.\n"
    parsed = parse_precedents(text, "p.md", strict=strict)
    assert parsed.problems == []
    (entry,) = parsed.entries
    assert (entry.form, entry.line, entry.id_line) == (PrecedentForm.SECTION, 1, 3)
    assert text.encode()[entry.span[0] : entry.span[1]].endswith(b"next_check: y\n")
    mismatch = parse_precedents(text.replace("## PREC-003", "## PREC-004"), "p.md")
    assert "disagrees with the heading PREC-004" in str(mismatch.problems[0])


def test_stray_text_in_a_list_block() -> None:
    parsed = parse_precedents("```yaml\n" + ITEM + "stray: 1\n```\n", "p.md")
    assert [e.case_id for e in parsed.entries] == ["PREC-001"]
    assert [str(p) for p in parsed.problems] == ["p.md:7: expected a list item '- case_id: ...'"]


def test_duplicates_name_both_lines() -> None:
    text = ENTRY.format(id="PREC-001") + "\n" + ENTRY.format(id="PREC-001")
    parsed = parse_precedents(text, "p.md")
    assert parsed.problems == []
    (duplicate,) = parsed.duplicate_problems()
    assert str(duplicate).startswith("p.md:11: duplicate precedent ID PREC-001 (lines 1, 11)")


def test_ids() -> None:
    assert [format_id(n) for n in (1, 999, 1000)] == ["PREC-001", "PREC-999", "PREC-1000"]
    assert parse_id("PREC-1000") == 1000 and parse_id("PREC-0999") is None
    assert id_problem("PREC-007") is None


def test_prose_yaml_and_other_fences_are_prose() -> None:
    text = "```yaml\nkey: value\n```\n\n```python\n- case_id: PREC-001\n```\n"
    parsed = parse_precedents(text, "p.md")
    assert (parsed.entries, parsed.problems) == ([], [])


FIELD = st.sampled_from(
    ["case_id", "verdict", "evidence_ref", "applies_to", "next_check", "supersedes", "x"]
)
VALUE = st.one_of(
    st.sampled_from(["PREC-001", "PREC-01", "DENY", "APPROVE", "a.json", "[a, b]", "{when: x}"]),
    st.text(max_size=12),
)
LINE = st.one_of(
    st.sampled_from(
        [
            "## PREC-001",
            "## PREC-1000",
            "```yaml",
            "```",
            "~~~",
            "- case_id: PREC-002",
            "  verdict: DENY",
            "",
            "# title",
            "## other",
        ]
    ),
    st.builds(lambda k, v: f"{k}: {v}", FIELD, VALUE),
    st.builds(lambda k, v: f"  {k}: {v}", FIELD, VALUE),
    st.text(max_size=20),
)


@given(st.lists(LINE, max_size=30), st.booleans())
def test_only_our_errors_escape(lines: list[str], strict: bool) -> None:
    """S-5: whatever the text, the parser returns problems; nothing else escapes."""
    text = "\n".join(lines)
    parsed = parse_precedents(text, "p.md", strict=strict)
    raw = text.encode()
    for entry in parsed.entries:
        assert 0 <= entry.span[0] < entry.span[1] <= len(raw)
        assert parse_id(entry.case_id) == entry.number
    for problem in parsed.problems:
        assert isinstance(problem, TribunalError) and problem.line is not None
    parsed.duplicate_problems()


@given(st.text(max_size=200), st.booleans())
def test_arbitrary_text(text: str, strict: bool) -> None:
    parse_precedents(text, "p.md", strict=strict)


TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from(["東", "\t", "#", ":"]),
    min_size=1,
    max_size=30,
).filter(str.strip)
SCALARS = st.one_of(
    TEXT,
    st.sampled_from(
        [
            "yes",
            "no",
            "null",
            "1_000",
            "0o17",
            "2020-01-01",
            "~",
            "'q'",
            '"q"',
            "- x",
            "[a]",
            "{a: b}",
            "&a",
            "*a",
        ]
    ),
)


@given(
    applies=st.one_of(
        SCALARS,
        st.fixed_dictionaries(
            {"text": SCALARS}, optional={"domains": st.lists(SCALARS, min_size=1, max_size=3)}
        ),
    ),
    check=st.one_of(SCALARS, st.fixed_dictionaries({"when": SCALARS, "text": SCALARS})),
    refs=st.one_of(SCALARS, st.lists(SCALARS, min_size=1, max_size=3)),
    strict=st.booleans(),
)
def test_rendered_entries_read_back_exactly(
    applies: object, check: object, refs: object, strict: bool
) -> None:
    """R-3: what `precedent add` writes reads back field for field, on both parse paths."""
    from tribunal.precedents.add import render_entry

    fields = {
        "case_id": "PREC-042",
        "verdict": "DEFERRED",
        "evidence_ref": refs,
        "applies_to": applies,
        "next_check": check,
    }
    parsed = parse_precedents("# P\n\n" + render_entry(fields), "p.md", strict=strict)
    assert parsed.problems == []
    assert [entry.fields for entry in parsed.entries] == [fields]


NEAR = st.one_of(
    st.none(),
    st.integers(),
    st.booleans(),
    st.sampled_from(["", "PREC-001", "PREC-01", "PREC-0001", "PREC-000", "DENY", "MAYBE", "x"]),
    st.lists(st.sampled_from(["", "a", "PREC-002"]), max_size=2),
    st.dictionaries(
        st.sampled_from(["domains", "tiers", "modes", "text", "when", "other"]),
        st.one_of(
            st.sampled_from(["", "a"]),
            st.lists(st.sampled_from(["", "a"]), max_size=2),
            st.integers(),
        ),
        max_size=3,
    ),
)
ENTRY_DATA = st.dictionaries(
    st.sampled_from(
        ["case_id", "verdict", "evidence_ref", "applies_to", "next_check", "supersedes", "other"]
    ),
    NEAR,
    max_size=7,
)
GOOD_DATA = st.fixed_dictionaries(
    {
        "case_id": st.sampled_from(["PREC-001", "PREC-1000"]),
        "verdict": st.sampled_from(["APPROVE", "DENY", "DEFERRED"]),
        "evidence_ref": st.one_of(st.just("a.json"), st.lists(st.just("b:2"), min_size=1)),
        "applies_to": st.one_of(st.just("x"), st.just({"domains": ["d"], "text": "t"})),
        "next_check": st.one_of(st.just("y"), st.just({"when": "a > 1", "text": "t"})),
    },
    optional={"supersedes": st.just("PREC-002")},
)


@given(st.one_of(ENTRY_DATA, GOOD_DATA))
def test_bulk_check_never_accepts_what_the_schema_refuses(data: dict[str, object]) -> None:
    """The bulk path's check may only be stricter than the schema (and must pass good entries)."""
    from tribunal.precedents.entry import parse_id, plainly_valid
    from tribunal.schemas import validator_for

    schema_ok = validator_for("precedent").is_valid(data)
    canonical = all(
        parse_id(data[key]) is not None  # type: ignore[arg-type]
        for key in ("case_id", "supersedes")
        if isinstance(data.get(key), str)
    )
    if plainly_valid(data):
        assert schema_ok and canonical
    elif schema_ok and canonical and set(data) <= {*GOOD_KEYS}:
        raise AssertionError(f"refused a good entry: {data}")


GOOD_KEYS = ("case_id", "verdict", "evidence_ref", "applies_to", "next_check", "supersedes")


ENTRY_LIKE = (
    ENTRY.format(id="PREC-001")
    + "\n### PREC-004\n\n```yaml\n"
    + ENTRY.format(id="PREC-004").split("```yaml\n")[1]
    + "\n```yaml\ncase_id: PREC-005\nverdict: DENY\nevidence_ref: /etc/hosts\nowner: x\n```\n"
    + "\ncase_id: PREC-006\nverdict: APPROVE\n"
    + "\n# PREC-007\n\nprose\n"
)


@pytest.mark.parametrize("strict", [True, False])
def test_entry_like_text_in_no_recognised_form_is_a_problem(strict: bool) -> None:
    """R-2: what looks like an entry but is in no recognised form is a problem naming its line
    (not silently prose), and R-3: allocation never hands out one of its IDs."""
    parsed = parse_precedents(ENTRY_LIKE, "p.md", strict=strict)
    assert [e.case_id for e in parsed.entries] == ["PREC-001"]
    assert [(p.line, p.message.split(";")[0]) for p in parsed.problems] == [
        (11, "heading: PREC-004 is a level-3 heading"),
        (22, "a fenced yaml block holding case_id outside an entry"),
        (28, "a YAML mapping holding case_id outside an entry"),
        (31, "heading: PREC-007 is a level-1 heading"),
    ]
    assert parsed.highest == 7


@pytest.mark.parametrize("strict", [True, False])
def test_entries_with_problems_still_count_for_allocation(strict: bool) -> None:
    text = (
        ENTRY.format(id="PREC-001")
        + "\n"
        + ENTRY.format(id="PREC-009").replace("verdict: DENY", "verdict: MAYBE")
    )
    parsed = parse_precedents(text, "p.md", strict=strict)
    assert [e.case_id for e in parsed.entries] == ["PREC-001"] and parsed.problems
    assert parsed.highest == 9


def test_headings_and_examples_that_are_no_entries_stay_prose() -> None:
    text = (
        ENTRY.format(id="PREC-001")
        + "\n### Discussion of PREC-001\n\n# PREC-ish notes\n\n```yaml\nkey: value\n```\n"
        + "\nThe `case_id: PREC-001` field names it.\n"
    )
    parsed = parse_precedents(text, "p.md")
    assert ([e.case_id for e in parsed.entries], parsed.problems) == (["PREC-001"], [])


def test_an_alias_bomb_in_an_entry_is_a_problem_on_both_paths() -> None:
    """C-5, S-5: anchors and aliases are refused on the bulk path as on the strict one, so a
    nested-alias entry is a problem at once, never an exponential expansion."""
    bomb = "\n".join(
        ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    )
    text = (
        "## PREC-001\n\n```yaml\ncase_id: PREC-001\nverdict: DENY\nevidence_ref: x.json\n"
        f"applies_to: a\nnext_check: b\n{bomb}\n```\n"
    )
    for strict in (True, False):
        parsed = parse_precedents(text, "precedents.md", strict=strict)
        assert parsed.problems, strict
        assert "anchors and aliases are not accepted" in str(parsed.problems[0])
