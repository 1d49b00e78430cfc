"""Whether a panel sits at all (P-8's NOT_CONVENED row, P-9): decided from the executor's report,
before any command runs or any member is called.

- NEEDS_CONTEXT or BLOCKED: no panel — the executor needs something, not a verdict;
- DONE (or DONE_WITH_CONCERNS) without an address that resolves to a commit, or with an empty
  diff: no panel (it needs context: there is nothing to judge);
- DONE_WITH_CONCERNS with a correctness or scope concern not resolved in the ledger: no panel
  until a person resolves it (`tribunal adjudicate --slice --concern`); observations are
  recorded, never blocking.

A pure function: the workflow resolves the address and reads the ledger and hands in the facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tribunal.enums import ExecutorStatus


@dataclass(frozen=True)
class ReportFacts:
    """What the rules read: the report's status, whether its address resolved to a commit, whether
    base...head changes anything, and its blocking concerns as (number, fingerprint, text)."""

    status: ExecutorStatus
    address_resolves: bool
    diff_empty: bool
    blocking_concerns: Sequence[tuple[int, str, str]] = ()


def not_convened(facts: ReportFacts, resolved: Iterable[str] = ()) -> str | None:
    """The reason no panel sits for a report with `facts` (concerns whose fingerprints are in
    `resolved` count as resolved), or None when the panel convenes."""
    status = facts.status
    if status is ExecutorStatus.NEEDS_CONTEXT:
        return "the executor reports NEEDS_CONTEXT: hand it what it needs, then report again"
    if status is ExecutorStatus.BLOCKED:
        return (
            "the executor reports BLOCKED: change the context, the model or the slice, then "
            "report again"
        )
    if not facts.address_resolves:
        return "NEEDS_CONTEXT: the report names no address that resolves to a commit"
    if facts.diff_empty:
        return "NEEDS_CONTEXT: the address changes nothing since base"
    done = set(resolved)
    open_concerns = [
        (number, text) for number, fingerprint, text in facts.blocking_concerns
        if fingerprint not in done
    ]  # fmt: skip
    if status is ExecutorStatus.DONE_WITH_CONCERNS and open_concerns:
        listed = "; ".join(f"concern {number}: {text}" for number, text in open_concerns)
        return (
            f"unresolved correctness or scope concerns ({listed}): resolve each with tribunal "
            "adjudicate --concern N before the panel sits"
        )
    return None


def retries_the_same_blocked(
    status: ExecutorStatus, executor: str, context: str, previous: dict[str, str] | None
) -> bool:
    """P-9: True when a BLOCKED report repeats the previous BLOCKED dispatch's executor and
    context — the same model retried unchanged, which is refused."""
    return (
        status is ExecutorStatus.BLOCKED
        and previous is not None
        and previous.get("executor") == executor
        and previous.get("context") == context
    )


def beyond_budget(
    round_number: int, rounds: int, spent: int, weight: int, dispatches: int
) -> str | None:
    """P-8: why round `round_number` (spending `weight` more of the `dispatches` budget, `spent`
    already) is beyond the budget, or None. Decided before any command runs or member sits."""
    if round_number > rounds:
        return f"round {round_number} is beyond the budget of {rounds} round(s)"
    if spent + weight > dispatches:
        return (
            f"the dispatches reach {spent + weight}, beyond the budget of {dispatches} "
            f"(this report's complexity is {weight})"
        )
    return None
