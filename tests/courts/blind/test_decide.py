"""B-1: the blind court's outcome — one test per row of the table that fails when that row's
rule is removed, the precedence, exit codes and judgment verdicts, the fix list."""

from __future__ import annotations

from dataclasses import replace

import pytest
from testing.seat_records import EIGHT, all_pass, finding, held, passed, refused

from tribunal.cli.exit_codes import ExitCode, for_outcome
from tribunal.courts.blind.convergence import LedgerView, convergence_failed
from tribunal.courts.blind.decide import Flags, Proof, Proofs, decide
from tribunal.courts.fingerprints import fingerprint
from tribunal.enums import JudgmentVerdict, Outcome, ProofName, Severity
from tribunal.errors import BadInput
from tribunal.jury.prompt import Adjudication
from tribunal.jury.seat.record import SAME_FAMILY, SeatRecord

GREEN = Proofs.from_entries(
    [{"name": name.value, "ok": True, "detail": "held"} for name in ProofName]
)


def proofs_with(name: ProofName, ok: bool | None, *, invalid: str | None = None) -> Proofs:
    entries = [
        {"name": each.value, "ok": ok if each is name else True, "detail": ""} for each in ProofName
    ]
    return Proofs.from_entries(entries, invalid=invalid)


def swap(seats: tuple[SeatRecord, ...], index: int, seat: SeatRecord) -> tuple[SeatRecord, ...]:
    return (*seats[:index], seat, *seats[index + 1 :])


def test_the_baseline_lands() -> None:
    decision = decide(all_pass(), GREEN)
    assert decision.outcome is Outcome.LAND
    assert for_outcome(decision.outcome) is ExitCode.OK
    assert decision.verdict is JudgmentVerdict.APPROVE
    assert decision.reason == "outcome:land"
    assert decision.fix_list == ()


@pytest.mark.parametrize(
    ("outcome", "code", "verdict"),
    [
        (Outcome.INVALID, 3, JudgmentVerdict.DEFERRED),
        (Outcome.ESCALATE, 3, JudgmentVerdict.DEFERRED),
        (Outcome.ITERATE, 1, JudgmentVerdict.DENY),
        (Outcome.HOLD, 3, JudgmentVerdict.DEFERRED),
        (Outcome.LAND, 0, JudgmentVerdict.APPROVE),
    ],
)
def test_exit_codes_and_judgment_verdicts(
    outcome: Outcome, code: int, verdict: JudgmentVerdict
) -> None:
    assert int(for_outcome(outcome)) == code
    assert outcome.judgment_verdict is verdict


# --- INVALID ---------------------------------------------------------------------------------


def test_invalid_when_a_proof_could_not_run_cleanly() -> None:
    proofs = replace(GREEN, invalid="green: pytest exit 4")
    decision = decide(all_pass(), proofs)
    assert decision.outcome is Outcome.INVALID
    assert decision.reasons[0] == "a proof could not run cleanly: green: pytest exit 4"


def test_invalid_comes_before_escalate_and_iterate() -> None:
    seats = swap(all_pass(), 0, refused("defect"))
    proofs = proofs_with(ProofName.GREEN, False, invalid="regression: timeout_s")
    decision = decide(seats, proofs, ledger=LedgerView(round=9))
    assert decision.outcome is Outcome.INVALID


# --- ESCALATE --------------------------------------------------------------------------------


def test_escalate_at_max_rounds_when_it_would_not_land() -> None:
    seats = swap(all_pass(), 0, refused("defect"))
    assert decide(seats, GREEN, ledger=LedgerView(round=4)).outcome is Outcome.ITERATE
    decision = decide(seats, GREEN, ledger=LedgerView(round=5))
    assert decision.outcome is Outcome.ESCALATE
    assert "round 5 reached --max-rounds 5" in decision.reasons
    assert decide(seats, GREEN, flags=Flags(max_rounds=9), ledger=LedgerView(round=5)).outcome is (
        Outcome.ITERATE
    )


def test_escalate_on_a_hold_too() -> None:
    seats = swap(all_pass(), 2, held(EIGHT[2]))
    assert decide(seats, GREEN, ledger=LedgerView(round=6)).outcome is Outcome.ESCALATE


def test_a_landing_round_never_escalates() -> None:
    view = LedgerView(round=7, new_counts={5: 0, 6: 0})
    assert decide(all_pass(), GREEN, ledger=view).outcome is Outcome.LAND


