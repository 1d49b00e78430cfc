"""P-8: a round of the panel decided — citations applied (P-6), triggers (P-6), consensus and the
overall (P-7), then the first outcome that applies, with every rule that applied.

What this module takes as given, decided elsewhere: whether the report convened a panel, whether
every verification command ran cleanly and which failed (P-5), which lenses could not be seated
(P-2), whether the round is beyond the budget, which cards were malformed (P-4), and which
fingerprints `tribunal adjudicate` refuted (B-3).

A dimension left with no score at all — every one refuted or absent — ESCALATEs. Its consensus
cannot be computed, so the overall is not known, and it must never let a slice SHIP. ITERATE
would send a fresh executor a fix list with nothing in it for that dimension; the fix list is
mandatory there (P-8; source 001: "必须附上修复清单"). Like a deadlock (source 001, ESCALATE:
"陷入僵局"), it is a round the arithmetic cannot decide, and only the orchestrator decides
ESCALATE, with the evidence package, to a person ("将完整证据包升级给人工处理").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tribunal.courts.panel.cards import Criteria, FailureScenario, MalformedCard, Scorecard
from tribunal.courts.panel.checking import OUTSIDE
from tribunal.courts.panel.consensus import (
    Consensus,
    Dissent,
    MemberScore,
    blocked,
    consensus,
    overall,
    two_decimals,
)
from tribunal.courts.panel.fix_list import Caveats, FixItem, caveats, fix_list
from tribunal.courts.panel.refutation import CheckedCard, Checker, Refutation, apply_citations
from tribunal.courts.panel.triggers import ADVERSARY_LENS, Trigger, find_triggers
from tribunal.enums import (
    ConsensusKind,
    PanelItemKind,
    PanelOutcome,
    PanelRule,
    Recommendation,
    ScenarioKind,
    ScorecardPhase,
)
from tribunal.errors import BadInput

CAVEAT_BAND = Fraction(1, 10)  # P-8: SHIP_WITH_CAVEATS in [target − 0.10, target)


@dataclass(frozen=True)
class PanelRound:
    """What sat in one round: the criteria, the first phase's well-formed cards, the synthesis
    phase's (None when none was held), the malformed cards of either phase, and which lens is
    the adversary."""

    criteria: Criteria
    round: int
    first: tuple[Scorecard, ...]
    synthesis: tuple[Scorecard, ...] | None = None
    malformed: tuple[MalformedCard, ...] = ()
    adversary: str = ADVERSARY_LENS


@dataclass(frozen=True)
class RoundFlags:
    """What was decided before the panel's arithmetic: each a reason, or empty when it does not
    apply."""

    not_convened: str | None = None  # P-8: the report convenes no panel, and why
    invalid: str | None = None  # P-5: a verification command hit the cap or a signal
    held_lenses: tuple[str, ...] = ()  # P-2: lenses that could not be seated
    beyond_budget: str | None = None  # P-8: the round or the dispatches beyond the budget
    failed_commands: tuple[str, ...] = ()  # P-5: verification commands that failed


@dataclass(frozen=True)
class Reason:
    """A rule that applied, and what it applied to."""

    rule: PanelRule
    subject: str = ""

    def __str__(self) -> str:
        return f"{self.rule}: {self.subject}" if self.subject else str(self.rule)


@dataclass(frozen=True)
class Escalation:
    """An unrefuted `escalation` from a member's card."""

    lens: str
    phase: ScorecardPhase
    reason: str


@dataclass(frozen=True)
class DimensionResult:
    """A `dimensions[]` entry of summary.json: the first-phase scores (refuted ones marked), the
    triggers fired on it, the synthesis scores (None without a synthesis), the consensus, its
    dissents, and whether it is blocked."""

    id: str
    weight: Fraction
    first_scores: tuple[MemberScore, ...]
    triggers: tuple[Trigger, ...]
    synthesis_scores: tuple[MemberScore, ...] | None
    consensus: Consensus
    blocked: bool

    @property
    def dissents(self) -> tuple[Dissent, ...]:
        """The consensus's dissents."""
        return self.consensus.dissents


