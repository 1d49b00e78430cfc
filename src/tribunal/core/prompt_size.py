"""L-3: the prompt estimate routing checks capacity against, read from a built envelope."""

from __future__ import annotations

from pathlib import Path

from tribunal.documents import load_json


def tokens_from_envelope(directory: Path, label: str | None = None) -> int:
    """`tokens_estimate` of `directory/manifest.json` (E-1, E-4).

    Returns the estimate; raises `BadInput` naming the manifest when it is missing, malformed,
    or has no non-negative integer `tokens_estimate`.
    """
    path = Path(directory) / "manifest.json"
    document = load_json(path, label if label is not None else str(path))
    data = document.data
    estimate = data.get("tokens_estimate") if isinstance(data, dict) else None
    if isinstance(estimate, bool) or not isinstance(estimate, int) or estimate < 0:
        raise document.bad(
            "must be a non-negative integer (is this an envelope directory?)",
            ("tokens_estimate",),
        )
    return estimate
