"""A juror's verdict: its shape (V-1), how a reply is read (V-2) and normalised (V-3).

Reading fails closed. The reply is untrusted text from a model: only the LAST JSON object in it
that carries `verdict` counts, and anything that is not exactly a V-1 verdict is a
`MalformedVerdict` (which L-6 turns into a REFUSE), never a pass. A reply whose verdict objects
disagree (a pass and a refuse, or two lenses) is contradictory and malformed too: the last one's
word would let a model hedge both ways. Only `VerdictError`s escape `parse_verdict` (S-5).
The scanning of a reply for its objects is `reply_objects`', shared with the panel's scorecards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from tribunal.enums import CitationReason, CitationStatus, ReasonCode, SeatVerdict, Severity
from tribunal.errors import TribunalError
from tribunal.jury.redaction import raw_tail
from tribunal.jury.reply_objects import (
    MAX_REPLY_BYTES as MAX_REPLY_BYTES,  # re-exported: the transports cap replies by it too
)
from tribunal.jury.reply_objects import (
    canonical,
    copied,
    last_object,
    over_cap,
    short,
    strip_fences,
)

# V-1 string form: "[severity] path:line claim" (the location is optional, a ':' after it too).
_STRING_FINDING = re.compile(
    r"\s*\[\s*(?P<severity>[A-Za-z]+)\s*\]\s*"
    r"(?:(?P<location>[^\s\[\]]+?:\d+(?:-\d+)?):?(?:\s+|$))?"
    r"(?P<claim>.*)",
    re.S,
)
_SERIOUS = (Severity.BLOCKER, Severity.MAJOR)


class VerdictError(TribunalError):
    """A reply that yields no verdict for the seated lens; `raw_tail` keeps its last bytes."""

    def __init__(self, message: str, *, raw_tail: str) -> None:
        super().__init__(message)
        self.message = message
        self.raw_tail = raw_tail


class MalformedVerdict(VerdictError):
    """L-6 `malformed`: no verdict JSON, refusal text, no lens, not exactly pass/refuse, ..."""


class WrongLens(VerdictError):
    """L-6 `wrong_lens`: a verdict for another lens than the seated one."""

    def __init__(self, *, seated: str, answered: str, raw_tail: str) -> None:
        super().__init__(
            f"verdict for lens {answered!r}, seated lens {seated!r}", raw_tail=raw_tail
        )
        self.seated = seated
        self.answered = answered


@dataclass(frozen=True)
class Finding:
    """One V-1 finding; `citation` is the V-4 mark (`not_checked` until checked) and
    `citation_reason` why it is `unlocated`, when known."""

    severity: Severity
    claim: str
    evidence: str | None = None
    location: str | None = None
    citation: CitationStatus = CitationStatus.NOT_CHECKED
    citation_reason: CitationReason | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in a SeatRecord (`citation_reason` only when there is one)."""
        return _with_reason(
            {
                "severity": self.severity.value,
                "claim": self.claim,
                "evidence": self.evidence,
                "location": self.location,
                "citation": self.citation.value,
            },
            self.citation_reason,
        )


