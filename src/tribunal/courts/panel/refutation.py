"""P-6: citation verdicts applied to a card, before any arithmetic.

The one citation checker lives elsewhere and is passed in: `check(evidence)` returns None when
the citation checks, else the reason it does not. What this module adds is P-6's rules over those
verdicts — which scores are refuted, which findings and scenarios are discarded, which stay
refuted from earlier rounds — and the log of each, verbatim, with the reason (source 001, 证据锚定:
"被事实反驳的评分会被排除，并记录为已驳回的异议").
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tribunal.courts.fingerprints import fingerprint
from tribunal.courts.panel.cards import (
    CommandEvidence,
    Evidence,
    FailureScenario,
    Finding,
    QuoteEvidence,
    Score,
    Scorecard,
)
from tribunal.enums import PanelItemKind, ScenarioKind, ScorecardPhase

Checker = Callable[[Evidence], str | None]

HIGH_SCORE = 8  # P-6: a score of 8 or more needs a verbatim quote that checks
LOW_SCORE = 3  # P-6: a score of 3 or less needs a location or command output that checks

NEEDS_QUOTE = "a score of 8 or more needs a verbatim quote that checks"
NEEDS_LOCATION = "a score of 3 or less needs a location or command output that checks"
NO_EVIDENCE = "cites no quote and no location"
ADJUDICATED = "refuted with evidence in an earlier round"
CONCERN_DISCARDED = "every correctness or safety scenario it rests on was discarded"

Refuted = Score | Finding | FailureScenario | str


@dataclass(frozen=True)
class Refutation:
    """One entry of the refuted log: what was refuted (`item`, verbatim), whose, and why."""

    lens: str
    phase: ScorecardPhase
    kind: PanelItemKind
    item: Refuted
    reason: str
    dimension: str | None = None  # for a score: the dimension it scored


@dataclass(frozen=True)
class CheckedCard:
    """A card with P-6 applied: the scores, findings and scenarios left, the escalation if it
    stands, and the log of everything refuted or discarded."""

    card: Scorecard
    scores: Mapping[str, Score]
    findings: tuple[Finding, ...]
    failure_scenarios: tuple[FailureScenario, ...]
    escalation: str | None
    refuted: tuple[Refutation, ...]

    @property
    def lens(self) -> str:
        """The member's lens."""
        return self.card.lens

    @property
    def phase(self) -> ScorecardPhase:
        """The phase the card was written in."""
        return self.card.phase


def score_refutation(score: Score, check: Checker) -> str | None:
    """Why `score` is refuted (P-6), or None when it stands: any cited evidence that does not
    check refutes it; so does a level that lacks what it needs. Raises what `check` raises."""
    failures = [why for why in (check(evidence) for evidence in score.evidence) if why is not None]
    if failures:
        return "; ".join(failures)
    # Every piece of evidence has checked from here on, so "that checks" holds of each.
    if score.score >= HIGH_SCORE and not any(
        isinstance(evidence, QuoteEvidence) and evidence.quote and evidence.quote.strip()
        for evidence in score.evidence
    ):
        return NEEDS_QUOTE
    if score.score <= LOW_SCORE and not any(
        isinstance(evidence, CommandEvidence)
        or (evidence.location is not None and evidence.location.strip())
        for evidence in score.evidence
    ):
        return NEEDS_LOCATION
    # A score of 4 to 7 with no evidence at all stands: P-6 asks nothing of its level.
    return None


def item_refutation(
    key: str,
    quote: str | None,
    location: str | None,
    check: Checker,
    refuted_fingerprints: Collection[str],
) -> str | None:
    """Why a finding or scenario (fingerprinted by `key` — its claim or input — and `location`)
    is discarded, or None when it stands: refuted with evidence in an earlier round (B-3, by
    fingerprint), no evidence at all (source 001: "没有证据的发现一律舍弃"), or a quote or
    location that does not check. Raises what `check` raises."""
    if fingerprint(key, location) in refuted_fingerprints:
        return ADJUDICATED
    has_quote = quote is not None and bool(quote.strip())
    has_location = location is not None and bool(location.strip())
    if not has_quote and not has_location:
        return NO_EVIDENCE
    return check(QuoteEvidence(quote if has_quote else None, location if has_location else None))


def apply_citations(
    card: Scorecard, check: Checker, refuted_fingerprints: Collection[str] = frozenset()
) -> CheckedCard:
    """`card` with P-6's citation rules applied (see `CheckedCard`). Raises what `check`
    raises."""
    refuted: list[Refutation] = []

    def log(kind: PanelItemKind, item: Refuted, reason: str, dimension: str | None = None) -> None:
        refuted.append(Refutation(card.lens, card.phase, kind, item, reason, dimension))

    scores: dict[str, Score] = {}
    for dimension, score in card.scores.items():
        why = score_refutation(score, check)
        if why is None:
            scores[dimension] = score
        else:
            log(PanelItemKind.SCORE, score, why, dimension)

    findings: list[Finding] = []
    for finding in card.findings:
        why = item_refutation(
            finding.claim, finding.quote, finding.location, check, refuted_fingerprints
        )
        if why is None:
            findings.append(finding)
        else:
            log(PanelItemKind.FINDING, finding, why)

    scenarios: list[FailureScenario] = []
    for scenario in card.failure_scenarios:
        why = item_refutation(
            scenario.input, scenario.quote, scenario.location, check, refuted_fingerprints
        )
        if why is None:
            scenarios.append(scenario)
        else:
            log(PanelItemKind.SCENARIO, scenario, why)

    escalation = card.escalates
    if escalation is not None:
        why = _escalation_refutation(card, escalation, scenarios, refuted_fingerprints)
        if why is not None:
            log(PanelItemKind.ESCALATION, escalation, why)
            escalation = None

    return CheckedCard(
        card=card,
        scores=MappingProxyType(scores),
        findings=tuple(findings),
        failure_scenarios=tuple(scenarios),
        escalation=escalation,
        refuted=tuple(refuted),
    )


def _escalation_refutation(
    card: Scorecard,
    escalation: str,
    kept: tuple[FailureScenario, ...] | list[FailureScenario],
    refuted_fingerprints: Collection[str],
) -> str | None:
    """Why the card's escalation no longer stands, or None. An escalation is raised for a
    correctness or safety concern (P-2), each concern a named failure scenario: when the card
    names such scenarios and every one was discarded, the concern was rebutted and the
    escalation with it. An escalation adjudicated refuted (by its fingerprint, no location)
    stays refuted. One that names no such scenario stands: nothing has rebutted it."""
    if fingerprint(escalation, None) in refuted_fingerprints:
        return ADJUDICATED
    concerns = [s for s in card.failure_scenarios if s.kind is not ScenarioKind.OTHER]
    if concerns and not any(s.kind is not ScenarioKind.OTHER for s in kept):
        return CONCERN_DISCARDED
    return None
