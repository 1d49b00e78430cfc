"""E-5, V-2..V-4: real small models' replies, replayed through parse -> normalise -> citations.

`fixtures/live_replies.jsonl` holds replies a live-juror session collected from Qwen2.5-Coder
0.5B and SmolLM2 135M (llama-cpp-python's OpenAI-compatible server) over the blind demo's change
(`examples/blind/make_demo_repo.py`, base...fix), with the prompt variant each answered and the
example citation that prompt showed (`calc.py:1`, `def add(a, b):`; none for the baseline). Each
case says what the reply becomes here: the copied placeholders that used to be
`outside_envelope` are `placeholder`, a citation of the example never counts, and a quote of two
lines joined by a space verifies once it is not the example.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tribunal.enums import CitationReason, CitationStatus, ReasonCode, SeatVerdict
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.verdict import Verdict

REPLIES = Path(__file__).with_name("fixtures") / "live_replies.jsonl"
# The envelope those replies judged: the demo's files at `fix`.
FILES = {
    "calc.py": "def add(a, b):\n    return a + b\n\n\ndef neg(x):\n    return -x\n",
    "tests/test_neg.py": (
        "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == -2\n\n\n"
        "def test_neg_zero():\n    assert calc.neg(0) == 0\n"
    ),
}
U, PH, EX = CitationStatus.UNLOCATED, CitationReason.PLACEHOLDER, CitationReason.EXAMPLE_COPIED
V, NF = CitationStatus.VERIFIED, CitationStatus.EVIDENCE_NOT_FOUND
# The blocker finding of a malformed reply is the harness's own word, not a citation.
MALFORMED = [(CitationStatus.NOT_CHECKED, None)]
Mark = tuple[CitationStatus, CitationReason | None]

PASS, REFUSE = SeatVerdict.PASS, SeatVerdict.REFUSE
CONTRADICTORY, BAD = ReasonCode.CONTRADICTORY_PASS, ReasonCode.MALFORMED

# id -> (verdict, reason, low_information, marks of findings + checked, in that order)
EXPECTED: dict[str, tuple[SeatVerdict, ReasonCode | None, bool, list[Mark]]] = {
    # Baseline prompt: `path:line` in the protocol, copied with variations. Never outside_envelope.
    "v0-qwen-defect": (REFUSE, CONTRADICTORY, False, [(U, PH)]),  # path:calc.py
    "v0-qwen-proportion": (PASS, None, True, [(U, PH)]),  # path:line:1
    "v0-qwen-boundary_condition": (REFUSE, CONTRADICTORY, False, [(U, PH)]),  # path:line1
    "v0-qwen-state_continuity": (REFUSE, CONTRADICTORY, False, [(U, None)] * 3),  # no location
    "v0-smollm-defect": (REFUSE, BAD, False, MALFORMED),  # "lens": ["defect"]
    # Filled template, gutter: qwen cites nothing (a bare pass), smollm answers a lens list.
    "t2-qwen-defect": (PASS, None, True, []),
    "t2-smollm-defect": (REFUSE, BAD, False, MALFORMED),
    # + a grammar asking for one `checked` entry: the example's line with a longer quote.
    "t4-qwen-defect": (PASS, None, True, [(U, EX)]),
    "t4-qwen-state_continuity": (PASS, None, True, [(U, EX)]),
    "t4-smollm-proportion": (REFUSE, CONTRADICTORY, False, [(U, EX), (U, EX), (NF, None)]),
    # + a grammar pairing each file's lines with their texts: the example copied outright.
    "t9-qwen-defect": (PASS, None, True, [(U, EX)]),
    # calc.py:2 quoting the example's text is the example too; V-4 takes a quote from anywhere
    # in the cited file, so `tests/test_neg.py:2` quoting its line 4 verifies.
    "t9-smollm-defect": (REFUSE, CONTRADICTORY, False, [(U, EX), (U, EX), (U, EX), (V, None)]),
    # A filled example that was a whole valid verdict: copied whole, S-2 marks it malformed.
    "v1-qwen-defect": (REFUSE, BAD, False, MALFORMED),
    "v1-qwen-operator_consequence": (REFUSE, None, False, [(U, None)]),
}


def replies() -> list[dict[str, Any]]:
    return [json.loads(line) for line in REPLIES.read_text(encoding="utf-8").splitlines()]


def replay(case: dict[str, Any], *, with_example: bool = True) -> Verdict:
    example = ExampleCitation(*case["example"]) if case["example"] and with_example else None
    outcome = read_reply(
        case["reply"],
        lens=case["lens"],
        rung=case["model"],
        envelope=CitationSources(FILES, example=example),
        shown=case.get("shown"),
    )
    assert isinstance(outcome, Verdict), outcome
    return outcome


def marks(verdict: Verdict) -> list[Mark]:
    entries = [*verdict.findings, *verdict.checked]
    return [(entry.citation, entry.citation_reason) for entry in entries]


def test_every_fixture_has_an_expectation() -> None:
    assert [case["id"] for case in replies()] == list(EXPECTED)


@pytest.mark.parametrize("case", replies(), ids=lambda case: case["id"])
def test_what_each_real_reply_becomes(case: dict[str, Any]) -> None:
    verdict, reason, low_information, expected = EXPECTED[case["id"]]
    outcome = replay(case)
    assert (outcome.verdict, outcome.reason, outcome.low_information) == (
        verdict,
        reason,
        low_information,
    )
    assert marks(outcome) == expected


def test_a_real_reply_never_verifies_by_copying() -> None:
    for case in replies():
        outcome = replay(case)
        example = case["example"]
        for entry in [*outcome.findings, *outcome.checked]:
            if entry.citation is CitationStatus.VERIFIED:
                assert entry.location is not None
                assert example is None or not entry.location.startswith(f"{example[0]}:1")


def test_two_lines_joined_by_a_space_verify_when_not_the_example() -> None:
    # The whitespace call, on qwen's real quote: `def add(a, b): return a + b` is lines 1-2.
    case = next(case for case in replies() if case["id"] == "t4-qwen-defect")
    assert marks(replay(case, with_example=False)) == [(V, None)]
    # One character more than whitespace differs: never.
    case = next(case for case in replies() if case["id"] == "t4-qwen-state_continuity")
    assert marks(replay(case, with_example=False)) == [(NF, None)]


def test_the_malformed_ones_say_why() -> None:
    notes = {case["id"]: replay(case).note for case in replies()}
    assert notes["v0-smollm-defect"] == notes["t2-smollm-defect"] == "verdict without lens"
    assert notes["v1-qwen-defect"] == (
        "verdict copied from the envelope: the reply repeats text it was shown"
    )
