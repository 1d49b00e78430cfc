"""T-2: the safe expression evaluator — a whitelist over `ast.parse(mode="eval")`.

An expression is checked and compiled ONCE, when its spec is loaded, into a tree of Python
closures; evaluating it for a case only calls those closures (X-4: no re-walk of the AST per
case). Never `eval`/`exec`: names are looked up only in the bindings given, the only callables
are `min`, `max`, `floor`, `ceil` and `abs`, and every number that flows is bounded, so an
expression cannot reach attributes, imports or unbounded work (S-5).

Load time: anything outside the whitelist (attribute access, subscripts, other calls, lambdas,
comprehensions, f-strings, dunder names such as `__import__`), a literal beyond the bounds, or
nesting deeper than `MAX_DEPTH` raises `BadInput` naming the spec file, line and key.
Evaluation: a division by zero, an unbound name, a `None` operand where only `is`, `is not`, `==`
and `!=` accept one, or a result beyond the bounds raises `CannotEvaluate` with a `why`.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tribunal.errors import BadInput, CannotEvaluate

Bindings = Mapping[str, Any]
Evaluator = Callable[[Bindings], Any]

# T-2: exponents and magnitudes are bounded. Every number an expression reads or produces stays
# within MAX_MAGNITUDE, so one arithmetic step costs at most a product of two 60-bit integers.
MAX_MAGNITUDE = 10**18
MAX_EXPONENT = 64
MAX_DEPTH = 50  # nodes from the root to the deepest leaf
MAX_LENGTH = 2000  # characters of expression text
MAX_STRING = 1000  # characters of a string literal
_LOW, _HIGH = -MAX_MAGNITUDE, MAX_MAGNITUDE

FUNCTIONS: dict[str, tuple[Callable[..., Any], int, int | None]] = {
    # name -> (function, fewest arguments, most arguments or None for any)
    "min": (min, 2, None),
    "max": (max, 2, None),
    "floor": (math.floor, 1, 1),
    "ceil": (math.ceil, 1, 1),
    "abs": (abs, 1, 1),
}

_ARITHMETIC: dict[type[ast.operator], tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
    ast.Pow: ("**", operator.pow),
}

_COMPARISONS: dict[type[ast.cmpop], tuple[str, Callable[[Any, Any], Any], bool]] = {
    # op -> (symbol, function, accepts None)
    ast.Eq: ("==", operator.eq, True),
    ast.NotEq: ("!=", operator.ne, True),
    ast.Is: ("is", operator.is_, True),
    ast.IsNot: ("is not", operator.is_not, True),
    ast.Lt: ("<", operator.lt, False),
    ast.LtE: ("<=", operator.le, False),
    ast.Gt: (">", operator.gt, False),
    ast.GtE: (">=", operator.ge, False),
}

_REJECTED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access is not allowed",
    ast.Subscript: "subscripts are not allowed",
    ast.Lambda: "lambdas are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.NamedExpr: "assignment expressions are not allowed",
    ast.Starred: "starred arguments are not allowed",
}


@dataclass(frozen=True, eq=False)
class Expression:
    """One compiled expression of a spec (or of a precedent's `next_check.when`).

    `text` is the expression as written; `names` the binding names it reads, in order of first
    appearance; `source`, `line` and `field` say where it was written.
    """

    text: str
    names: tuple[str, ...]
    source: str | None
    line: int | None
    field: str | None
    _run: Evaluator = dataclasses.field(repr=False)

    def evaluate(self, bindings: Bindings) -> Any:
        """The value of the expression for `bindings` (int, float, str, bool or None).

        Raises CannotEvaluate (with `why`) and nothing else.
        """
        try:
            return self._run(bindings)
        except EVALUATION_ERRORS as error:
            raise CannotEvaluate(why_not(error), expression=self.text) from None

    @property
    def run(self) -> Evaluator:
        """The compiled closure itself, for a caller that evaluates many expressions per case
        and maps `EVALUATION_ERRORS` with `why_not` once (X-4); `evaluate` wraps it."""
        return self._run


# Everything evaluating a compiled expression may raise; `why_not` says why in T-2's words.
EVALUATION_ERRORS = (CannotEvaluate, ArithmeticError, TypeError, ValueError, RecursionError,
                     MemoryError)  # fmt: skip


def why_not(error: BaseException) -> str:
    """The `why` of a CannotEvaluate for one of EVALUATION_ERRORS."""
    if isinstance(error, CannotEvaluate):
        return error.why
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if isinstance(error, ArithmeticError | TypeError | ValueError):
        return str(error) or type(error).__name__
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return "out of memory"


def compile_expression(
    text: str, *, source: str | None = None, line: int | None = None, field: str | None = None
) -> Expression:
    """Check `text` against the whitelist and compile it into an Expression.

    Raises BadInput naming `source`, `line` and `field` for anything outside the whitelist, a
    syntax error, a literal beyond the bounds, or nesting deeper than MAX_DEPTH.
    """

    def bad(why: str) -> BadInput:
        return BadInput(f"{why} in expression {text!r}", source=source, line=line, field=field)

    if not isinstance(text, str) or not text.strip():
        raise bad("empty expression")
    if len(text) > MAX_LENGTH:
        raise BadInput(
            f"expression longer than {MAX_LENGTH} characters", source=source, line=line, field=field
        )
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise bad(f"syntax error ({error.msg})") from None
    except (RecursionError, MemoryError):
        raise bad("nested too deeply") from None
    except ValueError as error:  # e.g. a NUL character
        raise bad(str(error)) from None
    if _depth(tree.body) > MAX_DEPTH:
        raise bad(f"nested deeper than {MAX_DEPTH}")
    compiler = _Compiler(bad)
    run = compiler.compile(tree.body)
    return Expression(
        text=text.strip(),
        names=tuple(dict.fromkeys(compiler.names)),
        source=source,
        line=line,
        field=field,
        _run=run,
    )


def _depth(root: ast.AST) -> int:
    """Depth of the tree, computed without recursion (the tree may be arbitrarily deep)."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def _bounded(value: Any) -> Any:
    """T-2: a result beyond the bounds cannot be evaluated (and never flows on)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
            return value
    elif isinstance(value, float):
        if math.isfinite(value) and abs(value) <= MAX_MAGNITUDE:
            return value
    elif isinstance(value, complex):
        raise CannotEvaluate("result is a complex number")
    else:
        raise CannotEvaluate(f"unsupported value of type {type(value).__name__}")
    raise CannotEvaluate(f"result beyond bound {MAX_MAGNITUDE:.0e}")


def _within_bounds(value: Any) -> Any:
    """`_bounded`, with the plain in-bounds number (the common result) answered inline."""
    kind = type(value)
    if (kind is int or kind is float) and _LOW <= value <= _HIGH:
        return value
    return _bounded(value)


def _number(value: Any, symbol: str, operand: str) -> int | float:
    """An operand of arithmetic: a number (booleans are not numbers, T-2). `operand` is the
    operand's text (a field's name, mostly), named when it is not a number."""
    if value is None:
        raise CannotEvaluate(f"None operand for {symbol}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CannotEvaluate(f"{symbol} needs numbers, got {type(value).__name__} ({operand})")
    return value


def _unordered(left: Any, right: Any, symbol: str, operands: tuple[str, str]) -> CannotEvaluate:
    """Why the ordering `left <symbol> right` cannot be evaluated: a None operand, or a boolean
    (T-2: booleans are not numbers, so `flag > 0` is no comparison). Called only when one is."""
    if left is None or right is None:
        return CannotEvaluate(f"None operand for {symbol}")
    operand = operands[0] if type(left) is bool else operands[1]
    return CannotEvaluate(f"{symbol} needs numbers or strings, got bool ({operand})")


def _number_literal(node: ast.AST) -> tuple[int | float] | None:
    """`(value,)` when `node` is a number literal (already checked within the bounds)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        value: int | float = node.value  # type: ignore[assignment]
        return (value,)
    return None


