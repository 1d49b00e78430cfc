"""Cards, criteria and a citation checker for the panel court's tests, built through the plain
constructors (parsing a card's JSON is another step's job)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tribunal.courts.panel import (
    CommandEvidence,
    Criteria,
    Decision,
    Evidence,
    FailureScenario,
    Finding,
    MalformedCard,
    PanelRound,
    PanelRule,
    QuoteEvidence,
    Recommendation,
    RoundFlags,
    ScenarioKind,
    Score,
    Scorecard,
    ScorecardPhase,
    apply_citations,
    decide,
    find_triggers,
)

# A citation checks unless it names something that does not exist: the test checker's whole rule.
ABSENT = "reset_window"

QUOTE = QuoteEvidence("if now - start > window:", "limiter.py:14")
UNLOCATED_QUOTE = QuoteEvidence("if now - start > window:")
LOCATION = QuoteEvidence(None, "limiter.py:14")
COMMAND = CommandEvidence("python -m pytest -q tests/test_limiter.py", "3 passed")
ABSENT_QUOTE = QuoteEvidence("self.reset_window(now)", "limiter.py:30")
ABSENT_OUTPUT = CommandEvidence("python -m pytest -q", "reset_window passed")


def check(evidence: Evidence) -> str | None:
    """The test checker: None, unless the evidence names `reset_window`, which does not exist."""
    texts = (
        (evidence.quote, evidence.location)
        if isinstance(evidence, QuoteEvidence)
        else (evidence.output,)
    )
    for text in texts:
        if text is not None and ABSENT in text:
            return f"{text!r} does not occur verbatim in the artifact"
    return None


def equal_weights(*ids: str, target: str = "0.80") -> Criteria:
    """Criteria over `ids`, each of weight 1."""
    return Criteria.of(dict.fromkeys(ids, 1), target)


THREE = equal_weights("correctness", "robustness", "clarity")


def score(value: int, confidence: str = "0.7", *evidence: Evidence) -> Score:
    """A score citing `evidence`, by default a quote with a location that checks (enough at
    every level)."""
    return Score.of(value, confidence, *(evidence or (QUOTE,)))


def card(
    lens: str,
    scores: Mapping[str, int | Score] | Sequence[int | Score],
    *,
    phase: ScorecardPhase = ScorecardPhase.SCORE,
    round: int = 1,
    recommendation: Recommendation = Recommendation.SHIP,
    criteria: Criteria = THREE,
    findings: Sequence[Finding] = (),
    scenarios: Sequence[FailureScenario] = (),
    escalation: str | None = None,
) -> Scorecard:
    """A well-formed card; `scores` as a mapping, or in the criteria's dimension order; an int
    is a score citing a checking quote with a location."""
    if not isinstance(scores, Mapping):
        scores = dict(zip(criteria.ids, scores, strict=True))
    return Scorecard(
        lens=lens,
        round=round,
        phase=phase,
        scores={d: v if isinstance(v, Score) else score(v) for d, v in scores.items()},
        recommendation=recommendation,
        failure_scenarios=tuple(scenarios),
        findings=tuple(findings),
        top_concern="the window edge",
        escalation=escalation,
    )


def synthesis_of(cards: Sequence[Scorecard]) -> tuple[Scorecard, ...]:
    """The same cards re-scored as before, in a synthesis phase."""
    return tuple(
        Scorecard(
            lens=c.lens,
            round=c.round,
            phase=ScorecardPhase.SYNTHESIS,
            scores=c.scores,
            recommendation=c.recommendation,
            failure_scenarios=c.failure_scenarios,
            findings=c.findings,
            top_concern=c.top_concern,
            escalation=c.escalation,
        )
        for c in cards
    )


WINDOW_EDGE = FailureScenario(
    input="a burst straddling the window edge",
    wrong_behaviour="the window start never advances, so it passes twice the limit",
    kind=ScenarioKind.CORRECTNESS,
    location="limiter.py:14",
    quote="if now - start > window:",
)


def sit(
    *cards: Scorecard,
    criteria: Criteria = THREE,
    flags: RoundFlags | None = None,
    malformed: Sequence[MalformedCard] = (),
) -> Decision:
    """Decide a round of `cards`, holding the synthesis (cards re-scored as before) when a
    trigger fires, as the orchestrator would."""
    first = tuple(cards)
    fires = find_triggers(criteria, [apply_citations(c, check) for c in first])
    synthesis = synthesis_of(first) if fires else None
    return decide(PanelRound(criteria, 1, first, synthesis, tuple(malformed)), check, flags=flags)


def rules(decision: Decision) -> list[PanelRule]:
    """The rules of the decision's reasons, in order."""
    return [reason.rule for reason in decision.reasons]