def test_escalate_when_convergence_failed() -> None:
    seats = swap(all_pass(), 0, refused("defect", finding(Severity.MAJOR, "brand new claim")))
    flat = LedgerView(round=3, new_counts={1: 1, 2: 1})
    decision = decide(seats, GREEN, ledger=flat)
    assert decision.outcome is Outcome.ESCALATE
    assert "convergence failed: new findings per round 1, 1, 1 (flat or rising)" in (
        decision.reasons
    )
    falling = LedgerView(round=3, new_counts={1: 3, 2: 2})
    assert decide(seats, GREEN, ledger=falling).outcome is Outcome.ITERATE


def test_convergence_rule() -> None:
    assert convergence_failed(3, 2, {1: 1, 2: 2})
    assert convergence_failed(3, 0, {1: 0, 2: 0})
    assert not convergence_failed(2, 5, {1: 1})  # B-3: only at k >= 3
    assert not convergence_failed(3, 1, {1: 1, 2: 2})  # n_k < n_{k-1}
    assert not convergence_failed(3, 3, {1: 2, 2: 1})  # n_{k-1} < n_{k-2}
    assert not convergence_failed(4, 9, {1: 1, 3: 1})  # round 2 never recorded


def test_findings_seen_earlier_are_not_new() -> None:
    claim = finding(Severity.MAJOR, "the guard is missing")
    seats = swap(all_pass(), 0, refused("defect", claim))
    seen = frozenset({fingerprint(claim.claim, claim.location)})
    view = LedgerView(round=3, seen=seen, new_counts={1: 0, 2: 0})
    decision = decide(seats, GREEN, ledger=view)
    assert decision.new_findings == ()
    # 0 >= 0 >= 0: nothing new, yet still not landing — escalate rather than grind on.
    assert decision.outcome is Outcome.ESCALATE


# --- ITERATE ---------------------------------------------------------------------------------


def test_iterate_when_a_lens_refused() -> None:
    decision = decide(swap(all_pass(), 3, refused(EIGHT[3])), GREEN)
    assert decision.outcome is Outcome.ITERATE
    assert for_outcome(decision.outcome) is ExitCode.NEGATIVE
    assert decision.verdict is JudgmentVerdict.DENY
    assert f"lens {EIGHT[3]} refused" in decision.reasons


@pytest.mark.parametrize("proof", list(ProofName))
def test_iterate_when_a_proof_failed(proof: ProofName) -> None:
    decision = decide(all_pass(), proofs_with(proof, False))
    assert decision.outcome is Outcome.ITERATE
    harness = [item for item in decision.fix_list if item.lens == "harness"]
    assert [item.finding.claim for item in harness] == [proof.failure_code]
    assert harness[0].severity is Severity.BLOCKER


def test_iterate_on_an_open_minor_finding_of_a_pass() -> None:
    minor = finding(Severity.MINOR, "log line lacks the request id")
    seats = swap(all_pass(), 1, passed(EIGHT[1], findings=(minor,)))
    decision = decide(seats, GREEN)
    assert decision.outcome is Outcome.ITERATE
    assert [item.finding for item in decision.fix_list] == [minor]
    # Refuted with evidence in the ledger: no longer open, and off the fix list.
    key = fingerprint(minor.claim, minor.location)
    refuted = {key: Adjudication(minor.claim, "the id is added by the handler", "src/app.py:9")}
    decision = decide(seats, GREEN, ledger=LedgerView(refuted=refuted))
    assert decision.outcome is Outcome.LAND
    assert decision.fix_list == ()
    assert decision.refuted == frozenset({key})


def test_an_info_finding_does_not_block_landing() -> None:
    note = finding(Severity.INFO, "consider a docstring")
    seats = swap(all_pass(), 1, passed(EIGHT[1], findings=(note,)))
    decision = decide(seats, GREEN)
    assert decision.outcome is Outcome.LAND
    assert decision.fix_list == ()
    assert [item.finding for item in decision.findings] == [note]


def test_iterate_comes_before_hold() -> None:
    seats = swap(swap(all_pass(), 0, refused("defect")), 1, held(EIGHT[1]))
    decision = decide(seats, Proofs())
    assert decision.outcome is Outcome.ITERATE
    assert "lens proportion held (no rung gave a verdict)" in decision.reasons


