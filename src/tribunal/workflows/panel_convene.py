"""One round of the panel court (`tribunal panel convene`): executor -> verifier panel ->
consensus, and its records.

Order, and why:
1. Everything that can be bad input is checked BEFORE the out dir is claimed (nothing written):
   the out dir, the criteria and the freeze rule, the report (and `--head` against its address),
   the fleet and the builder, the ledger, the same BLOCKED model retried unchanged, the
   references, and the envelope of base...head (identity-scanned, the executor's name too).
2. What decides before anything runs: a round beyond the budget ESCALATEs and a report that
   convenes no panel is NOT_CONVENED — no command run, no member called.
3. The out dir is claimed (locked, stamped, swept); the envelope and manifest are written.
4. Evidence before claims: tribunal runs every verification command at head itself
   (`verification.json`); one that hit the cap or a signal makes the round INVALID, and no
   member is called.
5. Every member is routed (`routing.json`) and asked at once (each rung bounded by its
   `max_concurrency`), each card written as `scorecard_<lens>.json` when it is read; a trigger
   opens exactly one synthesis phase, asked at once too (`scorecard_<lens>.synthesis.json`).
6. The round is decided, recorded in the ledger, and `judgment.md`, `report.md` and then
   `summary.json` are written, last.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tribunal.courts.panel import (
    Checker,
    Criteria,
    Decision,
    Dimension,
    MalformedCard,
    PanelRound,
    RoundFlags,
    Scorecard,
    apply_citations,
    decide,
    find_triggers,
)
from tribunal.courts.panel.card_reader import read_card
from tribunal.courts.panel.card_schema import strict_scorecard_schema
from tribunal.courts.panel.checking import command_spellings, evidence_checker
from tribunal.courts.panel.convening import (
    ReportFacts,
    beyond_budget,
    not_convened,
    retries_the_same_blocked,
)
from tribunal.courts.panel.prompt import (
    PanelBrief,
    render_score_prompt,
    render_synthesis_prompt,
)
from tribunal.courts.panel.seating import MemberSeat, PanelRouting, route_panel, seat_member
from tribunal.enums import ScorecardPhase
from tribunal.errors import BadInput
from tribunal.evidence.slice.criteria import (
    PanelLens,
    SliceCriteria,
    bytes_at,
    criteria_sha256,
    load_criteria,
)
from tribunal.evidence.slice.report import ExecutorReport, load_report
from tribunal.evidence.slice.verification import (
    VERIFICATION_NAME,
    Verification,
    render_command,
    run_verification,
)
from tribunal.jury.builder import Builder, both, builder_outside, envelope_terms, resolve_builder
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.build import Envelope, build_envelope
from tribunal.jury.envelope.contract import Contract
from tribunal.jury.fleet import Fleet, Rung, load_fleet
from tribunal.jury.redaction import redact
from tribunal.jury.seat.costs import costs_document
from tribunal.jury.seat.dispatch import RungGates
from tribunal.jury.seat.walk import SeatContext
from tribunal.jury.transports import SeatRequest
from tribunal.jury.verdict_schema import schema_dialect
from tribunal.outputs import check_output_dir, check_output_path
from tribunal.paths import display_path, find_root
from tribunal.records.ledger import (
    check_writable,
    default_ledger_path,
    load_ledger,
)
from tribunal.records.panel_report import (
    PANEL_RUN_FILES,
    PanelReport,
    card_document,
    scorecard_name,
    write_panel_reports,
)
from tribunal.records.rundir import RunDir, claim, new_run_id
from tribunal.records.slices import (
    check_frozen,
    dispatches_used,
    find_slice,
    freeze,
    last_blocked,
    record_dispatch,
    record_panel_round,
    refuted_adjudications,
    refuted_in_slice,
    resolved_concerns,
)

SeatCallback = Callable[[MemberSeat], None]
MIN_SYNTHESIS = 2  # a synthesis weighs a member's card against at least one other


@dataclass(frozen=True)
class PanelRequest:
    """The flags of `tribunal panel convene`, as paths and values. `root` is the repository
    root labels are shown against; `environ` is where rung keys come from; `run_id` fixes the
    run id (tests only)."""

    criteria: Path
    report: Path
    repo: Path
    base: str
    fleet: Path
    out: Path
    root: Path
    environ: Mapping[str, str]
    head: str | None = None
    builder: str | None = None
    round: int | None = None
    ledger: Path | None = None
    accept_caveats: bool = False
    solo: bool = False
    summary_to: Path | None = None
    run_id: str | None = None


@dataclass(frozen=True)
class PanelConvening:
    """What one round wrote and decided."""

    run: RunDir
    report: PanelReport
    ledger: Path

    @property
    def decision(self) -> Decision:
        """The round's decision."""
        return self.report.decision


