"""P-1/P-4 as data: the frozen criteria's dimensions and target, and a scorecard as parsed.

Reading a card's JSON into these is `card_reader`'s job (it also decides what is `malformed`);
here the dataclasses check only what the arithmetic relies on, and raise `BadInput` otherwise.
Every number that is ever compared is a `Fraction` (P-7: exact rational arithmetic).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from tribunal.enums import CardFault, Recommendation, ScenarioKind, ScorecardPhase, Severity
from tribunal.errors import BadInput

DEFAULT_TARGET = Fraction(4, 5)  # P-1: target 0.80 unless the criteria say otherwise
MIN_SCORE = 1
MAX_SCORE = 10

Exact = Fraction | int | str


def exact(value: Exact | float, *, field_name: str) -> Fraction:
    """`value` as an exact Fraction; a float is read as the decimal it prints as (0.8 is 4/5,
    not the binary double). Raises BadInput for a bool or text that is not a number."""
    if isinstance(value, bool):
        raise BadInput(f"expected a number, got {value!r}", field=field_name)
    try:
        return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError) as error:
        raise BadInput(f"expected a number, got {value!r}", field=field_name) from error


def _text(value: str | None) -> str | None:
    """`value`, or None when it is missing or blank."""
    return value if value is not None and value.strip() else None


@dataclass(frozen=True)
class QuoteEvidence:
    """P-4 evidence `{quote, location}`: a verbatim quote, where it is (`path:line`), or both."""

    quote: str | None
    location: str | None = None

    def __post_init__(self) -> None:
        if _text(self.quote) is None and _text(self.location) is None:
            raise BadInput("evidence needs a quote or a location", field="evidence")


@dataclass(frozen=True)
class CommandEvidence:
    """P-4 evidence `{command, output}`: output a verification command printed."""

    command: str
    output: str


Evidence = QuoteEvidence | CommandEvidence


@dataclass(frozen=True)
class Score:
    """One dimension's score on one card: an integer 1–10, a confidence in [0, 1] (recorded and
    read by the confidence trigger, never a multiplier), and the evidence it cites."""

    score: int
    confidence: Fraction
    evidence: tuple[Evidence, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.score, bool) or not isinstance(self.score, int):
            raise BadInput(f"a score is an integer, got {self.score!r}", field="score")
        if not MIN_SCORE <= self.score <= MAX_SCORE:
            raise BadInput(f"a score is 1 to 10, got {self.score}", field="score")
        if not isinstance(self.confidence, Fraction):
            raise BadInput("a confidence is an exact Fraction (see Score.of)", field="confidence")
        if not 0 <= self.confidence <= 1:
            raise BadInput(f"a confidence is 0 to 1, got {self.confidence}", field="confidence")

    @classmethod
    def of(cls, score: int, confidence: Exact | float, *evidence: Evidence) -> Score:
        """A score whose confidence is given as a number or decimal text (`0.8`, `"0.8"`).
        Raises BadInput as the constructor does."""
        return cls(score, exact(confidence, field_name="confidence"), tuple(evidence))


@dataclass(frozen=True)
class FailureScenario:
    """P-2/P-4: a named failure scenario — which input, which wrong behaviour — and where."""

    input: str
    wrong_behaviour: str
    kind: ScenarioKind
    location: str | None = None
    quote: str | None = None


@dataclass(frozen=True)
class Finding:
    """P-4: a finding. `fix` is the local fix, or None; `structural` marks a defect whose remedy
    is a redesign rather than a local fix (P-8's BLOCK)."""

    severity: Severity
    claim: str
    location: str | None = None
    quote: str | None = None
    fix: str | None = None
    structural: bool = False

    @property
    def local_fix(self) -> bool:
        """True when the finding names a local fix."""
        return _text(self.fix) is not None


@dataclass(frozen=True)
class Scorecard:
    """P-4: one member's well-formed card for one phase of one round. Every dimension of the
    criteria is scored (a card missing one is malformed, and never reaches this shape)."""

    lens: str
    round: int
    phase: ScorecardPhase
    scores: Mapping[str, Score]
    recommendation: Recommendation
    failure_scenarios: tuple[FailureScenario, ...] = ()
    findings: tuple[Finding, ...] = ()
    top_concern: str = ""
    escalation: str | None = None

    def __post_init__(self) -> None:
        if not self.lens.strip():
            raise BadInput("a scorecard names its lens", field="lens")
        if isinstance(self.round, bool) or self.round < 1:
            raise BadInput(f"a round is 1 or more, got {self.round!r}", field="round")
        # Frozen means frozen: the mapping cannot be changed behind the card's back.
        object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))

    @property
    def escalates(self) -> str | None:
        """The card's escalation reason, or None when it has none (a blank one is none)."""
        return _text(self.escalation)


@dataclass(frozen=True)
class MalformedCard:
    """P-4: a member whose card for `phase` was not the shape (`reason`: `malformed`, or
    `adversary_did_not_oppose`); its scores are absent from that phase. `detail` says what was
    wrong, in words; `raw_tail` keeps the reply's last 2 KB (L-6), secrets redacted (L-8)."""

    lens: str
    rung: str
    phase: ScorecardPhase = ScorecardPhase.SCORE
    reason: str = CardFault.MALFORMED
    detail: str = ""
    raw_tail: str | None = None

    @property
    def claim(self) -> str:
        """P-4: the blocker finding recorded for it."""
        return f"malformed scorecard from {self.rung}"


@dataclass(frozen=True)
class Dimension:
    """P-1: a dimension of the frozen criteria and its weight (positive; normalised by
    `Criteria`)."""

    id: str
    weight: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        if not self.id.strip():
            raise BadInput("a dimension has an id", field="dimensions")
        if not isinstance(self.weight, Fraction | int) or isinstance(self.weight, bool):
            raise BadInput(f"{self.id}: a weight is an exact number", field="dimensions")
        if self.weight <= 0:
            raise BadInput(
                f"{self.id}: a weight is positive, got {self.weight}", field="dimensions"
            )


@dataclass(frozen=True)
class Criteria:
    """P-1: what a panel scores against — the dimensions, in order, and the target."""

    dimensions: tuple[Dimension, ...]
    target: Fraction = DEFAULT_TARGET
    weights: Mapping[str, Fraction] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = [dimension.id for dimension in self.dimensions]
        if not ids:
            raise BadInput("the criteria name no dimension", field="dimensions")
        if len(set(ids)) != len(ids):
            raise BadInput("a dimension id is listed twice", field="dimensions")
        if not isinstance(self.target, Fraction | int) or not 0 < self.target <= 1:
            raise BadInput(f"a target is in (0, 1], got {self.target}", field="target")
        total = sum((Fraction(d.weight) for d in self.dimensions), Fraction(0))
        # P-1: weights normalised to sum 1, exactly.
        normalised = {d.id: Fraction(d.weight) / total for d in self.dimensions}
        object.__setattr__(self, "weights", MappingProxyType(normalised))

    @classmethod
    def of(
        cls, weights: Mapping[str, Exact | float], target: Exact | float = DEFAULT_TARGET
    ) -> Criteria:
        """Criteria from `{dimension id: weight}` in order, numbers read exactly (see `exact`).
        Raises BadInput for a weight or target that is not a number or out of range."""
        return cls(
            tuple(
                Dimension(name, exact(weight, field_name=f"dimensions.{name}"))
                for name, weight in weights.items()
            ),
            exact(target, field_name="target"),
        )

    @property
    def ids(self) -> tuple[str, ...]:
        """The dimension ids, in the criteria's order."""
        return tuple(dimension.id for dimension in self.dimensions)
