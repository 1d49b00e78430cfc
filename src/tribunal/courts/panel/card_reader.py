"""P-4: a panel member's reply read as a scorecard, fail closed — parsed like V-2.

The reply is untrusted text from a model. Only the LAST JSON object in it that carries `scores`
counts (fences stripped; the scanning is the verdict reader's, `jury.reply_objects`), and card
objects that disagree on what they say — the lens, round or phase, a dimension's score or
confidence, the recommendation, the escalation — make the reply contradictory, never the last
one's word. Evidence, findings and scenarios may be restated between them.

What a reply comes to (L-6, P-2):
- a card for another lens rejects the rung (`wrong_lens`): walk on to the next rung;
- anything that is not exactly a P-4 card for the lens, round, phase and dimensions asked — no
  JSON, a dimension missing or unknown, a score that is not a whole number 1–10, a confidence
  outside [0, 1], a severity, kind or recommendation outside their vocabularies, evidence that
  is neither a quote and its location nor a command and its output, a card copied from the
  prompt (S-2) — is a `MalformedCard`: one shot, no retry, no next rung;
- an adversary's card that names no failure scenario at all is malformed too
  (`adversary_did_not_oppose`): opposition is the mechanism. This is judged on the card as
  returned; whether its scenarios survive the citation check is P-6's business, later.

Confidences are read exactly (`cards.exact`: 0.8 is 4/5). Case is forgiven in the closed
vocabularies (`MAJOR` is major, `ship` is SHIP), as V-1 forgives a severity's; nothing else is.
Fields a model adds beyond P-4's are ignored, except inside an evidence item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from tribunal.courts.panel.cards import (
    CommandEvidence,
    Evidence,
    FailureScenario,
    Finding,
    MalformedCard,
    QuoteEvidence,
    Score,
    Scorecard,
    exact,
)
from tribunal.documents import first_schema_error, format_field
from tribunal.enums import (
    CardFault,
    ReasonCode,
    Recommendation,
    ScenarioKind,
    ScorecardPhase,
    Severity,
)
from tribunal.errors import BadInput, TribunalError
from tribunal.jury.redaction import raw_tail, redact
from tribunal.jury.reply_objects import (
    MAX_REPLY_BYTES,
    canonical,
    copied,
    last_object,
    over_cap,
    short,
    strip_fences,
)
from tribunal.jury.seat.record import RejectedRung

CARD_KEY = "scores"  # P-4: the key that makes a JSON object a card
_SCHEMA = "scorecard"
# P-2: `ESCALATE: <reason>`; the reason is what is kept.
_ESCALATE = re.compile(r"\s*ESCALATE\s*:\s*", re.IGNORECASE)
# What one card object says, compared between the card objects of one reply (V-2).
_STANCE_KEYS = ("lens", "round", "phase")
_VERDICT_KEYS = ("recommendation", "escalation")


class _NotACard(TribunalError):
    """The card is not the shape; `message` says how (it becomes `MalformedCard.detail`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def read_card(
    text: str,
    *,
    lens: str,
    round: int,
    phase: ScorecardPhase,
    dimensions: Iterable[str],
    rung: str,
    adversary: bool,
    shown: str | None = None,
    secrets: Iterable[str] = (),
) -> Scorecard | MalformedCard | RejectedRung:
    """What the reply of `rung` comes to for the member seated as `lens`, asked for its card of
    `round` and `phase` over the criteria's `dimensions`: the `Scorecard`, a `MalformedCard`
    (not the shape, or an `adversary` that did not oppose), or the `RejectedRung` of a card for
    another lens. `shown` is the prompt the rung was given (a card copied from it is
    malformed); `secrets` are redacted from every kept text (L-8). Raises nothing for any
    reply."""
    secrets = tuple(secrets)
    asked = ScorecardPhase(phase)

    def malformed(
        message: str, tail: str = text, reason: CardFault = CardFault.MALFORMED
    ) -> MalformedCard:
        return MalformedCard(
            lens=lens,
            rung=rung,
            phase=asked,
            reason=reason,
            detail=redact(message, secrets),
            raw_tail=raw_tail(tail, secrets=secrets),
        )

    if over_cap(text):  # L-6: read no further
        return malformed(f"reply over {MAX_REPLY_BYTES} bytes", text[-4096:])
    try:
        found, source = last_object(
            strip_fences(text),
            CARD_KEY,
            fail=_NotACard,
            disagreement=_disagreement,
            name="scorecard",
        )
    except _NotACard as error:
        return malformed(error.message)
    if shown is not None and copied(source, shown):
        # S-2: a member that echoes the prompt's example, or a file it was shown, has not judged.
        return malformed("scorecard copied from the prompt: the reply repeats text it was shown")
    answered = found.get("lens")
    if answered is None or answered == "":
        return malformed("scorecard without lens")
    if not isinstance(answered, str):
        return malformed(f"lens: {short(answered)} is not one lens id")
    if answered != lens:
        return RejectedRung(
            rung=rung,
            reason=ReasonCode.WRONG_LENS,
            raw_tail=raw_tail(text, secrets=secrets),
            detail=redact(f"scorecard for lens {answered!r}, seated lens {lens!r}", secrets),
            answered_lens=redact(answered, secrets),
        )
    try:
        card = _build(found, round=round, phase=asked, dimensions=tuple(dimensions))
    except _NotACard as error:
        return malformed(error.message)
    if adversary and not card.failure_scenarios:
        return malformed(
            "the adversary named no failure scenario: its card must make the case against shipping",
            reason=CardFault.ADVERSARY_DID_NOT_OPPOSE,
        )
    return card


# -- what the card objects of one reply say ----------------------------------------------------


def _disagreement(earlier: dict[str, Any], later: dict[str, Any]) -> str | None:
    """How two card objects of one reply disagree, in words, or None when they say the same:
    the same lens, round and phase, the same score and confidence on every dimension, the same
    recommendation and escalation (compared as canonical JSON text)."""
    for key in _STANCE_KEYS:
        if canonical(earlier.get(key)) != canonical(later.get(key)):
            return _both(key, earlier.get(key), later.get(key))
    first, second = _numbers(earlier), _numbers(later)
    if isinstance(first, dict) and isinstance(second, dict):
        for dimension in sorted(first.keys() | second.keys()):
            if canonical(first.get(dimension)) != canonical(second.get(dimension)):
                return (
                    f"scorecard objects score {short(dimension)} both"
                    f" {short(first.get(dimension))} and {short(second.get(dimension))}"
                )
    elif canonical(first) != canonical(second):
        return _both("scores", first, second)
    for key in _VERDICT_KEYS:
        if canonical(earlier.get(key)) != canonical(later.get(key)):
            return _both(key, earlier.get(key), later.get(key))
    return None


def _numbers(card: dict[str, Any]) -> Any:
    """A card object's scores without their evidence: `{dimension: {score, confidence}}`, or
    the `scores` value as it came when it is no object."""
    scores = card.get(CARD_KEY)
    if not isinstance(scores, dict):
        return scores
    return {
        dimension: (
            {"score": entry.get("score"), "confidence": entry.get("confidence")}
            if isinstance(entry, dict)
            else entry
        )
        for dimension, entry in scores.items()
    }


def _both(key: str, earlier: Any, later: Any) -> str:
    return f"scorecard objects say both {key} {short(earlier)} and {short(later)}"


# -- the card's shape --------------------------------------------------------------------------


def _build(
    found: dict[str, Any], *, round: int, phase: ScorecardPhase, dimensions: tuple[str, ...]
) -> Scorecard:
    """The `Scorecard` a card object of the seated lens is, for `round`, `phase` and
    `dimensions`. Raises `_NotACard` naming the field at fault."""
    shaped = _shaped(found)
    error = first_schema_error(shaped, _SCHEMA)
    if error is not None:
        message, where = error
        field = format_field(where)
        raise _NotACard(f"{field}: {message}" if field else message)
    if not _whole(shaped["round"]):
        raise _NotACard(f"round: {short(shaped['round'])} is not a whole number")
    if shaped["round"] != round:
        raise _NotACard(f"round: the card is for round {shaped['round']}, this is round {round}")
    if shaped["phase"] != phase.value:
        raise _NotACard(
            f"phase: the card is for the {shaped['phase']} phase, this is the {phase.value} phase"
        )
    scores = shaped[CARD_KEY]
    for dimension in dimensions:
        if dimension not in scores:
            raise _NotACard(f"scores: no score for dimension {short(dimension)}")
    for dimension in scores:
        if dimension not in dimensions:
            raise _NotACard(f"scores: {short(dimension)} is not a dimension of the criteria")
    with _at():
        return Scorecard(
            lens=shaped["lens"],
            round=round,
            phase=phase,
            scores={dimension: _score(dimension, scores[dimension]) for dimension in dimensions},
            recommendation=Recommendation(shaped["recommendation"]),
            failure_scenarios=tuple(_scenario(item) for item in shaped["failure_scenarios"]),
            findings=tuple(_finding(item) for item in shaped["findings"]),
            top_concern=shaped.get("top_concern") or "",
            escalation=_escalation(shaped.get("escalation")),
        )


def _shaped(found: dict[str, Any]) -> dict[str, Any]:
    """`found` with absent or null lists made empty (that can only take evidence away, never
    add it) and the closed vocabularies' case forgiven; any other value as it came (the schema
    judges it)."""
    shaped = {
        **found,
        "failure_scenarios": _list_or_empty(found.get("failure_scenarios")),
        "findings": _list_or_empty(found.get("findings")),
    }
    if isinstance(found.get("recommendation"), str):
        shaped["recommendation"] = found["recommendation"].upper()
    if isinstance(shaped["findings"], list):
        shaped["findings"] = [_field_folded(item, "severity") for item in shaped["findings"]]
    if isinstance(shaped["failure_scenarios"], list):
        shaped["failure_scenarios"] = [
            _field_folded(item, "kind") for item in shaped["failure_scenarios"]
        ]
    scores = found.get(CARD_KEY)
    if isinstance(scores, dict):
        shaped[CARD_KEY] = {
            dimension: (
                {**entry, "evidence": _list_or_empty(entry.get("evidence"))}
                if isinstance(entry, dict)
                else entry
            )
            for dimension, entry in scores.items()
        }
    return shaped


def _list_or_empty(value: Any) -> Any:
    """`[]` for an absent or null list, else `value` as it came (the schema judges it)."""
    return [] if value is None else value


def _field_folded(item: Any, key: str) -> Any:
    """`item` with its `key` lowered when it is text (a severity or a kind)."""
    if isinstance(item, dict) and isinstance(item.get(key), str):
        return {**item, key: item[key].lower()}
    return item


def _whole(value: Any) -> bool:
    """True for a whole number as JSON writes one (`7`, not `7.0`, never `true`)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _score(dimension: str, entry: dict[str, Any]) -> Score:
    """One dimension's score: a whole number 1–10, its confidence read exactly, its evidence."""
    evidence = []
    for index, item in enumerate(entry["evidence"]):
        with _at(CARD_KEY, dimension, "evidence", index, named=False):
            evidence.append(_evidence(item))
    with _at(CARD_KEY, dimension):
        confidence = exact(entry["confidence"], field_name="confidence")
        return Score(entry["score"], confidence, tuple(evidence))


def _evidence(item: dict[str, Any]) -> Evidence:
    """`{command, output}` or `{quote, location}` (the schema admitted one of the two)."""
    if "command" in item:
        return CommandEvidence(item["command"], item["output"])
    return QuoteEvidence(item.get("quote"), item.get("location"))


def _scenario(item: dict[str, Any]) -> FailureScenario:
    return FailureScenario(
        input=item["input"],
        wrong_behaviour=item["wrong_behaviour"],
        kind=ScenarioKind(item["kind"]),
        location=item.get("location"),
        quote=item.get("quote"),
    )


def _finding(item: dict[str, Any]) -> Finding:
    return Finding(
        severity=Severity(item["severity"]),
        claim=item["claim"],
        location=item.get("location"),
        quote=item.get("quote"),
        fix=item.get("fix"),
        structural=item.get("structural", False),
    )


def _escalation(value: str | None) -> str | None:
    """The escalation's reason: `ESCALATE: <reason>` and a plain reason alike; None for none (a
    null or blank one). A bare `ESCALATE` escalates too, its reason being that word."""
    if value is None or not value.strip():
        return None
    match = _ESCALATE.match(value)
    reason = value[match.end() :].strip() if match else value.strip()
    return reason or value.strip()


@contextmanager
def _at(*where: str | int, named: bool = True) -> Iterator[None]:
    """A `BadInput` raised inside (a value the card's data refuses) as `_NotACard` naming the
    field at `where` — and, when `named`, the field the error itself names under it."""
    try:
        yield
    except BadInput as error:
        path = format_field((*where, error.field) if named and error.field else where)
        raise _NotACard(f"{path}: {error.message}" if path else error.message) from None
