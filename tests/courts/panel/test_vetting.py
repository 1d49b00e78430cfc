"""P-11: vetting a plan — two of three pass proceeds, else one refinement, then a person decides;
a hold is never a pass, and a bare pass never the only evidence (V-3). Also what a vetting juror
is shown: the three lenses and the envelope of the plan and the criteria."""

from __future__ import annotations

import pytest

from tribunal.courts.panel.vet_brief import VET_LENS_IDS, plan_envelope, vet_lenses
from tribunal.courts.panel.vetting import Critique, decide_vet
from tribunal.enums import CitationStatus, SeatVerdict, Severity, VetOutcome
from tribunal.jury.citations import CitationSources
from tribunal.jury.prompt import render_prompt
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Checked, Finding, Verdict

LENSES = ("works", "followable", "cheapest")
CITED = Checked("each step names its check", "plan.md:3", "run the tests", CitationStatus.VERIFIED)
CRITIQUE = Finding(Severity.MAJOR, "step 2 names no file", "edit the code", "plan.md:4")


def seat(lens: str, verdict: str, *, bare: bool = False) -> SeatRecord:
    """A seated lens: a pass cites a line that checks unless `bare`; a refuse names a finding."""
    if verdict == "hold":
        return SeatRecord.hold(lens=lens, tier="panel", note="ladder exhausted with no verdict")
    given = SeatVerdict(verdict)
    findings = (CRITIQUE,) if given is SeatVerdict.REFUSE else ()
    checked = () if bare or given is SeatVerdict.REFUSE else (CITED,)
    note = "step 2 is vague" if given is SeatVerdict.REFUSE else None
    record = Verdict(given, lens, findings=findings, checked=checked, note=note)
    return SeatRecord.seated(record, tier="panel", rung=f"rung-{lens}", family=f"fam-{lens}")


def seats(*verdicts: str, bare: bool = False) -> list[SeatRecord]:
    return [seat(lens, verdict, bare=bare) for lens, verdict in zip(LENSES, verdicts, strict=True)]


@pytest.mark.parametrize(
    ("verdicts", "outcome"),
    [
        (("pass", "pass", "pass"), VetOutcome.PROCEED),
        (("pass", "pass", "refuse"), VetOutcome.PROCEED),
        (("refuse", "pass", "pass"), VetOutcome.PROCEED),
        (("pass", "pass", "hold"), VetOutcome.PROCEED),
        (("pass", "refuse", "refuse"), VetOutcome.REFINE),
        (("pass", "hold", "hold"), VetOutcome.REFINE),
        (("refuse", "refuse", "refuse"), VetOutcome.REFINE),
        (("hold", "hold", "hold"), VetOutcome.REFINE),
    ],
)
def test_two_of_three_passes_proceed_and_fewer_refine(
    verdicts: tuple[str, ...], outcome: VetOutcome
) -> None:
    decision = decide_vet(seats(*verdicts))
    assert decision.outcome is outcome
    given = zip(LENSES, verdicts, strict=True)
    assert decision.passed == tuple(lens for lens, verdict in given if verdict == "pass")
    assert decision.vetting == 1


def test_a_hold_is_not_a_pass() -> None:
    decision = decide_vet(seats("pass", "hold", "refuse"))
    assert decision.outcome is VetOutcome.REFINE
    assert (decision.passed, decision.refused, decision.held) == (
        ("works",),
        ("cheapest",),
        ("followable",),
    )
    assert decision.reasons[0].startswith("1 of 3 lenses passed (works)")
    assert "lens followable held: ladder exhausted with no verdict" in decision.reasons


def test_the_critiques_are_every_refusing_or_holding_seats_findings_and_note() -> None:
    decision = decide_vet(seats("pass", "refuse", "hold"))
    assert decision.critiques == (
        Critique("followable", SeatVerdict.REFUSE, (CRITIQUE,), "step 2 is vague"),
        Critique("cheapest", SeatVerdict.HOLD, (), "ladder exhausted with no verdict"),
    )


def test_a_dissent_of_a_plan_that_proceeds_is_still_a_critique() -> None:
    decision = decide_vet(seats("pass", "pass", "refuse"))
    assert decision.outcome is VetOutcome.PROCEED
    assert [critique.lens for critique in decision.critiques] == ["cheapest"]


