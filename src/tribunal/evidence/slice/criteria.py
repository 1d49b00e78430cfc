"""Frozen criteria (P-1): what a slice is scored against, fixed before the artifact exists.

`criteria.yaml` is validated against the shipped `criteria` schema; numbers that are ever
compared (weights, target) are read as exact Fractions of the decimals written, so `0.8` is 4/5
and never a binary double. The panel's lenses are exactly those listed (an adversary is required),
else the default of the risk: low `quality, adversary`, normal `quality, fitness, adversary`;
high adds two lenses of the criteria's own and so must list them. The file's sha256 (of its bytes)
is what freezing records and every output names.
"""

from __future__ import annotations

import hashlib
import math
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from tribunal.documents import Document, load_any, validate
from tribunal.enums import PanelRisk

ADVERSARY = "adversary"
DEFAULT_TARGET = Fraction(4, 5)
DEFAULT_ROUNDS = 3
DEFAULT_DISPATCHES = 5
DEFAULT_TIMEOUT_S = 300.0
HIGH_RISK_OWN_LENSES = 2  # P-1: a high-risk slice adds two lenses of its own

# P-2: the default lenses and the question each asks. E-5: no question shows a placeholder such
# as `<reason>`: a seat copies what it is shown, so the adversary is told what to write instead.
PANEL_QUESTIONS = {
    "quality": (
        "Spec compliance first: what the request asks for that is missing, extra or misread; "
        "then correctness."
    ),
    "fitness": "Real users, edge cases and integration: does it hold where it will be used?",
    ADVERSARY: (
        "Oppose: make the strongest case against shipping. Name every concern as a failure "
        "scenario (which input, which wrong behaviour). For a correctness or safety concern you "
        "believe cannot be rebutted, escalate: write ESCALATE, a colon and the reason."
    ),
}
DEFAULT_LENSES = {
    PanelRisk.LOW: ("quality", ADVERSARY),
    PanelRisk.NORMAL: ("quality", "fitness", ADVERSARY),
}


@dataclass(frozen=True)
class WeightedDimension:
    """A dimension to score: its id, its weight as written (positive), and what it means."""

    id: str
    weight: Fraction
    description: str = ""


@dataclass(frozen=True)
class PanelLens:
    """A lens the panel seats: its id and the question it answers."""

    id: str
    question: str

    @property
    def adversary(self) -> bool:
        """True for the lens that must oppose (P-2)."""
        return self.id == ADVERSARY


@dataclass(frozen=True)
class SliceCriteria:
    """Loaded, validated criteria of one slice, with the sha256 of the file's bytes."""

    label: str
    sha256: str
    slice_id: str
    request: str
    dimensions: tuple[WeightedDimension, ...]
    lenses: tuple[PanelLens, ...]
    target: Fraction = DEFAULT_TARGET
    risk: PanelRisk = PanelRisk.NORMAL
    verification_commands: tuple[str, ...] = ()
    known_risks: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    operative_skills: tuple[str, ...] = ()
    rounds: int = DEFAULT_ROUNDS
    dispatches: int = DEFAULT_DISPATCHES
    timeout_s: float = DEFAULT_TIMEOUT_S
    document: Document | None = None

    @property
    def short_sha(self) -> str:
        """The first twelve hex digits of the sha256, as messages name it."""
        return self.sha256[:12]


def criteria_sha256(data: bytes) -> str:
    """P-1: the sha256 of a criteria file's bytes."""
    return hashlib.sha256(data).hexdigest()


def load_criteria(path: Path, label: str | None = None) -> SliceCriteria:
    """Load and validate the criteria at `path`.

    Returns the SliceCriteria; raises BadInput (file, line, field) for a malformed file, a
    dimension listed twice, a number that is not finite, lenses without an adversary or listed
    twice, an unknown lens without its own question, a high-risk slice without two lenses of its
    own, or a reference that is not a path inside the repository.
    """
    document = load_any(path, label)
    validate(document, "criteria")
    data: dict[str, Any] = document.data
    dimensions = _dimensions(document, data["dimensions"])
    risk = PanelRisk(data.get("risk", PanelRisk.NORMAL.value))
    budget = data.get("budget") or {}
    timeout_s = data.get("timeout_s", DEFAULT_TIMEOUT_S)
    if not math.isfinite(timeout_s):
        raise document.bad("a timeout is a finite number of seconds", ("timeout_s",))
    return SliceCriteria(
        label=document.label,
        sha256=criteria_sha256(document.text.encode("utf-8")),
        slice_id=data["slice_id"],
        request=data["request"],
        dimensions=dimensions,
        lenses=_lenses(document, data.get("lenses"), risk),
        target=_exact(document, data.get("target", DEFAULT_TARGET), ("target",)),
        risk=risk,
        verification_commands=tuple(data.get("verification_commands") or ()),
        known_risks=tuple(data.get("known_risks") or ()),
        references=tuple(
            _reference(document, text, index)
            for index, text in enumerate(data.get("references") or ())
        ),
        operative_skills=tuple(data.get("operative_skills") or ()),
        rounds=budget.get("rounds", DEFAULT_ROUNDS),
        dispatches=budget.get("dispatches", DEFAULT_DISPATCHES),
        timeout_s=float(timeout_s),
        document=document,
    )


