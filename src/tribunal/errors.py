"""The one error hierarchy (STYLE: every exception tribunal raises on purpose is a TribunalError).

Domain code raises these; only `tribunal.cli` turns them into messages and exit codes (C-2).
"""

from __future__ import annotations


class TribunalError(Exception):
    """Base class of every error tribunal raises on purpose."""


class BadInput(TribunalError):
    """C-3: input the user gave is unusable. Names the file, the line where known, the field.

    The CLI prints `str(error)` as one line and exits 2; nothing is written.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source if self.line is None else f"{self.source}:{self.line}"
            where += ": "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.message}"


class BrokenRef(TribunalError):
    """An `evidence_ref` (or a linked precedent) that does not resolve inside the repository."""


class NotFinished(TribunalError):
    """A run could not reach a verdict (no verdict reachable: exit 3)."""


class CannotEvaluate(TribunalError):
    """T-2: an expression that cannot be evaluated for these bindings (a division by zero, an
    unbound name, a `None` operand, a result beyond the bounds). `why` says which.

    In `derive`, `diagnostics` or `derive_after` it makes a duel case DEFERRED with reason
    `cannot evaluate <expr>: <why>`; in an invariant it lists the invariant under `not_evaluated`.
    """

    def __init__(self, why: str, *, expression: str | None = None) -> None:
        super().__init__(why if expression is None else f"cannot evaluate {expression}: {why}")
        self.why = why
        self.expression = expression
