"""The arbiter's charter (A-1): who votes with what weight, who vetoes, quorum and rules.

A default charter ships in the package (`default_charter.yaml`); a dispute may name its own.
Every charter is checked against the `charter` schema on load.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tribunal.documents import Document, load_yaml, parse_yaml, validate
from tribunal.enums import DisputeEvidenceKind, PassRule, Role, TieBreaker, Veto

DEFAULT_CHARTER = "default_charter.yaml"
DEFAULT_LABEL = "(default charter)"


@dataclass(frozen=True)
class RoleSeat:
    """One role of the charter: its vote weight and its veto, if any."""

    role: Role
    vote_weight: int
    veto: Veto | None = None

    @property
    def votes(self) -> bool:
        """False for a role that keeps the protocol only (weight 0: the coordinator)."""
        return self.vote_weight > 0


@dataclass(frozen=True)
class Charter:
    """A-1: roles, quorum, pass rule, tie breaker and the evidence kinds required."""

    label: str
    roles: dict[Role, RoleSeat]
    quorum: int
    pass_rule: PassRule
    tie_breaker: TieBreaker
    evidence_required: tuple[DisputeEvidenceKind, ...]

    def seat(self, role: Role) -> RoleSeat | None:
        """The role's seat, or None when the charter does not name it."""
        return self.roles.get(role)


def load_charter(path: Path | None = None, label: str | None = None) -> Charter:
    """The charter at `path`, or the shipped default when None.

    Raises BadInput naming the file, line and field when it is malformed or breaks the schema.
    """
    if path is None:
        text = resources.files(__package__).joinpath(DEFAULT_CHARTER).read_text(encoding="utf-8")
        data, lines = parse_yaml(text, DEFAULT_LABEL)
        document = Document(Path(DEFAULT_CHARTER), DEFAULT_LABEL, data, text, lines)
    else:
        document = load_yaml(path, label)
    validate(document, "charter")
    return charter_from(document)


def charter_from(document: Document) -> Charter:
    """Build a Charter from a document already valid against the `charter` schema."""
    data = document.data
    roles = {
        Role(name): RoleSeat(
            role=Role(name),
            vote_weight=int(seat["vote_weight"]),
            veto=Veto(seat["veto"]) if "veto" in seat else None,
        )
        for name, seat in data["roles"].items()
    }
    if not any(seat.votes for seat in roles.values()):
        raise document.bad("no role has a vote_weight above 0", ("roles",))
    for seat in roles.values():
        # the critical_risk veto is safety's; the rules name it `safety_veto`.
        if seat.veto is not None and seat.role is not Role.SAFETY:
            raise document.bad("only safety holds the critical_risk veto", ("roles", seat.role))
    return Charter(
        label=document.label,
        roles=roles,
        quorum=int(data["quorum"]),
        pass_rule=PassRule(data["pass_rule"]),
        tie_breaker=TieBreaker(data["tie_breaker"]),
        evidence_required=tuple(DisputeEvidenceKind(kind) for kind in data["evidence_required"]),
    )