@dataclass(frozen=True)
class Decision:
    """A decided round. `overall` is exact (see `consensus.overall` for a dimension without a
    consensus); `reasons` lists every rule that applied, the deciding one first."""

    outcome: PanelOutcome
    overall: Fraction
    target: Fraction
    round: int
    members: tuple[str, ...]
    dimensions: tuple[DimensionResult, ...]
    triggers: tuple[Trigger, ...]
    fix_list: tuple[FixItem, ...]
    caveats: Caveats
    refuted: tuple[Refutation, ...]
    escalations: tuple[Escalation, ...]
    reasons: tuple[Reason, ...]

    @property
    def synthesis_held(self) -> bool:
        """True when a synthesis phase was held (some trigger fired)."""
        return bool(self.triggers)

    @property
    def overall_shown(self) -> str:
        """The overall to two decimals, for display."""
        return two_decimals(self.overall)


def decide(
    panel: PanelRound,
    check: Checker,
    *,
    flags: RoundFlags | None = None,
    refuted_fingerprints: Collection[str] = frozenset(),
) -> Decision:
    """The round decided (P-6, P-7, P-8). Raises BadInput when the cards do not fit the round —
    a dimension missing or unknown, a wrong round or phase, a lens twice in a phase, a synthesis
    held without a trigger or a trigger without one — and whatever `check` raises."""
    flags = flags or RoundFlags()
    criteria = panel.criteria
    _check_shape(panel)
    first = tuple(apply_citations(card, check, refuted_fingerprints) for card in panel.first)
    fired = find_triggers(criteria, first, panel.adversary)
    if fired and panel.synthesis is None and len(panel.first) > 1:
        # One card has no other to weigh: a synthesis cannot be held, and is not asked for.
        shown = "; ".join(str(trigger) for trigger in fired)
        raise BadInput(f"a trigger fired but no synthesis phase was held ({shown})")
    if not fired and panel.synthesis is not None:
        raise BadInput("a synthesis phase was held though no trigger fired")
    synthesis = tuple(
        apply_citations(card, check, refuted_fingerprints) for card in panel.synthesis or ()
    )

    held = panel.synthesis is not None
    dimensions = tuple(_dimension(criteria, d, first, synthesis, held, fired) for d in criteria.ids)
    values = {result.id: result.consensus.value for result in dimensions}
    total = overall(criteria, values)
    cards = first + synthesis
    items = fix_list(cards, flags.failed_commands, panel.malformed)
    dissents = tuple(dissent for result in dimensions for dissent in result.dissents)
    escalations = _escalations(cards)
    members = _members(panel)

    reasons = _flag_reasons(flags)
    reasons += _escalate_reasons(dimensions, escalations)
    reasons += _block_reasons(synthesis if held else first, cards, members)
    reasons += _iterate_reasons(criteria, dimensions, total, items, flags, panel.malformed)
    reasons += _outside_reasons(cards)
    if not reasons:
        # Every dimension has a consensus here, and the overall is at least target − 0.10.
        band = criteria.target - CAVEAT_BAND
        if total >= criteria.target:
            reasons.append(Reason(PanelRule.AT_TARGET, _compare(total, ">=", criteria.target)))
        else:
            reasons.append(Reason(PanelRule.IN_CAVEAT_BAND, _compare(total, ">=", band)))
    ordered = tuple(sorted(reasons, key=lambda reason: reason.rule.rank))  # stable within a rule
    return Decision(
        outcome=ordered[0].rule.outcome,
        overall=total,
        target=criteria.target,
        round=panel.round,
        members=members,
        dimensions=dimensions,
        triggers=fired,
        fix_list=items,
        caveats=caveats(items, dissents),
        refuted=tuple(entry for card in cards for entry in card.refuted),
        escalations=escalations,
        reasons=ordered,
    )


