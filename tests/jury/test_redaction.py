"""L-8, S-6: no key value survives redaction — also JSON-escaped, URL-quoted, or cut in half."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tribunal.jury.redaction import RAW_TAIL_BYTES, REDACTED, raw_tail, redact

KEY = "sk-live/abc+def=0123456789"


def test_every_spelling_is_masked() -> None:
    text = f'a {KEY} b "sk-live\\/abc+def=0123456789" c sk-live%2Fabc%2Bdef%3D0123456789 d'
    shown = redact(text, [KEY])
    assert shown == f'a {REDACTED} b "{REDACTED}" c {REDACTED} d'


def test_no_secrets_leaves_text_alone() -> None:
    assert redact("plain", []) == "plain"
    assert redact("plain", [""]) == "plain"


def test_a_key_cut_at_the_end_is_masked() -> None:
    """A reply read no further than its cap may stop inside a key."""
    assert redact("reply ... sk-live/ab", [KEY], cut=True) == f"reply ... {REDACTED}"
    assert redact("reply ... sk-live/ab", [KEY]) == "reply ... sk-live/ab"


def test_tail_is_bounded_and_redacted_first() -> None:
    text = "x" * 5000 + KEY + "y" * (RAW_TAIL_BYTES - 5)
    tail = raw_tail(text, [KEY])
    assert len(tail.encode()) <= RAW_TAIL_BYTES
    assert "0123456789" not in tail  # the key's end is never left at the start of the tail
    assert raw_tail("short", [KEY]) == "short"


def test_tail_keeps_whole_characters() -> None:
    tail = raw_tail("é" * 3000, [])
    assert tail == "é" * (RAW_TAIL_BYTES // 2)


keys = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=12, max_size=40
).filter(lambda key: key not in REDACTED)


@given(before=st.text(max_size=200), after=st.text(max_size=200), key=keys)
def test_property_no_key_survives(before: str, after: str, key: str) -> None:
    assert key not in redact(before + key + after + key, [key])
    assert key not in raw_tail(before + key + after, [key])


@given(text=st.text(max_size=300), key=keys, cut_at=st.integers(min_value=1, max_value=11))
def test_property_no_key_prefix_at_a_cut(text: str, key: str, cut_at: int) -> None:
    shown = redact(text + key[:cut_at], [key], cut=True)
    assert not shown.endswith(key[:cut_at]) or key[:cut_at] in REDACTED


def test_raw_tail_of_text_with_a_lone_surrogate_is_writable_utf8() -> None:
    tail = raw_tail("a\ud800b", [])
    assert tail == "a?b"
    tail.encode("utf-8")  # a record holding it can be written
