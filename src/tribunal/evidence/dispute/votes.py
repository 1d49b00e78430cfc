"""Vote files of a dispute (A-2): `votes/R<N>-<role>.yaml`, one per role and round.

The file name must agree with the `round` and `role` inside; a role the charter does not seat,
or one that does not vote (the coordinator keeps the protocol), is bad input. Each
`evidence_ref` is relative to the dispute directory and must resolve inside the repository.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tribunal.documents import Document, load_yaml, validate
from tribunal.enums import JudgmentVerdict, Role, VoteAction
from tribunal.errors import BadInput, BrokenRef
from tribunal.evidence.dispute.charter import Charter
from tribunal.paths import display_path
from tribunal.refs import parse_ref, resolve_ref

VOTES_DIR = "votes"
_VOTE_NAME = re.compile(r"^R(?P<round>[0-9]+)-(?P<role>[a-z]+)\.ya?ml$")


@dataclass(frozen=True)
class Vote:
    """One role's vote in one round, with its evidence_refs as written and as root-relative."""

    round: int
    role: Role
    action: VoteAction
    vote: JudgmentVerdict
    critical_risk: bool
    summary: str
    evidence_ref: tuple[str, ...]  # as written, relative to the dispute directory
    cited: tuple[str, ...]  # the same refs relative to the repository root (C-8)
    targets: tuple[Path, ...]  # the files the refs name
    label: str  # the vote file, relative to the root
    document: Document

    @property
    def counts(self) -> bool:
        """A-2: a withdrawn vote neither counts toward the quorum nor weighs."""
        return self.action is not VoteAction.WITHDRAWN


def load_votes(directory: Path, charter: Charter, *, root: Path) -> list[Vote]:
    """Every vote under `directory/votes/`, by round then role (verifier, implementor, safety).

    Raises BadInput for a file name that is not `R<N>-<role>.yaml` or disagrees with the file,
    an unknown or non-voting role, malformed YAML, a ref that does not resolve, or a round
    missing between 1 and the highest.
    """
    folder = directory / VOTES_DIR
    if not folder.is_dir():
        return []
    votes = [
        load_vote(path, charter, directory=directory, root=root)
        for path in sorted(folder.iterdir())
        if not path.name.startswith(".")
    ]
    order = list(Role)
    votes.sort(key=lambda vote: (vote.round, order.index(vote.role)))
    _check_rounds(votes)
    return votes


def load_vote(path: Path, charter: Charter, *, directory: Path, root: Path) -> Vote:
    """One vote file, checked against the `vote` schema, its name and the charter."""
    label = display_path(path, root)
    match = _VOTE_NAME.match(path.name)
    if match is None or not path.is_file():
        raise BadInput("not a vote file: expected votes/R<N>-<role>.yaml", source=label)
    document = load_yaml(path, label)
    validate(document, "vote")
    data = document.data
    if int(match["round"]) != data["round"]:
        raise document.bad(
            f"round {data['round']} disagrees with the file name (R{match['round']})", ("round",)
        )
    if match["role"] != data["role"]:
        raise document.bad(
            f"role {data['role']!r} disagrees with the file name ({match['role']!r})", ("role",)
        )
    role = Role(data["role"])
    seat = charter.seat(role)
    if seat is None:
        raise document.bad(f"the charter ({charter.label}) seats no {role}", ("role",))
    if not seat.votes:
        raise document.bad(f"{role} keeps the protocol and does not vote", ("role",))
    refs = data["evidence_ref"]
    written = (refs,) if isinstance(refs, str) else tuple(refs)
    targets: list[Path] = []
    cited: list[str] = []
    for index, ref in enumerate(written):
        where = ("evidence_ref",) if isinstance(refs, str) else ("evidence_ref", index)
        try:
            target = resolve_ref(ref, base=directory, root=root)
        except BrokenRef as exc:
            raise document.bad(str(exc), where) from None
        targets.append(target)
        cited.append(root_relative(ref, target, root))
    return Vote(
        round=data["round"],
        role=role,
        action=VoteAction(data["action"]),
        vote=JudgmentVerdict(data["vote"]),
        critical_risk=bool(data.get("critical_risk", False)),
        summary=data["summary"].strip(),
        evidence_ref=written,
        cited=tuple(cited),
        targets=tuple(targets),
        label=label,
        document=document,
    )


def root_relative(ref: str, target: Path, root: Path) -> str:
    """`ref` (relative to wherever it was written) rewritten relative to the root (C-8)."""
    parsed = parse_ref(ref)
    path = display_path(target, root)
    if parsed.pointer is not None:
        return f"{path}#{parsed.pointer}"
    if parsed.line is not None:
        return f"{path}:{parsed.line}"
    return path


def _check_rounds(votes: Sequence[Vote]) -> None:
    # rounds are numbered 1, 2, 3 ... with none left out.
    seen = sorted({vote.round for vote in votes})
    for expected, vote_round in enumerate(seen, start=1):
        if vote_round != expected:
            first = next(vote for vote in votes if vote.round == vote_round)
            raise first.document.bad(f"round {vote_round} without a round {expected}", ("round",))
