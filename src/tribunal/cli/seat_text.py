"""The text `tribunal seat` prints for a SeatRecord (L-11): who sat, what it said, who was
passed over and why. Deterministic: the same record, the same bytes."""

from __future__ import annotations

from tribunal.enums import SeatVerdict
from tribunal.jury.routing import WEAKENED_GATE
from tribunal.jury.seat.record import SAME_FAMILY, SeatRecord
from tribunal.jury.verdict import citation_text


def render_seat(record: SeatRecord) -> str:
    """The record as lines of text for a person checking a fleet."""
    lines = [f"lens: {record.lens} (tier {record.tier})"]
    if record.rung is not None:
        marks = [" builder_family_seated"] if record.builder_family_seated else []
        marks += [" (recorded reply)"] if record.recorded else []
        lines.append(f"seated: {record.rung} [{record.family}]{''.join(marks)}")
    else:
        lines.append("seated: none")
    if record.verifier is not None:
        verifier = record.verifier
        lines.append(
            f"verifier: {verifier.rung} [{verifier.family}]: {verifier.verdict.value}"
            f" (verified: {_verified(record)})"
        )
    elif record.verified is not None:
        lines.append(f"verifier: none answered (verified: {_verified(record)})")
    verdict = record.verdict.value.upper()
    if record.verdict is SeatVerdict.PASS and record.low_information:
        verdict += " (low information: a bare pass, it names nothing it checked)"
    lines.append(f"verdict: {verdict}")
    if record.reason is not None:
        lines.append(f"reason: {record.reason.value}")
    if record.note:
        lines.append(f"note: {record.note}")
    if record.builder_family_seated or record.verified == SAME_FAMILY:
        lines.append(f"DEGRADED: {WEAKENED_GATE}")  # L-10: the weakened gate is named
    if record.findings:
        lines.append("findings:")
        for finding in record.findings:
            where = f" {finding.location}" if finding.location else ""
            lines.append(
                f"  [{finding.severity.value}]{where} {finding.claim}"
                f" (citation: {citation_text(finding)})"
            )
    if record.checked:
        lines.append("checked:")
        for entry in record.checked:
            lines.append(f"  {entry.location} {entry.claim} (citation: {citation_text(entry)})")
    if record.rejected_rungs:
        lines.append("rejected rungs:")
        for rejected in record.rejected_rungs:
            detail = f" ({rejected.detail})" if rejected.detail else ""
            lines.append(f"  {rejected.rung}: {rejected.reason.value}{detail}")
    return "\n".join(lines) + "\n"


def _verified(record: SeatRecord) -> str:
    verified = record.verified
    return verified if isinstance(verified, str) else str(verified).lower()
