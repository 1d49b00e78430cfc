"""The arbiter's voting roles played by a model through the ladder (L-11 `--role`, A-2).

Each role routes on a tier (safety on `operator_safety`, the others on `generalist`) and is
briefed in the arbiter's own words (SPEC §8, source 002): the verifier accepts only what the
files prove (hook logs, schema-valid records, Given/When/Then scenarios); the implementor stands
behind its proposal with checkable evidence, moving a dispute only by diffs to requirements.md,
hooks.md or validation.md; safety holds the veto on critical_risk. The coordinator keeps the
protocol and does not vote, so it is never seated.
"""

from __future__ import annotations

from dataclasses import dataclass

from tribunal.enums import Role
from tribunal.jury.lenses import Lens


@dataclass(frozen=True)
class RoleBrief:
    """How one voting role is seated: its tier, the question it answers, and its preamble."""

    role: Role
    tier: str
    question: str
    preamble: str

    @property
    def lens(self) -> Lens:
        """The role as a seat: its id is the literal the verdict must carry (E-5)."""
        return Lens(self.role.value, self.tier, self.question)


_ARBITER = (
    "You sit on a file-based arbiter deciding a disputed change. The coordinator keeps the\n"
    "protocol and does not vote; the implementor, the verifier and safety vote, and the\n"
    "decision is written to judgment.md with an evidence_ref to a file, never a retelling.\n"
    "You see only the envelope below: the whole files the change touched, their tests and\n"
    "the review contract. Judge the files as they stand.\n\n"
)

BRIEFS: dict[Role, RoleBrief] = {
    Role.VERIFIER: RoleBrief(
        Role.VERIFIER,
        "generalist",
        "Does the change meet its contract and spec, proven by evidence in the files — hook "
        "logs, records valid against their JSON Schema, Given/When/Then scenarios with a "
        "passing result? Anything unproven is a refusal.",
        _ARBITER + "You are the verifier. You accept or reject the implementor's change by\n"
        "formal criteria only, never because it looks plausible. You accept three kinds of\n"
        "evidence: hook logs (PreToolUse shows which tool calls were allowed or blocked,\n"
        "PostToolUse the exit code and the diff checksum), JSON Schema conformance (a required\n"
        "field missing, an integer turned string, a limit out of range is a violation), and\n"
        "Given/When/Then scenarios. When one of them is missing, refuse and name what is\n"
        "missing, however plausible the patch.\n",
    ),
    Role.IMPLEMENTOR: RoleBrief(
        Role.IMPLEMENTOR,
        "generalist",
        "Is this change, as it stands, ready to propose: does it do what the contract says, "
        "with evidence a verifier can check from the files?",
        _ARBITER + "You are the implementor. You propose the change and stand behind it with\n"
        "checkable evidence, not free-form explanation. A dispute moves only by diffs to\n"
        "requirements.md, hooks.md or validation.md: where the change needs a sharper\n"
        "requirement, a stronger hook or a wider validation scenario to be provable, say so\n"
        "as a finding. Pass only when the change is ready to propose as it stands.\n",
    ),
    Role.SAFETY: RoleBrief(
        Role.SAFETY,
        "operator_safety",
        "Is there a critical risk — destructive, unscoped or silently failing behaviour — "
        "that must veto this change?",
        _ARBITER + "You are safety. You hold the veto on critical_risk: a blocker finding from\n"
        "you denies the change whatever the other roles vote. Look for what is destructive or\n"
        "unsafe for the operator: irreversible or unscoped actions (a global limit changed\n"
        "without one tenant's scope), bypassed guardrails, silent failures (a P0 closed\n"
        "without escalation), and a metric improved at the cost of false escalations,\n"
        "rollback flapping or silent errors. Report a critical risk as a blocker finding;\n"
        "lesser risks as major, minor or info.\n",
    ),
}

SEATED_ROLES: tuple[Role, ...] = tuple(BRIEFS)
