"""L-11 `--role`: a role routes on its tier, is briefed as the role, and its record maps onto the
A-2 vote (verdict, action, critical_risk)."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.juror_fleets import ENV, server_rung, write_fleet
from testing.jurors import JurorServer, reply, verdict

from tribunal.courts.arbiter.roles import BRIEFS
from tribunal.courts.arbiter.seated_vote import seated_vote
from tribunal.enums import Role, SeatVerdict, Severity
from tribunal.jury.builder import resolve_builder
from tribunal.jury.envelope.build import Envelope
from tribunal.jury.seat.alone import sit_alone
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Finding

ENVELOPE = Envelope("repo", "base", "head", "0" * 64, (), (), "### calc.py\n\n(binary)\n")


@pytest.mark.parametrize(
    ("role", "tier"),
    [
        (Role.SAFETY, "operator_safety"),
        (Role.VERIFIER, "generalist"),
        (Role.IMPLEMENTOR, "generalist"),
    ],
)
def test_a_role_routes_on_its_tier_with_its_brief(tmp_path: Path, role: Role, tier: str) -> None:
    with JurorServer("openai") as generalist, JurorServer("openai") as safety:
        for server in (generalist, safety):
            server.always(reply(verdict(role.value)))
        rungs = [
            server_rung("general", "vendor-a", generalist),
            server_rung("guard", "vendor-b", safety),
            server_rung("builder", "vendor-z", generalist),
        ]
        fleet = write_fleet(
            tmp_path, rungs, {"generalist": ["general"], "operator_safety": ["guard"]}
        )
        brief = BRIEFS[role]
        record = sit_alone(
            fleet,
            resolve_builder(fleet, "vendor-z"),
            brief.lens,
            ENVELOPE,
            environ=ENV,
            preamble=brief.preamble,
        )
        asked = (safety if tier == "operator_safety" else generalist).chat_requests()
    assert (record.lens, record.tier, record.verdict) == (role.value, tier, SeatVerdict.PASS)
    prompt = asked[0].prompt
    said = {Role.SAFETY: "You are safety.", Role.VERIFIER: "You are the verifier."}
    assert said.get(role, "You are the implementor.") in prompt
    assert f"## Your role: {role.value}" in prompt
    assert f'"lens": "{role.value}"' in prompt
    assert "one juror of a blind review" not in prompt


BLOCKER = Finding(Severity.BLOCKER, "wipes the ledger", location="a.py:1")
MINOR = Finding(Severity.MINOR, "naming", location="a.py:2")


@pytest.mark.parametrize(
    ("verdict_", "findings", "role", "expected"),
    [
        (SeatVerdict.PASS, (), Role.VERIFIER, ("APPROVE", "defended", False)),
        (SeatVerdict.PASS, (MINOR,), Role.IMPLEMENTOR, ("APPROVE", "proposed", False)),
        (SeatVerdict.REFUSE, (MINOR,), Role.VERIFIER, ("DENY", "challenged", False)),
        (SeatVerdict.REFUSE, (BLOCKER,), Role.SAFETY, ("DENY", "challenged", True)),
        (SeatVerdict.REFUSE, (BLOCKER,), Role.IMPLEMENTOR, ("DENY", "proposed", True)),
        (SeatVerdict.HOLD, (), Role.SAFETY, ("DEFERRED", "deferred", False)),
    ],
)
def test_record_to_vote(
    verdict_: SeatVerdict,
    findings: tuple[Finding, ...],
    role: Role,
    expected: tuple[str, str, bool],
) -> None:
    rung = None if verdict_ is SeatVerdict.HOLD else "r1"
    record = SeatRecord(role.value, "generalist", rung, "f", verdict_, findings=findings)
    vote = seated_vote(record, role=role, round_number=2, refs=["a.py:1"])
    assert (vote["vote"], vote["action"], vote["critical_risk"]) == expected
    assert vote["round"] == 2 and vote["role"] == role.value
    if findings:
        assert vote["summary"] == "\n".join(f"[{f.severity}] {f.claim}" for f in findings)
    else:
        assert vote["summary"]  # never empty: the schema needs a summary
