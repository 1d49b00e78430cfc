"""A-4's evidence read from disk: the bytes of every file a vote cites and the dispute's hook logs,
so the court decides which round a diff moved from data alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tribunal.evidence.dispute.hook_log import HookEntry, read_hook_log
from tribunal.evidence.dispute.model import Dispute


@dataclass(frozen=True)
class MovementFiles:
    """What a round's movement can rest on: `cited` — every file a vote cites, by resolved path,
    with its bytes; `logs` — each declared hook log, by resolved path, with its entries."""

    cited: Mapping[Path, bytes] = field(default_factory=dict)
    logs: Mapping[Path, list[HookEntry]] = field(default_factory=dict)


def read_movement_files(dispute: Dispute) -> MovementFiles:
    """The cited files and hook logs of `dispute`. Raises BadInput for a hook log that is not
    one (file, line, field)."""
    cited: dict[Path, bytes] = {}
    for vote in dispute.votes:
        for target in vote.targets:
            resolved = target.resolve()
            if resolved not in cited and resolved.is_file():
                cited[resolved] = resolved.read_bytes()
    logs: dict[Path, list[HookEntry]] = {}
    for index, text in enumerate(dispute.evidence.get("hooks") or []):
        path = dispute.evidence_file(str(text), ("evidence", "hooks", index))
        entries, _ = read_hook_log(path, dispute.file_label(str(text)))
        logs[path.resolve()] = entries
    return MovementFiles(cited, logs)
