"""The panel court (SPEC §9): pure decisions over scorecards handed in as data — whether a panel
sits at all (`convening`), scorecards as data (`cards`), citation verdicts applied (`refutation`),
disagreement triggers (`triggers`), consensus in exact rational arithmetic (`consensus`), the
fix list and caveats (`fix_list`) and the outcome, the deciding rule first (`outcome`)."""

from __future__ import annotations

from tribunal.courts.fingerprints import fingerprint
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
from tribunal.courts.panel.refutation import CheckedCard, Checker, Refutation, apply_citations
from tribunal.courts.panel.triggers import Trigger, find_triggers
from tribunal.enums import (
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
    "apply_citations",
    "blocked",
    "consensus",
    "decide",
    "find_triggers",
    "fingerprint",
    "member_overall",
    "overall",
    "two_decimals",
]
