"""The panel court (SPEC §9): pure decisions over scorecards handed in as data — whether a panel
sits at all (`convening`), scorecards as data (`cards`), a member's reply read as one, fail closed
(`card_reader`), the strict card schema a seat sends (`card_schema`), citation verdicts applied
(`refutation`), disagreement triggers (`triggers`), consensus in exact rational arithmetic
(`consensus`), the fix list and caveats (`fix_list`) and the outcome, the deciding rule first
(`outcome`) — and what a member is shown: the context wall as a brief and the score and
synthesis prompts (`prompt`), the scorecard form they ask for (`card_form`) and the other
members' cards anonymised (`anonymity`); and vetting a plan before the work: what its three
lenses are shown (`vet_brief`) and the decision over their verdicts (`vetting`)."""

from __future__ import annotations

from tribunal.courts.fingerprints import fingerprint
from tribunal.courts.panel.anonymity import anonymise
from tribunal.courts.panel.card_form import scorecard_form
from tribunal.courts.panel.card_reader import read_card
from tribunal.courts.panel.card_schema import strict_scorecard_schema
from tribunal.courts.panel.cards import (
    DEFAULT_TARGET,
    CommandEvidence,
    Criteria,
    Dimension,
    Evidence,
    FailureScenario,
    Finding,
    MalformedCard,
    QuoteEvidence,
    Score,
    Scorecard,
)
from tribunal.courts.panel.consensus import (
    Consensus,
    Dissent,
    MemberScore,
    blocked,
    consensus,
    member_overall,
    overall,
    two_decimals,
)
from tribunal.courts.panel.fix_list import Caveats, FixItem
from tribunal.courts.panel.outcome import (
    Decision,
    DimensionResult,
    Escalation,
    PanelRound,
    Reason,
    RoundFlags,
    decide,
)
from tribunal.courts.panel.prompt import (
    PanelBrief,
    render_score_prompt,
    render_synthesis_prompt,
)
from tribunal.courts.panel.refutation import CheckedCard, Checker, Refutation, apply_citations
from tribunal.courts.panel.triggers import Trigger, find_triggers
from tribunal.enums import (
    CardFault,
    ConsensusKind,
    PanelItemKind,
    PanelOutcome,
    PanelRule,
    Recommendation,
    ScenarioKind,
    ScorecardPhase,
    Severity,
    TriggerName,
    VerdictSource,
)

__all__ = [
    "DEFAULT_TARGET",
    "CardFault",
    "Caveats",
    "CheckedCard",
    "Checker",
    "CommandEvidence",
    "Consensus",
    "ConsensusKind",
    "Criteria",
    "Decision",
    "Dimension",
    "DimensionResult",
    "Dissent",
    "Escalation",
    "Evidence",
    "FailureScenario",
    "Finding",
    "FixItem",
    "MalformedCard",
    "MemberScore",
    "PanelBrief",
    "PanelItemKind",
    "PanelOutcome",
    "PanelRound",
    "PanelRule",
    "QuoteEvidence",
    "Reason",
    "Recommendation",
    "Refutation",
    "RoundFlags",
    "ScenarioKind",
    "Score",
    "Scorecard",
    "ScorecardPhase",
    "Severity",
    "Trigger",
    "TriggerName",
    "VerdictSource",
    "anonymise",
    "apply_citations",
    "blocked",
    "consensus",
    "decide",
    "find_triggers",
    "fingerprint",
    "member_overall",
    "overall",
    "read_card",
    "render_score_prompt",
    "render_synthesis_prompt",
    "scorecard_form",
    "strict_scorecard_schema",
    "two_decimals",
]
