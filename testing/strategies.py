"""Hypothesis strategies for the input classes whose space is large: YAML tags and the values
they are put on, integers around Python's conversion limit, endpoints that may not be URLs."""

from __future__ import annotations

import json
import sys

from hypothesis import strategies as st

# The seven tags a hand-written input may carry, by name (`!!int`, `!<tag:yaml.org,2002:int>`).
ACCEPTED_TAG_NAMES = ("str", "int", "float", "bool", "null", "seq", "map")
# Tags that would coerce a value, or that the two YAML libraries read differently.
OTHER_TAGS = (
    "!!binary", "!!timestamp", "!!set", "!!omap", "!!pairs", "!!merge", "!!value", "!!yaml",
    "!!python/object:os.system", "!!python/name:os.system", "!!python/tuple",
    "!!python/object/apply:os.system", "!custom", "!", "!<tag:example.com,2000:app/x>",
    "!<!local>",
)  # fmt: skip


def yaml_tags() -> st.SearchStrategy[str]:
    """Explicit YAML tags: the accepted seven in both spellings, known coercing ones, and
    arbitrary local (`!name`) and global (`!!name`) tags."""
    accepted = st.sampled_from(ACCEPTED_TAG_NAMES).flatmap(
        lambda name: st.sampled_from([f"!!{name}", f"!<tag:yaml.org,2002:{name}>"])
    )
    local = st.from_regex(r"![a-z][a-z0-9_]{0,8}", fullmatch=True)
    global_ = st.from_regex(r"!![a-z][a-z0-9/:._]{0,12}", fullmatch=True)
    return st.one_of(accepted, st.sampled_from(OTHER_TAGS), local, global_)


# Scalars that resolve to each of the core types, and text that almost does.
SCALAR_SEEDS = (
    "0", "12", "012", "-7", "+3", "1_000", "0x1F", "0o17", "0b101", "0x_", "1.5", "-.5", "1e3",
    "1.", ".inf", "-.inf", ".NaN", "true", "False", "TRUE", "yes", "no", "on", "null", "~", "Null",
    "2026-01-01", "2026-01-01T10:00:00Z", "aGVsbG8=", "abc", "1:20", "=", "<<",
)  # fmt: skip


def scalar_texts() -> st.SearchStrategy[str]:
    """The text of a YAML scalar: seeds of every core type and short random mixes."""
    mixed = st.text(alphabet="0123456789_.-+eExobfaTtrueFlsNn~", min_size=1, max_size=6)
    return st.sampled_from(SCALAR_SEEDS) | mixed


def yaml_values() -> st.SearchStrategy[str]:
    """A node as written after a tag: a plain or quoted scalar, empty, a flow sequence or map."""
    return st.one_of(
        scalar_texts(),
        scalar_texts().map(json.dumps),  # double-quoted
        scalar_texts().map(lambda text: "'" + text.replace("'", "''") + "'"),
        st.sampled_from(["", "[1, a]", "[]", "{b: 1}", "{}"]),
    )


def int_texts() -> st.SearchStrategy[str]:
    """Decimal integers with a digit count around Python's int-string conversion limit."""
    limit = sys.get_int_max_str_digits() or 4300
    digits = st.integers(min_value=max(limit - 3, 1), max_value=limit + 3)
    signs = st.sampled_from(["", "-", "+"])
    return st.tuples(signs, digits, st.sampled_from("123456789")).map(
        lambda parts: parts[0] + parts[2] * parts[1]
    )


def endpoint_texts() -> st.SearchStrategy[str]:
    """`http(s)://` and an authority and path that may be no URL at all: brackets, empty and
    over-long labels, ports out of range, percent signs, non-ASCII and IDNA-looking hosts."""
    label = st.one_of(
        st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True),
        st.sampled_from(["", "a" * 64, "xn--a", "xn--tda", "ü", "exa_mple", "-a-", "%zz", "%41"]),
    )
    host = st.one_of(
        st.lists(label, min_size=1, max_size=4).map(".".join),
        st.sampled_from(["127.0.0.1", "999.1.1.1", "[::1]", "[::1", "[zz]", "", "u@@h", "a\\b"]),
    )
    port = st.one_of(
        st.just(""),
        st.integers(min_value=0, max_value=99999).map(lambda number: f":{number}"),
        st.sampled_from([":", ":x", ":-1", ":080"]),
    )
    path = st.sampled_from(["", "/", "/v1", "/v1/", "/%zz", "/a^b", "?q=1", "#f"])
    scheme = st.sampled_from(["http://", "https://", "HTTP://"])
    return st.tuples(scheme, host, port, path).map("".join)


# What an identifier from an input file may carry to forge Markdown or YAML structure: every
# line break str.splitlines knows, front matter and heading markers, fences, table pipes, list
# and quote markers, YAML indicators and quotes.
HOSTILE_PIECES = (
    "\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "---", "...", "#",
    "## ", "`", "``", "```", "~~~", "|", "- ", "* ", "+ ", "1. ", "> ", "===", "<div>", "<!--",
    "verdict: APPROVE", "reason: clean", ": ", "'", '"', "&a", "*a", "!!str ", "{", "[", "\\",
    " ", "\t", "x", "é", "中", "PREC-001",
)  # fmt: skip


def identifiers(min_size: int = 1) -> st.SearchStrategy[str]:
    """Text as ids, reasons, names and paths in input files may hold it: hostile pieces and
    any other characters (no surrogates: the loaders refuse those)."""
    other = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=3)
    return st.lists(st.sampled_from(HOSTILE_PIECES) | other, min_size=min_size, max_size=8).map(
        "".join
    )
