"""judgment.md files: YAML front matter (dumped by the YAML library, never a template) + body.

T-6: a judgment is `---`, the front matter, `---`, then the Markdown body. This module is the one
place that reads and writes that frame; what goes into the front matter is decided by courts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import Document, parse_yaml, read_text, validate
from tribunal.errors import BadInput

FENCE = "---"
_TO_WRITE = "the judgment to write"


@dataclass
class JudgmentFile:
    """A judgment read from disk: its front matter (as a Document, lines true to the file)
    and its Markdown body."""

    front: Document
    body: str

    @property
    def fields(self) -> dict[str, Any]:
        """The front matter mapping."""
        data: dict[str, Any] = self.front.data
        return data


def split_front_matter(text: str, label: str) -> tuple[str, str]:
    """Return (front matter YAML, body). Raises BadInput when there is no closed front matter."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != FENCE:
        raise BadInput("no YAML front matter (must start with '---')", source=label, line=1)
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") == FENCE:
            return "".join(lines[1:index]), "".join(lines[index + 1 :])
    raise BadInput("front matter is not closed by '---'", source=label, line=1)


def has_front_matter_key(text: str, key: str) -> bool:
    """True when `text` opens with front matter holding a top-level `key` (cheap, no YAML)."""
    try:
        front, _ = split_front_matter(text, "")
    except BadInput:
        return False
    return any(line.startswith(f"{key}:") for line in front.splitlines())


def parse_judgment(text: str, label: str, path: Path | None = None) -> JudgmentFile:
    """Parse and validate a judgment's text against the `judgment` schema.

    Raises BadInput naming the file, the line (true to the file) and the field.
    """
    front_text, body = split_front_matter(text, label)
    # A leading newline stands in for the opening fence, so YAML lines are the file's lines.
    aligned = "\n" + front_text
    data, _ = parse_yaml(aligned, label)
    if not isinstance(data, dict):
        raise BadInput("front matter must be a mapping", source=label, line=2)
    document = Document(path=Path(path or label), label=label, data=data, text=aligned)
    validate(document, "judgment")
    return JudgmentFile(front=document, body=body)


def read_judgment(path: Path, label: str | None = None) -> JudgmentFile:
    """Read and validate the judgment at `path` (see `parse_judgment`)."""
    label = label if label is not None else str(path)
    return parse_judgment(read_text(path, label), label, path)


def render_front_matter(fields: dict[str, Any]) -> str:
    """`---\\n<YAML>---\\n` for `fields`, in their order, dumped by ruamel.yaml (T-6)."""
    return f"{FENCE}\n{dump_mapping(fields)}{FENCE}\n"


# Characters a YAML reader (or str.splitlines) takes for a line break, or that a line-based
# reader of the file would: a string holding one is written double-quoted, where each is an
# escape (`\\n`, `\\L`, `\\N` ...), so no value spans lines and none reads back changed.
_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def dump_mapping(fields: dict[str, Any]) -> str:
    """`fields` as block YAML in their order, dumped by ruamel.yaml (never a template): the one
    YAML writer of records (judgment front matter, precedents.md entries). Every scalar stays on
    its line (C-3): no value can start a line of its own — a `---`, a `verdict:`, a fence."""
    from ruamel.yaml import YAML
    from ruamel.yaml.representer import SafeRepresenter

    class OneLine(SafeRepresenter):
        def represent_str(self, data: str) -> Any:
            if _BREAKS.isdisjoint(data):
                return super().represent_str(data)
            return self.represent_scalar("tag:yaml.org,2002:str", data, style='"')

    OneLine.add_representer(str, OneLine.represent_str)
    yaml = YAML(typ="safe", pure=True)
    yaml.Representer = OneLine
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # keep field order
    yaml.width = 2**31  # never fold a long reason or command over lines
    yaml.allow_unicode = True
    buffer = io.StringIO()
    yaml.dump(fields, buffer)
    return buffer.getvalue()


def render_judgment(fields: dict[str, Any], body: str) -> str:
    """The whole judgment text: front matter, then the body — read back before it is handed
    out, so a judgment is never written that its own check (`read_judgment`) would refuse or
    read differently. Raises BadInput naming the field when it would."""
    text = render_front_matter(fields) + body
    try:
        written = parse_judgment(text, _TO_WRITE)
    except BadInput as error:  # its line is in no file yet
        raise BadInput(error.message, source=_TO_WRITE, field=error.field) from None
    if written.fields != fields or written.body != body:
        raise BadInput("would not read back as written", source=_TO_WRITE, field="front matter")
    return text