@dataclass(frozen=True)
class _Prepared:
    """Everything checked before the out dir is claimed."""

    criteria: SliceCriteria
    report: ExecutorReport
    fleet: Fleet
    builder: Builder
    ledger_path: Path
    ledger: dict[str, Any]
    round: int
    rounds_left: int
    dispatches_left: int
    base: str
    head: str | None
    frozen_by: str
    references: Mapping[str, str]
    envelope: Envelope | None
    flags: RoundFlags = field(default_factory=RoundFlags)


def panel_convene(request: PanelRequest, *, on_seat: SeatCallback | None = None) -> PanelConvening:
    """Convene one round of the panel over `request` and write its run dir.

    `on_seat` is called with each member's seat (either phase) as its card is written. Raises
    BadInput (nothing written) for any bad input; NotFinished when a git step fails."""
    prepared = _prepare(request)
    run_id = request.run_id if request.run_id is not None else new_run_id()
    check_writable(prepared.ledger_path, _label(prepared.ledger_path, request.root))
    with claim(request.out, run_id=run_id, label=_label(request.out, request.root)) as run:
        return _convene_into(run, request, prepared, on_seat)


def _prepare(request: PanelRequest) -> _Prepared:
    """Every check that can fail as bad input, before anything is written."""
    root = request.root
    check_output_dir(request.out, "--out", _label(request.out, root), files=PANEL_RUN_FILES)
    if request.summary_to is not None:
        shown = _label(request.summary_to, root)
        check_output_path(request.summary_to, "--summary-to", shown)
        if not request.summary_to.parent.is_dir():
            raise BadInput("its directory does not exist", source=shown, field="--summary-to")
    criteria = load_criteria(request.criteria, _label(request.criteria, root))
    report = load_report(request.report, _label(request.report, root))
    fleet = load_fleet(request.fleet, _label(request.fleet, root))
    # P-9: the executor is the panel's builder unless --builder names one (which must be of
    # the fleet, as everywhere); an executor the fleet does not hold excludes its own family.
    builder = builder_outside(fleet, report.executor)
    if request.builder is not None:
        # The executor's family stays refused beside the one --builder names (P-2).
        builder = both(resolve_builder(fleet, request.builder), builder)
    ledger_path = request.ledger or default_ledger_path(request.repo)
    check_output_path(ledger_path, "--ledger", _label(ledger_path, root))
    ledger = load_ledger(ledger_path, _label(ledger_path, root))
    repo_label = _label(request.repo, root)
    base, address, head = _revisions(request, report, repo_label)
    at_base_bytes = bytes_at(request.repo, base, request.criteria)
    frozen_by = check_frozen(
        ledger,
        criteria,
        at_base=at_base_bytes == request.criteria.read_bytes(),
        base_sha256=criteria_sha256(at_base_bytes) if at_base_bytes is not None else None,
    )
    slice_id = criteria.slice_id
    if retries_the_same_blocked(
        report.status, report.executor, report.context, last_blocked(ledger, slice_id)
    ):
        raise BadInput(
            "this BLOCKED report repeats the previous one's executor and context: change the "
            "context, the model or the slice — never retry the same model unchanged",
            source=report.label,
            field="status",
        )
    # --round defaults to the slice's last round a panel sat in + 1 (a round no panel sat in —
    # not convened, beyond the budget — spends no round of the budget).
    sat = [r["round"] for r in _rounds(ledger, slice_id) if r.get("sat", True)]
    round_number = request.round if request.round is not None else max(sat, default=0) + 1
    if round_number < 1:
        raise BadInput("a round is 1 or more", field="--round")
    if round_number < max(sat, default=0):
        raise BadInput(
            f"round {round_number} is behind the slice's last round, {max(sat)}: a round "
            "already decided is never convened again",
            field="--round",
        )
    spent = dispatches_used(ledger, slice_id)
    weight = 0 if _dispatched(ledger, slice_id, report, round_number) else report.complexity
    prepared = _Prepared(
        criteria=criteria,
        report=report,
        fleet=fleet,
        builder=builder,
        ledger_path=ledger_path,
        ledger=ledger,
        round=round_number,
        rounds_left=max(0, criteria.rounds - round_number),
        dispatches_left=max(0, criteria.dispatches - spent - weight),
        base=base,
        head=head,
        frozen_by=frozen_by,
        references={},
        envelope=None,
    )
    # P-8: whether the report convenes a panel at all comes first; a DONE report convenes one
    # only with an address of its own that resolves (--head only defaults to it).
    diff_empty = head is not None and _same_tree(request.repo, base, head)
    facts = ReportFacts(
        status=report.status,
        address_resolves=address is not None,
        diff_empty=diff_empty,
        blocking_concerns=tuple(
            (concern.number, concern.fingerprint, concern.text)
            for concern in report.concerns
            if concern.blocking
        ),
    )
    why_not = not_convened(facts, resolved_concerns(ledger, slice_id))
    if why_not is not None:
        return replace(prepared, flags=RoundFlags(not_convened=why_not))
    budget = beyond_budget(round_number, criteria.rounds, spent, weight, criteria.dispatches)
    if budget is not None:
        return replace(prepared, flags=RoundFlags(beyond_budget=budget))
    assert head is not None
    references = _references(request.repo, head, criteria)
    envelope = _envelope(request, criteria, report, fleet, builder, base, head)
    return replace(prepared, references=references, envelope=envelope)


