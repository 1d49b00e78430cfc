"""`tribunal judgment record OUT.md`: file a scratch judgment into the repository as
`<dir>/<stem>.judgment.md`, never overwriting and never twice (T-6, R-1)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.outputs import check_output_dir, output_errors
from tribunal.paths import display_path
from tribunal.records.filing import Filed, file_judgment, judgment_stem
from tribunal.records.judgment_check import check_judgment

DEFAULT_DIR = "judgments"


@dataclass(frozen=True)
class RecordRequest:
    """The scratch judgment, the directory to file it in (None: `judgments/` at the root)."""

    source: Path
    root: Path
    directory: Path | None = None


def record(request: RecordRequest) -> Filed:
    """Check the judgment and file it; return where it was filed (or had been: the same bytes
    are never filed twice). Raises BadInput when it is not a valid judgment or the directory
    cannot be written."""
    root = request.root
    checked = check_judgment(request.source, display_path(request.source, root), root=root)
    text = request.source.read_text(encoding="utf-8")
    into = request.directory or root / DEFAULT_DIR
    check_output_dir(into, "--dir", display_path(into, root))  # never a link to elsewhere
    with output_errors(into, "--dir"):
        return file_judgment(text, into, judgment_stem(checked.fields))
