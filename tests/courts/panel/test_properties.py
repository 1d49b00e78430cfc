"""P-6, P-7, P-8 as properties (hypothesis): refuted scores never count, nothing malformed, held,
escalated, not convened or invalid ever ships, BLOCK needs a structural finding and a majority,
and the first reason always names the rule that decided."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from hypothesis import given
from hypothesis import strategies as st

from tests.courts.panel.builders import (
    ABSENT,
    ABSENT_OUTPUT,
    ABSENT_QUOTE,
    COMMAND,
    LOCATION,
    QUOTE,
    UNLOCATED_QUOTE,
    check,
)
from tribunal.courts.panel import (
    Criteria,
    Decision,
    Dimension,
    Evidence,
    FailureScenario,
    Finding,
    MalformedCard,
    PanelOutcome,
    PanelRound,
    PanelRule,
    QuoteEvidence,
    Recommendation,
    RoundFlags,
    ScenarioKind,
    Score,
    Scorecard,
    ScorecardPhase,
    Severity,
    apply_citations,
    decide,
    find_triggers,
)

LENSES = ("quality", "fitness", "adversary", "operator")
T = TypeVar("T")
SHIPPING = {PanelOutcome.SHIP, PanelOutcome.SHIP_WITH_CAVEATS}
EVIDENCE: list[Evidence] = [QUOTE, UNLOCATED_QUOTE, LOCATION, COMMAND, ABSENT_QUOTE, ABSENT_OUTPUT]

criteria_st = st.builds(
    lambda weights, target: Criteria(
        tuple(Dimension(f"d{i}", Fraction(w)) for i, w in enumerate(weights)), target
    ),
    st.lists(st.integers(1, 4), min_size=1, max_size=3),
    st.sampled_from([Fraction(7, 10), Fraction(4, 5), Fraction(17, 20)]),
)
# Mostly evidence that checks at every level, so that rounds reach every outcome.
evidence_st: st.SearchStrategy[tuple[Evidence, ...]] = st.one_of(
    st.just((QUOTE,)),
    st.just((QUOTE,)),
    st.lists(st.sampled_from(EVIDENCE), max_size=2).map(lambda cited: tuple(cited)),
)
confidence_st = st.sampled_from([Fraction(3, 10), Fraction(1, 2), Fraction(7, 10), Fraction(9, 10)])
quotes = st.sampled_from([None, "if now - start > window:", "if now - start > window:", ABSENT])
findings_st = st.builds(
    Finding,
    severity=st.sampled_from(list(Severity)),
    claim=st.sampled_from(["the start never advances", "one global counter", "vague name"]),
    location=st.sampled_from([None, "limiter.py:14", "limiter.py:3"]),
    quote=quotes,
    fix=st.sampled_from([None, "advance the start", "advance the start"]),
    structural=st.booleans(),
)
scenarios_st = st.builds(
    FailureScenario,
    input=st.sampled_from(["a burst at the edge", "a clock that steps back"]),
    wrong_behaviour=st.just("passes twice the limit"),
    kind=st.sampled_from(list(ScenarioKind)),
    location=st.sampled_from([None, "limiter.py:14"]),
    quote=quotes,
)


def rarely(values: st.SearchStrategy[T], absent: T) -> st.SearchStrategy[T]:
    """`absent` three times in four, else a value of `values`."""
    return st.one_of(st.just(absent), st.just(absent), st.just(absent), values)


@dataclass(frozen=True)
class Case:
    """A generated round and what was decided before the arithmetic."""

    panel: PanelRound
    flags: RoundFlags


@st.composite
def cards(
    draw: st.DrawFn,
    criteria: Criteria,
    lens: str,
    phase: ScorecardPhase,
    level: int,
    favoured: Recommendation,
    calm: bool,
) -> Scorecard:
    scores = {}
    near = st.integers(level - 1, level + 1)
    for dimension in criteria.ids:
        value = draw(near if calm else st.one_of(near, near, near, st.integers(1, 10)))
        evidence = (QUOTE,) if calm else draw(evidence_st)
        scores[dimension] = Score(min(10, max(1, value)), draw(confidence_st), evidence)
    return Scorecard(
        lens=lens,
        round=1,
        phase=phase,
        scores=scores,
        recommendation=draw(st.sampled_from([favoured, favoured, favoured, *Recommendation])),
        failure_scenarios=draw(
            rarely(st.lists(scenarios_st, min_size=1, max_size=2).map(tuple), ())
        ),
        findings=draw(rarely(st.lists(findings_st, min_size=1, max_size=2).map(tuple), ())),
        escalation=None if calm else draw(st.sampled_from([None, " ", "cannot be rebutted"])),
    )


@st.composite
def cases(draw: st.DrawFn) -> Case:
    criteria = draw(criteria_st)
    count = draw(st.integers(1, len(LENSES)))
    lenses = LENSES[:count]
    # A calm round has no flag, no malformed card, no escalation, and scores near one level
    # that cite what they need: it reaches SHIP, SHIP_WITH_CAVEATS, BLOCK and ITERATE.
    calm = draw(st.booleans())
    some = st.sets(st.sampled_from(lenses), min_size=1, max_size=1)
    broken = frozenset() if calm else draw(rarely(some.map(frozenset), frozenset()))
    level = draw(st.sampled_from([2, 5, 7, 8, 8, 9, 9, 10]))
    favoured = draw(st.sampled_from([Recommendation.BLOCK, *Recommendation]))

    def phase_cards(phase: ScorecardPhase, members: tuple[str, ...]) -> tuple[Scorecard, ...]:
        return tuple(draw(cards(criteria, lens, phase, level, favoured, calm)) for lens in members)

    first = phase_cards(ScorecardPhase.SCORE, tuple(lens for lens in lenses if lens not in broken))
    malformed = tuple(MalformedCard(lens, f"rung-{lens}") for lens in sorted(broken))
    synthesis = None
    if find_triggers(criteria, [apply_citations(card, check) for card in first]):
        synthesis = phase_cards(ScorecardPhase.SYNTHESIS, tuple(card.lens for card in first))
    if calm:
        return Case(PanelRound(criteria, 1, first, synthesis, malformed), RoundFlags())
    often_none = st.sampled_from([None, None, None, "a reason"])
    flags = RoundFlags(
        not_convened=draw(often_none),
        invalid=draw(often_none),
        held_lenses=draw(st.sampled_from([(), (), (), ("operator",)])),
        beyond_budget=draw(often_none),
        failed_commands=draw(st.sampled_from([(), (), (), ("make test",)])),
    )
    return Case(PanelRound(criteria, 1, first, synthesis, malformed), flags)


def run(case: Case) -> Decision:
    return decide(case.panel, check, flags=case.flags)


def last_phase(panel: PanelRound) -> tuple[Scorecard, ...]:
    return panel.synthesis if panel.synthesis is not None else panel.first


def cites_absent(score: Score) -> bool:
    """True when the score cites something the checker rejects (it is refuted at any level)."""
    return any(check(evidence) is not None for evidence in score.evidence)


@given(cases())
def test_no_refuted_score_ever_enters_a_mean(case: Case) -> None:
    decision = run(case)
    last = {card.lens: card for card in last_phase(case.panel)}
    for result in decision.dimensions:
        counted = (
            result.synthesis_scores if result.synthesis_scores is not None else result.first_scores
        )
        refuted = {m.lens for m in counted if m.refuted is not None}
        assert not refuted & set(result.consensus.members)
        assert not refuted & {d.lens for d in result.dissents}
        # The property's own reading: nothing that cites an absent thing is ever counted.
        assert not any(
            cites_absent(last[lens].scores[result.id]) for lens in result.consensus.members
        )
        if result.consensus.value is not None:
            values = [last[lens].scores[result.id].score for lens in result.consensus.members]
            assert result.consensus.value == Fraction(sum(values), len(values))


def flipped(card: Scorecard) -> Scorecard:
    """`card` with every score that cites an absent thing changed to another value."""
    return replace(
        card,
        scores={
            d: replace(s, score=11 - s.score) if cites_absent(s) else s
            for d, s in card.scores.items()
        },
    )


@given(cases())
def test_changing_a_refuted_score_changes_no_figure(case: Case) -> None:
    panel = case.panel
    changed = replace(
        panel,
        first=tuple(flipped(c) for c in panel.first),
        synthesis=None if panel.synthesis is None else tuple(flipped(c) for c in panel.synthesis),
    )
    before, after = run(case), run(Case(changed, case.flags))
    assert before.overall == after.overall
    assert before.outcome is after.outcome
    assert [d.consensus.value for d in before.dimensions] == [
        d.consensus.value for d in after.dimensions
    ]
    assert before.triggers == after.triggers


@given(cases())
def test_nothing_malformed_held_escalated_not_convened_or_invalid_ever_ships(case: Case) -> None:
    decision = run(case)
    flags = case.flags
    stopped = bool(flags.not_convened or flags.invalid or flags.held_lenses or flags.beyond_budget)
    escalated = any(
        card.escalates is not None
        and not any(s.kind is not ScenarioKind.OTHER for s in card.failure_scenarios)
        for card in case.panel.first + (case.panel.synthesis or ())
    )
    if (
        stopped
        or case.panel.malformed
        or escalated
        or decision.escalations
        or flags.failed_commands
    ):
        assert decision.outcome not in SHIPPING
    if decision.outcome in SHIPPING:
        assert all(d.consensus.value is not None and not d.blocked for d in decision.dimensions)
        assert decision.overall >= decision.target - Fraction(1, 10)
        assert not any(item.blocking for item in decision.fix_list)


@given(cases())
def test_block_only_with_a_structural_finding_and_a_majority(case: Case) -> None:
    decision = run(case)
    every_finding_local = all(
        f.local_fix
        for card in case.panel.first + (case.panel.synthesis or ())
        for f in card.findings
    )
    if decision.outcome is PanelOutcome.BLOCK:
        votes = sum(c.recommendation is Recommendation.BLOCK for c in last_phase(case.panel))
        assert 2 * votes > len(decision.members)
        assert any(
            isinstance(item.item, Finding) and item.item.structural and not item.item.local_fix
            for item in decision.fix_list
        )
        assert not every_finding_local
    if every_finding_local:
        assert decision.outcome is not PanelOutcome.BLOCK


@given(cases())
def test_the_first_reason_names_the_rule_that_decided(case: Case) -> None:
    decision = run(case)
    assert decision.reasons
    assert decision.reasons[0].rule.outcome is decision.outcome
    # No rule of an outcome checked earlier applied (else it would have decided).
    assert all(r.rule.outcome.precedence >= decision.outcome.precedence for r in decision.reasons)
    assert [r.rule.rank for r in decision.reasons] == sorted(r.rule.rank for r in decision.reasons)
    # And the flags, which are checked first, decide in P-8's order.
    flags = case.flags
    expected = (
        PanelOutcome.NOT_CONVENED
        if flags.not_convened
        else PanelOutcome.INVALID
        if flags.invalid
        else PanelOutcome.HOLD
        if flags.held_lenses
        else PanelOutcome.ESCALATE
        if flags.beyond_budget
        else None
    )
    if expected is not None:
        assert decision.outcome is expected


def stands(finding: Finding) -> bool:
    """The property's own reading of P-6 for a finding: it cites something, and that checks."""
    if not (finding.quote or finding.location):
        return False
    return check(QuoteEvidence(finding.quote or None, finding.location or None)) is None