@dataclass(frozen=True)
class Checked:
    """One V-1 `checked` entry: what the juror says it verified, and where."""

    claim: str
    location: str
    evidence: str | None = None
    citation: CitationStatus = CitationStatus.NOT_CHECKED
    citation_reason: CitationReason | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form kept in a SeatRecord (`citation_reason` only when there is one)."""
        return _with_reason(
            {
                "claim": self.claim,
                "evidence": self.evidence,
                "location": self.location,
                "citation": self.citation.value,
            },
            self.citation_reason,
        )


def citation_text(entry: Finding | Checked) -> str:
    """The V-4 mark of `entry` as a person reads it: `verified`, `unlocated (placeholder)`."""
    mark = entry.citation.value
    return mark if entry.citation_reason is None else f"{mark} ({entry.citation_reason.value})"


def _with_reason(data: dict[str, Any], reason: CitationReason | None) -> dict[str, Any]:
    """V-4: the record says why a citation is `unlocated` (a placeholder, the example copied)."""
    return data if reason is None else {**data, "citation_reason": reason.value}


@dataclass(frozen=True)
class Verdict:
    """A read and normalised verdict for one lens.

    `reason` is `contradictory_pass` (V-3) or `malformed` (L-6) when the verdict was rewritten
    to a refuse; `note` says why; `raw_tail` keeps the reply's tail for a malformed one.
    """

    verdict: SeatVerdict
    lens: str
    findings: tuple[Finding, ...] = ()
    checked: tuple[Checked, ...] = ()
    reason: ReasonCode | None = None
    note: str | None = None
    raw_tail: str | None = None

    @property
    def low_information(self) -> bool:
        """V-3: a pass is bare unless a finding or `checked` entry passed the V-4 check."""
        if self.verdict is not SeatVerdict.PASS:
            return False
        marks = [entry.citation for entry in self.findings]
        marks += [entry.citation for entry in self.checked]
        return CitationStatus.VERIFIED not in marks


def parse_verdict(
    text: str, *, lens: str, secrets: Iterable[str] = (), shown: str | None = None
) -> Verdict:
    """Read the verdict for `lens` from a juror's reply (V-2) and normalise it (V-3).

    `shown` is the prompt the seat was given (the envelope inside it): a verdict object whose
    exact text occurs in it is a copy of the material, not the juror's own verdict (S-2).
    Returns a pass or refuse `Verdict` (citations not yet checked). Raises `MalformedVerdict`
    when the reply holds no exact V-1 verdict (or only a copied one) and `WrongLens` when it
    answers another lens.
    """
    secrets = tuple(secrets)
    if over_cap(text):
        raise MalformedVerdict(
            f"reply over {MAX_REPLY_BYTES} bytes", raw_tail=raw_tail(text[-4096:], secrets=secrets)
        )

    def malformed(message: str) -> MalformedVerdict:
        return MalformedVerdict(message, raw_tail=raw_tail(text, secrets=secrets))

    found, source = last_object(
        strip_fences(text), "verdict", fail=malformed, disagreement=_disagreement
    )
    if shown is not None and copied(source, shown):
        # S-2: a juror that echoes an injected file has not judged; only its own reply counts.
        raise malformed("verdict copied from the envelope: the reply repeats text it was shown")
    value = found["verdict"]
    if value not in ("pass", "refuse"):
        raise malformed(f"verdict {short(value)} is not exactly pass or refuse")
    answered = found.get("lens")
    if not isinstance(answered, str) or not answered:
        raise malformed("verdict without lens")
    if answered != lens:
        raise WrongLens(seated=lens, answered=answered, raw_tail=raw_tail(text, secrets=secrets))
    return _normalise(_build(found, malformed))


def _disagreement(earlier: dict[str, Any], later: dict[str, Any]) -> str | None:
    """How two verdict objects of one reply disagree, in words, or None when they agree: on
    their `verdict` or their `lens`, compared as canonical JSON text (a model may write either
    as any JSON value, `"lens": ["defect"]` included)."""
    if canonical(earlier.get("verdict")) != canonical(later.get("verdict")):
        return (
            f"verdict objects say both {short(earlier.get('verdict'))}"
            f" and {short(later.get('verdict'))}"
        )
    if canonical(earlier.get("lens")) != canonical(later.get("lens")):
        return (
            f"verdict objects for lens {short(earlier.get('lens'))}"
            f" and lens {short(later.get('lens'))}"
        )
    return None


def _build(found: dict[str, Any], malformed: Any) -> Verdict:
    """Normalise string findings (V-1), check the shape against the shipped schema, build."""
    from tribunal.documents import first_schema_error, format_field

    # An absent or null list is an empty one: that can only make a pass bare (V-3), never more.
    # Any other falsy value ({}, false, 0, "") is not a list: the schema rejects it (V-2).
    findings = _list_or_empty(found.get("findings"))
    if isinstance(findings, list):
        findings = [_finding_object(item) for item in findings]
    shaped = {**found, "findings": findings, "checked": _list_or_empty(found.get("checked"))}
    error = first_schema_error(shaped, "verdict")
    if error is not None:
        message, where = error
        field = format_field(where)
        raise malformed(f"{field}: {message}" if field else message)
    return Verdict(
        verdict=SeatVerdict(shaped["verdict"]),
        lens=shaped["lens"],
        findings=tuple(
            Finding(
                severity=Severity(item["severity"]),
                claim=item["claim"],
                evidence=item.get("evidence"),
                location=item.get("location"),
            )
            for item in shaped["findings"]
        ),
        checked=tuple(
            Checked(claim=item["claim"], location=item["location"], evidence=item.get("evidence"))
            for item in shaped["checked"]
        ),
    )


def _list_or_empty(value: Any) -> Any:
    """`[]` for an absent or null list, else `value` as it came (the schema judges it)."""
    return [] if value is None else value


def _finding_object(item: Any) -> Any:
    """`"[severity] path:line claim"` -> a finding object; anything else as it came, with a
    severity spelled in capitals lowered (the schema judges the rest)."""
    if isinstance(item, dict):
        severity = item.get("severity")
        if isinstance(severity, str):
            return {**item, "severity": severity.strip().lower()}
        return item
    if not isinstance(item, str):
        return item
    match = _STRING_FINDING.fullmatch(item)
    if match is None:
        # Not of the form: a severity nobody can read makes the whole verdict malformed.
        return {"claim": item}
    return {
        "severity": match["severity"].lower(),
        "claim": match["claim"].strip(),
        "location": match["location"],
    }


def _normalise(verdict: Verdict) -> Verdict:
    """V-3: a pass that lists a blocker or major finding is a refuse, the severity named."""
    if verdict.verdict is not SeatVerdict.PASS:
        return verdict
    severities = {finding.severity for finding in verdict.findings}
    for severity in _SERIOUS:
        if severity in severities:
            return replace(
                verdict,
                verdict=SeatVerdict.REFUSE,
                reason=ReasonCode.CONTRADICTORY_PASS,
                note=f"contradictory pass: lists a {severity.value} finding",
            )
    return verdict
