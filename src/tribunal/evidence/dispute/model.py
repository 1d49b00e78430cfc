"""A dispute is a directory of files (A-2): `dispute.yaml`, `votes/`, `evidence/`.

Loading checks everything that would make the arbitration bad input (C-3) before anything is
decided or written: dispute.yaml against its schema, the spec and the change present, the
charter, the facts, every vote. Evidence files are not read here: a listed file that is absent
or fails its check is missing evidence (A-3), which the evidence check reports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.documents import Document, FieldPath, load_any, load_yaml, validate
from tribunal.errors import BadInput, BrokenRef
from tribunal.evidence.dispute.charter import Charter, load_charter
from tribunal.evidence.dispute.votes import Vote, load_votes
from tribunal.paths import display_path
from tribunal.refs import resolve_ref

DISPUTE_FILE = "dispute.yaml"
_RANGE = re.compile(r"^[^\s.][^\s]*?\.\.\.?[^\s.][^\s]*$")


@dataclass(frozen=True)
class Dispute:
    """A loaded dispute directory. Paths in it are relative to `directory`."""

    directory: Path
    label: str  # the directory relative to the root (C-8)
    root: Path
    document: Document  # dispute.yaml
    charter: Charter
    votes: list[Vote]
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def dispute_id(self) -> str:
        """`dispute_id` from dispute.yaml."""
        return str(self.document.data["dispute_id"])

    @property
    def evidence(self) -> dict[str, Any]:
        """The `evidence` mapping of dispute.yaml (empty when absent)."""
        return dict(self.document.data.get("evidence") or {})

    @property
    def change(self) -> str:
        """`change`: a diff file path or a git range `base..head`, as written."""
        return str(self.document.data["change"])

    @property
    def spec(self) -> str:
        """`spec`, as written."""
        return str(self.document.data["spec"])

    def file_label(self, text: str) -> str:
        """A path written in dispute.yaml, relative to the root (C-8)."""
        return display_path(self.directory / text, self.root)

    def ref(self, where: FieldPath) -> str:
        """`dispute.yaml:<line>` of the field at `where`, relative to the root."""
        line = self.document.line_of(where)
        return self.document.label if line is None else f"{self.document.label}:{line}"

    def evidence_file(self, text: str, where: FieldPath) -> Path:
        """The file an evidence path names (it may not exist: that is missing evidence).

        Raises BadInput when the path is absolute or escapes the repository (C-3).
        """
        if Path(text).is_absolute():
            raise self.document.bad("absolute path; paths are relative to the dispute", where)
        target = (self.directory / text).resolve()
        try:
            target.relative_to(self.root.resolve())
        except ValueError:
            raise self.document.bad(f"{text}: escapes the repository", where) from None
        return target


def load_dispute(directory: Path, *, root: Path, with_votes: bool = True) -> Dispute:
    """Load and check the dispute in `directory` (see the module docstring).

    `with_votes=False` leaves the vote files unread (`votes` empty): the evidence check of A-3
    does not rest on them. Raises BadInput naming file, line and field of the first problem.
    """
    label = display_path(directory, root)
    if not directory.is_dir():
        raise BadInput("not a dispute directory", source=label)
    path = directory / DISPUTE_FILE
    document = load_yaml(path, display_path(path, root))
    if not isinstance(document.data, dict):
        raise document.bad("dispute.yaml must be a mapping")
    validate(document, "dispute")
    data = document.data
    _must_resolve(document, data["spec"], ("spec",), directory, root)
    if not _RANGE.match(data["change"]) or (directory / data["change"]).is_file():
        _must_resolve(document, data["change"], ("change",), directory, root)
    charter = load_charter()
    if "charter" in data:
        charter_path = _must_resolve(document, data["charter"], ("charter",), directory, root)
        charter = load_charter(charter_path, display_path(charter_path, root))
    facts = _facts(document, directory, root)
    votes = load_votes(directory, charter, root=root) if with_votes else []
    return Dispute(
        directory=directory,
        label=label,
        root=root,
        document=document,
        charter=charter,
        votes=votes,
        facts=facts,
    )


def _must_resolve(
    document: Document, text: str, where: FieldPath, directory: Path, root: Path
) -> Path:
    try:
        return resolve_ref(text, base=directory, root=root)
    except BrokenRef as exc:
        raise document.bad(str(exc), where) from None


def _facts(document: Document, directory: Path, root: Path) -> dict[str, Any]:
    facts = document.data.get("facts")
    if facts is None:
        return {}
    if isinstance(facts, dict):
        return dict(facts)
    path = _must_resolve(document, facts, ("facts",), directory, root)
    loaded = load_any(path, display_path(path, root))
    if not isinstance(loaded.data, dict):
        raise loaded.bad("facts must be a mapping")
    return dict(loaded.data)
