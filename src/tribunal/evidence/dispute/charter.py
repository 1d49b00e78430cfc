"""The arbiter's charter (A-1): who votes with what weight, who vetoes, quorum and rules.

A default charter ships in the package (`default_charter.yaml`); a dispute may name its own.
Every charter is checked against the `charter` schema on load. A charter may leave any field out
(A-1: "default 1 each"): it then takes the default charter's value — per top-level field, per
role and per seat field (`veto: null` drops a default veto). The coordinator never votes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

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
    default = _default_document()
    validate(default, "charter")
    if path is None:
        return charter_from(default)
    document = load_yaml(path, label)
    _coordinator_never_votes(document)
    validate(document, "charter")
    return charter_from(replace(document, data=_with_defaults(document.data, default.data)))


def _default_document() -> Document:
    text = resources.files(__package__).joinpath(DEFAULT_CHARTER).read_text(encoding="utf-8")
    data, lines = parse_yaml(text, DEFAULT_LABEL)
    return Document(Path(DEFAULT_CHARTER), DEFAULT_LABEL, data, text, lines)


def _coordinator_never_votes(document: Document) -> None:
    # the coordinator keeps the protocol; a weight would let its vote file count.
    roles = document.data.get("roles") if isinstance(document.data, dict) else None
    seat = roles.get(Role.COORDINATOR.value) if isinstance(roles, dict) else None
    weight = seat.get("vote_weight", 0) if isinstance(seat, dict) else 0
    if weight != 0:
        where = ("roles", Role.COORDINATOR.value, "vote_weight")
        raise document.bad("the coordinator keeps the protocol and never votes: must be 0", where)


def _with_defaults(data: dict[str, Any], default: dict[str, Any]) -> dict[str, Any]:
    """`data` with every field it leaves out taken from the default charter (A-1)."""
    merged = {**default, **data}
    roles: dict[str, dict[str, Any]] = {name: dict(seat) for name, seat in default["roles"].items()}
    for name, seat in (data.get("roles") or {}).items():
        roles[name] = {**roles.get(name, {}), **seat}
    merged["roles"] = roles
    return merged


def charter_from(document: Document) -> Charter:
    """Build a Charter from a document already valid against the `charter` schema."""
    data = document.data
    roles = {
        Role(name): RoleSeat(
            role=Role(name),
            vote_weight=int(seat["vote_weight"]),
            veto=Veto(seat["veto"]) if seat.get("veto") is not None else None,
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
