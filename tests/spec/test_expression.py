"""T-2, S-5: the safe evaluator — whitelist at load, bounded evaluation, only our errors."""

from __future__ import annotations

import contextlib
import enum
import math
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribunal.errors import BadInput, CannotEvaluate
from tribunal.spec.expression import MAX_MAGNITUDE, compile_expression


def value(text: str, **bindings: object) -> object:
    return compile_expression(text).evaluate(bindings)


@pytest.mark.parametrize(
    ("text", "bindings", "expected"),
    [
        ("floor(current * percent / 100)", {"current": 12, "percent": 200}, 24),
        ("floor(7 * 110 / 100)", {}, 7),
        ("ceil(7 / 2)", {}, 4),
        ("min(a, b, 3)", {"a": 5, "b": 4}, 3),
        ("max(0, a - b)", {"a": 2, "b": 5}, 0),
        ("abs(-2.5)", {}, 2.5),
        ("2 ** 10 + 7 // 2 - 7 % 3", {}, 1024 + 3 - 1),
        ("1 < x <= 3", {"x": 3}, True),
        ("1 < x <= 3", {"x": 4}, False),
        ("0 if halted else d", {"halted": True, "d": 3}, 0),
        ("0 if halted else d", {"halted": False, "d": 3}, 3),
        ("not a or b == 0", {"a": False, "b": 5}, True),
        ('policy == "hard_block" and x < y', {"policy": "soft_clamp", "x": 1, "y": 2}, False),
        ("x is None", {"x": None}, True),
        ("x is not None", {"x": None}, False),
        ("x == None", {"x": None}, True),
        ("x != None", {"x": 1}, True),
        ("-x", {"x": 3}, -3),
        ("True", {}, True),
    ],
)
def test_whitelisted_expressions_evaluate(
    text: str, bindings: dict[str, object], expected: object
) -> None:
    assert compile_expression(text).evaluate(bindings) == expected


def test_and_short_circuits_so_none_never_reaches_a_comparison() -> None:
    # T-2: `and` short-circuits, so an absent value never reaches `<`.
    expression = compile_expression("d is not None and d < window")
    assert expression.evaluate({"d": None, "window": 2}) is False
    assert expression.evaluate({"d": 1.5, "window": 2}) is True
    with pytest.raises(CannotEvaluate, match="None operand for <"):
        compile_expression("d < window").evaluate({"d": None, "window": 2})


def test_names_in_first_appearance_order_without_functions() -> None:
    expression = compile_expression("min(b, a) + floor(b / c) if a else a")
    assert expression.names == ("a", "b", "c")


@pytest.mark.parametrize(
    ("text", "bindings", "why"),
    [
        ("a / b", {"a": 1, "b": 0}, "division by zero"),
        ("a // b", {"a": 1, "b": 0}, "division by zero"),
        ("a % b", {"a": 1, "b": 0}, "division by zero"),
        ("a + 1", {}, "name 'a' is not bound"),
        ("a + 1", {"a": None}, "None operand for +"),
        ("a < 1", {"a": None}, "None operand for <"),
        ("not a", {"a": None}, "None operand for not"),
        ("a or b", {"a": None, "b": True}, "None operand for or"),
        ("1 if a else 2", {"a": None}, "None operand for if"),
        ("floor(a)", {"a": None}, "None operand for floor()"),
        ("a * a", {"a": 10**10}, "beyond bound"),
        ("a ** b", {"a": 10, "b": 65}, "exponent 65 beyond bound"),
        ("a ** 0.5", {"a": -8}, "complex"),
        ("a + 1", {"a": 10**19}, "beyond bound"),
        ("a + 1", {"a": True}, "needs numbers, got bool"),
        ("a + 1", {"a": "x"}, "needs numbers, got str"),
        ("a < 1", {"a": "x"}, "not supported"),
    ],
)
def test_cannot_evaluate_says_why(text: str, bindings: dict[str, object], why: str) -> None:
    with pytest.raises(CannotEvaluate) as info:
        compile_expression(text).evaluate(bindings)
    assert why in info.value.why
    assert str(info.value) == f"cannot evaluate {text}: {info.value.why}"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("__import__('os')", "call of '__import__' is not allowed"),
        ("__import__", "name '__import__' is not allowed"),
        ("x.__class__", "attribute access is not allowed"),
        ("x.real", "attribute access is not allowed"),
        ("math.floor(x)", "attribute access is not allowed"),
        ("x[0]", "subscripts are not allowed"),
        ("open('f')", "call of 'open' is not allowed"),
        ("(lambda: 1)()", "lambdas are not allowed"),
        ("[y for y in x]", "comprehensions are not allowed"),
        ("min(y for y in x)", "comprehensions are not allowed"),
        ("f'{x}'", "f-strings are not allowed"),
        ("(y := 1)", "assignment expressions are not allowed"),
        ("[1, 2]", "List is not allowed"),
        ("x in y", "comparison In is not allowed"),
        ("x is 1", "'is' compares only with None"),
        ("x & 1", "operator BitAnd is not allowed"),
        ("~x", "operator Invert is not allowed"),
        ("min(x)", "min() takes at least 2 arguments"),
        ("floor(x, 2)", "floor() takes 1 argument"),
        ("max(*x)", "starred arguments are not allowed"),
        ("min(a=1, b=2)", "takes no keyword arguments"),
        ("2 ** 100", "exponent 100 beyond bound"),
        ("10000000000000000000", "beyond bound"),
        ("1e300", "beyond bound"),
        ("1j", "literal of type complex is not allowed"),
        ("b'x'", "literal of type bytes is not allowed"),
        ("1 +", "syntax error"),
        ("x = 1", "syntax error"),
        ("", "empty expression"),
        ("-(" * 60 + "1" + ")" * 60, "nested deeper than"),
        ("(" * 300 + "1" + ")" * 300, "syntax error"),
        ("1" + " + 1" * 100, "nested deeper than"),
    ],
)
def test_load_time_rejection_names_source_line_and_key(text: str, message: str) -> None:
    with pytest.raises(BadInput) as info:
        compile_expression(text, source="specs/s.yaml", line=7, field="then.derive.d")
    assert message in str(info.value)
    assert str(info.value).startswith("specs/s.yaml:7: then.derive.d: ")


