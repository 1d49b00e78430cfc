"""One convening of the blind court (B-1): the glue between the envelope, the proofs, the
routing, the seats, the outcome, the ledger and the run dir.

Order, and why:
1. Everything that can be bad input is checked BEFORE the out dir is claimed (C-3: nothing is
   written): the contract, the fleet, the builder, the revisions and `red`, the ledger file,
   the templates, and the envelope itself — built from git objects (B-6) and identity-scanned
   (E-3: a hit is exit 2).
2. The out dir is claimed (B-5: locked for the whole convening, stamped before swept); the
   envelope, manifest and routing are written, each carrying the run_id; tribunal worktrees
   an earlier convening abandoned (killed during its proofs or seats) are pruned — only those
   whose owner lock is free, never a concurrent convening's.
3. The proofs run (B-4) on the same resolved commits the envelope holds, unless `--no-proofs`,
   in worktrees named after the run.
4. Every lens is routed (L-2: the builder's family refused on every ladder) and every seat is
   dispatched at once (L-9), the ledger's refuted findings in every prompt (E-5); each
   `verdict_<lens>.json` is written as its seat finishes (B-5: never lost to a later crash).
5. The outcome is decided (B-1), the round recorded in the ledger (B-3), `judgment.md` and
   then `summary.json` written last.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tribunal.courts.blind.convergence import LedgerView
from tribunal.courts.blind.decide import DEFAULT_MAX_ROUNDS, BlindDecision, Flags, Proofs, decide
from tribunal.enums import Transport
from tribunal.errors import BadInput
from tribunal.jury.builder import Builder, envelope_terms, resolve_builder
from tribunal.jury.envelope.build import Envelope, build_envelope
from tribunal.jury.envelope.contract import Contract, load_contract
from tribunal.jury.fleet import Fleet, load_fleet
from tribunal.jury.floor import floor_warnings
from tribunal.jury.lenses import Jury
from tribunal.jury.routing import Routing, route
from tribunal.jury.seat.costs import costs_document
from tribunal.jury.seat.dispatch import SeatJob, dispatch_seats
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, seat_prompt
from tribunal.jury.transports import Checkout, SeatRequest
from tribunal.outputs import check_output_dir, check_output_path
from tribunal.paths import display_path, find_root
from tribunal.records.blind_report import BLIND_JUDGMENT_TEMPLATE, BlindReport, write_reports
from tribunal.records.ledger import (
    DisputeKey,
    check_writable,
    default_ledger_path,
    load_ledger,
    record_round,
    view,
)
from tribunal.records.next_steps import Convened, next_steps
from tribunal.records.rundir import RUN_FILES, STAMP_NAME, RunDir, claim, new_run_id
from tribunal.worktrees import Pruned, prune_abandoned

SeatCallback = Callable[[SeatRecord], None]
PruneCallback = Callable[[Pruned], None]


@dataclass(frozen=True)
class ConveneRequest:
    """The flags of `tribunal convene` (B-1), as paths and values.

    `root` is the repository root of C-8 (labels in messages and outputs); `environ` is where
    rung keys come from (L-8); `run_id` fixes the run id (tests only).
    """

    repo: Path
    base: str
    contract: Path
    fleet: Path
    builder: str
    out: Path
    root: Path
    environ: Mapping[str, str]
    head: str = "HEAD"
    round: int | None = None
    ledger: Path | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    no_proofs: bool = False
    solo: bool = False
    require_cross_family: bool = False
    templates: Path | None = None
    run_id: str | None = None


@dataclass(frozen=True)
class Convening:
    """What one convening wrote and decided."""

    run: RunDir
    report: BlindReport
    routing: Routing
    envelope: Envelope
    ledger: Path

    @property
    def decision(self) -> BlindDecision:
        """The B-1 outcome and what it rests on."""
        return self.report.decision


@dataclass(frozen=True)
class _Prepared:
    """Everything checked before the out dir is claimed."""

    contract: Contract
    fleet: Fleet
    builder: Builder
    jury: Jury  # E-2, L-1: the fleet's whole jury, narrowed only by the contract
    envelope: Envelope
    ledger_path: Path
    ledger_view: LedgerView
    key: DisputeKey


def convene(
    request: ConveneRequest,
    *,
    on_seat: SeatCallback | None = None,
    on_pruned: PruneCallback | None = None,
) -> Convening:
    """Convene the blind court over `request` and write its run dir (B-1, B-5).

    `on_seat` is called with each SeatRecord once its verdict file is written, `on_pruned` with
    each abandoned worktree of an earlier convening as it is removed. Returns the
    Convening. Raises BadInput (nothing written) for any bad input; NotFinished when a git step
    of the proofs fails (the run dir then holds no summary: recognisably incomplete).
    """
    prepared = _prepare(request)
    # B-1, B-5: the run id is known before any prompt is rendered: the envelope names it.
    run_id = request.run_id if request.run_id is not None else new_run_id()
    prepared = replace(prepared, envelope=prepared.envelope.for_run(run_id))
    routing, jobs = _route(request, prepared)
    # C-3: an unwritable ledger is bad input now, not an internal error after the seats ran.
    check_writable(prepared.ledger_path, _label(prepared.ledger_path, request.root))
    with claim(request.out, run_id=run_id, label=_label(request.out, request.root)) as run:
        return _convene_into(run, request, prepared, routing, jobs, on_seat, on_pruned)


def _convene_into(
    run: RunDir,
    request: ConveneRequest,
    prepared: _Prepared,
    routing: Routing,
    jobs: list[SeatJob],
    on_seat: SeatCallback | None,
    on_pruned: PruneCallback | None,
) -> Convening:
    """Everything after the claim, with the run dir locked."""
    envelope = prepared.envelope
    run.write_envelope(envelope)
    run.write_routing(routing.to_dict())
    for pruned in prune_abandoned(request.repo):
        if on_pruned is not None:
            on_pruned(pruned)
    proofs = _prove(request, prepared, run.run_id)

    def written(record: SeatRecord) -> None:
        run.write_verdict(record)  # B-5: as each seat finishes
        if on_seat is not None:
            on_seat(record)

    seats, costs = _sit(request, prepared, jobs, written, run.run_id)
    flags = Flags(
        require_cross_family=request.require_cross_family,
        degraded=routing.degraded,
        max_rounds=request.max_rounds,
    )
    lenses = list(prepared.jury.ids)
    decision = decide(seats, proofs, flags=flags, ledger=prepared.ledger_view, lenses=lenses)
    report = BlindReport(
        run_id=run.run_id,
        decision=decision,
        seats=tuple(seats),
        proofs=proofs,
        builder_family=prepared.builder.family,
        receipt=envelope.receipt,
        costs=costs,
        recorded=frozenset(
            rung.id for rung in prepared.fleet.rungs.values() if rung.transport is Transport.REPLAY
        ),
        not_seated=prepared.jury.not_seated,
    )
    report = replace(report, next_steps=_next_steps(request, prepared, report, lenses))
    record_round(
        prepared.ledger_path,
        prepared.key,
        decision,
        run_id=run.run_id,
        repo=find_root(request.repo),
    )
    write_reports(run, report, templates=request.templates)
    return Convening(run, report, routing, envelope, prepared.ledger_path)


def _prepare(request: ConveneRequest) -> _Prepared:
    """C-3: every check that can fail as bad input, before anything is written."""
    root = request.root
    # The run dir and the files claiming it writes are never a link, FIFO or device.
    run_files = (STAMP_NAME, *RUN_FILES)
    check_output_dir(request.out, "--out", _label(request.out, root), files=run_files)
    contract = load_contract(request.contract, _label(request.contract, root))
    fleet = load_fleet(request.fleet, _label(request.fleet, root))
    builder = resolve_builder(fleet, request.builder)
    jury = contract.jury(fleet.lenses)  # a fleet never thins the jury; only the contract may
    if request.max_rounds < 1:
        raise BadInput("a round limit is 1 or more", field="--max-rounds")
    if request.templates is not None:
        template = request.templates / BLIND_JUDGMENT_TEMPLATE
        if not template.is_file():
            raise BadInput("template not found", source=_label(template, root), field="--templates")
    terms = envelope_terms(fleet, builder)
    # B-6: what is judged comes from git objects; E-3: an identity hit is bad input.
    envelope = build_envelope(
        request.repo,
        request.base,
        contract,
        head=request.head,
        repo_label=_label(request.repo, root),
        builder_terms=terms.builder,
        content_terms=terms.content,
    )
    _check_red(request.repo, contract, _label(request.repo, root))  # B-4 resolves it again
    ledger_path = request.ledger or default_ledger_path(request.repo)
    check_output_path(ledger_path, "--ledger", _label(ledger_path, root))  # read, then written
    ledger = load_ledger(ledger_path, _label(ledger_path, root))
    # B-3: a dispute is the contract's repository path and the RESOLVED base commit.
    key = DisputeKey(_label(request.contract, Path(request.repo).resolve()), envelope.base)
    ledger_view = view(ledger, key, request.round)
    return _Prepared(contract, fleet, builder, jury, envelope, ledger_path, ledger_view, key)


def _check_red(repo: Path, contract: Contract, label: str) -> None:
    """C-3: BadInput (field `red`, its line) when the contract's `red` names no commit."""
    if contract.red is None:
        return
    from tribunal.evidence.proofs.repo import ProofRepo

    with ProofRepo.open(repo, label) as git_repo:
        red = git_repo.resolve(contract.red)
    if red is None:
        raise BadInput(
            f"{contract.red!r} does not name a commit in {label}",
            source=contract.label,
            line=contract.line_of(("red",)),
            field="red",
        )