@st.composite
def block_majorities(draw: st.DrawFn) -> tuple[Case, list[Finding]]:
    """Calm rounds of three in which at least two members recommend BLOCK."""
    criteria = draw(criteria_st)
    level = draw(st.sampled_from([3, 6, 9]))
    first = []
    raised: list[Finding] = []
    for index, lens in enumerate(LENSES[:3]):
        findings = draw(st.lists(findings_st, max_size=2))
        raised += findings
        card = draw(cards(criteria, lens, ScorecardPhase.SCORE, level, Recommendation.BLOCK, True))
        recommendation = Recommendation.BLOCK if index < 2 else card.recommendation
        first.append(replace(card, findings=tuple(findings), recommendation=recommendation))
    synthesis = None
    if find_triggers(criteria, [apply_citations(card, check) for card in first]):
        synthesis = tuple(replace(card, phase=ScorecardPhase.SYNTHESIS) for card in first)
    return Case(PanelRound(criteria, 1, tuple(first), synthesis), RoundFlags()), raised


@given(block_majorities())
def test_a_block_majority_blocks_exactly_when_a_structural_finding_stands(
    drawn: tuple[Case, list[Finding]],
) -> None:
    case, raised = drawn
    decision = run(case)
    standing = [finding for finding in raised if stands(finding)]
    structural = [f for f in standing if f.structural and not f.local_fix]
    if any(d.consensus.value is None for d in decision.dimensions):
        assert decision.outcome is PanelOutcome.ESCALATE  # checked before BLOCK
    elif structural:
        assert decision.outcome is PanelOutcome.BLOCK
    else:
        assert decision.outcome is not PanelOutcome.BLOCK
        if standing and all(f.local_fix for f in standing):
            assert decision.reasons[0].rule is PanelRule.BLOCK_CONTRADICTS_EVIDENCE
