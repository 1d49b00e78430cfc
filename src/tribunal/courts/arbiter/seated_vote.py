"""A seat's record as the vote file of a role (L-11, A-2): `DIR/votes/R<N>-<role>.yaml`.

pass -> APPROVE, refuse -> DENY (`critical_risk: true` when a blocker finding was returned),
hold -> DEFERRED (`action: deferred`); otherwise the implementor `proposed`, the others
`challenged` (refuse) or `defended` (pass). `summary` holds the findings' claims and
`evidence_ref` their locations, rewritten relative to the dispute directory so `tribunal
arbitrate` resolves them. Only a location the citation check verified is cited (V-4, read by
the one location reader: `calc.py, line 5` cites `calc.py:5`); a placeholder, a copy of the
protocol's example, a file, line or quote the envelope does not hold, or a location that cannot
resolve (no `--repo`, a file outside the repository) is cited as the envelope's manifest
instead, which names every file judged.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.enums import CitationStatus, JudgmentVerdict, Role, SeatVerdict, Severity, VoteAction
from tribunal.errors import BadInput, BrokenRef
from tribunal.evidence.dispute.charter import Charter
from tribunal.evidence.dispute.votes import VOTES_DIR
from tribunal.jury.citations import read_location
from tribunal.jury.envelope.build import MANIFEST_NAME
from tribunal.jury.seat.record import SeatRecord
from tribunal.outputs import check_output_path
from tribunal.refs import resolve_ref

# V-4: the marks whose location may be cited (not_checked: a record no envelope was given for).
_CITABLE = frozenset({CitationStatus.VERIFIED, CitationStatus.NOT_CHECKED})
_VOTES: dict[SeatVerdict, JudgmentVerdict] = {
    SeatVerdict.PASS: JudgmentVerdict.APPROVE,
    SeatVerdict.REFUSE: JudgmentVerdict.DENY,
    SeatVerdict.HOLD: JudgmentVerdict.DEFERRED,
}


@dataclass(frozen=True)
class VoteTarget:
    """Where a seated role's vote goes and what it may cite: checked before any dispatch."""

    path: Path  # DIR/votes/R<N>-<role>.yaml
    dispute_dir: Path
    root: Path
    manifest_ref: str  # the envelope's manifest, relative to the dispute directory
    repo: Path | None  # the repository a finding's location names files of

    def refs(self, record: SeatRecord) -> list[str]:
        """The findings' locations as refs resolving from the dispute directory, in order and
        each once; the manifest stands in for any that cannot (and for a seat with none)."""
        refs: list[str] = []
        for finding in record.findings:
            citable = finding.location and finding.citation in _CITABLE
            ref = self._ref(finding.location) if finding.location and citable else None
            ref = ref if ref is not None else self.manifest_ref
            if ref not in refs:
                refs.append(ref)
        return refs or [self.manifest_ref]

    def _ref(self, location: str) -> str | None:
        place = read_location(location)
        if place is None or self.repo is None:
            return None
        target = self.repo.resolve() / place.path.lstrip("/")
        ref = f"{_relative(target, self.dispute_dir)}:{place.first}"
        try:
            resolve_ref(ref, base=self.dispute_dir, root=self.root)
        except BrokenRef:
            return None
        return ref


def vote_target(
    *,
    dispute_dir: Path,
    charter: Charter,
    role: Role,
    round_number: int,
    envelope_dir: Path,
    repo: Path | None,
    root: Path,
    label: str,
) -> VoteTarget:
    """The vote file a seated `role` writes in round `round_number` of the dispute.

    Raises BadInput when the charter does not seat `role` as a voter, when the vote file exists
    already (a vote is never overwritten), or when the envelope's manifest cannot be cited from
    the dispute (it must lie inside the repository)."""
    seat = charter.seat(role)
    if seat is None or not seat.votes:
        raise BadInput(f"the charter ({charter.label}) seats no voting {role}", field="--role")
    path = dispute_dir / VOTES_DIR / f"R{round_number}-{role.value}.yaml"
    shown = f"{label}/{VOTES_DIR}/{path.name}"
    check_output_path(path, "--round", shown)  # C-3: no link, FIFO or device is written through
    if path.exists():
        raise BadInput(
            "a vote file is never overwritten; write the next round (--round) instead",
            source=shown,
        )
    manifest_ref = _relative(envelope_dir.resolve() / MANIFEST_NAME, dispute_dir)
    try:
        resolve_ref(manifest_ref, base=dispute_dir, root=root)
    except BrokenRef as error:
        raise BadInput(
            f"the vote must cite the envelope's {MANIFEST_NAME} as evidence, and it cannot: "
            f"{error} (build the envelope inside the repository)",
            field="--envelope",
        ) from None
    return VoteTarget(path, dispute_dir, root, manifest_ref, repo)


def seated_vote(
    record: SeatRecord, *, role: Role, round_number: int, refs: Sequence[str]
) -> dict[str, Any]:
    """The vote document (schema `vote`) of `record` for `role` in round `round_number`."""
    vote = _VOTES[record.verdict]
    blocker = any(finding.severity is Severity.BLOCKER for finding in record.findings)
    return {
        "round": round_number,
        "role": role.value,
        "action": _action(record.verdict, role).value,
        "vote": vote.value,
        "critical_risk": record.verdict is SeatVerdict.REFUSE and blocker,
        "summary": _summary(record),
        "evidence_ref": list(refs),
    }


def _action(verdict: SeatVerdict, role: Role) -> VoteAction:
    if verdict is SeatVerdict.HOLD:
        return VoteAction.DEFERRED
    if role is Role.IMPLEMENTOR:
        return VoteAction.PROPOSED
    return VoteAction.CHALLENGED if verdict is SeatVerdict.REFUSE else VoteAction.DEFENDED


def _summary(record: SeatRecord) -> str:
    """The findings' claims, one a line; a seat without findings says what it came to."""
    if record.findings:
        return "\n".join(f"[{f.severity.value}] {f.claim}" for f in record.findings)
    seated = f"{record.rung} [{record.family}]" if record.rung else "no rung"
    said = f"{record.verdict.value} from {seated} with no findings"
    if record.checked:
        said += "; checked: " + "; ".join(entry.claim for entry in record.checked)
    if record.note:
        said += f" ({record.note})"
    return said


def _relative(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start.resolve())).as_posix()