def _check_shape(panel: PanelRound) -> None:
    """Raise BadInput unless every card fits the round: its round, its phase, every dimension
    of the criteria and no other, one card per lens per phase, synthesis by members only, and
    no member both malformed and not in one phase."""
    expected = set(panel.criteria.ids)
    phases = (
        (ScorecardPhase.SCORE, panel.first),
        (ScorecardPhase.SYNTHESIS, panel.synthesis or ()),
    )
    members = {card.lens for card in panel.first} | {card.lens for card in panel.malformed}
    for phase, cards in phases:
        lenses = [card.lens for card in cards]
        if len(set(lenses)) != len(lenses):
            raise BadInput(f"a lens has two {phase} cards", field="lens")
        for card in cards:
            where = f"{card.lens} ({card.phase} card)"
            if card.phase is not phase:
                raise BadInput(f"{where}: expected phase {phase}", field="phase")
            if card.round != panel.round:
                raise BadInput(f"{where}: round {card.round}, not {panel.round}", field="round")
            if set(card.scores) != expected:
                missing = sorted(expected - set(card.scores))
                extra = sorted(set(card.scores) - expected)
                raise BadInput(f"{where}: missing {missing}, unknown {extra}", field="scores")
            if phase is ScorecardPhase.SYNTHESIS and card.lens not in members:
                raise BadInput(f"{where}: not a member of the first phase", field="lens")
    for bad in panel.malformed:
        if bad.phase is ScorecardPhase.SYNTHESIS and panel.synthesis is None:
            raise BadInput(
                f"{bad.lens}: a malformed synthesis card, but no synthesis", field="phase"
            )
        good = panel.first if bad.phase is ScorecardPhase.SCORE else panel.synthesis or ()
        if any(card.lens == bad.lens for card in good):
            raise BadInput(f"{bad.lens}: a {bad.phase} card both well-formed and not", field="lens")


def _member_scores(cards: Sequence[CheckedCard], dimension: str) -> tuple[MemberScore, ...]:
    """Each card's score on `dimension`, marked with why it was refuted."""
    why = {
        (entry.lens, entry.dimension): entry.reason
        for card in cards
        for entry in card.refuted
        if entry.kind is PanelItemKind.SCORE
    }
    return tuple(
        MemberScore(card.lens, card.card.scores[dimension], why.get((card.lens, dimension)))
        for card in cards
    )


def _dimension(
    criteria: Criteria,
    dimension: str,
    first: Sequence[CheckedCard],
    synthesis: Sequence[CheckedCard],
    held: bool,
    fired: Sequence[Trigger],
) -> DimensionResult:
    """One dimension's record; the consensus and blocked over the last phase (P-7): the
    synthesis when one was `held`, else the first."""
    scores = _member_scores(synthesis if held else first, dimension)
    return DimensionResult(
        id=dimension,
        weight=criteria.weights[dimension],
        first_scores=_member_scores(first, dimension),
        triggers=tuple(trigger for trigger in fired if trigger.dimension == dimension),
        synthesis_scores=_member_scores(synthesis, dimension) if held else None,
        consensus=consensus(dimension, scores),
        blocked=blocked(scores),
    )


def _members(panel: PanelRound) -> tuple[str, ...]:
    """The panel's members in a fixed order: first-phase cards, then malformed ones."""
    lenses = [card.lens for card in panel.first] + [card.lens for card in panel.malformed]
    return tuple(dict.fromkeys(lenses))


def _escalations(cards: Sequence[CheckedCard]) -> tuple[Escalation, ...]:
    """The unrefuted escalations of both phases, one per member and reason."""
    seen: dict[tuple[str, str], Escalation] = {}
    for card in cards:
        if card.escalation is not None:
            seen.setdefault(
                (card.lens, card.escalation), Escalation(card.lens, card.phase, card.escalation)
            )
    return tuple(seen.values())


def _flag_reasons(flags: RoundFlags) -> list[Reason]:
    """NOT_CONVENED, INVALID, HOLD and the budget: decided before the arithmetic (P-8)."""
    reasons = [Reason(PanelRule.NOT_CONVENED, flags.not_convened)] if flags.not_convened else []
    reasons += [Reason(PanelRule.INVALID, flags.invalid)] if flags.invalid else []
    reasons += [Reason(PanelRule.LENS_NOT_SEATED, lens) for lens in flags.held_lenses]
    # P-8: a round beyond the budget is decided before verification and seating.
    reasons += [Reason(PanelRule.BEYOND_BUDGET, flags.beyond_budget)] if flags.beyond_budget else []
    return reasons


