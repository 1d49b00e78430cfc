"""What a rung's answer becomes (the reply rows of the L-6 table).

A valid verdict for the seated lens is that verdict (citations checked against the envelope when
one is given, by the one checker every court uses, V-4); a verdict for another lens rejects the
rung (`wrong_lens`, walk on); a reply that answered badly is a REFUSE with the blocker finding
`malformed verdict from <rung>` (stop — one shot, no retries). Transport failures (`truncated`,
`not_answered`, ...) are decided by the transports before a reply reaches this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tribunal.enums import ReasonCode, SeatVerdict, Severity
from tribunal.jury.citations import CitationSources, check_citations
from tribunal.jury.seat.record import RejectedRung
from tribunal.jury.verdict import (
    Finding,
    MalformedVerdict,
    Verdict,
    WrongLens,
    parse_verdict,
)


def read_reply(
    text: str,
    *,
    lens: str,
    rung: str,
    envelope: CitationSources | Mapping[str, str] | None = None,
    secrets: Iterable[str] = (),
    shown: str | None = None,
) -> Verdict | RejectedRung:
    """The `Verdict` (pass, refuse, or a malformed refuse) the reply of `rung` comes to for
    `lens`, or the `RejectedRung` of a `wrong_lens` answer. Raises nothing: every reply lands
    in its L-6 row. `envelope` is what citations are checked against: the envelope's files by
    path, or `CitationSources` that carry the protocol's example citation too. `secrets` are
    redacted from any kept `raw_tail` (L-8); `shown` is the prompt the rung was given — a
    verdict copied from it is malformed (S-2)."""
    try:
        verdict = parse_verdict(text, lens=lens, secrets=secrets, shown=shown)
    except WrongLens as error:
        return RejectedRung(
            rung=rung,
            reason=ReasonCode.WRONG_LENS,
            raw_tail=error.raw_tail,
            detail=error.message,
            answered_lens=error.answered,
        )
    except MalformedVerdict as error:
        return malformed_refuse(lens=lens, rung=rung, error=error)
    return check_citations(verdict, envelope) if envelope is not None else verdict


def malformed_refuse(*, lens: str, rung: str, error: MalformedVerdict) -> Verdict:
    """L-6: a rung that answered badly REFUSES, with a blocker finding naming it."""
    return Verdict(
        verdict=SeatVerdict.REFUSE,
        lens=lens,
        findings=(
            Finding(
                severity=Severity.BLOCKER,
                claim=f"malformed verdict from {rung}",
                evidence=error.message,
            ),
        ),
        reason=ReasonCode.MALFORMED,
        note=error.message,
        raw_tail=error.raw_tail,
    )
