"""P-8's fix list and caveats: every unrefuted finding and failure scenario of the round, with
its fix, ordered by severity — severity orders the list, it never decides the outcome's class.

Both phases count: a finding or scenario a member raised in the first phase and left out of its
synthesis card was not refuted, only not repeated, and source 001 forbids overruling an
unrebutted correctness or safety scenario in silence ("任何成员提出的、未被反驳的正确性或安全性
场景都绝不能被默默否决"). The same defect raised twice — by one member in both phases, or by two
lenses at one place — is one entry (B-3: the fingerprint ignores the lens), listing every lens
that raised it, at the strongest severity any of them gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tribunal.courts.fingerprints import fingerprint
from tribunal.courts.panel.cards import FailureScenario, Finding, MalformedCard
from tribunal.courts.panel.consensus import Dissent
from tribunal.courts.panel.refutation import CheckedCard
from tribunal.enums import PanelItemKind, ScenarioKind, Severity

HARNESS_LENS = "harness"  # P-5: the lens a failed verification command is reported from
VERIFICATION_FAILED = "verification_failed"

# Scenarios carry a kind, not a severity. For ordering only: a correctness or safety scenario
# is a blocking caveat (source 001, ITERATE: "断言存在正确性／安全缺陷"), listed with the
# blockers; one of kind `other` is a non-blocking caveat (P-8), listed with the minor findings.
SCENARIO_SEVERITY = {
    ScenarioKind.CORRECTNESS: Severity.BLOCKER,
    ScenarioKind.SAFETY: Severity.BLOCKER,
    ScenarioKind.OTHER: Severity.MINOR,
}
BLOCKING = frozenset({Severity.BLOCKER, Severity.MAJOR})


@dataclass(frozen=True)
class FixItem:
    """One entry of the fix list. `claim` is a finding's claim or a scenario's input; `detail`
    the scenario's wrong behaviour, the failed command, or why a card was malformed; `item` the
    finding or scenario verbatim (None for the harness's and malformed cards' entries)."""

    kind: PanelItemKind
    severity: Severity
    lenses: tuple[str, ...]
    claim: str
    location: str | None
    fix: str | None
    fingerprint: str
    detail: str | None = None
    item: Finding | FailureScenario | None = None

    @property
    def blocking(self) -> bool:
        """True for a blocker or major finding and a correctness or safety scenario."""
        return self.severity in BLOCKING


@dataclass(frozen=True)
class Caveats:
    """P-8's non-blocking caveats: minor and info findings, scenarios of kind `other`, and the
    consensus dissents."""

    items: tuple[FixItem, ...] = ()
    dissents: tuple[Dissent, ...] = ()


def _finding_item(lens: str, finding: Finding) -> FixItem:
    return FixItem(
        kind=PanelItemKind.FINDING,
        severity=finding.severity,
        lenses=(lens,),
        claim=finding.claim,
        location=finding.location,
        fix=finding.fix if finding.local_fix else None,
        fingerprint=fingerprint(finding.claim, finding.location),
        item=finding,
    )


def _scenario_item(lens: str, scenario: FailureScenario) -> FixItem:
    return FixItem(
        kind=PanelItemKind.SCENARIO,
        severity=SCENARIO_SEVERITY[scenario.kind],
        lenses=(lens,),
        claim=scenario.input,
        location=scenario.location,
        fix=None,
        fingerprint=fingerprint(scenario.input, scenario.location),
        detail=scenario.wrong_behaviour,
        item=scenario,
    )


def raised_items(cards: Sequence[CheckedCard]) -> tuple[FixItem, ...]:
    """Every unrefuted finding and scenario on `cards`, one entry per defect (see the module
    docstring), strongest severity first, then in the order first raised. Raises nothing."""
    raised = [
        item
        for card in cards
        for item in (
            *(_finding_item(card.lens, finding) for finding in card.findings),
            *(_scenario_item(card.lens, scenario) for scenario in card.failure_scenarios),
        )
    ]
    copies: dict[tuple[PanelItemKind, str], list[FixItem]] = {}
    for item in raised:  # in the order raised
        copies.setdefault((item.kind, item.fingerprint), []).append(item)
    merged = []
    for same in copies.values():
        # Of copies of one defect, the strongest is kept — and of those, one that is structural
        # with no local fix, so the list carries what a BLOCK rests on. Every lens that raised
        # it is named, the kept copy's first.
        kept = min(same, key=_strongest_first)
        lenses = tuple(
            dict.fromkeys([*kept.lenses, *(lens for item in same for lens in item.lenses)])
        )
        merged.append(replace(kept, lenses=lenses))
    return tuple(sorted(merged, key=lambda entry: entry.severity.rank))  # stable: first raised


def _strongest_first(item: FixItem) -> tuple[int, bool]:
    finding = item.item
    redesign = isinstance(finding, Finding) and finding.structural and not finding.local_fix
    return item.severity.rank, not redesign


def harness_items(
    failed_commands: Sequence[str], malformed: Sequence[MalformedCard]
) -> tuple[FixItem, ...]:
    """The blocker findings the court records itself: one from lens `harness` per failed
    verification command (P-5), one per malformed card (P-4). Raises nothing."""
    failed = tuple(
        FixItem(
            kind=PanelItemKind.FINDING,
            severity=Severity.BLOCKER,
            lenses=(HARNESS_LENS,),
            claim=VERIFICATION_FAILED,
            location=None,
            fix=None,
            fingerprint=fingerprint(VERIFICATION_FAILED, None),
            detail=command,
        )
        for command in failed_commands
    )
    return failed + tuple(
        FixItem(
            kind=PanelItemKind.FINDING,
            severity=Severity.BLOCKER,
            lenses=(card.lens,),
            claim=card.claim,
            location=None,
            fix=None,
            fingerprint=fingerprint(card.claim, None),
            detail=f"{card.reason}: {card.detail}" if card.detail else card.reason,
        )
        for card in malformed
    )


def fix_list(
    cards: Sequence[CheckedCard],
    failed_commands: Sequence[str] = (),
    malformed: Sequence[MalformedCard] = (),
) -> tuple[FixItem, ...]:
    """P-8's fix list: the court's own blocker findings and every unrefuted finding and
    scenario, ordered by severity (stable: the court's first, then as raised). Raises nothing."""
    items = harness_items(failed_commands, malformed) + raised_items(cards)
    return tuple(sorted(items, key=lambda entry: entry.severity.rank))


def caveats(items: Sequence[FixItem], dissents: Sequence[Dissent]) -> Caveats:
    """The non-blocking caveats among `items`, and the `dissents`. Raises nothing."""
    return Caveats(tuple(item for item in items if not item.blocking), tuple(dissents))
