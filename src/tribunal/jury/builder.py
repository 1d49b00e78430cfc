"""L-2: the builder is declared and its exclusion is structural.

`--builder NAME` resolves case-insensitively to a rung id, a model id, or a declared family.
Every rung of the builder's family, and every rung whose model carries the builder's name (or the
builder's model id) as a run of tokens — split on non-letters — is refused before any dispatch,
on every ladder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tribunal.enums import BuilderMatch
from tribunal.errors import BadInput
from tribunal.jury.fleet import Fleet, Rung

_LETTERS = re.compile(r"[^\W\d_]+")


def tokens(text: str) -> tuple[str, ...]:
    """`"qwen2.5-coder:14b"` -> `("qwen", "coder", "b")`: runs of letters, case-folded."""
    return tuple(word.casefold() for word in _LETTERS.findall(text))


@dataclass(frozen=True)
class Builder:
    """The declared builder: the families it belongs to and the token runs that betray it."""

    name: str
    matched: BuilderMatch
    families: tuple[str, ...]
    token_runs: tuple[tuple[str, ...], ...]

    @property
    def family(self) -> str:
        """`builder_family` as a run records it (families joined when a model id spans two)."""
        return ",".join(self.families)

    def excludes(self, rung: Rung) -> str | None:
        """Why `rung` may not sit for this builder (the detail of `builder_family`), or None."""
        if rung.family.casefold() in {family.casefold() for family in self.families}:
            return f"family {rung.family!r} is the builder's"
        if rung.model is not None:
            model_tokens = tokens(rung.model)
            for run in self.token_runs:
                if _contains_run(model_tokens, run):
                    return f"model {rung.model!r} carries the builder token {'-'.join(run)!r}"
        return None


def resolve_builder(fleet: Fleet, name: str) -> Builder:
    """Resolve `name` to a rung id, else a model id, else a family of `fleet` (case-insensitive).

    Returns the `Builder`; raises `BadInput` (field `--builder`, listing the known families)
    when the name resolves to none of them.
    """
    wanted = name.strip().casefold()
    rungs = list(fleet.rungs.values())
    by_id = [rung for rung in rungs if rung.id.casefold() == wanted]
    by_model = [rung for rung in rungs if (rung.model or "").casefold() == wanted]
    runs = [tokens(name)]
    if wanted and (by_id or by_model):
        matched = by_id or by_model
        families = _unique(rung.family for rung in matched)
        runs += [tokens(rung.model) for rung in matched if rung.model is not None]
        kind = BuilderMatch.RUNG if by_id else BuilderMatch.MODEL
        return Builder(name, kind, families, _runs(runs))
    family = next((f for f in fleet.families if wanted and f.casefold() == wanted), None)
    if family is None:
        raise BadInput(
            f"{name!r} names no rung id, model id or family of {fleet.label}; "
            f"known families: {', '.join(fleet.families)}",
            field="--builder",
        )
    return Builder(name, BuilderMatch.FAMILY, (family,), _runs(runs))


def _contains_run(haystack: tuple[str, ...], run: tuple[str, ...]) -> bool:
    width = len(run)
    return any(haystack[i : i + width] == run for i in range(len(haystack) - width + 1))


def _runs(runs: list[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    # A name with no letters ("4") betrays nothing: an empty run would match every model.
    return tuple(dict.fromkeys(run for run in runs if run))


def _unique(families: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for family in families:
        seen.setdefault(family.casefold(), family)
    return tuple(sorted(seen.values(), key=str.casefold))


@dataclass(frozen=True)
class EnvelopeTerms:
    """E-3 terms the fleet and the builder add to the envelope's identity scan."""

    builder: tuple[str, ...]  # the builder's model ids: a hit fails the build
    content: tuple[str, ...]  # family names and other fleet model ids: manifest warnings


def envelope_terms(fleet: Fleet, builder: Builder | None) -> EnvelopeTerms:
    """E-3: the builder's model ids (only when `--builder` named a rung or a model: a family
    names no model) fail the build; every family name and every other fleet model id is
    content (`import openai` is code, not authorship) and becomes a manifest warning.
    `builder` None: no builder declared, every model id is content."""
    wanted = builder.name.strip().casefold() if builder is not None else ""
    own: list[str] = []
    if builder is None:
        pass
    elif builder.matched is BuilderMatch.RUNG:
        own = [r.model or "" for r in fleet.rungs.values() if r.id.casefold() == wanted]
    elif builder.matched is BuilderMatch.MODEL:
        own = [r.model or "" for r in fleet.rungs.values() if (r.model or "").casefold() == wanted]
    own_keys = {model.casefold() for model in own if model}
    models = [rung.model for rung in fleet.rungs.values() if rung.model is not None]
    content = [*fleet.families, *(m for m in models if m.casefold() not in own_keys)]
    return EnvelopeTerms(
        builder=tuple(dict.fromkeys(m for m in own if m)),
        content=tuple(dict.fromkeys(content)),
    )


def builder_outside(fleet: Fleet, name: str) -> Builder:
    """The builder `name` names as `resolve_builder` resolves it, or — when no rung, model or
    family of `fleet` is it (an executor the fleet does not hold) — a builder of the family
    `name` (and of its provider, the text before a `/`) whose tokens still betray a rung's
    model. P-9: a panel's executor need not be one of its fleet's models."""
    try:
        return resolve_builder(fleet, name)
    except BadInput:
        families = _unique([name.strip(), name.strip().split("/")[0]])
        return Builder(name, BuilderMatch.FAMILY, families, _runs([tokens(name)]))


def both(first: Builder, second: Builder) -> Builder:
    """A builder excluding what either excludes: `first`'s name, both families and tokens."""
    return Builder(
        first.name,
        first.matched,
        _unique([*first.families, *second.families]),
        _runs([*first.token_runs, *second.token_runs]),
    )
