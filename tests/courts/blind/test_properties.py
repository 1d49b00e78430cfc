"""B-1 as a property (hypothesis): no scenario in which a lens refused, held, was unverified, or
a proof failed ever exits 0; LAND is the only outcome that does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tribunal.cli.exit_codes import ExitCode, for_outcome
from tribunal.courts.blind.convergence import LedgerView
from tribunal.courts.blind.decide import Flags, Proof, Proofs, decide
from tribunal.courts.fingerprints import fingerprint
from tribunal.enums import CitationStatus, Outcome, ProofName, SeatVerdict, Severity
from tribunal.jury.prompt import Adjudication
from tribunal.jury.seat.record import SAME_FAMILY, SeatRecord
from tribunal.jury.verdict import Checked, Finding

CLAIMS = ["crash on empty", "leaks a handle", "wrong message", "slow loop"]

findings = st.builds(
    Finding,
    severity=st.sampled_from(list(Severity)),
    claim=st.sampled_from(CLAIMS),
    location=st.sampled_from([None, "src/a.py:1", "src/b.py:7"]),
    citation=st.sampled_from(list(CitationStatus)),
)


@st.composite
def seats(draw: st.DrawFn, lens: str) -> SeatRecord:
    verdict = draw(st.sampled_from(list(SeatVerdict)))
    seated = verdict is not SeatVerdict.HOLD or draw(st.booleans())
    return SeatRecord(
        lens=lens,
        tier="t",
        rung="r" if seated else None,
        family="f" if seated else None,
        verdict=verdict,
        verified=draw(st.sampled_from([None, True, False, SAME_FAMILY])),
        low_information=draw(st.booleans()),
        findings=tuple(draw(st.lists(findings, max_size=3))),
        checked=(Checked("ok", "src/a.py:1"),),
        builder_family_seated=draw(st.booleans()),
    )


@st.composite
def panels(draw: st.DrawFn) -> tuple[SeatRecord, ...]:
    count = draw(st.integers(min_value=0, max_value=8))
    return tuple(draw(seats(f"lens{index}")) for index in range(count))


proofs = st.one_of(
    st.just(Proofs.no_proofs()),
    st.builds(
        Proofs,
        entries=st.lists(
            st.builds(
                Proof,
                name=st.sampled_from(list(ProofName)),
                ok=st.sampled_from([True, False, None]),
            ),
            max_size=5,
        ).map(tuple),
        invalid=st.sampled_from([None, None, "pytest exit 5"]),
    ),
)


@st.composite
def ledgers(draw: st.DrawFn) -> LedgerView:
    round_number = draw(st.integers(min_value=1, max_value=7))
    counts = {k: draw(st.integers(0, 3)) for k in range(1, round_number)}
    refuted = {
        fingerprint(claim, location): Adjudication(claim, "refuted")
        for claim in draw(st.lists(st.sampled_from(CLAIMS), max_size=2))
        for location in (None, "src/a.py:1", "src/b.py:7")
    }
    return LedgerView(round=round_number, refuted=refuted, new_counts=counts)


flags = st.builds(
    Flags,
    require_cross_family=st.booleans(),
    degraded=st.booleans(),
    max_rounds=st.integers(min_value=1, max_value=6),
)


@given(panels(), proofs, flags, ledgers())
def test_nothing_exits_0_when_a_lens_refused_held_was_unverified_or_a_proof_failed(
    panel: tuple[SeatRecord, ...], proved: Proofs, flag: Flags, ledger: LedgerView
) -> None:
    decision = decide(panel, proved, flags=flag, ledger=ledger)
    blocked = (
        any(seat.verdict is not SeatVerdict.PASS for seat in panel)
        or any(seat.rung is None or seat.verified is False for seat in panel)
        or any(proof.ok is False for proof in proved.entries)
    )
    if blocked:
        assert for_outcome(decision.outcome) is not ExitCode.OK
    assert (for_outcome(decision.outcome) is ExitCode.OK) == (decision.outcome is Outcome.LAND)
    if decision.outcome is Outcome.LAND:
        assert panel
        assert not decision.fix_list
        assert any(not seat.low_information for seat in panel)
        assert proved.held