def _dimensions(
    document: Document, items: Sequence[dict[str, Any]]
) -> tuple[WeightedDimension, ...]:
    seen: set[str] = set()
    dimensions = []
    for index, item in enumerate(items):
        if item["id"] in seen:
            raise document.bad(f"dimension {item['id']!r} is listed twice", ("dimensions", index))
        seen.add(item["id"])
        weight = _exact(document, item.get("weight", 1), ("dimensions", index, "weight"))
        if weight <= 0:
            raise document.bad("a weight is positive", ("dimensions", index, "weight"))
        dimensions.append(WeightedDimension(item["id"], weight, item.get("description", "")))
    return tuple(dimensions)


def _lenses(document: Document, listed: Any, risk: PanelRisk) -> tuple[PanelLens, ...]:
    if listed is None:
        if risk is PanelRisk.HIGH:
            raise document.bad(
                "a high-risk slice lists its lenses: quality, fitness, adversary and two of its "
                "own ({id, question})",
                ("lenses",),
            )
        return tuple(PanelLens(lens, PANEL_QUESTIONS[lens]) for lens in DEFAULT_LENSES[risk])
    lenses: list[PanelLens] = []
    for index, item in enumerate(listed):
        where = ("lenses", index)
        lens_id = item if isinstance(item, str) else item["id"]
        if any(lens.id == lens_id for lens in lenses):
            raise document.bad(f"lens {lens_id!r} is listed twice", where)
        if isinstance(item, str):
            if lens_id not in PANEL_QUESTIONS:
                raise document.bad(
                    f"lens {lens_id!r} is not a default lens ({', '.join(PANEL_QUESTIONS)}): "
                    "give it as {id, question}",
                    where,
                )
            lenses.append(PanelLens(lens_id, PANEL_QUESTIONS[lens_id]))
        else:
            lenses.append(PanelLens(lens_id, item["question"].strip()))
    if not any(lens.adversary for lens in lenses):
        raise document.bad("the panel needs an adversary: list `adversary`", ("lenses",))
    own = [lens for lens in lenses if lens.id not in PANEL_QUESTIONS]
    if risk is PanelRisk.HIGH and len(own) < HIGH_RISK_OWN_LENSES:
        raise document.bad(
            f"a high-risk slice adds {HIGH_RISK_OWN_LENSES} lenses of its own; it lists {len(own)}",
            ("lenses",),
        )
    return tuple(lenses)


def _exact(document: Document, value: Any, where: tuple[str | int, ...]) -> Fraction:
    """A written number as the exact decimal it shows; NaN and infinities are bad input."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise document.bad(f"expected a number, got {value!r}", where)
    if isinstance(value, float) and not math.isfinite(value):
        raise document.bad("a number here is finite", where)
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _reference(document: Document, text: str, index: int) -> str:
    path = Path(text)
    if path.is_absolute() or ".." in path.parts or text.strip() in ("", "."):
        raise document.bad("a reference is a path inside the repository", ("references", index))
    return path.as_posix()


def bytes_at(repo: Path, rev: str, path: Path) -> bytes | None:
    """The bytes of `path` (a file inside `repo`) in commit `rev`, or None when the commit does
    not hold it (or `path` lies outside the repository). P-1: criteria committed before the work
    are frozen by that commit."""
    try:
        relative = path.resolve().relative_to(repo.resolve()).as_posix()
    except ValueError:
        return None
    shown = subprocess.run(
        ["git", "-C", str(repo), "show", f"{rev}:{relative}"], capture_output=True, check=False
    )
    return shown.stdout if shown.returncode == 0 else None
