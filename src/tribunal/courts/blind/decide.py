"""The blind court's outcome (B-1): eight SeatRecords, the proofs, the flags and the ledger's view
in; the outcome, its exit code, the judgment verdict and the fix list out. A pure function.

Precedence, the first that applies (B-1's table):
INVALID  — a proof could not run cleanly;
ESCALATE — the round would not otherwise LAND, and convergence failed (B-3) or round >= max;
ITERATE  — a lens refused, a proof failed, or a pass lists a minor finding not refuted;
HOLD     — a lens held (no rung, UNVERIFIED), every pass was bare, proofs not run without
           --no-proofs, or --require-cross-family on a degraded run;
LAND     — every lens passed with no open finding above info, proofs held, one pass not bare.
Nothing else can make a LAND: it is what is left when no other rule applies, and a refused,
held or unverified lens and a false proof each apply a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tribunal.courts.blind.convergence import LedgerView, convergence_failed
from tribunal.courts.blind.findings import CourtFinding, harness_finding, seat_findings
from tribunal.enums import (
    JudgmentVerdict,
    Outcome,
    ProofName,
    ProofsState,
    ProofStatus,
    ReasonKind,
    SeatVerdict,
    Severity,
)
from tribunal.errors import BadInput
from tribunal.jury.routing import WEAKENED_GATE
from tribunal.jury.seat.record import SAME_FAMILY, SeatRecord

if TYPE_CHECKING:
    from tribunal.evidence.proofs.report import ProofReport

DEFAULT_MAX_ROUNDS = 5  # B-1 `--max-rounds`
FIX_SEVERITIES = (Severity.BLOCKER, Severity.MAJOR, Severity.MINOR)  # every one becomes a test


@dataclass(frozen=True)
class Proof:
    """One `summary.proofs` entry (B-4): `ok` None when the proof could not be run (no `red`)."""

    name: ProofName
    ok: bool | None
    detail: str = ""
    status: ProofStatus | None = None  # what the harness recorded (B-4), when it ran
    changed_paths: tuple[str, ...] | None = None  # fake_green: the files put back to red

    def to_dict(self) -> dict[str, Any]:
        """The `{name, ok, detail}` form of `summary.proofs` (with `status` and fake_green's
        `changed_paths` when the harness recorded them)."""
        data: dict[str, Any] = {"name": self.name.value, "ok": self.ok, "detail": self.detail}
        if self.status is not None:
            data["status"] = self.status.value
        if self.changed_paths is not None:
            data["changed_paths"] = list(self.changed_paths)
        return data


@dataclass(frozen=True)
class Proofs:
    """What the harness proved (B-4), or that it was not asked to (`--no-proofs`).

    `invalid` is the reason a proof could not run cleanly (timeout cap, a signal, pytest exit
    3/4/5, a collection error outside the new tests) — INVALID; None when every run was clean.
    """

    entries: tuple[Proof, ...] = ()
    invalid: str | None = None
    skipped: bool = False

    @classmethod
    def no_proofs(cls) -> Proofs:
        """`--no-proofs`: counted as held; every report names it."""
        return cls(skipped=True)

    @classmethod
    def from_entries(
        cls, entries: Iterable[Mapping[str, Any]], *, invalid: str | None = None
    ) -> Proofs:
        """Proofs from `{name, ok, detail}` mappings (`ok` null: not run).

        Raises BadInput for an unknown proof name or an `ok` that is not true, false or null.
        """
        proofs = []
        for index, entry in enumerate(entries):
            try:
                name = ProofName(entry["name"])
            except (KeyError, ValueError):
                raise BadInput(
                    f"unknown proof {entry.get('name')!r}", field=f"proofs[{index}].name"
                ) from None
            ok = entry.get("ok")
            if ok not in (True, False, None):
                raise BadInput("ok is true, false or null", field=f"proofs[{index}].ok")
            proofs.append(Proof(name, ok, str(entry.get("detail") or "")))
        return cls(entries=tuple(proofs), invalid=invalid)

    @classmethod
    def from_report(cls, report: ProofReport) -> Proofs:
        """The harness's five proofs (B-4): held -> ok true, failed -> false (a `harness`
        blocker), not run or not run cleanly -> null; an unclean run makes the whole INVALID."""
        oks = {ProofStatus.HELD: True, ProofStatus.FAILED: False}
        entries = tuple(
            Proof(
                record.name,
                oks.get(record.status),
                record.detail,
                record.status,
                record.changed_paths,
            )
            for record in report.records
        )
        return cls(entries=entries, invalid=report.invalid)

    @property
    def state(self) -> ProofsState:
        """SKIPPED (--no-proofs), NOT_RUN (none ran, or some could not run), or RAN."""
        if self.skipped:
            return ProofsState.SKIPPED
        if not self.entries or any(proof.ok is None for proof in self.entries):
            return ProofsState.NOT_RUN
        return ProofsState.RAN

    @property
    def failed(self) -> tuple[Proof, ...]:
        """The proofs that ran and came out false."""
        return tuple(proof for proof in self.entries if proof.ok is False)

    @property
    def held(self) -> bool:
        """B-1: proofs held — all ran and came out true, or --no-proofs was given."""
        return self.skipped or (self.state is ProofsState.RAN and not self.failed)

    def to_list(self) -> list[dict[str, Any]]:
        """`summary.proofs`."""
        return [proof.to_dict() for proof in self.entries]


@dataclass(frozen=True)
class Flags:
    """The convening's flags that bear on the outcome (B-1, L-10)."""

    require_cross_family: bool = False
    degraded: bool = False  # only ever true under --solo (L-10)
    max_rounds: int = DEFAULT_MAX_ROUNDS


