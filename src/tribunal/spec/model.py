"""T-2: a loaded spec and the evaluation order for one case.

Order: the declared fields (with defaults) -> `derive` -> `diagnostics` (first match binds
`diagnostic_code` and `halt_before`; `halted` is true when one fired) -> `derive_after` ->
`invariants`. An expression that cannot be evaluated in the first three stops the run
(`SpecRun.blocked`); an invariant that cannot be evaluated is `not_evaluated`, never a pass or a
fail.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tribunal.enums import InvariantStatus
from tribunal.spec.expression import EVALUATION_ERRORS, Evaluator, Expression, why_not

# T-2: names the diagnostics stage binds for `derive_after` and the invariants.
DIAGNOSTIC_CODE = "diagnostic_code"
HALT_BEFORE = "halt_before"
HALTED = "halted"
BOUND_BY_DIAGNOSTICS = (DIAGNOSTIC_CODE, HALT_BEFORE, HALTED)


@dataclass(frozen=True)
class FieldDecl:
    """One declared `given` or `when.payload` field: its type word and JSON Schema fragment."""

    name: str
    type_word: str
    schema: dict[str, Any]
    required: bool = True
    has_default: bool = False
    default: Any = None


@dataclass(frozen=True)
class Derivation:
    """`name = expression`, one entry of `derive` or `derive_after`."""

    name: str
    expression: Expression


@dataclass(frozen=True)
class Diagnostic:
    """`{code, when, halt_before}`: the first whose `when` holds fires."""

    code: str
    when: Expression
    halt_before: str


# one per invariant per case, so slots and no `frozen` (whose __init__ costs five times as
# much); nothing changes a check once made.
@dataclass(slots=True)
class InvariantCheck:
    """One invariant's outcome for a case. `bindings` are the case's bindings once its run is
    complete (empty when the run was blocked); `values` are the names the invariant reads."""

    invariant: Expression
    status: InvariantStatus
    bindings: Mapping[str, Any]
    why: str | None = None  # set when not_evaluated

    @property
    def values(self) -> dict[str, Any]:
        """The names the invariant reads, as bound (X-4: gathered only when asked for)."""
        bindings = self.bindings
        return {name: bindings[name] for name in self.invariant.names if name in bindings}


@dataclass(frozen=True, slots=True)
class Blocked:
    """The expression that could not be evaluated, stopping the run, and why."""

    expression: Expression
    why: str


@dataclass(slots=True)
class SpecRun:
    """The outcome of one case against a spec."""

    bindings: dict[str, Any]
    diagnostic: Diagnostic | None = None
    blocked: Blocked | None = None
    invariants: list[InvariantCheck] = field(default_factory=list)

    @property
    def halted(self) -> bool:
        """True when a diagnostic fired."""
        return self.diagnostic is not None


@dataclass(frozen=True)
class Spec:
    """A spec file, loaded, checked and compiled (see `tribunal.spec.load.load_spec`)."""

    label: str  # the spec file's C-8 path
    spec_id: str
    scenario: str
    assertion_id: str
    rule: str
    given: tuple[FieldDecl, ...]
    payload: tuple[FieldDecl, ...]
    derive: tuple[Derivation, ...]
    diagnostics: tuple[Diagnostic, ...]
    derive_after: tuple[Derivation, ...]
    invariants: tuple[Expression, ...]
    verdicts: dict[str, str]
    next_steps: dict[str, str]
    lines: dict[str, int] = field(default_factory=dict)  # top-level key -> line

    def ref(self, line: int | None) -> str:
        """A key-based pointer into the spec: `<label>:<line>` (or the label alone)."""
        return self.label if line is None else f"{self.label}:{line}"

    def derivation(self, name: str) -> Derivation | None:
        """The `derive` or `derive_after` entry binding `name`, if any."""
        return self._derivations.get(name)

    @functools.cached_property
    def _derivations(self) -> dict[str, Derivation]:
        return {entry.name: entry for entry in (*self.derive, *self.derive_after)}

    def diagnostic(self, code: str) -> Diagnostic | None:
        """The diagnostic with code `code`, if declared."""
        return next((d for d in self.diagnostics if d.code == code), None)

    def bind(self, given: Mapping[str, Any], payload: Mapping[str, Any]) -> dict[str, Any]:
        """T-2: the declared fields as bound for a case: the value given, else the default,
        else None (an absent optional field). The values are assumed already validated."""
        given_fields, payload_fields = self._fields
        bindings = {name: given.get(name, default) for name, default in given_fields}
        for name, default in payload_fields:
            bindings[name] = payload.get(name, default)
        return bindings

    @functools.cached_property
    def _fields(self) -> tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]:
        """(name, default) of every declared field, given then payload, gathered once (X-4)."""
        return (
            tuple((decl.name, decl.default) for decl in self.given),
            tuple((decl.name, decl.default) for decl in self.payload),
        )

    def run(self, given: Mapping[str, Any], payload: Mapping[str, Any]) -> SpecRun:
        """Evaluate a case's validated fields through the spec, in the order of T-2.

        Returns the SpecRun; never raises for a case (cannot-evaluate is part of the result).
        """
        bindings = self.bind(given, payload)
        run = SpecRun(bindings=bindings)
        derive, diagnostics, derive_after, invariants = self._plan
        # the compiled closures are called directly and their errors mapped once, here,
        # exactly as Expression.evaluate maps them; `current` is the expression being evaluated.
        current: Expression | None = None
        try:
            for name, current, evaluate in derive:  # noqa: B007 - `current` is for the handlers
                bindings[name] = evaluate(bindings)
            for diagnostic, current, evaluate in diagnostics:  # noqa: B007 - as above
                value = evaluate(bindings)
                if value is True:
                    run.diagnostic = diagnostic  # T-2: first match wins
                    break
                if value is not False:
                    raise _NotBoolean(f"condition gave {type(value).__name__}, not a boolean")
            fired = run.diagnostic
            bindings[DIAGNOSTIC_CODE] = fired.code if fired else None
            bindings[HALT_BEFORE] = fired.halt_before if fired else None
            bindings[HALTED] = fired is not None
            for name, current, evaluate in derive_after:  # noqa: B007 - as above
                bindings[name] = evaluate(bindings)
        except _NotBoolean as stop:
            assert current is not None
            run.blocked = Blocked(current, stop.why)
        except EVALUATION_ERRORS as error:
            assert current is not None
            run.blocked = Blocked(current, why_not(error))
        if run.blocked is not None:
            # T-2: the invariants were never reached; say where the case stopped, not the
            # blocking expression's own trouble (which reads as if the invariant had it).
            why = f"not evaluated: the case stopped at {run.blocked.expression.text}"
            run.invariants = [
                InvariantCheck(inv, InvariantStatus.NOT_EVALUATED, {}, why)
                for inv in self.invariants
            ]
            return run
        run.invariants = [_check(entry, bindings) for entry in invariants]
        return run

    @functools.cached_property
    def _plan(
        self,
    ) -> tuple[
        tuple[tuple[str, Expression, Evaluator], ...],
        tuple[tuple[Diagnostic, Expression, Evaluator], ...],
        tuple[tuple[str, Expression, Evaluator], ...],
        tuple[tuple[Expression, Evaluator], ...],
    ]:
        """Every stage's expressions with their compiled closures, gathered once per spec."""
        return (
            tuple((entry.name, entry.expression, entry.expression.run) for entry in self.derive),
            tuple((entry, entry.when, entry.when.run) for entry in self.diagnostics),
            tuple(
                (entry.name, entry.expression, entry.expression.run) for entry in self.derive_after
            ),
            tuple((entry, entry.run) for entry in self.invariants),
        )


class _NotBoolean(Exception):
    """A diagnostic's `when` gave something other than a boolean (T-2: it cannot be evaluated)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


_SATISFIED = InvariantStatus.SATISFIED  # read once, not per check
_VIOLATED = InvariantStatus.VIOLATED
_NOT_EVALUATED = InvariantStatus.NOT_EVALUATED


def _check(entry: tuple[Expression, Evaluator], bindings: dict[str, Any]) -> InvariantCheck:
    invariant, evaluate = entry
    try:
        value = evaluate(bindings)
    except EVALUATION_ERRORS as error:
        return InvariantCheck(invariant, _NOT_EVALUATED, bindings, why_not(error))
    if value is True:
        return InvariantCheck(invariant, _SATISFIED, bindings)
    if value is False:
        return InvariantCheck(invariant, _VIOLATED, bindings)
    why = f"invariant gave {type(value).__name__}, not a boolean"
    return InvariantCheck(invariant, _NOT_EVALUATED, bindings, why)
