"""What to do after a convening that did not land: one line per cause, decided from the same
seats, proofs and flags the outcome was decided from."""

from __future__ import annotations

from dataclasses import replace

from testing.seat_records import EIGHT, all_pass, finding, held, passed, refused

from tribunal.courts.blind.convergence import LedgerView
from tribunal.courts.blind.decide import BlindDecision, Flags, Proof, Proofs, decide
from tribunal.enums import Outcome, ProofName, Severity
from tribunal.jury.seat.record import SeatRecord
from tribunal.records.next_steps import Convened, next_steps

CONVENED = Convened(
    contract="contract.yaml", fleet="fleet.yaml", builder="my-builder", lenses=EIGHT
)
HELD_PROOFS = Proofs(entries=tuple(Proof(name, True) for name in ProofName))


def steps(
    seats: tuple[SeatRecord, ...],
    proofs: Proofs = HELD_PROOFS,
    *,
    convened: Convened = CONVENED,
    recorded: tuple[str, ...] = (),
    flags: Flags | None = None,
    ledger: LedgerView | None = None,
) -> tuple[BlindDecision, tuple[str, ...]]:
    flags = flags if flags is not None else Flags()
    decision = decide(seats, proofs, flags=flags, ledger=ledger, lenses=convened.lenses)
    lines = next_steps(
        decision.outcome,
        decision.round,
        seats=seats,
        proofs=proofs,
        fix_list=decision.fix_list,
        reasons=decision.reasons,
        degraded=decision.degraded,
        recorded=recorded,
        convened=convened,
    )
    return decision, lines


def test_a_landing_needs_no_next_step() -> None:
    decision, lines = steps(all_pass())
    assert decision.outcome is Outcome.LAND and lines == ()


def test_iterate_names_the_next_round_and_every_open_fingerprint_once() -> None:
    crash = finding(Severity.MAJOR, "crashes on an empty list", "src/app.py:3")
    slow = finding(Severity.MINOR, "loops twice", "src/app.py:8")
    seats = (refused("defect", crash, slow), refused("proportion", crash), *all_pass()[2:])
    round_two = LedgerView(round=2, new_counts={1: 1})
    decision, lines = steps(seats, ledger=round_two)
    assert decision.outcome is Outcome.ITERATE
    assert lines[0].endswith("commit, and convene again: that is round 3.")
    assert lines[1] == (
        "A finding that does not hold is refuted with evidence instead: tribunal adjudicate "
        '--finding FINGERPRINT --evidence PATH:LINE --note "why it does not hold"'
    )
    by_fingerprint = {item.fingerprint: item for item in decision.fix_list}
    assert len(by_fingerprint) == 2 == len(lines) - 2
    crash_fp = next(fp for fp, item in by_fingerprint.items() if item.finding is crash)
    assert f"  {crash_fp}  [major] defect, proportion: crashes on an empty list (src/app.py:3)" in (
        lines
    )


def test_iterate_repeats_a_ledger_given_on_the_command_line_and_leaves_proofs_out() -> None:
    failed = Proofs(
        entries=tuple(
            Proof(name, name is not ProofName.GREEN, "at head: 1 failed") for name in ProofName
        )
    )
    convened = replace(CONVENED, ledger="ci cache/ledger.json")
    decision, lines = steps(all_pass(), failed, convened=convened)
    assert decision.outcome is Outcome.ITERATE
    assert len(lines) == 1  # a failed proof is fixed, never adjudicated away
    seats = (refused("defect"), *all_pass()[1:])
    _, lines = steps(seats, convened=convened)
    assert "tribunal adjudicate --ledger 'ci cache/ledger.json' --finding" in lines[1]


def test_hold_names_the_lens_and_tier_without_a_rung_and_the_ladder_to_read() -> None:
    seats = (*all_pass()[:4], held("reversibility"), *all_pass()[5:])
    decision, lines = steps(seats)
    assert decision.outcome is Outcome.HOLD
    assert lines == (
        "Lens reversibility has no rung that could sit: add a rung of another family than the "
        "builder's to tier deep_state in fleet.yaml (tribunal ladder --fleet fleet.yaml "
        "--builder my-builder shows why each rung was skipped).",
    )


def test_hold_on_an_unverified_fused_seat_asks_for_a_verifier() -> None:
    unverified = replace(passed("resource_economy"), verified=False)
    seats = (*all_pass()[:6], unverified, all_pass()[7])
    _, lines = steps(seats)
    assert lines == (
        "Lens resource_economy: no verifier answered. Add a rung of a third family to the "
        "verifier ladder of tier generalist in fleet.yaml.",
    )


def test_hold_on_bare_passes_says_recorded_jurors_are_no_review_only_when_all_are_recorded() -> (
    None
):
    bare = tuple(passed(lens, bare=True) for lens in EIGHT)
    _, live = steps(bare)
    assert live == ("Every pass was bare: no juror cited a line of the change that checks out.",)
    _, recorded = steps(bare, recorded=EIGHT)
    assert "Every juror here is recorded (replay)" in recorded[0]
    assert "tribunal ladder --fleet fleet.yaml --builder my-builder" in recorded[0]


def test_hold_on_proofs_not_run_names_what_the_contract_lacks() -> None:
    not_run = Proofs(entries=tuple(Proof(name, None) for name in ProofName))
    _, lines = steps(all_pass(), not_run, convened=replace(CONVENED, red=False))
    assert lines == (
        "The proofs need the red-first commit: name it as red: in contract.yaml (the commit "
        "that adds the new tests, before the fix), or convene with --no-proofs (every report "
        "then says so).",
    )
    _, lines = steps(all_pass(), not_run, convened=replace(CONVENED, test_command=False))
    assert lines == ("The proofs need a test_command in contract.yaml.",)


def test_hold_names_a_lens_whose_seat_left_no_record_and_a_degraded_gate() -> None:
    _, lines = steps(all_pass()[1:])
    assert lines == ("Lens defect has no seat record: its seat crashed; convene again.",)
    convened = replace(CONVENED, require_cross_family=True)
    flags = Flags(require_cross_family=True, degraded=True)
    _, lines = steps(all_pass(), convened=convened, flags=flags)
    assert len(lines) == 1 and "convene without --require-cross-family" in lines[0]


def test_escalate_and_invalid_say_who_decides_and_what_to_fix() -> None:
    seats = (refused("defect"), *all_pass()[1:])
    decision, lines = steps(seats, ledger=LedgerView(round=5), flags=Flags(max_rounds=5))
    assert decision.outcome is Outcome.ESCALATE
    assert lines[0].startswith("No further round: a person decides (round 5 reached")
    invalid = Proofs(entries=HELD_PROOFS.entries, invalid="regression: pytest exited 4 at base")
    decision, lines = steps(all_pass(), invalid)
    assert decision.outcome is Outcome.INVALID
    assert lines == (
        "A proof could not run cleanly (regression: pytest exited 4 at base). Make the "
        "test_command of contract.yaml run the tests at base, at red and at head within "
        "timeout_s, then convene again: that is round 2.",
    )
