"""A-3 `hooks` evidence: NDJSON hook logs of PreToolUse / PostToolUse records.

Each line is `{event, tool, decision (PreToolUse), exit_code and diff_sha256 (PostToolUse), ts}`;
the agent CLIs' `hook_event_name` / `tool_name` spellings are read too. The logs together must
hold at least one PreToolUse and one PostToolUse record. A-4 reads PostToolUse lines back to
match a round's diff against its checksum.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.documents import first_schema_error, format_field, parse_json, read_text
from tribunal.enums import DisputeEvidenceKind, HookEvent
from tribunal.errors import BadInput
from tribunal.evidence.dispute.checks import KindCheck, Shortfall
from tribunal.markdown import code

if TYPE_CHECKING:
    from tribunal.evidence.dispute.model import Dispute

# A-3: the agent CLIs' own spellings, read as ours.
SPELLINGS = {"hook_event_name": "event", "tool_name": "tool"}


@dataclass(frozen=True)
class HookEntry:
    """One valid hook log line."""

    line: int
    event: HookEvent
    tool: str
    record: dict[str, Any]

    @property
    def diff_sha256(self) -> str | None:
        """The checksum of the diff a PostToolUse record saw, or None."""
        value = self.record.get("diff_sha256")
        return value if isinstance(value, str) else None


def normalise(record: dict[str, Any]) -> dict[str, Any]:
    """`record` with `hook_event_name`/`tool_name` read as `event`/`tool` (ours win)."""
    result = dict(record)
    for theirs, ours in SPELLINGS.items():
        if theirs in result and ours not in result:
            result[ours] = result[theirs]
    return result


def read_hook_log(path: Path, label: str) -> tuple[list[HookEntry], list[Shortfall]]:
    """(valid entries, problems) of the hook log at `path`; a missing file is one problem."""
    try:
        text = read_text(path, label)
    except BadInput as exc:
        return [], [Shortfall(label, exc.message)]
    entries: list[HookEntry] = []
    problems: list[Shortfall] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{label}:{number}"
        try:
            record = parse_json(line, where)
        except BadInput as exc:
            problems.append(Shortfall(where, exc.message, where))
            continue
        if not isinstance(record, dict):
            problems.append(Shortfall(where, "a hook record must be a JSON object", where))
            continue
        record = normalise(record)
        error = first_schema_error(record, "hook_record")
        if error is not None:
            message, field = error
            text_field = format_field(field)
            problems.append(
                Shortfall(where, f"{text_field}: {message}" if text_field else message, where)
            )
            continue
        entries.append(HookEntry(number, HookEvent(record["event"]), record["tool"], record))
    return entries, problems


def check_hook_logs(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    """Check `evidence.hooks` (a list of NDJSON paths) of `dispute`."""
    kind = DisputeEvidenceKind.HOOKS
    shortfalls: list[Shortfall] = []
    files: list[str] = []
    seen: dict[HookEvent, int] = {event: 0 for event in HookEvent}
    for index, text in enumerate(declared):
        path = dispute.evidence_file(text, ("evidence", "hooks", index))
        label = dispute.file_label(text)
        entries, problems = read_hook_log(path, label)
        shortfalls.extend(problems)
        if path.is_file():
            files.append(label)
        for entry in entries:
            seen[entry.event] += 1
    for event, count in seen.items():
        if count == 0:
            logs = ", ".join(code(name) for name in files) or "the hook logs"
            shortfalls.append(Shortfall(where, f"no valid {event} record in {logs}"))
    summary = ", ".join(f"{count} {event}" for event, count in seen.items())
    return KindCheck(
        kind, where, tuple(files), f"{summary} in {len(declared)} log(s)", tuple(shortfalls)
    )
