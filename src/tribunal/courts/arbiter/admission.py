"""A-4: disputes move only by diffs to `requirements.md`, `hooks.md` or `validation.md`.

Round N > 1 is accepted only when one of its votes cites, in `evidence_ref`, both a diff touching
one of those files and an event record — a PostToolUse line of one of the dispute's hook logs,
cited as `path:line` — whose `diff_sha256` equals the sha256 of the cited diff. Otherwise the
round is rejected, with the reason, and not counted. The citing vote must count (a withdrawn
vote moves nothing), and the diff and event record must not have admitted an earlier round:
re-citing them is no new diff, so it cannot fill A-5's deadlock count.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import HookEvent
from tribunal.evidence.dispute.hook_log import HookEntry
from tribunal.evidence.dispute.movement import MovementFiles
from tribunal.evidence.dispute.votes import Vote
from tribunal.markdown import code
from tribunal.refs import parse_ref

# the files a dispute may move by.
DISPUTE_FILES = ("requirements.md", "hooks.md", "validation.md")
_GIT_HEADER = re.compile(r"^diff --git a/(?P<a>\S+) b/(?P<b>\S+)")
_FILE_HEADER = re.compile(r"^(?:---|\+\+\+) (?P<path>\S+)")

# the diff's sha256 and the event record (`log:line`, root-relative) that moved a round.
Movement = tuple[str, str]


@dataclass(frozen=True)
class Admission:
    """Whether a round counts, why, and the diff and event record it rests on."""

    accepted: bool
    why: str
    diff: str | None = None  # the cited diff, relative to the root
    event: str | None = None  # the cited hook log line, relative to the root
    key: Movement | None = None  # what admitted the round, never to admit another


def touched_paths(data: bytes) -> list[str]:
    """The paths a unified diff touches (empty when `data` is not a diff)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return []
    paths: list[str] = []
    for line in text.splitlines():
        found: list[str] = []
        if (match := _GIT_HEADER.match(line)) is not None:
            found = [match["a"], match["b"]]
        elif (match := _FILE_HEADER.match(line)) is not None and match["path"] != "/dev/null":
            path = match["path"]
            found = [path[2:] if path.startswith(("a/", "b/")) else path]
        paths.extend(path for path in found if path not in paths)
    return paths


def moves_the_dispute(paths: Sequence[str]) -> bool:
    """True when a diff touching `paths` touches requirements.md, hooks.md or validation.md."""
    return any(Path(path).name in DISPUTE_FILES for path in paths)


def admit_round(
    files: MovementFiles, votes: Sequence[Vote], used: Mapping[Movement, int] | None = None
) -> Admission:
    """A-4 for one round N > 1: accepted when a vote that counts cites a matching diff and event
    record that admitted no earlier round (`used`: movement -> the round it admitted). `files`
    holds the bytes of what the votes cite and the dispute's hook logs."""
    reasons: list[str] = []
    for vote in votes:
        admission = _admit_vote(vote, files, used or {})
        if admission.accepted and not vote.counts:
            # a withdrawn vote does not count, so its movement admits nothing.
            admission = Admission(False, f"{vote.label} is withdrawn: its diff moves nothing")
        if admission.accepted:
            return admission
        reasons.append(admission.why)
    if not reasons:
        return Admission(False, "rejected: the round has no votes")
    # The most specific reason any vote got furthest with.
    return Admission(False, "rejected: " + max(reasons, key=_progress))


_STAGES = (
    "cites no diff",
    "touches none of",
    "cites no event record",
    "does not match",
    "already admitted",
    "is withdrawn",
)


def _progress(why: str) -> int:
    return max((index for index, stage in enumerate(_STAGES) if stage in why), default=0)


def _admit_vote(vote: Vote, files: MovementFiles, used: Mapping[Movement, int]) -> Admission:
    logs = files.logs
    diffs: list[tuple[str, bytes, list[str]]] = []
    for cited, target in zip(vote.cited, vote.targets, strict=True):
        data = files.cited.get(target.resolve(), b"")
        paths = touched_paths(data)
        if paths and parse_ref(cited).line is None and parse_ref(cited).pointer is None:
            diffs.append((cited, data, paths))
    if not diffs:
        return Admission(False, f"{vote.label} cites no diff")
    moving = [diff for diff in diffs if moves_the_dispute(diff[2])]
    if not moving:
        touched = ", ".join(path for diff in diffs for path in diff[2])
        return Admission(
            False,
            f"the diff {vote.label} cites touches none of {', '.join(DISPUTE_FILES)} "
            f"(it touches {touched})",
        )
    events: list[tuple[str, HookEntry]] = []
    for cited, target in zip(vote.cited, vote.targets, strict=True):
        line = parse_ref(cited).line
        entries = logs.get(target.resolve())
        if line is None or entries is None:
            continue
        events.extend(
            (cited, entry)
            for entry in entries
            if entry.line == line and entry.event is HookEvent.POST_TOOL_USE
        )
    if not events:
        return Admission(
            False,
            f"{vote.label} cites no event record (a PostToolUse line of the dispute's hook "
            "logs, as path:line)",
        )
    reused: str | None = None
    for diff_ref, data, _ in moving:
        checksum = hashlib.sha256(data).hexdigest()
        for event_ref, entry in events:
            if entry.diff_sha256 != checksum:
                continue
            key = (checksum, event_ref)
            if key in used:
                reused = reused or (
                    f"the diff {code(diff_ref)} and the event record {code(event_ref)} "
                    f"{vote.label} cites already admitted R{used[key]}: a round needs a new diff"
                )
                continue
            return Admission(
                True,
                f"accepted: {vote.label} cites the diff {code(diff_ref)} and the event record "
                f"{code(event_ref)}, whose diff_sha256 matches",
                diff=diff_ref,
                event=event_ref,
                key=key,
            )
    if reused is not None:
        return Admission(False, reused)
    diff_ref, data, _ = moving[0]
    event_ref, entry = events[0]
    return Admission(
        False,
        f"the event record {code(event_ref)} (diff_sha256 {str(entry.diff_sha256)[:12]}…) does not "
        f"match the sha256 of {code(diff_ref)} ({hashlib.sha256(data).hexdigest()[:12]}…)",
    )