def test_no_eval_reachable_builtins() -> None:
    # Names come only from the bindings: a builtin's name is just an unbound name.
    with pytest.raises(CannotEvaluate, match="name 'len' is not bound"):
        compile_expression("len + 1").evaluate({})


# --- S-5: properties -------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "c", "halted", "x"])
ATOMS = st.one_of(
    NAMES,
    st.integers(-(10**6), 10**6).map(str),
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.sampled_from(["None", "True", "False", '"s"', "0"]),
)
BINARY = st.sampled_from(
    ["+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=", ">", " and ", " or ", " is "]
)


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 4 or draw(st.booleans()):
        return str(draw(ATOMS))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return f"({draw(expressions(depth + 1))}{draw(BINARY)}{draw(expressions(depth + 1))})"
    if kind == 1:
        function = draw(st.sampled_from(["min", "max", "floor", "ceil", "abs"]))
        count = 1 if function in ("floor", "ceil", "abs") else draw(st.integers(2, 3))
        args = ", ".join(draw(expressions(depth + 1)) for _ in range(count))
        return f"{function}({args})"
    if kind == 2:
        return f"(not {draw(expressions(depth + 1))})"
    if kind == 3:
        return f"(-{draw(expressions(depth + 1))})"
    parts = [draw(expressions(depth + 1)) for _ in range(3)]
    return f"({parts[0]} if {parts[1]} else {parts[2]})"


BINDING_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
)


@given(expressions(), st.dictionaries(NAMES, BINDING_VALUES))
def test_only_our_errors_escape_and_results_stay_bounded(
    text: str, bindings: dict[str, object]
) -> None:
    try:
        expression = compile_expression(text)
    except BadInput:
        return
    try:
        result = expression.evaluate(bindings)
    except CannotEvaluate as error:
        assert error.why
        return
    assert result is None or isinstance(result, bool | int | float | str)
    if isinstance(result, int | float) and not isinstance(result, bool):
        assert math.isfinite(result) and abs(result) <= MAX_MAGNITUDE


@given(st.text(alphabet=string.printable, max_size=60))
def test_arbitrary_text_compiles_or_is_bad_input(text: str) -> None:
    try:
        expression = compile_expression(text)
    except BadInput:
        return
    with contextlib.suppress(CannotEvaluate):
        expression.evaluate({})


@given(
    st.sampled_from(["x", "min(x, 1)", "(x + 1)", "abs(x)"]),
    st.sampled_from(["__class__", "__globals__", "real", "__dict__", "conjugate"]),
    st.sampled_from(["{}", "{}()", "{}.__bases__", "{}()[0]"]),
)
def test_attributes_are_never_reachable(base: str, attribute: str, shape: str) -> None:
    text = shape.format(f"{base}.{attribute}")
    with pytest.raises(BadInput):
        compile_expression(text)