@dataclass(frozen=True)
class BlindDecision:
    """The outcome of one convening and what it rests on.

    `reasons` lists every rule that applied, the deciding one first; `findings` every finding
    (harness ones first); `new_findings` the fingerprints no earlier round raised; `fix_list` the
    findings (blocker, major, minor) not refuted, each of which becomes a failing test (B-2).
    """

    outcome: Outcome
    round: int
    reasons: tuple[str, ...]
    findings: tuple[CourtFinding, ...]
    new_findings: tuple[str, ...]
    fix_list: tuple[CourtFinding, ...]
    refuted: frozenset[str] = field(default_factory=frozenset)
    degraded: bool = False
    proofs_skipped: bool = False

    @property
    def verdict(self) -> JudgmentVerdict:
        """The judgment verdict: APPROVE, DENY (ITERATE) or DEFERRED."""
        return self.outcome.judgment_verdict

    @property
    def reason(self) -> str:
        """The judgment `reason`: `outcome:land`, `outcome:iterate`, ..."""
        return ReasonKind.OUTCOME.with_argument(self.outcome.value.lower())


def decide(
    seats: Sequence[SeatRecord],
    proofs: Proofs,
    *,
    flags: Flags = Flags(),
    ledger: LedgerView | None = None,
    lenses: Sequence[str] = (),
) -> BlindDecision:
    """B-1: the outcome of round `ledger.round` (1 without a ledger) over `seats`.

    `lenses` names the lenses that had to sit: one without a SeatRecord holds (a seat lost
    without a record is never a pass). Returns the BlindDecision; raises nothing.
    """
    ledger = ledger if ledger is not None else LedgerView.first_round()
    refuted = frozenset(ledger.refuted)
    harness = [harness_finding(proof.name, proof.detail) for proof in proofs.failed]
    findings = tuple(harness + seat_findings(seats))
    new = _new_fingerprints(findings, ledger.seen)
    degraded = flags.degraded or any(_same_family(seat) for seat in seats)

    iterate = _iterate_reasons(seats, proofs, refuted)
    hold = _hold_reasons(seats, proofs, flags, degraded)
    sat = {seat.lens for seat in seats}
    hold += [f"lens {lens} has no seat record" for lens in lenses if lens not in sat]
    escalate: list[str] = []
    if iterate or hold:  # the round would not otherwise LAND
        if ledger.round >= flags.max_rounds:
            escalate.append(f"round {ledger.round} reached --max-rounds {flags.max_rounds}")
        if convergence_failed(ledger.round, len(new), ledger.new_counts):
            counts = [ledger.new_counts[ledger.round - 2], ledger.new_counts[ledger.round - 1]]
            escalate.append(
                f"convergence failed: new findings per round {counts[0]}, {counts[1]}, "
                f"{len(new)} (flat or rising)"
            )
    invalid = [f"a proof could not run cleanly: {proofs.invalid}"] if proofs.invalid else []

    if invalid:
        outcome = Outcome.INVALID
    elif escalate:
        outcome = Outcome.ESCALATE
    elif iterate:
        outcome = Outcome.ITERATE
    elif hold:
        outcome = Outcome.HOLD
    else:
        outcome = Outcome.LAND
    reasons = tuple(invalid + escalate + iterate + hold) or (_land_reason(seats, proofs),)
    fix_list = tuple(
        item
        for item in findings
        if item.severity in FIX_SEVERITIES and item.fingerprint not in refuted
    )
    return BlindDecision(
        outcome=outcome,
        round=ledger.round,
        reasons=reasons,
        findings=findings,
        new_findings=new,
        fix_list=fix_list,
        refuted=refuted & {item.fingerprint for item in findings},
        degraded=degraded,
        proofs_skipped=proofs.skipped,
    )


