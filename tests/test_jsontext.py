"""C-6, X-4: the fast writer of output JSON gives exactly the stdlib's indent=2 text."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tribunal.atomic import dump_json
from tribunal.jsontext import indented_json


def stdlib(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(),  # any code point: quotes, backslashes, control characters, non-ASCII
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(), inner, max_size=4)
    ),
    max_leaves=40,
)


@given(DOCUMENTS)
def test_same_text_as_the_stdlib(document: Any) -> None:
    assert indented_json(document) == stdlib(document)
    assert dump_json(document) == stdlib(document) + "\n"


class Verdict(enum.StrEnum):
    PASS = "PASS"


class Count(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize(
    "document",
    [
        {2: "int key", 2.5: "float key", True: "bool key", None: "null key"},
        {"verdict": Verdict.PASS, "count": Count.ONE, "list": [Verdict.PASS]},
        [[[[]]], {}, (), {"a": {}}],
        "scalar",
    ],
)
def test_what_the_fast_writer_leaves_to_the_stdlib_is_still_the_stdlib_text(
    document: Any,
) -> None:
    assert indented_json(document) == stdlib(document)


def test_errors_are_the_stdlib_errors() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference detected"):
        indented_json({"a": cycle})
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        indented_json({"a": {1}})
