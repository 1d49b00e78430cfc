"""Vetting a plan (`tribunal panel vet`, P-11): three lenses over the plan and its criteria before
anything is built, and its records.

Order, and why:
1. Everything that can be bad input is checked BEFORE the out dir is claimed (nothing written):
   the out dir, the plan, the criteria (and that they did not change after freezing: criteria
   not frozen yet are welcome, and frozen on PROCEED), the fleet and the builder, the ledger.
2. The three lenses are routed through the shared ladder (L-2, L-3, L-6) on the tier `panel`
   when the fleet declares it, else `generalist`, their prompts the jury's over the envelope
   of the plan and the criteria; capacity is checked against the prompts.
3. The out dir is claimed (B-5); the envelope and the routing are written; every lens is asked
   at once, each walking its ladder one shot per rung (L-6), asking a replay fleet as
   `vet/<lens>` (P-12), each `verdict_<lens>.json` written as its seat finishes.
4. The vetting is decided: two of three pass → PROCEED, and the criteria are frozen; otherwise
   REFINE, or ESCALATE on the slice's second failing vetting. The vetting is recorded in the
   ledger, then `vet.json`, `judgment.md` and `summary.json`, last.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tribunal.courts.panel.seating import member_tier
from tribunal.courts.panel.vet_brief import VET_PREAMBLE, PlanEnvelope, plan_envelope, vet_lenses
from tribunal.courts.panel.vetting import decide_vet
from tribunal.documents import read_text
from tribunal.enums import Transport, VetOutcome
from tribunal.errors import BadInput
from tribunal.evidence.slice.criteria import SliceCriteria, load_criteria
from tribunal.jury.builder import Builder, resolve_builder
from tribunal.jury.fleet import Fleet, load_fleet
from tribunal.jury.routing import Routing, route, spread
from tribunal.jury.seat.costs import costs_document
from tribunal.jury.seat.dispatch import SeatJob, dispatch_seats
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, seat_prompt
from tribunal.jury.transports import SeatRequest
from tribunal.outputs import check_output_dir, check_output_path
from tribunal.paths import display_path
from tribunal.records.ledger import check_writable, default_ledger_path, load_ledger
from tribunal.records.rundir import STAMP_NAME, RunDir, claim, new_run_id
from tribunal.records.slices import (
    check_unchanged,
    find_slice,
    freeze,
    record_vetting,
    vettings,
)
from tribunal.records.vet_report import ENVELOPE_NAME, VET_RUN_FILES, VetReport, write_vet_reports

SeatCallback = Callable[[SeatRecord], None]
SEAT_PREFIX = "vet/"  # P-12: the seat key a replay fleet answers a vetting lens by


@dataclass(frozen=True)
class VetRequest:
    """The flags of `tribunal panel vet`, as paths and values. `root` is the repository root
    labels are shown against (and the default ledger's); `environ` is where rung keys come
    from; `run_id` fixes the run id (tests only)."""

    plan: Path
    criteria: Path
    fleet: Path
    builder: str
    out: Path
    root: Path
    environ: Mapping[str, str]
    ledger: Path | None = None
    solo: bool = False
    run_id: str | None = None


@dataclass(frozen=True)
class Vetting:
    """What one vetting wrote and decided."""

    run: RunDir
    report: VetReport
    ledger: Path


@dataclass(frozen=True)
class _Prepared:
    """Everything checked before the out dir is claimed."""

    criteria: SliceCriteria
    fleet: Fleet
    builder: Builder
    envelope: PlanEnvelope
    routing: Routing
    jobs: tuple[SeatJob, ...]
    ledger_path: Path
    ledger: dict[str, Any]
    frozen: bool


def panel_vet(request: VetRequest, *, on_seat: SeatCallback | None = None) -> Vetting:
    """Vet the plan of `request` and write its run dir.

    `on_seat` is called with each lens's SeatRecord once its verdict file is written. Returns
    the Vetting; raises BadInput (nothing written) for any bad input."""
    prepared = _prepare(request)
    run_id = request.run_id if request.run_id is not None else new_run_id()
    check_writable(prepared.ledger_path, _label(prepared.ledger_path, request.root))
    with claim(request.out, run_id=run_id, label=_label(request.out, request.root)) as run:
        return _vet_into(run, request, prepared, on_seat)


def _prepare(request: VetRequest) -> _Prepared:
    """Every check that can fail as bad input, before anything is written."""
    root = request.root
    out_label = _label(request.out, root)
    check_output_dir(request.out, "--out", out_label, files=(STAMP_NAME, *VET_RUN_FILES))
    plan_label = _label(request.plan, root)
    plan_text = read_text(request.plan, plan_label)
    criteria = load_criteria(request.criteria, _label(request.criteria, root))
    if plan_label == criteria.label:
        raise BadInput("--plan and --criteria name the same file", source=plan_label)
    fleet = load_fleet(request.fleet, _label(request.fleet, root))
    builder = resolve_builder(fleet, request.builder)
    ledger_path = request.ledger if request.ledger is not None else default_ledger_path(root)
    ledger_label = _label(ledger_path, root)
    check_output_path(ledger_path, "--ledger", ledger_label)
    ledger = load_ledger(ledger_path, ledger_label)
    # P-1: criteria frozen before are held to their bytes; criteria not frozen yet are welcome.
    frozen = check_unchanged(ledger, criteria)
    assert criteria.document is not None  # loaded from a file: its text is what was frozen
    envelope = plan_envelope((plan_label, plan_text), (criteria.label, criteria.document.text))
    routing, jobs = _route(request, fleet, builder, envelope)
    return _Prepared(
        criteria=criteria,
        fleet=fleet,
        builder=builder,
        envelope=envelope,
        routing=routing,
        jobs=jobs,
        ledger_path=ledger_path,
        ledger=ledger,
        frozen=frozen,
    )


def _route(
    request: VetRequest, fleet: Fleet, builder: Builder, envelope: PlanEnvelope
) -> tuple[Routing, tuple[SeatJob, ...]]:
    """L-2, L-3: the three lenses routed for the builder on the panel's tier (else
    generalist) before any call, capacity checked against the largest prompt. Returns the
    routing and one SeatJob per lens, in the lenses' order."""
    lenses = vet_lenses(member_tier(fleet))
    env = request.environ
    # A prompt depends only on the lens and its tier, never on the rungs: render each once.
    unsized = route(fleet, builder, env=env, solo=request.solo, lenses=lenses)
    prompts = {
        lens.lens.id: seat_prompt(
            lens, envelope.text, preamble=VET_PREAMBLE, example=envelope.example
        )
        for lens in unsized.lenses
    }
    tokens = max(
        SeatRequest(prompt=text, seat=lens).tokens_estimate for lens, text in prompts.items()
    )
    routing = route(fleet, builder, env=env, tokens=tokens, solo=request.solo, lenses=lenses)
    # Three independent lenses: on a shared ladder, each on a family no other sits on first.
    routing = replace(routing, lenses=spread(routing.lenses))
    return routing, tuple(SeatJob(lens, prompts[lens.lens.id]) for lens in routing.lenses)