def test_the_fix_list_holds_every_finding_minor_too_minus_refuted_ones() -> None:
    blocker = finding(Severity.BLOCKER, "crashes on empty input")
    minor = finding(Severity.MINOR, "message names the wrong file")
    gone = finding(Severity.MAJOR, "refuted claim")
    info = finding(Severity.INFO, "nit")
    seats = swap(all_pass(), 0, refused("defect", blocker, minor, gone, info))
    refuted = {fingerprint(gone.claim, gone.location): Adjudication(gone.claim, "see test")}
    decision = decide(
        seats, proofs_with(ProofName.FAKE_GREEN, False), ledger=LedgerView(refuted=refuted)
    )
    assert [item.finding.claim for item in decision.fix_list] == [
        "fake_green",
        blocker.claim,
        minor.claim,
    ]
    assert len(decision.findings) == 5


# --- HOLD ------------------------------------------------------------------------------------


def test_hold_when_a_lens_held() -> None:
    decision = decide(swap(all_pass(), 4, held(EIGHT[4])), GREEN)
    assert decision.outcome is Outcome.HOLD
    assert for_outcome(decision.outcome) is ExitCode.NO_VERDICT
    assert decision.verdict is JudgmentVerdict.DEFERRED


def test_hold_when_a_fused_lens_is_unverified() -> None:
    unverified = replace(passed(EIGHT[6]), verified=False)
    decision = decide(swap(all_pass(), 6, unverified), GREEN)
    assert decision.outcome is Outcome.HOLD
    assert f"lens {EIGHT[6]} held (UNVERIFIED)" in decision.reasons
    assert decide(swap(all_pass(), 6, replace(unverified, verified=True)), GREEN).outcome is (
        Outcome.LAND
    )


def test_hold_when_every_pass_is_bare() -> None:
    bare = tuple(passed(lens, bare=True) for lens in EIGHT)
    decision = decide(bare, GREEN)
    assert decision.outcome is Outcome.HOLD
    assert decision.reasons == ("every pass was bare (low_information)",)
    # One pass that names what it checked is enough.
    assert decide(swap(bare, 0, passed("defect")), GREEN).outcome is Outcome.LAND


def test_hold_when_proofs_were_not_run_without_no_proofs() -> None:
    assert decide(all_pass(), Proofs()).outcome is Outcome.HOLD
    no_red = proofs_with(ProofName.RED_FIRST, None)
    decision = decide(all_pass(), no_red)
    assert decision.outcome is Outcome.HOLD
    assert "proofs not run (red_first) and --no-proofs not given" in decision.reasons
    skipped = decide(all_pass(), Proofs.no_proofs())
    assert skipped.outcome is Outcome.LAND
    assert skipped.proofs_skipped


def test_hold_when_cross_family_is_required_on_a_degraded_run() -> None:
    strict = Flags(require_cross_family=True)
    assert decide(all_pass(), GREEN, flags=replace(strict, degraded=True)).outcome is Outcome.HOLD
    assert decide(all_pass(), GREEN, flags=Flags(degraded=True)).outcome is Outcome.LAND
    assert decide(all_pass(), GREEN, flags=strict).outcome is Outcome.LAND
    # A seat that sat on the builder's family, or a same-family verifier, makes the run degraded.
    for seat in (
        replace(passed("defect"), builder_family_seated=True),
        replace(passed("defect"), verified=SAME_FAMILY),
    ):
        decision = decide(swap(all_pass(), 0, seat), GREEN, flags=strict)
        assert decision.outcome is Outcome.HOLD
        assert decision.degraded


def test_no_seats_hold() -> None:
    assert decide((), GREEN).outcome is Outcome.HOLD


# --- proofs input ----------------------------------------------------------------------------


def test_proofs_from_entries_rejects_unknown_names_and_oks() -> None:
    with pytest.raises(BadInput, match="unknown proof"):
        Proofs.from_entries([{"name": "vibes", "ok": True}])
    with pytest.raises(BadInput, match="ok is true, false or null"):
        Proofs.from_entries([{"name": "green", "ok": "yes"}])
    proofs = Proofs.from_entries([{"name": "green", "ok": True, "detail": "3 passed"}])
    assert proofs.entries == (Proof(ProofName.GREEN, True, "3 passed"),)
    assert proofs.to_list() == [{"name": "green", "ok": True, "detail": "3 passed"}]


def test_a_lens_without_a_seat_record_holds() -> None:
    seven = all_pass()[:7]
    decision = decide(seven, GREEN, lenses=EIGHT)
    assert decision.outcome is Outcome.HOLD
    assert decision.reasons == (f"lens {EIGHT[7]} has no seat record",)
    assert decide(all_pass(), GREEN, lenses=EIGHT).outcome is Outcome.LAND
