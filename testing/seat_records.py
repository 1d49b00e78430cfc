"""SeatRecords for blind-court tests: a pass, a refuse, a hold, built the way the seat walk does."""

from __future__ import annotations

from tribunal.enums import CitationStatus, ReasonCode, SeatVerdict, Severity
from tribunal.jury.seat.record import RejectedRung, SeatRecord
from tribunal.jury.verdict import Checked, Finding, Verdict

EIGHT = (
    "defect",
    "proportion",
    "operator_consequence",
    "telemetry",
    "reversibility",
    "state_continuity",
    "resource_economy",
    "boundary_condition",
)

CHECKED = Checked(
    claim="the guard rejects an empty list",
    location="src/app.py:3",
    evidence="if not items:",
    citation=CitationStatus.VERIFIED,
)


def finding(
    severity: Severity, claim: str = "an empty list crashes", location: str = "src/app.py:3"
) -> Finding:
    return Finding(
        severity=severity,
        claim=claim,
        evidence="items[0]",
        location=location,
        citation=CitationStatus.VERIFIED,
    )


def passed(
    lens: str,
    *,
    bare: bool = False,
    findings: tuple[Finding, ...] = (),
    rung: str = "r-b",
    family: str = "vendor-b",
) -> SeatRecord:
    checked = () if bare else (CHECKED,)
    verdict = Verdict(SeatVerdict.PASS, lens, findings=findings, checked=checked)
    return SeatRecord.seated(verdict, tier="generalist", rung=rung, family=family)


def refused(lens: str, *findings: Finding) -> SeatRecord:
    found = findings or (finding(Severity.MAJOR),)
    verdict = Verdict(SeatVerdict.REFUSE, lens, findings=found, checked=(CHECKED,))
    return SeatRecord.seated(verdict, tier="generalist", rung="r-c", family="vendor-c")


def held(lens: str) -> SeatRecord:
    return SeatRecord.hold(
        lens=lens,
        tier="deep_state",
        rejected_rungs=(RejectedRung(rung="r-a", reason=ReasonCode.BUILDER_FAMILY),),
    )


def all_pass() -> tuple[SeatRecord, ...]:
    return tuple(passed(lens) for lens in EIGHT)
