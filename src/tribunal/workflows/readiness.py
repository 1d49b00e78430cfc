"""`tribunal readiness FILE`: the readiness gate over one readiness record (T-9)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tribunal.evidence.readiness import Readiness, assess_file
from tribunal.outputs import check_output_path, write_output
from tribunal.paths import display_path


@dataclass(frozen=True)
class ReadinessRequest:
    """The readiness record, and where to write its Evidence record (None: nowhere)."""

    record: Path
    root: Path
    out: Path | None = None


def readiness(request: ReadinessRequest) -> Readiness:
    """Assess the record (and write its Evidence record). Raises BadInput for a bad record or
    output path."""
    if request.out is not None:
        check_output_path(request.out)
    result = assess_file(request.record, display_path(request.record, request.root))
    if request.out is not None:
        write_output(request.out, result.evidence().to_dict())
    return result
