"""What to do after a convening that did not land: the lines the console and `judgment.md` end
with, so a user is never left with an outcome and no move.

ITERATE: fix the fix list (each finding first as a failing test) and convene again — the next
round number is named — or refute a finding with `tribunal adjudicate`, each open finding's
fingerprint shown. HOLD: per cause — which lens lacks a rung on which tier, which needs a
verifier, that every pass was bare (and that recorded jurors answer the same for every change),
that the proofs need `red:` or a `test_command`. ESCALATE: a person decides, on the run dir.
INVALID: what stopped the proofs, then convene again.

A pure function of the report and of what the user passed (C-6: no clock, no absolute paths).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from tribunal.courts.blind.decide import Proofs
from tribunal.courts.blind.findings import HARNESS_LENS, CourtFinding
from tribunal.enums import Outcome, ProofsState, SeatVerdict
from tribunal.jury.seat.record import SeatRecord

NOTE_PLACEHOLDER = '"why it does not hold"'
EVIDENCE_PLACEHOLDER = "PATH:LINE"


@dataclass(frozen=True)
class Convened:
    """What the user passed to the convening, as the next steps repeat it.

    `ledger` is the `--ledger` given (None: the default ledger, so no flag is repeated);
    `lenses` every lens that had to sit; `red`/`test_command` whether the contract names them.
    """

    contract: str
    fleet: str
    builder: str
    lenses: tuple[str, ...] = ()
    ledger: str | None = None
    red: bool = True
    test_command: bool = True
    require_cross_family: bool = False


def next_steps(
    outcome: Outcome,
    round_number: int,
    *,
    seats: Sequence[SeatRecord],
    proofs: Proofs,
    fix_list: Sequence[CourtFinding],
    reasons: Sequence[str],
    degraded: bool,
    recorded: Sequence[str],
    convened: Convened,
) -> tuple[str, ...]:
    """The next steps after `outcome` in round `round_number`, one line each (none after LAND).

    `recorded` names the lenses that answered from recorded replies. Raises nothing.
    """
    if outcome is Outcome.LAND:
        return ()
    again = f"convene again: that is round {round_number + 1}"
    if outcome is Outcome.INVALID:
        return (
            f"A proof could not run cleanly ({proofs.invalid}). Make the test_command of "
            f"{convened.contract} run the tests at base, at red and at head within timeout_s, "
            f"then {again}.",
        )
    if outcome is Outcome.ESCALATE:
        return (
            f"No further round: a person decides ({reasons[0]}). The run dir is the evidence "
            "package: judgment.md, summary.json, every verdict file and the envelope.",
        )
    if outcome is Outcome.ITERATE:
        return _iterate(fix_list, again, convened)
    return _hold(seats, proofs, degraded, recorded, convened)


def _iterate(fix_list: Sequence[CourtFinding], again: str, convened: Convened) -> tuple[str, ...]:
    lines = [
        "Fix every finding of the fix list — each first as a new failing test — commit, and "
        f"{again}."
    ]
    refutable = [item for item in fix_list if item.lens != HARNESS_LENS]
    if refutable:
        ledger = f"--ledger {shlex.quote(convened.ledger)} " if convened.ledger else ""
        lines.append(
            "A finding that does not hold is refuted with evidence instead: tribunal adjudicate "
            f"{ledger}--finding FINGERPRINT --evidence {EVIDENCE_PLACEHOLDER} "
            f"--note {NOTE_PLACEHOLDER}"
        )
        first: dict[str, CourtFinding] = {}
        lenses: dict[str, list[str]] = {}
        for item in refutable:  # one line per fingerprint, naming every lens that raised it
            first.setdefault(item.fingerprint, item)
            raised = lenses.setdefault(item.fingerprint, [])
            if item.lens not in raised:
                raised.append(item.lens)
        for fingerprint, item in first.items():
            where = f" ({item.finding.location})" if item.finding.location else ""
            claim = " ".join(item.finding.claim.split())
            raised_by = ", ".join(lenses[fingerprint])
            lines.append(f"  {fingerprint}  [{item.severity.value}] {raised_by}: {claim}{where}")
    return tuple(lines)


def _hold(
    seats: Sequence[SeatRecord],
    proofs: Proofs,
    degraded: bool,
    recorded: Sequence[str],
    convened: Convened,
) -> tuple[str, ...]:
    ladder = f"tribunal ladder --fleet {shlex.quote(convened.fleet)} --builder " + shlex.quote(
        convened.builder
    )
    lines: list[str] = []
    for seat in seats:
        unverified = seat.verified is False and seat.verdict is not SeatVerdict.REFUSE
        if unverified:
            lines.append(
                f"Lens {seat.lens}: no verifier answered. Add a rung of a third family to the "
                f"verifier ladder of tier {seat.tier} in {convened.fleet}."
            )
        elif seat.verdict is SeatVerdict.HOLD or seat.rung is None:
            lines.append(
                f"Lens {seat.lens} has no rung that could sit: add a rung of another family "
                f"than the builder's to tier {seat.tier} in {convened.fleet} ({ladder} shows "
                "why each rung was skipped)."
            )
    sat = {seat.lens for seat in seats}
    lines += [
        f"Lens {lens} has no seat record: its seat crashed; convene again."
        for lens in convened.lenses
        if lens not in sat
    ]
    passes = [seat for seat in seats if seat.verdict is SeatVerdict.PASS]
    if passes and all(seat.low_information for seat in passes):
        line = "Every pass was bare: no juror cited a line of the change that checks out."
        if recorded and set(recorded) >= {seat.lens for seat in seats}:
            line += (
                " Every juror here is recorded (replay): its replies were written before this "
                f"change, so they are no review of it. Put real rungs in {convened.fleet} (see "
                f"{ladder}, then tribunal seat to try one)."
            )
        lines.append(line)
    if proofs.state is ProofsState.NOT_RUN:
        if not convened.red:
            lines.append(
                f"The proofs need the red-first commit: name it as red: in {convened.contract} "
                "(the commit that adds the new tests, before the fix), or convene with "
                "--no-proofs (every report then says so)."
            )
        if not convened.test_command:
            lines.append(f"The proofs need a test_command in {convened.contract}.")
    if convened.require_cross_family and degraded:
        lines.append(
            "The run is degraded (--solo seated the builder's family): seat other families on "
            "every ladder, or convene without --require-cross-family."
        )
    return tuple(lines)