def _vet_into(
    run: RunDir, request: VetRequest, prepared: _Prepared, on_seat: SeatCallback | None
) -> Vetting:
    """Everything after the claim, with the run dir locked."""
    criteria = prepared.criteria
    fleet = prepared.fleet
    run.write_text(ENVELOPE_NAME, prepared.envelope.text)
    run.write_routing(prepared.routing.to_dict())
    context = SeatContext.for_fleet(
        fleet,
        environ=request.environ,
        envelope_files=prepared.envelope.files,
        example=prepared.envelope.example,
    )
    context = replace(context, seat_prefix=SEAT_PREFIX)

    def written(record: SeatRecord) -> None:
        run.write_verdict(record)  # B-5: as each seat finishes
        if on_seat is not None:
            on_seat(record)

    warnings: list[str] = []
    seats = dispatch_seats(
        prepared.jobs,
        context,
        rungs=fleet.rungs.values(),
        on_seat=written,
        on_release_failure=warnings.append,
    )
    earlier = vettings(prepared.ledger, criteria.slice_id)
    failed = sum(1 for entry in earlier if entry.get("outcome") != VetOutcome.PROCEED.value)
    decision = decide_vet(seats, failed_before=failed, vetted_before=len(earlier))
    label = _label(prepared.ledger_path, request.root)
    frozen_by = _frozen_by(prepared)
    if decision.outcome is VetOutcome.PROCEED:
        frozen_by = frozen_by or "vet"
    report = VetReport(
        run_id=run.run_id,
        slice_id=criteria.slice_id,
        plan=_label(request.plan, request.root),
        criteria_label=criteria.label,
        criteria_sha256=criteria.sha256,
        decision=decision,
        seats=tuple(seats),
        routing=prepared.routing,
        frozen_by=frozen_by,
        costs=costs_document(fleet.rungs.values(), context.book),
        recorded=frozenset(
            rung.id for rung in fleet.rungs.values() if rung.transport is Transport.REPLAY
        ),
        warnings=(*prepared.routing.warnings, *warnings),
    )
    judgment = report.judgment_text()  # rendered (and read back) before the ledger is touched
    if decision.outcome is VetOutcome.PROCEED:
        # P-11: a plan that proceeds freezes its criteria (P-1) for the panel that audits it.
        freeze(prepared.ledger_path, criteria, by="vet", label=label)
    record_vetting(prepared.ledger_path, criteria.slice_id, report.ledger_entry(), label=label)
    write_vet_reports(run, report, judgment)
    return Vetting(run, report, prepared.ledger_path)


def _frozen_by(prepared: _Prepared) -> str | None:
    """What froze the criteria before this vetting (`freeze`, `vet`, `base`), or None."""
    if not prepared.frozen:
        return None
    entry = find_slice(prepared.ledger, prepared.criteria.slice_id)
    by = entry.get("frozen_by", "freeze") if entry is not None else "freeze"
    return str(by)


def _label(path: Path, root: Path) -> str:
    return display_path(path, root)