def _revisions(
    request: PanelRequest, report: ExecutorReport, label: str
) -> tuple[str, str | None, str | None]:
    """The resolved base, the report's address (None when it names none that resolves), and
    head: `--head`, else the address. Raises BadInput for a base or `--head` that names no
    commit, and for a `--head` naming another commit than the report's address."""
    from tribunal.evidence.proofs.repo import ProofRepo

    with ProofRepo.open(request.repo, label) as git_repo:
        base = git_repo.resolve(request.base)
        if base is None:
            raise BadInput(f"{request.base!r} does not name a commit in {label}", field="--base")
        address = git_repo.resolve(report.address) if report.address else None
        head = git_repo.resolve(request.head) if request.head is not None else address
        if request.head is not None and head is None:
            raise BadInput(f"{request.head!r} does not name a commit in {label}", field="--head")
        if head is not None and not git_repo.is_ancestor(base, head):
            raise BadInput(
                f"--base {request.base} is not an ancestor of the head {head[:12]}: the work "
                "is judged from the commit it started from",
                field="--base",
            )
        if request.head is None:
            return base, address, address
        assert head is not None  # resolved above, or refused
        if address is not None and head != address:
            raise BadInput(
                f"--head {request.head} is {head[:12]}, but the report's address "
                f"{report.address} is {address[:12]}",
                source=report.label,
                field="address",
            )
        return base, address, head


def _dispatched(
    ledger: dict[str, Any], slice_id: str, report: ExecutorReport, round_number: int
) -> bool:
    """True when the slice's latest dispatch is this report already (same round, status,
    executor and context): handed over again — after its concerns were resolved, say — it is
    the same dispatch, and spends nothing more."""
    entry = find_slice(ledger, slice_id)
    if entry is None or not entry["dispatches"]:
        return False
    latest = entry["dispatches"][-1]
    return (latest["round"], latest["status"], latest["executor"], latest["context"]) == (
        round_number, report.status.value, report.executor, report.context
    )  # fmt: skip


