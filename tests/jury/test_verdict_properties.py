"""S-5: property tests of the verdict reader — only our own errors escape, and nothing
unparseable ever becomes a pass."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.jury.redaction import RAW_TAIL_BYTES
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.seat.record import RejectedRung
from tribunal.jury.verdict import VerdictError, parse_verdict

LENS = "defect"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
severities = st.sampled_from(["blocker", "major", "minor", "info"])
claims = st.text(min_size=1, max_size=30)
findings = st.one_of(
    st.builds(lambda s, c: {"severity": s, "claim": c}, severities, claims),
    st.builds(lambda s, c: f"[{s}] a.py:1 {c}", severities, claims.filter(lambda c: c.strip())),
)
# Prose that cannot contain a JSON object.
prose = st.text(alphabet=st.characters(blacklist_characters="{"), max_size=40)


EITHER = st.sampled_from(["pass", "refuse"])


def verdict_objects(verdict: st.SearchStrategy[Any] = EITHER) -> Any:
    return st.fixed_dictionaries(
        {"verdict": verdict, "lens": st.just(LENS), "findings": st.lists(findings, max_size=4)}
    )


def objects_in(value: Any) -> list[dict[str, Any]]:
    """Every JSON object inside `value`, itself included."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            found += objects_in(item)
    elif isinstance(value, list):
        for item in value:
            found += objects_in(item)
    return found


def is_pass(outcome: object) -> bool:
    return not isinstance(outcome, RejectedRung) and outcome.verdict is SeatVerdict.PASS  # type: ignore[attr-defined]


@given(st.text(max_size=300))
def test_only_verdict_errors_escape_the_parser(text: str) -> None:
    try:
        parse_verdict(text, lens=LENS)
    except VerdictError as error:
        assert len(error.raw_tail.encode()) <= RAW_TAIL_BYTES


@given(prose, json_values, prose)
def test_any_json_in_any_prose_lands_in_a_row(before: str, value: Any, after: str) -> None:
    text = before + json.dumps(value) + after
    outcome = read_reply(text, lens=LENS, rung="r")
    if is_pass(outcome):
        # Only an object saying exactly pass for this lens can pass.
        assert any(d.get("verdict") == "pass" and d.get("lens") == LENS for d in objects_in(value))


@given(st.dictionaries(st.text(max_size=10), json_values, max_size=5), json_values, json_values)
def test_a_verdict_not_exactly_pass_never_passes(
    extra: dict[str, Any], verdict: Any, lens: Any
) -> None:
    assume(verdict != "pass")
    text = json.dumps({**extra, "verdict": verdict, "lens": lens})
    assert not is_pass(read_reply(text, lens=LENS, rung="r"))


@given(verdict_objects(), st.data())
def test_a_cut_reply_never_passes(obj: dict[str, Any], data: st.DataObject) -> None:
    text = json.dumps(obj)
    cut = data.draw(st.integers(min_value=0, max_value=len(text) - 1))
    outcome = read_reply(text[:cut], lens=LENS, rung="r")
    assert not is_pass(outcome)


@given(prose, verdict_objects(), prose, st.booleans())
def test_a_pass_is_a_pass_exactly_when_it_lists_nothing_serious(
    before: str, obj: dict[str, Any], after: str, fenced: bool
) -> None:
    body = json.dumps(obj, indent=2 if fenced else None)
    text = f"{before}\n```json\n{body}\n```\n{after}" if fenced else before + body + after
    outcome = read_reply(text, lens=LENS, rung="r")
    serious = any(
        (f["severity"] if isinstance(f, dict) else f[1:].split("]")[0]) in ("blocker", "major")
        for f in obj["findings"]
    )
    assert is_pass(outcome) == (obj["verdict"] == "pass" and not serious)


@given(verdict_objects(st.just("pass")), prose, verdict_objects(st.just("refuse")), st.booleans())
def test_a_pass_and_a_refuse_in_one_reply_are_malformed(
    passing: dict[str, Any], between: str, refusing: dict[str, Any], pass_first: bool
) -> None:
    """V-2: whichever comes last, a reply that says both is contradictory: malformed."""
    first, last = (passing, refusing) if pass_first else (refusing, passing)
    outcome = read_reply(json.dumps(first) + between + json.dumps(last), lens=LENS, rung="r")
    assert not isinstance(outcome, RejectedRung)
    assert outcome.verdict is SeatVerdict.REFUSE
    assert outcome.reason is ReasonCode.MALFORMED