@pytest.mark.parametrize("failed_before", [1, 2])
def test_a_second_failing_vetting_escalates(failed_before: int) -> None:
    decision = decide_vet(seats("pass", "refuse", "refuse"), failed_before=failed_before,
                          vetted_before=failed_before)  # fmt: skip
    assert decision.outcome is VetOutcome.ESCALATE
    assert decision.vetting == failed_before + 1
    assert decision.reasons[0].startswith("the plan failed its vetting again")
    assert decision.reasons[1].startswith("1 of 3 lenses passed")


def test_a_plan_that_passes_after_its_refinement_proceeds() -> None:
    decision = decide_vet(seats("pass", "pass", "refuse"), failed_before=1, vetted_before=1)
    assert (decision.outcome, decision.vetting) == (VetOutcome.PROCEED, 2)


def test_only_failing_vettings_spend_the_refinement() -> None:
    decision = decide_vet(seats("refuse", "refuse", "pass"), failed_before=0, vetted_before=2)
    assert (decision.outcome, decision.vetting) == (VetOutcome.REFINE, 3)


def test_bare_passes_alone_never_proceed() -> None:
    decision = decide_vet(seats("pass", "pass", "refuse", bare=True))
    assert decision.outcome is VetOutcome.REFINE
    assert "every pass was bare" in decision.reasons[0]
    one_cited = [seat("works", "pass", bare=True), seat("followable", "pass"),
                 seat("cheapest", "refuse")]  # fmt: skip
    assert decide_vet(one_cited).outcome is VetOutcome.PROCEED


def test_a_malformed_refuse_is_a_critique_naming_its_rung() -> None:
    malformed = Finding(Severity.BLOCKER, "malformed verdict from rung-x", "no JSON object")
    record = SeatRecord.seated(
        Verdict(SeatVerdict.REFUSE, "works", findings=(malformed,), note="no JSON object"),
        tier="panel",
        rung="rung-x",
        family="fam-x",
    )
    decision = decide_vet([record, seat("followable", "pass"), seat("cheapest", "refuse")])
    assert decision.outcome is VetOutcome.REFINE
    assert decision.critiques[0].findings == (malformed,)


# What a vetting juror is shown.

PLAN = "# Plan: a sliding window\n\n1. Edit limiter.py.\n2. Run the tests.\n"
CRITERIA = "slice_id: demo\nrequest: a limiter\n"


def test_the_three_lenses_in_order_on_the_tier_given() -> None:
    lenses = vet_lenses("generalist")
    assert tuple(lens.id for lens in lenses) == VET_LENS_IDS == LENSES
    assert {lens.tier for lens in lenses} == {"generalist"}
    assert all(lens.question.endswith(".") for lens in lenses)


def test_the_envelope_shows_both_files_numbered_and_checks_citations_against_them() -> None:
    envelope = plan_envelope(("docs/plan.md", PLAN), ("criteria.yaml", CRITERIA))
    assert dict(envelope.files) == {"docs/plan.md": PLAN, "criteria.yaml": CRITERIA}
    text = envelope.text
    assert text.index("### docs/plan.md") < text.index("### criteria.yaml")
    assert "   3 | 1. Edit limiter.py." in text and "   2 | request: a limiter" in text
    assert envelope.example is not None and envelope.example.location == "docs/plan.md:1"
    sources = CitationSources(envelope.files, example=envelope.example)
    assert sources.mark("docs/plan.md:4", "2. Run the tests.").status is CitationStatus.VERIFIED
    assert sources.mark("docs/plan.md:9", None).status is CitationStatus.NO_SUCH_LINE


def test_the_prompt_fences_the_envelope_and_names_the_lens_literally() -> None:
    envelope = plan_envelope(("plan.md", PLAN), ("criteria.yaml", CRITERIA))
    (works, *_) = vet_lenses("panel")
    prompt = render_prompt(
        tier="panel",
        lens=works.id,
        question=works.question,
        envelope=envelope.text,
        example=envelope.example,
        nonce="0123456789abcdef0123",
    )
    assert "<<<ENVELOPE 0123456789abcdef0123 BEGIN>>>\n# Envelope\n" in prompt
    assert '"lens": "works"' in prompt and "Will the plan work" in prompt