def _escalate_reasons(
    dimensions: Sequence[DimensionResult], escalations: Sequence[Escalation]
) -> list[Reason]:
    """P-8 ESCALATE: a deadlock, a dimension with no score left, an unrefuted escalation."""
    reasons = []
    for result in dimensions:
        if result.consensus.kind is ConsensusKind.DEADLOCK:
            scores = result.synthesis_scores or result.first_scores
            shown = ", ".join(str(m.score.score) for m in scores if m.refuted is None)
            reasons.append(Reason(PanelRule.DEADLOCK, f"{result.id} ({shown})"))
        elif result.consensus.kind is ConsensusKind.UNSCORED:
            reasons.append(Reason(PanelRule.DIMENSION_NOT_SCORED, result.id))
    reasons += [
        Reason(PanelRule.UNREFUTED_ESCALATION, f"{e.lens}: {e.reason}") for e in escalations
    ]
    return reasons


def _block_reasons(
    last: Sequence[CheckedCard], cards: Sequence[CheckedCard], members: Sequence[str]
) -> list[Reason]:
    """P-8 BLOCK: a strict majority of the panel recommends BLOCK (in the last phase) and an
    unrefuted finding is structural with no local fix. With the same majority and every
    unrefuted finding a local fix, BLOCK contradicts the evidence: ITERATE. With no finding at
    all, a recommendation is not evidence and neither rule applies (the math decides)."""
    votes = sum(1 for card in last if card.card.recommendation is Recommendation.BLOCK)
    if not 2 * votes > len(members):
        return []
    findings = [finding for card in cards for finding in card.findings]
    count = f"{votes} of {len(members)} recommend BLOCK"
    structural = [f for f in findings if f.structural and not f.local_fix]
    if structural:
        return [Reason(PanelRule.STRUCTURAL_BLOCK, f"{count}; {structural[0].claim}")]
    if findings and all(finding.local_fix for finding in findings):
        return [Reason(PanelRule.BLOCK_CONTRADICTS_EVIDENCE, count)]
    return []


def _iterate_reasons(
    criteria: Criteria,
    dimensions: Sequence[DimensionResult],
    total: Fraction,
    items: Sequence[FixItem],
    flags: RoundFlags,
    malformed: Sequence[MalformedCard],
) -> list[Reason]:
    """P-8 ITERATE, in the table's order."""
    reasons = []
    complete = all(result.consensus.value is not None for result in dimensions)
    band = criteria.target - CAVEAT_BAND
    if complete and total < band:  # an incomplete overall is a lower bound: it shows nothing
        reasons.append(Reason(PanelRule.BELOW_CAVEAT_BAND, _compare(total, "<", band)))
    reasons += [Reason(PanelRule.BLOCKED_DIMENSION, r.id) for r in dimensions if r.blocked]
    for item in items:
        lenses = ", ".join(item.lenses)
        kind = item.item.kind if isinstance(item.item, FailureScenario) else None
        if kind in (ScenarioKind.CORRECTNESS, ScenarioKind.SAFETY):
            reasons.append(
                Reason(PanelRule.FAILURE_SCENARIO, f"{kind} from {lenses}: {item.claim}")
            )
        elif item.kind is PanelItemKind.FINDING and item.item is not None and item.blocking:
            reasons.append(
                Reason(PanelRule.SERIOUS_FINDING, f"{item.severity} from {lenses}: {item.claim}")
            )
    reasons += [Reason(PanelRule.VERIFICATION_FAILED, command) for command in flags.failed_commands]
    reasons += [
        Reason(PanelRule.MALFORMED_SCORECARD, f"{card.lens} from {card.rung} ({card.reason})")
        for card in malformed
    ]
    return reasons


def _outside_reasons(cards: Sequence[CheckedCard]) -> list[Reason]:
    """S-7: a citation of a file the panel was not shown — the envelope lacks what a member
    needed — keeps the round from shipping: a person looks (SHIP_WITH_CAVEATS at best)."""
    lenses = sorted({entry.lens for card in cards for entry in card.refuted
                     if entry.reason.startswith(OUTSIDE)})  # fmt: skip
    return [Reason(PanelRule.OUTSIDE_ENVELOPE, ", ".join(lenses))] if lenses else []


def _compare(value: Fraction, relation: str, bound: Fraction) -> str:
    """`overall 0.68 < 0.70`, with more decimals when two would show the same figure for two
    different values (0.6999… is not shown as `0.70 < 0.70`)."""
    places = 2
    while (
        places < 6 and value != bound and two_decimals(value, places) == two_decimals(bound, places)
    ):
        places += 1
    return f"overall {two_decimals(value, places)} {relation} {two_decimals(bound, places)}"
