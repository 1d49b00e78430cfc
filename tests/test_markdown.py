"""C-3: a value written into Markdown cannot forge structure — `markdown.text` (every template
value), `code` (identifiers) and `cell` (table cells), read back by a CommonMark parser with
GFM tables, as GitHub renders a judgment."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from markdown_it import MarkdownIt
from testing.strategies import identifiers

from tribunal.markdown import cell, code, render, text
from tribunal.schemas import load_schema

PARSER = MarkdownIt("commonmark").enable("table")
JUDGMENT_FIELDS = frozenset(load_schema("judgment")["properties"])
BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def blocks(source: str) -> list[str]:
    """The blocks a renderer makes of `source`, outermost first: `heading`, `paragraph`,
    `bullet_list`, `hr`, `fence` ..."""
    return [
        t.type.removesuffix("_open")
        for t in PARSER.parse(source)
        if t.block and t.nesting >= 0 and t.type != "inline"
    ]


def _control(char: str) -> bool:
    return char != "\t" and (char in BREAKS or ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F)


def one_line(written: str) -> bool:
    """No line break, and no control character a reader would refuse or drop."""
    if any(_control(char) for char in written):
        return False
    return not any(mark in written for mark in BREAKS)


@given(identifiers())
def test_text_opens_no_block_wherever_a_line_starts(value: str) -> None:
    written = text(value)
    assert one_line(written)
    field = re.match(r"([A-Za-z_][\w-]*):(?:[ \t]|$)", written)
    assert field is None or field.group(1) not in JUDGMENT_FIELDS  # no `verdict:` line
    for source in (written, f"- {written}", f"intro\n{written}", f"> {written}"):
        kinds = blocks(source)
        assert kinds.count("paragraph") <= 1 + ("intro" in source)
        assert not {"heading", "hr", "fence", "code_block", "html_block", "table"} & set(kinds)
        assert kinds.count("bullet_list") == source.startswith("- ")
        assert kinds.count("blockquote") == source.startswith("> ")
        assert "ordered_list" not in kinds and kinds.count("list_item") <= 1


@given(identifiers())
def test_code_is_one_span_holding_the_identifier_exactly(value: str) -> None:
    written = code(value)
    assert one_line(written)
    inline = [t for t in PARSER.parse(f"before {written} after") if t.type == "inline"]
    spans = [child for child in inline[0].children or [] if child.type == "code_inline"]
    shown = "".join(
        char.encode("unicode_escape").decode("ascii") if _control(char) else char for char in value
    )
    assert [span.content for span in spans] == [shown or " "]


@given(identifiers(), identifiers())
def test_cells_keep_a_table_its_columns(left: str, right: str) -> None:
    row = f"| {cell(left)} | {cell(right)} |"
    source = f"| a | b |\n|---|---|\n{row}\n{row}\n"
    tokens = PARSER.parse(source)
    assert [t.type for t in tokens].count("td_open") == 4
    assert blocks(source).count("table") == 1


@given(identifiers(), identifiers())
def test_a_template_writes_every_value_through_text(reason: str, claim: str) -> None:
    # A template that forgets the filters still cannot forge a block: `finalize` is `text`.
    body = render_source("# Judgment: {{ verdict }} — {{ reason | code }}\n\n- {{ claim }}\n",
                         verdict="DENY", reason=reason, claim=claim)  # fmt: skip
    kinds = blocks(body)
    assert kinds.count("heading") == 1 and kinds.count("bullet_list") == 1
    assert body.startswith("# Judgment: DENY")
    assert len(body.splitlines()) == 3


def render_source(source: str, **context: Any) -> str:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        (Path(directory) / "t.md.j2").write_text(source, encoding="utf-8")
        return render("t.md.j2", context, Path(directory))
