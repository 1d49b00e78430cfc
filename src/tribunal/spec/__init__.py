"""Spec loading, the type language, the safe expression evaluator (SPEC §1, T-2).

Public API (reused by precedents' `next_check.when`, R-2/R-4):
`compile_expression(text, *, source, line, field) -> Expression` (raises BadInput),
`Expression.names`, `Expression.evaluate(bindings)` (raises CannotEvaluate with `why`),
`load_spec(path, label) -> Spec`, `Spec.run(given, payload) -> SpecRun`.
"""

from __future__ import annotations

from tribunal.errors import CannotEvaluate
from tribunal.spec.expression import Expression, compile_expression
from tribunal.spec.load import load_spec
from tribunal.spec.model import Spec, SpecRun

__all__ = ["CannotEvaluate", "Expression", "Spec", "SpecRun", "compile_expression", "load_spec"]
