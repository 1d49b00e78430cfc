"""L-4: the floor of a ladder — three rungs able to hold a 120k-token artifact before its local
end, and a local survival rung at the end — so a wrong lens plus an annulment never hold a lens.
"""

from __future__ import annotations

from tribunal.jury.fleet import Fleet

FLOOR_RUNGS = 3
FLOOR_TOKENS = 120_000


def floor_warnings(fleet: Fleet, *, strict: bool = False) -> tuple[str, ...]:
    """One message per tier whose ladder (the primary ladder of a fused tier) misses the floor.

    Returns the messages; with `strict`, raises `BadInput` for the first one instead.
    """
    messages: list[str] = []
    for tier in fleet.tiers.values():
        rungs = [fleet.rungs[rung_id] for rung_id in tier.ladder]
        where: tuple[str, ...] = (
            ("tiers", tier.name, "primary") if tier.fused else ("tiers", tier.name)
        )
        problems = []
        end = len(rungs)
        while end and rungs[end - 1].local:
            end -= 1
        if end == len(rungs):
            problems.append("does not end on a local survival rung")
        able = sum(1 for rung in rungs[:end] if rung.holds(FLOOR_TOKENS))
        if able < FLOOR_RUNGS:
            problems.append(
                f"has {able} rung(s) able to hold a {FLOOR_TOKENS}-token artifact before its "
                f"local end, fewer than {FLOOR_RUNGS}"
            )
        for problem in problems:
            message = f"tier {tier.name!r} {problem} (the ladder's floor)"
            if strict:
                raise fleet.document.bad(message, where)
            messages.append(message)
    return tuple(messages)