def _iterate_reasons(
    seats: Sequence[SeatRecord], proofs: Proofs, refuted: frozenset[str]
) -> list[str]:
    reasons = [f"lens {seat.lens} refused" for seat in seats if seat.verdict is SeatVerdict.REFUSE]
    reasons += [
        f"proof {proof.name.value} failed ({proof.name.failure_code})" for proof in proofs.failed
    ]
    for seat in seats:
        if seat.verdict is not SeatVerdict.PASS:
            continue
        for item in seat_findings([seat]):
            # B-1: a minor finding is fixed or refuted with evidence, never parked.
            if item.severity is Severity.MINOR and item.fingerprint not in refuted:
                reasons.append(
                    f"lens {seat.lens} passed with an open minor finding {item.fingerprint}"
                )
            elif item.severity in (Severity.BLOCKER, Severity.MAJOR):
                # V-3 makes such a pass a refuse; a record that slipped through still iterates.
                reasons.append(f"lens {seat.lens} passed listing a {item.severity.value} finding")
    return reasons


def _hold_reasons(
    seats: Sequence[SeatRecord], proofs: Proofs, flags: Flags, degraded: bool
) -> list[str]:
    reasons = []
    for seat in seats:
        if seat.verdict is SeatVerdict.HOLD or seat.rung is None:
            what = "UNVERIFIED" if seat.verified is False else "no rung gave a verdict"
            reasons.append(f"lens {seat.lens} held ({what})")
        elif seat.verdict is SeatVerdict.PASS and seat.verified is False:
            # L-5: a fused pass nobody verified is a hold, never a pass.
            reasons.append(f"lens {seat.lens} held (UNVERIFIED)")
    passes = [seat for seat in seats if seat.verdict is SeatVerdict.PASS]
    if not seats:
        reasons.append("no lens sat")
    elif passes and all(seat.low_information for seat in passes):
        # V-3: a bare pass counts, but never as the only evidence.
        reasons.append("every pass was bare (low_information)")
    if proofs.state is ProofsState.NOT_RUN:
        missing = [proof.name.value for proof in proofs.entries if proof.ok is None]
        shown = ", ".join(missing) if missing else "none ran"
        reasons.append(f"proofs not run ({shown}) and --no-proofs not given")
    if flags.require_cross_family and degraded:
        reasons.append(f"--require-cross-family on a degraded run: {WEAKENED_GATE}")
    return reasons


def _same_family(seat: SeatRecord) -> bool:
    return seat.builder_family_seated or seat.verified == SAME_FAMILY


def _new_fingerprints(findings: Sequence[CourtFinding], seen: frozenset[str]) -> tuple[str, ...]:
    new: list[str] = []
    for item in findings:
        key = item.fingerprint
        if key not in seen and key not in new:
            new.append(key)
    return tuple(new)


def _land_reason(seats: Sequence[SeatRecord], proofs: Proofs) -> str:
    bare = sum(1 for seat in seats if seat.low_information)
    held = "--no-proofs given" if proofs.skipped else "every proof held"
    return f"all {len(seats)} lenses passed ({bare} bare), no open finding above info, {held}"