def _route(request: ConveneRequest, prepared: _Prepared) -> tuple[Routing, list[SeatJob]]:
    """L-2, L-3: every lens of the jury routed for the builder before any dispatch, capacity
    checked against the largest prompt a seat is given; E-5: each prompt carries the refuted
    findings of earlier rounds. Returns the routing and one SeatJob per lens."""
    fleet, builder, seated = prepared.fleet, prepared.builder, prepared.jury.seated
    adjudications = prepared.ledger_view.adjudications
    # A prompt depends only on the lens and its tier, never on the rungs: render each once.
    unsized = route(fleet, builder, env=request.environ, solo=request.solo, lenses=seated)
    envelope = prepared.envelope
    prompts = {
        lens.lens.id: seat_prompt(
            lens, envelope.text, adjudications=adjudications, example=envelope.example
        )
        for lens in unsized.lenses
    }
    tokens = max(
        (SeatRequest(prompt=text, seat=lens).tokens_estimate for lens, text in prompts.items()),
        default=0,
    )
    # L-4: a ladder below the floor is named in routing.json and on the console.
    warnings = floor_warnings(fleet)
    routing = route(
        fleet,
        builder,
        env=request.environ,
        tokens=tokens,
        solo=request.solo,
        warnings=warnings,
        lenses=seated,
    )
    return routing, [SeatJob(lens, prompts[lens.lens.id]) for lens in routing.lenses]