def _same_tree(repo: Path, base: str, head: str) -> bool:
    """True when base...head changes nothing (the head's tree is the base's)."""
    import subprocess

    trees = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", f"{base}^{{tree}}", f"{head}^{{tree}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return trees[0] == trees[1]


def _references(repo: Path, head: str, criteria: SliceCriteria) -> dict[str, str]:
    """The text of every reference at head (P-3: their text may be quoted as spec). Raises
    BadInput naming the criteria's field for one the head commit does not hold."""
    texts: dict[str, str] = {}
    for index, reference in enumerate(criteria.references):
        data = bytes_at(repo, head, Path(repo) / reference)
        if data is None:
            line = criteria.document.line_of(("references", index)) if criteria.document else None
            raise BadInput(
                f"reference {reference!r} is not in the head commit",
                source=criteria.label,
                line=line,
                field=f"references[{index}]",
            )
        texts[reference] = data.decode("utf-8", errors="replace")
    return texts


def _envelope(
    request: PanelRequest,
    criteria: SliceCriteria,
    report: ExecutorReport,
    fleet: Fleet,
    builder: Builder,
    base: str,
    head: str,
) -> Envelope:
    """The E-1 envelope of base...head, identity-scanned — the executor named in the report
    too (P-3). Raises BadInput (naming path:line and the term) on a hit."""
    contract = Contract(
        label=criteria.label,
        intent=criteria.request,
        criteria=tuple(d.description or d.id for d in criteria.dimensions),
    )
    terms = envelope_terms(fleet, builder)
    return build_envelope(
        request.repo,
        base,
        contract,
        head=head,
        repo_label=_label(request.repo, request.root),
        deny=(report.executor,),
        builder_terms=terms.builder,
        content_terms=terms.content,
    )


def _convene_into(
    run: RunDir, request: PanelRequest, prepared: _Prepared, on_seat: SeatCallback | None
) -> PanelConvening:
    """Everything after the claim, with the run dir locked."""
    criteria = prepared.criteria
    envelope = prepared.envelope.for_run(run.run_id) if prepared.envelope else None
    flags = prepared.flags
    verification: Verification | None = None
    seats: list[MemberSeat] = []
    routing: PanelRouting | None = None
    costs: dict[str, Any] = {}
    first: list[Scorecard] = []
    synthesis: list[Scorecard] | None = None
    malformed: list[MalformedCard] = []
    check: Checker = _no_evidence
    asked = False
    if envelope is not None and not flags.beyond_budget and not flags.not_convened:
        run.write_envelope(envelope)
        verification = _verify(request, prepared)
        run.write_json(VERIFICATION_NAME, verification.to_dict())
        failed = tuple(f"{run_.command} (exit {run_.exit_code})" for run_ in verification.failed)
        flags = replace(flags, invalid=verification.invalid, failed_commands=failed)
    if envelope is not None and verification is not None and flags.invalid is None:
        sitting = _Sitting(request, prepared, envelope, verification, run, on_seat)
        routing = sitting.routing
        run.write_json("routing.json", routing.to_dict())
        check = sitting.check
        outcome = sitting.sit()
        seats, first, synthesis, malformed = outcome
        held = {seat.lens: _held(seat) for seat in seats if seat.card is None}
        flags = replace(flags, held_lenses=tuple(held.values()))
        costs = costs_document(prepared.fleet.rungs.values(), sitting.context.book)
        asked = bool(sitting.context.asked)
    panel = PanelRound(
        criteria=_criteria(criteria),
        round=prepared.round,
        first=tuple(first),
        synthesis=tuple(synthesis) if synthesis is not None else None,
        malformed=tuple(malformed),
    )
    refuted = refuted_in_slice(prepared.ledger, criteria.slice_id)
    decision = decide(panel, check, flags=flags, refuted_fingerprints=refuted)
    report = PanelReport(
        run_id=run.run_id,
        criteria=criteria,
        decision=decision,
        round=prepared.round,
        rounds_left=prepared.rounds_left,
        dispatches_left=prepared.dispatches_left,
        address=prepared.head,
        receipt=envelope.receipt if envelope is not None else None,
        builder_family=prepared.builder.family,
        verification=verification,
        seats=tuple(seats),
        routing=routing,
        costs=costs,
        accept_caveats=request.accept_caveats,
        observations=tuple(c.text for c in prepared.report.concerns if not c.blocking),
        frozen_by=prepared.frozen_by,
        earlier=tuple(_rounds(prepared.ledger, criteria.slice_id)),
        repo=str(find_root(request.repo)),
        sat=asked,
    )
    _record(request, prepared, report)
    write_panel_reports(run, report, summary_to=request.summary_to)
    return PanelConvening(run, report, prepared.ledger_path)


def _held(seat: MemberSeat) -> str:
    """A held member as the HOLD reason names it: its lens, the phase when it is the
    synthesis, and why (the rungs refused or rejected on the way)."""
    phase = " (synthesis)" if seat.phase is ScorecardPhase.SYNTHESIS else ""
    why = "; ".join(f"{entry.rung}: {entry.reason.value}" for entry in seat.rejected)
    return f"{seat.lens}{phase} — {why or seat.note}" if (why or seat.note) else seat.lens + phase


def _no_evidence(evidence: object) -> str | None:
    """The check of a round that seated nobody: there is nothing to check."""
    return "nothing was shown to check it against"


def _criteria(criteria: SliceCriteria) -> Criteria:
    """The decision core's view of the frozen criteria: dimensions, weights, target."""
    dimensions = tuple(Dimension(d.id, d.weight) for d in criteria.dimensions)
    return Criteria(dimensions, criteria.target)


def _verify(request: PanelRequest, prepared: _Prepared) -> Verification:
    """P-5: every verification command at head, by tribunal, under the criteria's cap."""
    criteria = prepared.criteria
    assert prepared.head is not None
    return run_verification(
        request.repo,
        prepared.head,
        criteria.verification_commands,
        timeout_s=criteria.timeout_s,
        label=_label(request.repo, request.root),
    )


def _record(request: PanelRequest, prepared: _Prepared, report: PanelReport) -> None:
    """P-9: the dispatch (unless the round was beyond the budget: nothing was dispatched) and
    the round, in the ledger."""
    label = _label(prepared.ledger_path, request.root)
    criteria = prepared.criteria
    slice_id = criteria.slice_id
    if prepared.frozen_by == "base":
        # P-1, P-9: criteria frozen by the base commit are pinned in the ledger too, so a later
        # round against another base is held to the same bytes.
        freeze(prepared.ledger_path, criteria, by="base", label=label)
    same = _dispatched(prepared.ledger, slice_id, prepared.report, prepared.round)
    if not prepared.flags.beyond_budget and not same:
        record_dispatch(
            prepared.ledger_path,
            slice_id,
            prepared.report,
            round_number=prepared.round,
            label=label,
        )
    record_panel_round(prepared.ledger_path, slice_id, report.ledger_entry(), label=label)


class _Sitting:
    """The members of one round: routed, asked at once per phase, their cards read."""

    def __init__(
        self,
        request: PanelRequest,
        prepared: _Prepared,
        envelope: Envelope,
        verification: Verification,
        run: RunDir,
        on_seat: SeatCallback | None,
    ) -> None:
        self.request = request
        self.prepared = prepared
        self.run = run
        self.on_seat = on_seat
        criteria = prepared.criteria
        self.dimensions = tuple(d.id for d in criteria.dimensions)
        self.brief = PanelBrief.of(
            criteria,
            address=envelope.head,
            envelope=envelope.text,
            round=prepared.round,
            rounds_left=prepared.rounds_left,
            dispatches_left=prepared.dispatches_left,
            verification=verification,
            prior_risks=_prior_risks(prepared.ledger, criteria.slice_id, prepared.round),
            refuted=refuted_adjudications(prepared.ledger, criteria.slice_id),
            references=prepared.references,
        )
        self.example = envelope.example
        example = self.example
        self.skipped_example = (example.path, example.line) if example is not None else None
        self.files = {**envelope.file_texts(), **prepared.references}
        sources = CitationSources(self.files, example=self.example)
        outputs = {
            spelling: run_.output
            for run_ in verification.runs
            for spelling in command_spellings(run_.command, render_command(run_.command))
        }
        self.check = evidence_checker(sources, outputs, criteria.request)
        score_prompts = {
            lens.id: render_score_prompt(self.brief, lens, example=self.example)
            for lens in criteria.lenses
        }
        tokens = max(
            (
                SeatRequest(prompt=text, seat=lens).tokens_estimate
                for lens, text in score_prompts.items()
            ),
            default=0,
        )
        self.score_prompts = score_prompts
        self.routing = route_panel(
            prepared.fleet,
            criteria.lenses,
            prepared.builder,
            env=request.environ,
            tokens=tokens,
            solo=request.solo,
        )
        fleet = prepared.fleet
        self.context = SeatContext.for_fleet(
            fleet,
            environ=request.environ,
            envelope_files=self.files,
            example=self.example,
        )
        gates = RungGates(fleet.rungs.values(), self.context.server_of)
        self.context = replace(self.context, gate=gates)
        self.documents: dict[tuple[str, ScorecardPhase], dict[str, Any] | None] = {}

    def sit(
        self,
    ) -> tuple[list[MemberSeat], list[Scorecard], list[Scorecard] | None, list[MalformedCard]]:
        """Both phases: the seats, the first phase's cards, the synthesis's (None when no
        trigger fired), and the malformed cards of either phase."""
        members = {member.lens.id: member for member in self.routing.members}
        lenses = {lens.id: lens for lens in self.prepared.criteria.lenses}
        unseatable = [m.lens.id for m in self.routing.members if m.first is None]
        if unseatable:
            # P-8: a lens no rung can seat holds the round whatever the others say: nobody is
            # asked (a call would be paid for an outcome already decided).
            held = [
                MemberSeat(m.lens.id, m.lens.adversary, ScorecardPhase.SCORE,
                           rejected=tuple(s.to_rejected() for s in m.route.skipped),
                           note=m.hold or m.route.undeclared_tier or "no rung can seat it")
                for m in self.routing.members if m.first is None
            ]  # fmt: skip
            for seat in held:
                self._written(seat)
            return held, [], None, []
        first_seats = self._phase(
            ScorecardPhase.SCORE,
            {lens: self.score_prompts[lens] for lens in members},
        )
        first = [s.card for s in first_seats if isinstance(s.card, Scorecard)]
        malformed = [s.card for s in first_seats if isinstance(s.card, MalformedCard)]
        refuted = refuted_in_slice(self.prepared.ledger, self.prepared.criteria.slice_id)
        checked = [apply_citations(card, self.check, refuted) for card in first]
        fired = find_triggers(_criteria(self.prepared.criteria), checked)
        if not fired or len(first) < MIN_SYNTHESIS:
            # One well-formed card has no other to weigh: no synthesis can be held (the round
            # is decided over the cards there are; a malformed card keeps it from shipping).
            return first_seats, first, None, malformed
        # P-6: one synthesis phase; each member sees its own card and the others' anonymised,
        # in a fixed order (the criteria's lenses).
        cards = {card.lens: self.documents[(card.lens, ScorecardPhase.SCORE)] for card in first}
        prompts = {}
        for lens_id in (card.lens for card in first):
            own = cards[lens_id] or {}
            others = [doc or {} for other, doc in cards.items() if other != lens_id]
            prompts[lens_id] = render_synthesis_prompt(
                self.brief, lenses[lens_id], own=own, others=others, example=self.example
            )
        second_seats = self._phase(ScorecardPhase.SYNTHESIS, prompts)
        synthesis = [s.card for s in second_seats if isinstance(s.card, Scorecard)]
        malformed += [s.card for s in second_seats if isinstance(s.card, MalformedCard)]
        return first_seats + second_seats, first, synthesis, malformed

    def _phase(self, phase: ScorecardPhase, prompts: Mapping[str, str]) -> list[MemberSeat]:
        """Every member of `prompts` asked at once (each rung under its gate); each card
        written as it is read, in the calling thread; seats returned in the criteria's order."""
        members = [m for m in self.routing.members if m.lens.id in prompts]
        done: dict[str, MemberSeat] = {}
        with ThreadPoolExecutor(max_workers=max(1, len(members))) as pool:
            futures = {
                pool.submit(self._seat, member, phase, prompts[member.lens.id]): member
                for member in members
            }
            for future in as_completed(futures):
                member = futures[future]
                try:
                    seat = future.result()
                except Exception as error:
                    # Source 000: an exploding member never throws away cards already paid for.
                    said = redact(f"{type(error).__name__}: {error}", self.context.secrets)
                    seat = MemberSeat(
                        member.lens.id, member.lens.adversary, phase,
                        note=f"the member's seat crashed ({said})",
                    )  # fmt: skip
                done[member.lens.id] = seat
                self._written(seat)
        return [done[member.lens.id] for member in members]

    def _written(self, seat: MemberSeat) -> None:
        """Write `seat`'s scorecard file (in the calling thread) and report it."""
        document = self.documents.get((seat.lens, seat.phase))
        written = {"run_id": self.run.run_id, **seat.to_dict(document)}
        self.run.write_json(scorecard_name(seat.lens, seat.phase), written)
        if self.on_seat is not None:
            self.on_seat(seat)

    def _seat(self, member: Any, phase: ScorecardPhase, prompt: str) -> MemberSeat:
        lens: PanelLens = member.lens
        key = _seat_key(self.prepared.round, lens.id, phase)

        def request_for(rung: Rung) -> SeatRequest:
            schema = None
            if rung.response_format.sends_schema:
                dialect = schema_dialect(rung.transport, rung.response_format)
                schema = strict_scorecard_schema(
                    lens.id,
                    self.prepared.round,
                    phase,
                    self.dimensions,
                    self.files,
                    dialect,
                    adversary=lens.adversary,
                    example=self.skipped_example,
                )
            return SeatRequest(prompt=prompt, seat=key, response_schema=schema)

        def read(text: str, rung: Rung) -> Any:
            card = read_card(
                text,
                lens=lens.id,
                round=self.prepared.round,
                phase=phase,
                dimensions=self.dimensions,
                rung=rung.id,
                adversary=lens.adversary,
                shown=prompt,
                secrets=self.context.secrets,
            )
            if isinstance(card, Scorecard):
                self.documents[(lens.id, phase)] = card_document(card)
            return card

        return seat_member(member, phase, request_for, read, self.context)


def _seat_key(round_number: int, lens: str, phase: ScorecardPhase) -> str:
    """The seat a request names (and a replay fleet's answers key): `panel/R<k>/<lens>`, with
    `/synthesis` for the synthesis phase."""
    key = f"panel/R{round_number}/{lens}"
    return f"{key}/synthesis" if phase is ScorecardPhase.SYNTHESIS else key


def _rounds(ledger: dict[str, Any], slice_id: str) -> list[dict[str, Any]]:
    """The rounds the ledger holds for `slice_id`."""
    entry = find_slice(ledger, slice_id)
    return list(entry["rounds"]) if entry is not None else []


def _prior_risks(ledger: dict[str, Any], slice_id: str, round_number: int) -> tuple[str, ...]:
    """P-3: the findings and scenarios of earlier rounds, as risks for this one — less those
    refuted with evidence, which ride along as refuted instead."""
    refuted = refuted_in_slice(ledger, slice_id)
    risks: list[str] = []
    for earlier in _rounds(ledger, slice_id):
        if earlier.get("round", 0) >= round_number:
            continue
        for item in earlier.get("fix_list", []):
            # Only members' findings and scenarios: never the harness's lines or a malformed
            # card's, which name a rung (P-3: no identity reaches a member).
            if item["fingerprint"] in refuted or not item.get("from_member"):
                continue
            where = f" ({item['location']})" if item.get("location") else ""
            risks.append(f"round {earlier['round']}: {item['claim']}{where}")
    return tuple(dict.fromkeys(risks))


def _label(path: Path, root: Path) -> str:
    return display_path(path, root)