def _not_none(value: Any, symbol: str) -> Any:
    if value is None:
        raise CannotEvaluate(f"None operand for {symbol}")
    return value


class _Compiler:
    """Turns a checked AST into closures; collects the names the expression reads."""

    def __init__(self, bad: Callable[[str], BadInput]) -> None:
        self.bad = bad
        self.names: list[str] = []

    def compile(self, node: ast.AST) -> Evaluator:
        for kind, why in _REJECTED.items():
            if isinstance(node, kind):
                raise self.bad(why)
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise self.bad(f"{type(node).__name__} is not allowed")
        result: Evaluator = method(node)
        return result

    def _Constant(self, node: ast.Constant) -> Evaluator:
        value = node.value
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                raise self.bad(f"string literal longer than {MAX_STRING} characters")
        elif value is not None and not isinstance(value, bool | int | float):
            raise self.bad(f"literal of type {type(value).__name__} is not allowed")
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and not (math.isfinite(value) and abs(value) <= MAX_MAGNITUDE)
        ):
            raise self.bad(f"literal {value!r} beyond bound {MAX_MAGNITUDE:.0e}")
        return lambda bindings: value

    def _Name(self, node: ast.Name) -> Evaluator:
        name = node.id
        if name.startswith("__"):
            raise self.bad(f"name {name!r} is not allowed")
        self.names.append(name)

        def lookup(bindings: Bindings) -> Any:
            try:
                value = bindings[name]
            except KeyError:
                raise CannotEvaluate(f"name {name!r} is not bound") from None
            kind = type(value)
            if kind is int or kind is float:
                return value if _LOW <= value <= _HIGH else _bounded(value)  # NaN: beyond
            if kind is str or kind is bool or value is None:
                return value
            if isinstance(value, int | float) and not isinstance(value, bool):
                _bounded(value)  # a subclass of int or float: the general check
            return value

        return lookup

    def _UnaryOp(self, node: ast.UnaryOp) -> Evaluator:
        operand = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda bindings: not _not_none(operand(bindings), "not")
        text = ast.unparse(node.operand)
        if isinstance(node.op, ast.USub):
            return lambda bindings: -_number(operand(bindings), "unary -", text)
        if isinstance(node.op, ast.UAdd):
            return lambda bindings: +_number(operand(bindings), "unary +", text)
        raise self.bad(f"operator {type(node.op).__name__} is not allowed")

    def _BinOp(self, node: ast.BinOp) -> Evaluator:
        entry = _ARITHMETIC.get(type(node.op))
        if entry is None:
            raise self.bad(f"operator {type(node.op).__name__} is not allowed")
        symbol, function = entry
        left, right = self.compile(node.left), self.compile(node.right)
        left_text, right_text = ast.unparse(node.left), ast.unparse(node.right)
        if isinstance(node.op, ast.Pow):
            exponent = node.right
            if isinstance(exponent, ast.UnaryOp) and isinstance(exponent.op, ast.USub | ast.UAdd):
                exponent = exponent.operand
            if (
                isinstance(exponent, ast.Constant)
                and isinstance(exponent.value, int | float)
                and abs(exponent.value) > MAX_EXPONENT
            ):
                raise self.bad(f"exponent {exponent.value!r} beyond bound {MAX_EXPONENT}")

            def power(bindings: Bindings) -> Any:
                base = _number(left(bindings), symbol, left_text)
                exp = _number(right(bindings), symbol, right_text)
                if abs(exp) > MAX_EXPONENT:
                    raise CannotEvaluate(f"exponent {exp!r} beyond bound {MAX_EXPONENT}")
                return _bounded(function(base, exp))

            return power

        literal = _number_literal(node.right)
        if literal is not None:
            constant = literal[0]

            def arithmetic_literal(bindings: Bindings) -> Any:
                # `x / 100` — the literal is a checked number; plain operands stay inline.
                x = left(bindings)
                if type(x) is not int and type(x) is not float:
                    return _bounded(function(_number(x, symbol, left_text), constant))
                result = function(x, constant)
                return result if _LOW <= result <= _HIGH else _bounded(result)

            return arithmetic_literal

        def arithmetic(bindings: Bindings) -> Any:
            # Left is read and checked before right is read, as the error named depends on it.
            x = left(bindings)
            if type(x) is not int and type(x) is not float:
                x = _number(x, symbol, left_text)
                return _bounded(function(x, _number(right(bindings), symbol, right_text)))
            y = right(bindings)
            if type(y) is not int and type(y) is not float:
                return _bounded(function(x, _number(y, symbol, right_text)))
            # int and float arithmetic gives int or float: the range test is the whole bound.
            result = function(x, y)
            return result if _LOW <= result <= _HIGH else _bounded(result)

        return arithmetic

    def _BoolOp(self, node: ast.BoolOp) -> Evaluator:
        operands = [self.compile(value) for value in node.values]
        # T-2: `and`/`or` short-circuit, so `x is not None and x < y` never compares a None.
        if isinstance(node.op, ast.And):

            def conjunction(bindings: Bindings) -> Any:
                value: Any = True
                for operand in operands:
                    value = operand(bindings)
                    if value is None:
                        raise CannotEvaluate("None operand for and")
                    if not value:
                        return value
                return value

            return conjunction

        def disjunction(bindings: Bindings) -> Any:
            value: Any = False
            for operand in operands:
                value = operand(bindings)
                if value is None:
                    raise CannotEvaluate("None operand for or")
                if value:
                    return value
            return value

        return disjunction

    def _Compare(self, node: ast.Compare) -> Evaluator:
        operands = [self.compile(node.left), *(self.compile(c) for c in node.comparators)]
        sides = [node.left, *node.comparators]
        texts = [ast.unparse(side) for side in sides]
        steps: list[tuple[str, Callable[[Any, Any], Any], bool]] = []
        for index, op in enumerate(node.ops):
            entry = _COMPARISONS.get(type(op))
            if entry is None:
                raise self.bad(f"comparison {type(op).__name__} is not allowed")
            if isinstance(op, ast.Is | ast.IsNot) and not any(
                isinstance(side, ast.Constant) and side.value is None
                for side in sides[index : index + 2]
            ):
                # Identity of numbers or strings is an implementation detail: only None.
                raise self.bad(f"'{entry[0]}' compares only with None")
            steps.append(entry)

        # The ordering comparisons (<, <=, >, >=) are those that accept no None; they take no
        # boolean either (T-2: a boolean is not a number, so `flag > 0` is not evaluated).
        if len(steps) == 1:
            symbol, function, accepts_none = steps[0]
            first, second = operands
            pair = (texts[0], texts[1])
            literal = node.comparators[0]
            if isinstance(literal, ast.Constant):
                constant = literal.value  # `x == 0`, `x is not None`: no call for the literal
                unordered_constant = constant is None or type(constant) is bool

                def compare_literal(bindings: Bindings) -> bool:
                    left = first(bindings)
                    if not accepts_none and (
                        left is None or unordered_constant or type(left) is bool
                    ):
                        raise _unordered(left, constant, symbol, pair)
                    return bool(function(left, constant))

                return compare_literal

            def compare_one(bindings: Bindings) -> bool:
                left = first(bindings)
                right = second(bindings)
                if not accepts_none and (
                    left is None or right is None or type(left) is bool or type(right) is bool
                ):
                    raise _unordered(left, right, symbol, pair)
                return bool(function(left, right))

            return compare_one

        pairs = list(itertools.pairwise(texts))

        def compare(bindings: Bindings) -> bool:
            left = operands[0](bindings)
            for (symbol, function, accepts_none), right_of, pair in zip(
                steps, operands[1:], pairs, strict=True
            ):
                right = right_of(bindings)
                if not accepts_none and (
                    left is None or right is None or type(left) is bool or type(right) is bool
                ):
                    raise _unordered(left, right, symbol, pair)
                if not function(left, right):
                    return False  # chained comparisons short-circuit like Python's
                left = right
            return True

        return compare

    def _IfExp(self, node: ast.IfExp) -> Evaluator:
        test, body, orelse = (
            self.compile(node.test),
            self.compile(node.body),
            self.compile(node.orelse),
        )

        def conditional(bindings: Bindings) -> Any:
            if _not_none(test(bindings), "if"):
                return body(bindings)
            return orelse(bindings)

        return conditional

    def _Call(self, node: ast.Call) -> Evaluator:
        if not isinstance(node.func, ast.Name):
            self.compile(node.func)  # names the construct: attribute access, a lambda, ...
            raise self.bad("only calls of min, max, floor, ceil and abs are allowed")
        name = node.func.id
        if name not in FUNCTIONS:
            raise self.bad(f"call of {name!r} is not allowed (only {', '.join(FUNCTIONS)})")
        if node.keywords:
            raise self.bad(f"{name}() takes no keyword arguments")
        arguments = [self.compile(argument) for argument in node.args]
        function, fewest, most = FUNCTIONS[name]
        if len(node.args) < fewest or (most is not None and len(node.args) > most):
            wanted = str(fewest) if most == fewest else f"at least {fewest}"
            raise self.bad(f"{name}() takes {wanted} argument{'s' if fewest > 1 else ''}")
        symbol = f"{name}()"
        texts = [ast.unparse(argument) for argument in node.args]

        if len(arguments) == 1:
            (argument,) = arguments

            def call_one(bindings: Bindings) -> Any:
                x = argument(bindings)
                if type(x) is not int and type(x) is not float:
                    return _bounded(function(_number(x, symbol, texts[0])))
                result = function(x)  # floor, ceil, abs of a plain number: int or float
                return result if _LOW <= result <= _HIGH else _bounded(result)

            return call_one

        if len(arguments) == 2:
            first, second = arguments

            def call_two(bindings: Bindings) -> Any:
                x = first(bindings)
                if type(x) is not int and type(x) is not float:
                    x = _number(x, symbol, texts[0])
                y = second(bindings)
                if type(y) is not int and type(y) is not float:
                    y = _number(y, symbol, texts[1])
                return _within_bounds(function(x, y))

            return call_two

        def call(bindings: Bindings) -> Any:
            values = []
            for argument, text in zip(arguments, texts, strict=True):
                x = argument(bindings)
                if type(x) is not int and type(x) is not float:
                    x = _number(x, symbol, text)
                values.append(x)
            return _within_bounds(function(*values))

        return call
