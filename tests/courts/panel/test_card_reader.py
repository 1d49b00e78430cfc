"""P-4, P-2, L-6, V-2: a panel member's reply is read as a scorecard, fail closed."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest

from tribunal.courts.panel import (
    CardFault,
    CommandEvidence,
    FailureScenario,
    Finding,
    MalformedCard,
    QuoteEvidence,
    Recommendation,
    ScenarioKind,
    Score,
    Scorecard,
    ScorecardPhase,
    Severity,
    read_card,
)
from tribunal.enums import ReasonCode
from tribunal.jury.redaction import RAW_TAIL_BYTES
from tribunal.jury.reply_objects import MAX_REPLY_BYTES
from tribunal.jury.seat.record import RejectedRung

DIMENSIONS = ("correctness", "robustness")
QUOTE = {"quote": "if now - start > window:", "location": "limiter.py:14"}
COMMAND = {"command": "python -m pytest -q tests/test_limiter.py", "output": "3 passed"}
SCENARIO = {
    "input": "a burst straddling the window edge",
    "wrong_behaviour": "the window start never advances, so it passes twice the limit",
    "kind": "correctness",
    "location": "limiter.py:14",
    "quote": "if now - start > window:",
}
FINDING = {
    "severity": "major",
    "claim": "the window never advances",
    "location": "limiter.py:14",
    "quote": "if now - start > window:",
    "fix": "advance start when the window passes",
    "structural": False,
}
# P-4's own example, over two dimensions.
CARD: dict[str, Any] = {
    "lens": "adversary",
    "round": 1,
    "phase": "score",
    "scores": {
        "correctness": {"score": 7, "confidence": 0.8, "evidence": [QUOTE, COMMAND]},
        "robustness": {"score": 3, "confidence": 0.65, "evidence": [COMMAND]},
    },
    "failure_scenarios": [SCENARIO],
    "findings": [FINDING],
    "top_concern": "the window edge",
    "recommendation": "ITERATE",
    "escalation": None,
}


def reply(*objects: Any) -> str:
    return "\n".join(json.dumps(obj) for obj in objects)


def read(
    text: str,
    *,
    lens: str = "adversary",
    adversary: bool | None = None,
    phase: ScorecardPhase = ScorecardPhase.SCORE,
    **options: Any,
) -> Scorecard | MalformedCard | RejectedRung:
    return read_card(
        text,
        lens=lens,
        round=1,
        phase=phase,
        dimensions=DIMENSIONS,
        rung="openai/gpt-mini-x",
        adversary=lens == "adversary" if adversary is None else adversary,
        **options,
    )


def card_of(text: str, **options: Any) -> Scorecard:
    outcome = read(text, **options)
    assert isinstance(outcome, Scorecard), outcome
    return outcome


def malformed_of(text: str, **options: Any) -> MalformedCard:
    outcome = read(text, **options)
    assert isinstance(outcome, MalformedCard), outcome
    return outcome


def changed(path: tuple[str | int, ...], value: Any, card: dict[str, Any] = CARD) -> dict[str, Any]:
    """A copy of `card` with the value at `path` replaced (`...` removes it)."""
    edited = copy.deepcopy(card)
    target: Any = edited
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return edited


# -- a good card -------------------------------------------------------------------------------


def test_a_good_card_with_both_evidence_forms_is_read_whole() -> None:
    card = card_of(reply(CARD))
    assert card == Scorecard(
        lens="adversary",
        round=1,
        phase=ScorecardPhase.SCORE,
        scores={
            "correctness": Score(
                7,
                Fraction(4, 5),
                (
                    QuoteEvidence("if now - start > window:", "limiter.py:14"),
                    CommandEvidence("python -m pytest -q tests/test_limiter.py", "3 passed"),
                ),
            ),
            "robustness": Score(
                3,
                Fraction(13, 20),
                (CommandEvidence("python -m pytest -q tests/test_limiter.py", "3 passed"),),
            ),
        },
        recommendation=Recommendation.ITERATE,
        failure_scenarios=(
            FailureScenario(
                input="a burst straddling the window edge",
                wrong_behaviour="the window start never advances, so it passes twice the limit",
                kind=ScenarioKind.CORRECTNESS,
                location="limiter.py:14",
                quote="if now - start > window:",
            ),
        ),
        findings=(
            Finding(
                severity=Severity.MAJOR,
                claim="the window never advances",
                location="limiter.py:14",
                quote="if now - start > window:",
                fix="advance start when the window passes",
                structural=False,
            ),
        ),
        top_concern="the window edge",
        escalation=None,
    )


def test_a_confidence_is_read_as_the_decimal_written_never_the_binary_double() -> None:
    card = card_of(reply(changed(("scores", "correctness", "confidence"), 0.1)))
    assert card.scores["correctness"].confidence == Fraction(1, 10)
    assert card_of(reply(CARD)).scores["correctness"].confidence == Fraction(4, 5)
    for written, read_as in ((0, Fraction(0)), (1, Fraction(1)), (0.333, Fraction(333, 1000))):
        edited = changed(("scores", "robustness", "confidence"), written)
        assert card_of(reply(edited)).scores["robustness"].confidence == read_as


def test_a_fenced_card_with_prose_around_it_is_read() -> None:
    text = "My card:\n```json\n" + json.dumps(CARD, indent=2) + "\n```\nThat is all."
    assert card_of(text).scores["correctness"].score == 7


def test_evidence_may_be_a_quote_alone_or_a_location_alone_or_none_at_all() -> None:
    evidence = [
        {"quote": "x = 1"},
        {"location": "limiter.py:2"},
        {"quote": None, "location": "a:1"},
    ]
    card = card_of(reply(changed(("scores", "correctness", "evidence"), evidence)))
    assert card.scores["correctness"].evidence == (
        QuoteEvidence("x = 1"),
        QuoteEvidence(None, "limiter.py:2"),
        QuoteEvidence(None, "a:1"),
    )
    for nothing in (None, []):
        edited = changed(("scores", "robustness", "evidence"), nothing)
        assert card_of(reply(edited)).scores["robustness"].evidence == ()
    edited = changed(("scores", "robustness", "evidence"), ...)
    assert card_of(reply(edited)).scores["robustness"].evidence == ()


def test_absent_or_null_lists_and_texts_are_empty() -> None:
    bare = {key: CARD[key] for key in ("lens", "round", "phase", "scores", "recommendation")}
    card = card_of(reply(bare), adversary=False)
    assert (card.failure_scenarios, card.findings, card.top_concern) == ((), (), "")
    assert card.escalation is None
    nulls = {**bare, "failure_scenarios": None, "findings": None, "top_concern": None}
    assert card_of(reply(nulls), adversary=False) == card


def test_a_finding_s_fix_is_text_or_null_and_structural_defaults_to_false() -> None:
    finding = {"severity": "minor", "claim": "the name is vague"}
    card = card_of(reply(changed(("findings",), [finding])))
    assert card.findings == (Finding(Severity.MINOR, "the name is vague"),)
    assert card.findings[0].fix is None and card.findings[0].structural is False
    structural = {**finding, "fix": None, "structural": True}
    assert card_of(reply(changed(("findings",), [structural]))).findings[0].structural is True


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        (None, None),
        ("", None),
        ("  ", None),
        ("ESCALATE: the limiter drops every request after midnight", "the limiter drops every "
         "request after midnight"),
        ("the limiter drops every request", "the limiter drops every request"),
        ("escalate:  a safety concern ", "a safety concern"),
        ("ESCALATE", "ESCALATE"),
        ("ESCALATE:", "ESCALATE:"),
    ],
)  # fmt: skip
def test_an_escalation_keeps_its_reason_with_or_without_the_prefix(
    written: str | None, reason: str | None
) -> None:
    card = card_of(reply(changed(("escalation",), written)))
    assert card.escalation == reason
    assert card.escalates == reason


def test_case_is_forgiven_in_the_closed_vocabularies_only() -> None:
    edited = changed(("recommendation",), "ship_with_caveats")
    edited = changed(("findings", 0, "severity"), "MAJOR", edited)
    edited = changed(("failure_scenarios", 0, "kind"), "Safety", edited)
    card = card_of(reply(edited))
    assert card.recommendation is Recommendation.SHIP_WITH_CAVEATS
    assert card.findings[0].severity is Severity.MAJOR
    assert card.failure_scenarios[0].kind is ScenarioKind.SAFETY


def test_fields_a_model_adds_are_ignored_outside_evidence() -> None:
    edited = {**CARD, "notes": "extra", "confidence": "high"}
    edited = changed(("findings", 0, "why"), "because", edited)
    assert card_of(reply(edited)) == card_of(reply(CARD))


def test_the_last_card_wins_when_the_cards_say_the_same() -> None:
    restated = changed(("scores", "correctness", "evidence"), [QUOTE])
    restated = changed(("findings",), [], restated)
    card = card_of(reply(CARD) + "\nOn reflection:\n" + reply(restated) + '\n{"note": "done"}')
    assert card.scores["correctness"].evidence == (QuoteEvidence(**QUOTE),)
    assert card.findings == ()


def test_a_card_nested_in_another_object_is_not_a_card_of_its_own() -> None:
    outcome = malformed_of(reply({"answer": CARD}))
    assert outcome.detail == 'no JSON object carrying "scores" in the reply'


def test_a_synthesis_card_is_read_for_the_synthesis_phase() -> None:
    card = card_of(reply({**CARD, "phase": "synthesis"}), phase=ScorecardPhase.SYNTHESIS)
    assert card.phase is ScorecardPhase.SYNTHESIS


# -- malformed, case by case -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("", 'no JSON object carrying "scores" in the reply'),
        ("I'm sorry, but I can't help with that.", 'no JSON object carrying "scores"'),
        ('{"lens": "adversary", "scores": {', 'no JSON object carrying "scores"'),
        ("{'lens': 'adversary', 'scores': {}}", 'no JSON object carrying "scores"'),
        (reply({k: v for k, v in CARD.items() if k != "scores"}), 'carrying "scores"'),
        ('{"lens": "adversary", "scores": {}, "scores": {}}', 'duplicate key "scores"'),
    ],
    ids=["empty", "refusal", "cut-off", "not-json", "no-scores", "duplicate-key"],
)
def test_no_card_json_is_malformed(text: str, detail: str) -> None:
    outcome = malformed_of(text)
    assert detail in outcome.detail
    assert outcome.reason == CardFault.MALFORMED == "malformed"
    assert outcome.claim == "malformed scorecard from openai/gpt-mini-x"


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    # a dimension missing, or one the criteria do not have
    (
        "missing-dimension",
        changed(("scores", "robustness"), ...),
        'scores: no score for dimension "robustness"',
    ),
    (
        "unknown-dimension",
        changed(("scores", "speed"), CARD["scores"]["robustness"]),
        'scores: "speed" is not a dimension of the criteria',
    ),
    ("scores-not-an-object", changed(("scores",), [7, 3]), "scores: [7, 3] is not of type"),
    ("score-entry-not-an-object", changed(("scores", "robustness"), 3), "scores.robustness: 3"),
    # a score that is not a whole number 1-10
    ("score-0", changed(("scores", "robustness", "score"), 0), "scores.robustness.score: 0 is"),
    ("score-11", changed(("scores", "robustness", "score"), 11), "scores.robustness.score: 11"),
    (
        "score-float",
        changed(("scores", "robustness", "score"), 3.0),
        "scores.robustness.score: a score is an integer, got 3.0",
    ),
    ("score-bool", changed(("scores", "robustness", "score"), True), "score: True is not of type"),
    ("score-text", changed(("scores", "robustness", "score"), "3"), "score: '3' is not of type"),
    ("score-missing", changed(("scores", "robustness", "score"), ...), "'score' is required"),
    # a confidence that is not a number in [0, 1]
    ("confidence-above-1", changed(("scores", "correctness", "confidence"), 1.01), "maximum"),
    ("confidence-below-0", changed(("scores", "correctness", "confidence"), -0.1), "minimum"),
    ("confidence-text", changed(("scores", "correctness", "confidence"), "0.8"), "of type"),
    ("confidence-bool", changed(("scores", "correctness", "confidence"), False), "of type"),
    ("confidence-missing", changed(("scores", "correctness", "confidence"), ...), "required"),
    # severities, kinds and recommendations outside their vocabularies
    ("severity", changed(("findings", 0, "severity"), "critical"), "findings[0].severity:"),
    ("claim-missing", changed(("findings", 0, "claim"), ...), "'claim' is required"),
    ("structural-text", changed(("findings", 0, "structural"), "no"), "findings[0].structural"),
    ("fix-number", changed(("findings", 0, "fix"), 1), "findings[0].fix: 1 is not of type"),
    ("kind", changed(("failure_scenarios", 0, "kind"), "performance"), "[0].kind: 'performance'"),
    ("scenario-no-input", changed(("failure_scenarios", 0, "input"), ""), "[0].input: '' should"),
    ("recommendation", changed(("recommendation",), "ESCALATE"), "recommendation: 'ESCALATE'"),
    ("recommendation-missing", changed(("recommendation",), ...), "'recommendation' is required"),
    ("findings-not-a-list", changed(("findings",), "none"), "findings: 'none' is not of type"),
    ("escalation-not-text", changed(("escalation",), True), "escalation: True is not of type"),
    ("top-concern-not-text", changed(("top_concern",), ["a"]), "top_concern: ['a'] is not"),
    # a round or phase other than the ones asked
    ("round-2", changed(("round",), 2), "round: the card is for round 2, this is round 1"),
    ("round-float", changed(("round",), 1.0), "round: 1.0 is not a whole number"),
    ("round-text", changed(("round",), "1"), "round: '1' is not of type 'integer'"),
    ("round-missing", changed(("round",), ...), "'round' is required"),
    (
        "phase",
        changed(("phase",), "synthesis"),
        "phase: the card is for the synthesis phase, this is the score phase",
    ),
    ("phase-unknown", changed(("phase",), "final"), "phase: 'final' is not one of"),
    ("phase-missing", changed(("phase",), ...), "'phase' is required"),
    # evidence that is neither {quote, location} nor {command, output}
    ("evidence-text", changed(("scores", "robustness", "evidence"), ["a.py:1"]), "not of type"),
    ("evidence-empty", changed(("scores", "robustness", "evidence"), [{}]), "should be non-empty"),
    (
        "evidence-blank",
        changed(("scores", "robustness", "evidence"), [{"quote": " ", "location": None}]),
        "scores.robustness.evidence[0]: evidence needs a quote or a location",
    ),
    (
        "evidence-other-key",
        changed(("scores", "robustness", "evidence"), [{"quote": "x", "line": 3}]),
        "scores.robustness.evidence[0].line: unknown field 'line'",
    ),
    (
        "evidence-mixed",
        changed(("scores", "robustness", "evidence"), [{**QUOTE, "output": "3 passed"}]),
        "scores.robustness.evidence[0]: 'command' is required",
    ),
    (
        "evidence-no-output",
        changed(("scores", "robustness", "evidence"), [{"command": "pytest"}]),
        "'output' is required",
    ),
    (
        "evidence-empty-output",
        changed(("scores", "robustness", "evidence"), [{"command": "pytest", "output": ""}]),
        "evidence[0].output: '' should be non-empty",
    ),
    (
        "evidence-not-a-list",
        changed(("scores", "robustness", "evidence"), QUOTE),
        "scores.robustness.evidence: ",
    ),
    # no lens to judge it by
    ("lens-missing", changed(("lens",), ...), "scorecard without lens"),
    ("lens-empty", changed(("lens",), ""), "scorecard without lens"),
    ("lens-list", changed(("lens",), ["adversary"]), 'lens: ["adversary"] is not one lens id'),
]


@pytest.mark.parametrize(
    ("card", "detail"),
    [(card, detail) for _, card, detail in MALFORMED],
    ids=[name for name, _, _ in MALFORMED],
)
def test_a_card_that_is_not_the_shape_is_malformed(card: dict[str, Any], detail: str) -> None:
    assert reply(card) != reply(CARD)
    outcome = malformed_of(reply(card))
    assert detail in outcome.detail, outcome.detail
    assert outcome.reason == CardFault.MALFORMED
    assert (outcome.lens, outcome.rung, outcome.phase) == (
        "adversary",
        "openai/gpt-mini-x",
        ScorecardPhase.SCORE,
    )
    assert outcome.raw_tail == reply(card)


def test_a_non_finite_confidence_is_malformed() -> None:
    for written in ("NaN", "Infinity", "-Infinity"):
        text = reply(CARD).replace('"confidence": 0.8', f'"confidence": {written}')
        assert "not a finite number" in malformed_of(text).detail


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("scores", "robustness", "score"), 'score "robustness" both'),
        (("scores", "robustness", "confidence"), 'score "robustness" both'),
        (("recommendation",), 'both recommendation "ITERATE" and'),
        (("escalation",), "both escalation null and"),
        (("round",), "both round 1 and"),
        (("phase",), 'both phase "score" and'),
    ],
)
def test_card_objects_that_disagree_are_malformed_never_the_last_ones_word(
    change: tuple[str, ...], words: str
) -> None:
    values = {"score": 4, "confidence": 0.9, "recommendation": "SHIP", "escalation": "x"}
    other = changed(change, values.get(change[-1], 2 if change[-1] == "round" else "synthesis"))
    for objects in ((CARD, other), (other, CARD)):
        outcome = malformed_of(reply(*objects))
        assert outcome.detail.startswith("contradictory reply: scorecard objects ")
    assert words in malformed_of(reply(CARD, other)).detail


def test_cards_for_two_lenses_in_one_reply_are_contradictory() -> None:
    outcome = malformed_of(reply({**CARD, "lens": "quality"}, CARD))
    assert outcome.detail == (
        'contradictory reply: scorecard objects say both lens "quality" and "adversary"'
    )


def test_a_card_copied_from_the_prompt_is_malformed() -> None:
    example = json.dumps(CARD)
    prompt = f"Answer with one JSON object like this one:\n```json\n{example}\n```\n"
    outcome = malformed_of("Here it is: " + example, shown=prompt)
    assert outcome.detail == (
        "scorecard copied from the prompt: the reply repeats text it was shown"
    )
    # The member's own card, close to the example but not a copy of it, is its card.
    own = changed(("scores", "robustness", "score"), 4)
    assert card_of(reply(own), shown=prompt).scores["robustness"].score == 4


def test_a_reply_over_one_mib_is_malformed_without_reading_it() -> None:
    outcome = malformed_of(reply(CARD) + " " * MAX_REPLY_BYTES)
    assert outcome.detail == f"reply over {MAX_REPLY_BYTES} bytes"
    assert outcome.raw_tail is not None and len(outcome.raw_tail.encode()) <= RAW_TAIL_BYTES


def test_a_malformed_card_keeps_a_bounded_tail_and_redacts_secrets() -> None:
    key = "sk-live-0123456789"
    text = "x" * 5000 + reply(changed(("scores", key), CARD["scores"]["robustness"]))
    outcome = malformed_of(text, secrets=[key])
    assert key not in outcome.detail and key not in (outcome.raw_tail or "")
    assert outcome.detail == 'scores: "[redacted]" is not a dimension of the criteria'
    assert outcome.raw_tail is not None and len(outcome.raw_tail.encode()) == RAW_TAIL_BYTES


def test_a_malformed_card_is_recorded_for_the_phase_asked() -> None:
    outcome = malformed_of("no card", phase=ScorecardPhase.SYNTHESIS)
    assert outcome.phase is ScorecardPhase.SYNTHESIS


def test_a_plain_malformed_card_still_builds_as_before() -> None:
    card = MalformedCard("quality", "mini", ScorecardPhase.SYNTHESIS, "no JSON")
    assert (card.reason, card.detail, card.raw_tail) == ("no JSON", "", None)
    assert MalformedCard("quality", "mini").reason == "malformed"


# -- wrong lens: walk on -----------------------------------------------------------------------


def test_a_card_for_another_lens_rejects_the_rung() -> None:
    text = reply({**CARD, "lens": "quality"})
    outcome = read(text)
    assert outcome == RejectedRung(
        rung="openai/gpt-mini-x",
        reason=ReasonCode.WRONG_LENS,
        raw_tail=text,
        detail="scorecard for lens 'quality', seated lens 'adversary'",
        answered_lens="quality",
    )


def test_a_wrong_lens_wins_over_anything_else_wrong_with_the_card() -> None:
    # As a verdict for another lens: the rung answered someone else, so the next rung is asked.
    broken = changed(("scores",), "none", {**CARD, "lens": "fitness"})
    outcome = read(reply(broken))
    assert isinstance(outcome, RejectedRung) and outcome.answered_lens == "fitness"


def test_a_wrong_lens_keeps_no_secret() -> None:
    outcome = read(reply({**CARD, "lens": "quality sk-1"}), secrets=["sk-1"])
    assert isinstance(outcome, RejectedRung)
    assert "sk-1" not in outcome.detail + (outcome.raw_tail or "") + (outcome.answered_lens or "")


# -- the adversary must oppose -----------------------------------------------------------------


@pytest.mark.parametrize("scenarios", [[], None, ...], ids=["empty", "null", "absent"])
def test_an_adversary_that_names_no_failure_scenario_did_not_oppose(scenarios: Any) -> None:
    outcome = malformed_of(reply(changed(("failure_scenarios",), scenarios)))
    assert outcome.reason == CardFault.ADVERSARY_DID_NOT_OPPOSE == "adversary_did_not_oppose"
    assert outcome.detail == (
        "the adversary named no failure scenario: its card must make the case against shipping"
    )
    assert outcome.claim == "malformed scorecard from openai/gpt-mini-x"


def test_another_lens_may_name_no_failure_scenario() -> None:
    quality = changed(("failure_scenarios",), [], {**CARD, "lens": "quality"})
    assert card_of(reply(quality), lens="quality").failure_scenarios == ()


def test_an_adversary_s_card_out_of_shape_is_plainly_malformed() -> None:
    broken = changed(("failure_scenarios",), [], changed(("round",), 2))
    assert malformed_of(reply(broken)).reason == CardFault.MALFORMED


def test_opposition_is_judged_on_the_card_as_returned() -> None:
    # A scenario whose citation will not check still opposes: P-6 discards it later.
    unfounded = {**SCENARIO, "location": "limiter.py:999", "quote": "self.reset_window(now)"}
    card = card_of(reply(changed(("failure_scenarios",), [unfounded])))
    assert card.failure_scenarios[0].quote == "self.reset_window(now)"


# -- never an exception ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"scores": ' * 50_000,
        '{"lens": "adversary", "scores": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"lens": "adversary", "round": 1, "phase": "score", "recommendation": "SHIP", '
        '"scores": {"correctness": {"score": 5, "confidence": 0.5, "evidence": '
        + "[" * 5000
        + "]" * 5000
        + "}}}",
        '{"lens": "adversary", "scores": {"\\ud800": 1}}',
        '{"lens": "\\ud800", "scores": {}}',
    ],
    ids=["open-objects", "deep-array", "deep-evidence", "lone-surrogate-key", "surrogate-lens"],
)
def test_hostile_replies_are_malformed_or_rejected_never_an_exception(text: str) -> None:
    outcome = read(text)
    assert isinstance(outcome, MalformedCard | RejectedRung)