@given(st.integers(1, 64), st.integers(2, 9))
def test_power_towers_are_bounded_work(exponent: int, height: int) -> None:
    # A tower of powers would be astronomically large; every step is bounded instead.
    text = "**".join(["x"] * height)
    try:
        result = compile_expression(text).evaluate({"x": exponent})
    except CannotEvaluate as error:
        assert "bound" in error.why
    else:
        assert abs(result) <= MAX_MAGNITUDE  # type: ignore[arg-type]


class _Two(enum.IntEnum):
    TWO = 2


# the evaluator has fast forms (a number literal as right operand, one comparison, one or
# two arguments, plain int/float operands); each must say exactly what the general form says.
@pytest.mark.parametrize(
    ("text", "bindings", "outcome"),
    [
        ("x / 0", {"x": 1}, "division by zero"),
        ("x % 0", {"x": 1}, "division by zero"),
        ("x / 100", {"x": "a"}, "/ needs numbers, got str (x)"),
        ("x * 2", {"x": True}, "* needs numbers, got bool (x)"),
        ("x + y", {"x": None}, "None operand for +"),  # left is checked before right is read
        ("x + y", {"x": 1}, "name 'y' is not bound"),
        ("x * y", {"x": 10**10, "y": 10**10}, "result beyond bound 1e+18"),
        ("x * 10", {"x": _Two.TWO}, 20),  # an int subclass takes the general path
        ("x < None", {"x": 1}, "None operand for <"),
        ("x == None", {"x": 1}, False),
        ("x < y", {"x": "a", "y": 1}, "'<' not supported between instances of 'str' and 'int'"),
        ("x > 1", {"x": 10**19}, "result beyond bound 1e+18"),  # names are bounded when read
        ("x is None or x > 1", {"x": math.inf}, "result beyond bound 1e+18"),
        ("min(x, y)", {"x": None}, "None operand for min()"),
        ("min(x, y)", {"y": 1}, "name 'x' is not bound"),
        ("max(x, y, z)", {"x": 1, "y": "s", "z": 2}, "max() needs numbers, got str (y)"),
        ("floor(x)", {"x": math.nan}, "result beyond bound 1e+18"),
        ("ceil(x / y)", {"x": 7, "y": 2}, 4),
        ("abs(x)", {"x": -2.5}, 2.5),
        ("(-8) ** 0.5", {}, "result is a complex number"),
        ("x ** y", {"x": 2, "y": 65}, "exponent 65 beyond bound 64"),
    ],
)
def test_fast_forms_give_the_general_outcome(
    text: str, bindings: dict[str, object], outcome: object
) -> None:
    expression = compile_expression(text)
    if isinstance(outcome, str):
        with pytest.raises(CannotEvaluate) as info:
            expression.evaluate(bindings)
        assert info.value.why == outcome
    else:
        result = expression.evaluate(bindings)
        assert result == outcome and type(result) is type(outcome)


@pytest.mark.parametrize(
    ("text", "bindings", "why"),
    [
        ("flag > 0", {"flag": True}, "> needs numbers or strings, got bool (flag)"),
        ("flag >= 1", {"flag": True}, ">= needs numbers or strings, got bool (flag)"),
        ("0 < flag", {"flag": False}, "< needs numbers or strings, got bool (flag)"),
        ("x <= flag", {"x": 0, "flag": True}, "<= needs numbers or strings, got bool (flag)"),
        ("x < True", {"x": 0}, "< needs numbers or strings, got bool (True)"),
        ("0 < x < flag", {"x": 1, "flag": True}, "< needs numbers or strings, got bool (flag)"),
        ("flag * 2", {"flag": True}, "* needs numbers, got bool (flag)"),
        ("abs(flag)", {"flag": False}, "abs() needs numbers, got bool (flag)"),
    ],
)
def test_ordering_or_arithmetic_on_a_boolean_cannot_be_evaluated(
    text: str, bindings: dict[str, object], why: str
) -> None:
    # T-2: booleans are not numbers, in a spec's expressions as in a precedent's condition.
    with pytest.raises(CannotEvaluate) as info:
        compile_expression(text).evaluate(bindings)
    assert info.value.why == why


@pytest.mark.parametrize(
    ("text", "bindings", "value"),
    [
        ("flag == True", {"flag": True}, True),
        ("flag != other", {"flag": False, "other": True}, True),
        ("not flag and x > 1", {"flag": False, "x": 2}, True),
        ("1 if flag else 2", {"flag": True}, 1),
    ],
)
def test_booleans_still_compare_for_equality_and_decide(
    text: str, bindings: dict[str, object], value: object
) -> None:
    assert compile_expression(text).evaluate(bindings) == value
