"""The one Jinja2 environment factory for Markdown bodies (SPEC §1, STYLE 3), and the one way a
value is written into Markdown.

StrictUndefined (a missing variable is an error, never an empty string), autoescape off (the
output is Markdown), trimmed blocks. Templates come from the package's defaults, or from the
directory `--templates DIR` names — never implicitly from the working directory (C-8).

Values that come from inputs — ids, reasons, lens names, paths, run ids, claims — cannot forge
structure (C-3): no value can start a line of front matter, a heading, a list item or a fence,
or add a table column. Every `{{ value }}` of every template passes `text` (the environment's
`finalize`, so a template cannot forget it): its line breaks are gone and a block marker it
starts with is escaped. An identifier is written with `code` — a code span whose fence no
backtick inside can close, its line breaks shown as escapes — and a table cell with `cell`.
Markdown built in code uses `code` too. YAML front matter is the YAML library's (frontmatter.py).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput

JUDGMENT_TEMPLATE = "judgment.md.j2"
MANUAL_JUDGMENT_TEMPLATE = "manual_judgment.md.j2"
ARBITER_JUDGMENT_TEMPLATE = "arbiter_judgment.md.j2"


class Markdown(str):
    """Text already written as Markdown by this module (`code`, `cell`): `text` leaves it as
    it is."""


# Every character str.splitlines breaks at: a reader that splits so must see one line.
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# What a code span shows as an escape: line breaks, and the control characters a renderer
# drops or replaces (NUL becomes U+FFFD) — every C0 but the tab, DEL, every C1.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_BREAK_RUN = re.compile("\\s*[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]\\s*")
# What a line may start with to open a block (CommonMark, GFM): an ATX heading, a thematic
# break (`---` also closes front matter), a setext underline, a list item, a block quote, a
# fence, an HTML block, a table row. The group is the character escaped to defuse it.
_BLOCK_START = re.compile(
    r"""^[ \t]*(?:
        (\#)\#{0,5}(?:[ \t]|$)
      | ([-*_])(?:[ \t]*[-*_]){2,}[ \t]*$
      | (=)=*[ \t]*$ | (-)-*[ \t]*$
      | ([-+*])(?:[ \t]|$)
      | [0-9]{1,9}([.)])(?:[ \t]|$)
      | (>) | (`)`{2} | (~)~{2} | (<)[A-Za-z/!?] | (\|)
    )""",
    re.X,
)

# A line that looks like a YAML field (`verdict: APPROVE`); one of a judgment's is defused.
_FIELD_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]|$)")


@functools.cache
def _judgment_fields() -> frozenset[str]:
    from tribunal.schemas import load_schema

    return frozenset(load_schema("judgment")["properties"])


def text(value: Any) -> str:
    """`value` as inline Markdown text that opens no block: every run of white space holding a
    line break becomes one space, any other control character an escape (`\\x00`), and a block
    marker it starts with (`#`, `---`, `- `, `>`, a fence ...) is escaped with a backslash. The
    `finalize` of every template's `{{ }}`."""
    if isinstance(value, Markdown):
        return value
    return _unblocked(_one_line(value))


def cell(value: Any) -> Markdown:
    """`value` as the text of one table cell: on one line, every `|` escaped (GFM splits a row
    at a bare `|`, even inside a code span). A cell is inline: it opens no block."""
    return Markdown(_one_line(value).replace("|", "\\|"))


def _one_line(value: Any) -> str:
    """`value` on one line: each run of white space holding a line break becomes a space, and
    every other control character an escape (a NUL would make the file no text at all)."""
    line = str(value)
    if _LINE_BREAK.search(line):
        line = _BREAK_RUN.sub(" ", line)
    return _CONTROL.sub(_escaped, line)


def _unblocked(line: str) -> str:
    if line[:1] == "\t" or line.startswith("    "):
        line = line.lstrip(" \t")  # four columns of indent would open a code block
    field = _FIELD_LINE.match(line)
    if field is not None and field.group(1) in _judgment_fields():
        # `verdict: APPROVE` at the start of a line reads as a judgment's field to a line-based
        # reader: its first letter as a character reference renders the same, reads no field.
        return f"&#{ord(line[0])};{line[1:]}"
    found = _BLOCK_START.match(line)
    if found is None or found.lastindex is None:
        return line
    at = found.start(found.lastindex)  # each alternative captures its one marker
    return f"{line[:at]}\\{line[at:]}"


def code(value: Any) -> Markdown:
    """An identifier as a code span, exactly as given on one line: its line breaks and control
    characters written as escapes (`\\n`, `\\x00`), fenced by more backticks than it holds in
    a row, so nothing inside closes the span."""
    line = _CONTROL.sub(_escaped, str(value))
    longest = max((len(run) for run in re.findall("`+", line)), default=0)
    fence = "`" * (longest + 1)
    if not line.strip(" "):
        return Markdown(f"{fence}{line or ' '}{fence}")
    pad = " " if line[0] == "`" or line[-1] == "`" or (line[0] == " " and line[-1] == " ") else ""
    return Markdown(f"{fence}{pad}{line}{pad}{fence}")


def _escaped(found: re.Match[str]) -> str:
    return found.group().encode("unicode_escape").decode("ascii")


def template_environment(directory: Path | None = None) -> Any:
    """A jinja2 Environment loading from `directory`, or from the package's defaults when None.

    Raises BadInput when `directory` is not a directory.
    """
    import jinja2

    loader: jinja2.BaseLoader
    if directory is None:
        loader = jinja2.PackageLoader("tribunal", "templates")
    else:
        if not directory.is_dir():
            raise BadInput("templates directory not found", source=str(directory))
        loader = jinja2.FileSystemLoader(str(directory))
    environment = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=text,  # C-3: every value a template writes, the package's or the user's
    )
    environment.filters["code"] = code
    environment.filters["cell"] = cell
    return environment


def render(name: str, context: dict[str, Any], directory: Path | None = None) -> str:
    """Render the template `name` with `context`.

    Raises BadInput naming the template (and its line) when it is missing, malformed, or uses a
    variable the context lacks.
    """
    import jinja2

    where = str(directory / name) if directory is not None else f"(default) {name}"
    environment = template_environment(directory)
    try:
        template = environment.get_template(name)
        text: str = template.render(**context)
    except jinja2.TemplateNotFound:
        raise BadInput("template not found", source=where) from None
    except jinja2.TemplateSyntaxError as exc:
        raise BadInput(f"template syntax: {exc.message}", source=where, line=exc.lineno) from None
    except jinja2.UndefinedError as exc:
        raise BadInput(f"template uses an unknown variable: {exc.message}", source=where) from None
    return text
