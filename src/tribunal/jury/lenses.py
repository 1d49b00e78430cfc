"""The lenses a convening seats, one juror each (L-1). A fleet's `lenses:` re-routes these and
adds its own, never removes one; only the review contract narrows the jury (E-2 `lenses`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Lens:
    """One lens: its id (the literal a verdict must carry), its tier, and the question it asks."""

    id: str
    tier: str
    question: str


# L-1: the default eight, in this order: two per tier.
DEFAULT_LENSES: tuple[Lens, ...] = (
    Lens("defect", "generalist", "What actually breaks?"),
    Lens("proportion", "generalist", "Is this the right size for the intent?"),
    Lens(
        "operator_consequence",
        "operator_safety",
        "What is destructive or unsafe for the human who runs it?",
    ),
    Lens("telemetry", "operator_safety", "Can a failure be diagnosed from logs and errors?"),
    Lens("reversibility", "deep_state", "Can it roll back cleanly if it dies mid-run?"),
    Lens(
        "state_continuity",
        "deep_state",
        "Orphaned or clobbered state, context downstream needs?",
    ),
    Lens("resource_economy", "fast_structural", "Wasted loops, calls, memory?"),
    Lens("boundary_condition", "fast_structural", "Null, empty, wrong-typed, malformed input?"),
)

DEFAULTS_BY_ID: dict[str, Lens] = {lens.id: lens for lens in DEFAULT_LENSES}


@dataclass(frozen=True)
class Jury:
    """The lenses that sit for one change, and those of the whole jury that do not (E-2: only
    the review contract narrows the jury, and every report names what it left out)."""

    seated: tuple[Lens, ...]
    not_seated: tuple[str, ...] = ()

    @classmethod
    def whole(cls, lenses: Sequence[Lens]) -> Jury:
        """Every lens sits."""
        return cls(tuple(lenses))

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the seated lenses, in order."""
        return tuple(lens.id for lens in self.seated)