def _prove(request: ConveneRequest, prepared: _Prepared, run_id: str) -> Proofs:
    """B-4 on the envelope's own commits; `--no-proofs` is named in every report."""
    if request.no_proofs:
        return Proofs.no_proofs()
    from tribunal.evidence.proofs.prove import run_proofs

    envelope = prepared.envelope
    contract = prepared.contract
    report = run_proofs(
        request.repo,
        envelope.base,
        envelope.head,
        contract,
        label=_label(request.repo, request.root),
        run_id=run_id,
    )
    return Proofs.from_report(report)


def _sit(
    request: ConveneRequest,
    prepared: _Prepared,
    jobs: list[SeatJob],
    on_seat: SeatCallback,
    run_id: str,
) -> tuple[list[SeatRecord], dict[str, Any]]:
    """L-9: every seat at once, each rung bounded by its max_concurrency. Returns the seats'
    records and the B-1 `costs` of their answered calls."""
    envelope = prepared.envelope
    context = SeatContext.for_fleet(
        prepared.fleet,
        environ=request.environ,
        envelope_files=envelope.file_texts(),
        example=envelope.example,  # E-5, V-4: the prompts' example citation never counts
        # L-7, B-6: harness rungs sit on their own worktree of the judged commit, named after
        # the run.
        checkout=Checkout(Path(request.repo), envelope.head, owner=run_id),
    )
    rungs = prepared.fleet.rungs.values()
    seats = dispatch_seats(jobs, context, rungs=rungs, on_seat=on_seat)
    return seats, costs_document(rungs, context.book)


def _next_steps(
    request: ConveneRequest, prepared: _Prepared, report: BlindReport, lenses: list[str]
) -> tuple[str, ...]:
    """What the user does after this outcome, in the words of the flags they passed."""
    decision = report.decision
    convened = Convened(
        contract=prepared.contract.label,
        fleet=prepared.fleet.label,
        builder=request.builder,
        lenses=tuple(lenses),
        ledger=_label(request.ledger, request.root) if request.ledger is not None else None,
        red=prepared.contract.red is not None,
        test_command=prepared.contract.test_command is not None,
        require_cross_family=request.require_cross_family,
    )
    return next_steps(
        decision.outcome,
        decision.round,
        seats=report.seats,
        proofs=report.proofs,
        fix_list=decision.fix_list,
        reasons=decision.reasons,
        degraded=decision.degraded,
        recorded=report.recorded_lenses,
        convened=convened,
    )


def _label(path: Path, root: Path) -> str:
    return display_path(path, root)
