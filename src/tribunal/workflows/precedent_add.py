"""`tribunal precedent add`: append the next precedent (highest ID + 1) from a judgment, never
changing the file's existing bytes (R-3)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.precedents.add import NewPrecedent, add_precedent

PRECEDENTS_NAME = "precedents.md"


def precedents_file(root: Path, file: Path | None) -> Path:
    """The precedents file a command works on: `file`, else precedents.md at the root (C-9)."""
    return file if file is not None else root / PRECEDENTS_NAME


@dataclass(frozen=True)
class AddRequest:
    """The judgment the precedent is taken from, what it says beyond the judgment, and the
    precedents file (None: precedents.md at the root)."""

    judgment: Path
    new: NewPrecedent
    root: Path
    file: Path | None = None


def add(request: AddRequest) -> str:
    """Append the precedent; return its new ID. Raises BadInput (nothing written) for a bad
    judgment, precedents file, expression or scope."""
    target = precedents_file(request.root, request.file)
    return add_precedent(target, request.root, request.judgment, request.new)
