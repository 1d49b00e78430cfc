"""C-2: the process exit codes, and what each outcome and verdict exits with. The command line is
the only place that knows them: the library returns outcomes and verdicts, `tribunal.cli` turns
them into exit codes."""

from __future__ import annotations

from enum import IntEnum

from tribunal.enums import JudgmentVerdict, Outcome, PanelOutcome, SeatVerdict, VetOutcome


class ExitCode(IntEnum):
    """C-2 exit codes."""

    OK = 0
    NEGATIVE = 1  # FAIL, DENY, ITERATE, BLOCK, refuse, a matrix that is not uniform_pass
    BAD_INPUT = 2  # bad input or usage
    NO_VERDICT = 3  # HOLD, ESCALATE, INVALID, or DEFERRED from a command that exits by its verdict
    INTERRUPTED = 130


# B-1: LAND 0, ITERATE 1, INVALID/ESCALATE/HOLD 3 (no verdict reachable).
_OUTCOMES = {
    Outcome.INVALID: ExitCode.NO_VERDICT,
    Outcome.ESCALATE: ExitCode.NO_VERDICT,
    Outcome.ITERATE: ExitCode.NEGATIVE,
    Outcome.HOLD: ExitCode.NO_VERDICT,
    Outcome.LAND: ExitCode.OK,
}
# P-8: SHIP 0; SHIP_WITH_CAVEATS 1 (0 once a person accepts the caveats); ITERATE and BLOCK 1;
# the rest reach no verdict.
_PANEL = {
    PanelOutcome.NOT_CONVENED: ExitCode.NO_VERDICT,
    PanelOutcome.INVALID: ExitCode.NO_VERDICT,
    PanelOutcome.HOLD: ExitCode.NO_VERDICT,
    PanelOutcome.ESCALATE: ExitCode.NO_VERDICT,
    PanelOutcome.BLOCK: ExitCode.NEGATIVE,
    PanelOutcome.ITERATE: ExitCode.NEGATIVE,
    PanelOutcome.SHIP_WITH_CAVEATS: ExitCode.NEGATIVE,
    PanelOutcome.SHIP: ExitCode.OK,
}
# P-11: PROCEED 0, REFINE 1, ESCALATE 3 (a person decides).
_VET = {
    VetOutcome.PROCEED: ExitCode.OK,
    VetOutcome.REFINE: ExitCode.NEGATIVE,
    VetOutcome.ESCALATE: ExitCode.NO_VERDICT,
}
# C-2: `judgment --check` and `arbitrate` exit by the verdict.
_VERDICTS = {
    JudgmentVerdict.APPROVE: ExitCode.OK,
    JudgmentVerdict.DENY: ExitCode.NEGATIVE,
    JudgmentVerdict.DEFERRED: ExitCode.NO_VERDICT,
}
# L-11: `tribunal seat` exits 0 pass, 1 refuse, 3 hold.
_SEATS = {
    SeatVerdict.PASS: ExitCode.OK,
    SeatVerdict.REFUSE: ExitCode.NEGATIVE,
    SeatVerdict.HOLD: ExitCode.NO_VERDICT,
}


def for_outcome(outcome: Outcome) -> ExitCode:
    """The exit code of a convening with `outcome`."""
    return _OUTCOMES[outcome]


def for_verdict(verdict: JudgmentVerdict) -> ExitCode:
    """The exit code of a command that exits by the judgment verdict `verdict`."""
    return _VERDICTS[verdict]


def for_seat(verdict: SeatVerdict) -> ExitCode:
    """The exit code of `tribunal seat` for a seat's `verdict`."""
    return _SEATS[verdict]


def for_panel(outcome: PanelOutcome, *, caveats_accepted: bool = False) -> ExitCode:
    """The exit code of a panel round with `outcome` (accepted caveats exit 0)."""
    return ExitCode.OK if caveats_accepted else _PANEL[outcome]


def for_vet(outcome: VetOutcome) -> ExitCode:
    """The exit code of vetting a plan with `outcome`."""
    return _VET[outcome]
