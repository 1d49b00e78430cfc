"""One seat walked down its ladder (L-3, L-5, L-6, L-10): the prompt in, a SeatRecord out.

The walk takes a lens's `LensRoute` (routing already refused, before any dispatch, the builder's
family, rungs too small and rungs without credentials) and asks its candidates in order, one shot
each, applying the L-6 table: capacity re-checked at every hop; a valid verdict for the seated
lens stops the walk; `wrong_lens`, `truncated`, `not_answered`, `capacity` (also a 400 saying the
context is exceeded), `annulled` and `no_credentials` reject the rung and the walk goes on; a rung
that answered badly (no verdict JSON, a reply over 1 MiB, a body that is not its protocol) makes
the seat REFUSE at once — no retries; a ladder exhausted is a HOLD (`rung: null`).

A fused seat (L-5) asks its primary and a verifier at the same time and passes only when both
pass. Every text that enters a record is redacted with every key the fleet names (S-6).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from tribunal.enums import ReasonCode, SeatVerdict
from tribunal.enums import Transport as TransportName
from tribunal.jury.citations import CitationSources
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.fleet import Fleet, Rung
from tribunal.jury.prompt import Adjudication, render_prompt
from tribunal.jury.redaction import raw_tail, redact
from tribunal.jury.routing import Candidate, LensRoute, capacity_skip
from tribunal.jury.seat.answer import malformed_refuse, read_reply
from tribunal.jury.seat.costs import CostBook
from tribunal.jury.seat.record import RejectedRung, SeatRecord, VerifierSeat, verifier_claim
from tribunal.jury.transports import (
    Checkout,
    RungFailure,
    SeatRequest,
    Transport,
    TransportConfig,
    TransportContext,
    key_values,
    open_transport,
)
from tribunal.jury.verdict import Finding, MalformedVerdict, Verdict
from tribunal.jury.verdict_schema import schema_dialect, strict_verdict_schema

Opener = Callable[[TransportConfig, TransportContext], Transport]
UNVERIFIED_NOTE = "UNVERIFIED: the primary passed and no verifier rung answered"
VERIFIER_DETAIL = "verifier"  # the `detail` of a verifier-ladder rejection starts with it


class RungGate(Protocol):
    """Admits a call to a rung (L-9: the parallel dispatcher bounds each rung's concurrency)."""

    def admit(self, rung: Rung) -> AbstractContextManager[object]:
        """A context held for the whole call to `rung`."""
        ...


class OpenGate:
    """No bound: one seat on its own."""

    def admit(self, rung: Rung) -> AbstractContextManager[object]:
        """An empty context."""
        return contextlib.nullcontext()


def rung_config(rung: Rung, fleet_dir: Path) -> TransportConfig:
    """The transport settings of a fleet rung: its key variable as the fleet resolves it (the
    L-1 shorthand's provider variable included) and its replay answers relative to `fleet_dir`
    (the fleet file's directory)."""
    config = TransportConfig.from_rung(rung)
    answers = None
    if rung.answers is not None:
        try:
            answers = str(rung.answers.relative_to(fleet_dir))
        except ValueError:
            answers = str(rung.answers)
    return replace(config, api_key_env=rung.key_env, answers=answers)


@dataclass(frozen=True)
class SeatContext:
    """What every seat of one sitting shares: where the fleet lives, the environment keys come
    from, the envelope's files and the protocol's example citation (V-4, E-5), the key values to
    redact (S-6), the checkout harness rungs run on, the gate bounding each rung's
    concurrency (L-9), and the prefix of the seat key a request names (P-12: a vetting seat asks
    as `vet/<lens>`; the blind court's seats ask by the lens id alone)."""

    fleet_dir: Path
    environ: Mapping[str, str]
    secrets: tuple[str, ...] = ()
    envelope_files: Mapping[str, str] | None = None
    example: ExampleCitation | None = None
    checkout: Checkout | None = None
    gate: RungGate = field(default_factory=OpenGate)
    opener: Opener = open_transport
    seat_prefix: str = ""
    # Ids of the rungs asked so far (L-7: the models to unload once the sitting is over).
    asked: set[str] = field(default_factory=set, compare=False)
    # B-1 `costs`: the usage of every answered call, per rung (shared by the seat threads).
    book: CostBook = field(default_factory=CostBook, compare=False)

    @classmethod
    def for_fleet(
        cls,
        fleet: Fleet,
        *,
        environ: Mapping[str, str],
        envelope_files: Mapping[str, str] | None = None,
        example: ExampleCitation | None = None,
        checkout: Checkout | None = None,
        gate: RungGate | None = None,
    ) -> SeatContext:
        """The context of a sitting on `fleet`: every set key the fleet names is a secret;
        `example` is the example citation the seats' prompts show (never counted, V-4)."""
        fleet_dir = Path(fleet.document.path).parent
        configs = [rung_config(rung, fleet_dir) for rung in fleet.rungs.values()]
        return cls(
            fleet_dir=fleet_dir,
            environ=environ,
            secrets=tuple(key_values(configs, environ)),
            envelope_files=envelope_files,
            example=example,
            checkout=checkout,
            gate=gate if gate is not None else OpenGate(),
        )

    @functools.cached_property
    def citations(self) -> CitationSources | None:
        """V-4: what every reply's citations are checked against (None: no envelope given)."""
        if self.envelope_files is None:
            return None
        return CitationSources(self.envelope_files, example=self.example)

    def ask(self, rung: Rung, lens: str, prompt: str) -> Verdict | RejectedRung:
        """One shot at `rung` (L-6): its verdict for `lens` (pass, refuse, or the REFUSE of a
        rung that answered badly), or the RejectedRung of a rung that gave none. Raises only
        what is not the rung's doing (BadInput: a harness rung without a checkout, ...)."""
        request = SeatRequest(
            prompt=prompt,
            seat=self.seat_prefix + lens,
            checkout=self.checkout,
            response_schema=self.response_schema(rung, lens),
        )
        answered = self.call(rung, request)
        if isinstance(answered, RungFailure):
            return self._failed(rung, lens, answered)
        return read_reply(
            answered,
            lens=lens,
            rung=rung.id,
            envelope=self.citations,
            secrets=self.secrets,
            shown=prompt,
        )

    def call(self, rung: Rung, request: SeatRequest) -> str | RungFailure:
        """One call to `rung` under its gate (L-9): the reply's text, redacted (S-6), or the
        RungFailure the transport raised. Its usage is booked (B-1 `costs`). Any court's seat
        reads the text its own way; raises only what is not the rung's doing."""
        self.asked.add(rung.id)
        try:
            with self.gate.admit(rung):
                reply = self.opener(
                    rung_config(rung, self.fleet_dir),
                    TransportContext(self.fleet_dir, self.environ),
                ).answer(request)
        except RungFailure as failure:
            return failure
        self.book.record(rung.id, reply.usage)
        return redact(reply.text, self.secrets)

    def rejection(self, rung: Rung, failure: RungFailure) -> RejectedRung:
        """The `rejected_rungs` entry of a failed call: the message with its HTTP status (L-6),
        redacted (S-6), and the reply's tail when there was one."""
        said = failure.message
        if failure.status is not None and f"HTTP {failure.status}" not in said:
            said += f" (HTTP {failure.status})"  # L-6: the status is recorded
        message = redact(said, self.secrets)
        tail = raw_tail(failure.raw_tail, self.secrets) if failure.raw_tail else None
        return RejectedRung(rung=rung.id, reason=failure.reason, raw_tail=tail, detail=message)

    def response_schema(self, rung: Rung, lens: str) -> dict[str, Any] | None:
        """L-7: the strict verdict schema `rung` sends for a seat of `lens` — its locations held
        to the envelope's files and lines — or None when its response format sends none."""
        form = rung.response_format
        if not form.sends_schema:
            return None
        dialect = schema_dialect(rung.transport, form)
        example = self.example
        skip = (example.path, example.line) if example is not None else None
        return strict_verdict_schema(lens, self.envelope_files, dialect, example=skip)

    def server_of(self, rung: Rung) -> str | None:
        """L-9: the server `rung` calls — scheme, host and port of its endpoint as its transport
        resolves it (the rung's, else the provider's environment variable, else its default) —
        or None for a rung that calls none (a harness, a replay)."""
        transport = self.opener(
            rung_config(rung, self.fleet_dir), TransportContext(self.fleet_dir, self.environ)
        )
        endpoint = getattr(transport, "endpoint", None)
        if not isinstance(endpoint, str):
            return None
        parts = urlsplit(endpoint)
        try:
            port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        except ValueError:  # a port that is not a number: the call will say so
            return None
        return f"{parts.scheme}://{(parts.hostname or '').casefold()}:{port}"

    def release_models(self, rungs: Iterable[Rung]) -> list[str]:
        """L-7: unload (`keep_alive: 0`) each model of an Ollama rung among `rungs` that this
        sitting asked — once, by the last holder, after every seat has finished; never during
        the sitting (the calls keep models loaded). Returns one redacted message per rung whose
        release failed: the verdicts stand, the model merely stays loaded."""
        failed: list[str] = []
        for rung in rungs:
            if rung.transport is not TransportName.OLLAMA or rung.id not in self.asked:
                continue
            transport = self.opener(
                rung_config(rung, self.fleet_dir), TransportContext(self.fleet_dir, self.environ)
            )
            release = getattr(transport, "release", None)
            if release is None:
                continue
            try:
                release()
            except RungFailure as failure:
                failed.append(redact(f"{rung.id}: {failure.message}", self.secrets))
        return failed

    def _failed(self, rung: Rung, lens: str, failure: RungFailure) -> Verdict | RejectedRung:
        rejected = self.rejection(rung, failure)
        if failure.reason is ReasonCode.MALFORMED:
            # L-6: a body that is not the protocol, or over 1 MiB, answered badly: one shot.
            error = MalformedVerdict(rejected.detail, raw_tail=rejected.raw_tail or "")
            return malformed_refuse(lens=lens, rung=rung.id, error=error)
        return rejected


def seat_prompt(
    route: LensRoute,
    envelope: str,
    *,
    adjudications: Sequence[Adjudication] = (),
    preamble: str | None = None,
    example: ExampleCitation | None = None,
) -> str:
    """E-5: the prompt of the seat of `route` over `envelope` (the text of envelope.md), with
    the refuted findings of earlier rounds; `preamble` is a role's brief (L-11 `--role`) and
    `example` the envelope's line the output protocol shows as its example citation."""
    return render_prompt(
        tier=route.tier.name,
        lens=route.lens.id,
        question=route.lens.question,
        envelope=envelope,
        adjudications=adjudications,
        preamble=preamble,
        example=example,
    )


def walk_seat(route: LensRoute, prompt: str, context: SeatContext) -> SeatRecord:
    """Walk the ladder of `route` with `prompt` (L-6) and return the seat's SeatRecord.

    Raises only what is not a rung's doing (see `SeatContext.ask`)."""
    tokens = SeatRequest(prompt=prompt, seat=route.lens.id).tokens_estimate
    if route.undeclared_tier is not None:
        return SeatRecord.hold(lens=route.lens.id, tier=route.tier.name, note=route.undeclared_tier)
    if route.verifier is not None:
        return _FusedWalk(route, prompt, tokens, context).run()
    rejected = [skip.to_rejected() for skip in route.skipped]
    for candidate in route.candidates:
        outcome = _hop(candidate, route.lens.id, prompt, tokens, context)
        if isinstance(outcome, RejectedRung):
            rejected.append(outcome)
            continue
        record = SeatRecord.seated(
            outcome,
            tier=route.tier.name,
            rung=candidate.rung.id,
            family=candidate.rung.family,
            rejected_rungs=tuple(rejected),
            builder_family_seated=candidate.builder_family_seated,
        )
        return replace(record, recorded=_recorded(candidate.rung))
    return SeatRecord.hold(lens=route.lens.id, tier=route.tier.name, rejected_rungs=tuple(rejected))


def _hop(
    candidate: Candidate, lens: str, prompt: str, tokens: int, context: SeatContext
) -> Verdict | RejectedRung:
    # L-3: capacity is checked again at every hop, against this prompt and this rung's budget.
    over = capacity_skip(candidate.rung, tokens)
    if over is not None:
        return over.to_rejected()
    return context.ask(candidate.rung, lens, prompt)


class _FusedWalk:
    """L-5: primary and verifier asked at the same time; both must pass."""

    def __init__(self, route: LensRoute, prompt: str, tokens: int, context: SeatContext) -> None:
        self.route = route
        self.prompt = prompt
        self.tokens = tokens
        self.context = context
        self.asked: dict[str, Verdict | RejectedRung] = {}  # verifier rung id -> its outcome
        assert route.verifier is not None
        self.rejected: list[RejectedRung] = [skip.to_rejected() for skip in route.skipped]
        self.rejected += [_as_verifier(skip.to_rejected()) for skip in route.verifier.skipped]

    def run(self) -> SeatRecord:
        lens = self.route.lens.id
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"primary-{lens}") as pool:
            for candidate in self.route.candidates:
                primary = pool.submit(_hop, candidate, lens, self.prompt, self.tokens, self.context)
                # L-5: the verifier ladder is walked while the primary is being asked.
                verifier = self._walk_verifiers(candidate.rung)
                outcome = primary.result()
                if isinstance(outcome, RejectedRung):
                    self.rejected.append(outcome)
                    continue
                return self._combine(candidate, outcome, verifier)
        return SeatRecord.hold(
            lens=lens, tier=self.route.tier.name, rejected_rungs=self._rejected()
        )

    def _walk_verifiers(self, primary: Rung) -> tuple[Candidate, Verdict] | None:
        """The first verifier beside `primary` that gave a verdict, or None when none did. Each
        verifier rung is asked once per seat (one shot); a verdict stays usable beside a later
        primary of another family."""
        candidates, refused = self.route.verifiers_for(primary)
        for skip in refused:
            entry = _as_verifier(skip.to_rejected())
            if entry not in self.rejected:
                self.rejected.append(entry)
        for candidate in candidates:
            rung_id = candidate.rung.id
            if rung_id not in self.asked:
                outcome = _hop(
                    candidate, self.route.lens.id, self.prompt, self.tokens, self.context
                )
                self.asked[rung_id] = outcome
                if isinstance(outcome, RejectedRung):
                    self.rejected.append(_as_verifier(outcome))
            outcome = self.asked[rung_id]
            if isinstance(outcome, Verdict):
                return candidate, outcome
        return None

    def _rejected(self) -> tuple[RejectedRung, ...]:
        return tuple(self.rejected)

    def _combine(
        self, primary: Candidate, verdict: Verdict, verifier: tuple[Candidate, Verdict] | None
    ) -> SeatRecord:
        route = self.route
        record = SeatRecord.seated(
            verdict,
            tier=route.tier.name,
            rung=primary.rung.id,
            family=primary.rung.family,
            rejected_rungs=self._rejected(),
            builder_family_seated=primary.builder_family_seated,
        )
        record = replace(record, recorded=_recorded(primary.rung))
        if verifier is None:
            if verdict.verdict is SeatVerdict.PASS:
                # L-5: never a pass, never "verified" silently.
                return replace(
                    record, verdict=SeatVerdict.HOLD, verified=False, note=UNVERIFIED_NOTE
                )
            return replace(record, verified=False)
        seat, second = verifier
        rung = seat.rung
        findings = record.findings + tuple(_prefixed(f, rung.id) for f in second.findings)
        checked = record.checked + second.checked
        both_pass = verdict.verdict is SeatVerdict.PASS and second.verdict is SeatVerdict.PASS
        note = record.note
        if verdict.verdict is SeatVerdict.PASS and second.verdict is SeatVerdict.REFUSE:
            note = f"verifier {rung.id} refused" + (f": {second.note}" if second.note else "")
        return replace(
            record,
            verdict=SeatVerdict.PASS if both_pass else SeatVerdict.REFUSE,
            verified=route.verification(primary.rung, rung),
            low_information=both_pass and verdict.low_information and second.low_information,
            findings=findings,
            checked=checked,
            note=note,
            raw_tail=record.raw_tail if record.raw_tail is not None else second.raw_tail,
            builder_family_seated=primary.builder_family_seated or seat.builder_family_seated,
            verifier=VerifierSeat(rung.id, rung.family, second.verdict),
            recorded=record.recorded or _recorded(rung),
        )


def _recorded(rung: Rung) -> bool:
    """L-7: a replay rung's verdict is a recorded reply, and says so."""
    return rung.transport is TransportName.REPLAY


def _prefixed(finding: Finding, rung: str) -> Finding:
    """L-5: a verifier's finding, kept beside the primary's, names the verifier."""
    return replace(finding, claim=verifier_claim(rung, finding.claim))


def _as_verifier(entry: RejectedRung) -> RejectedRung:
    """A verifier-ladder rejection, told apart from the primary ladder's in `detail`."""
    detail = f"{VERIFIER_DETAIL}: {entry.detail}" if entry.detail else VERIFIER_DETAIL
    return replace(entry, detail=detail)


def on_verifier_ladder(entry: RejectedRung) -> bool:
    """True when `entry` rejected a rung of a fused seat's verifier ladder (L-5)."""
    return entry.detail == VERIFIER_DETAIL or entry.detail.startswith(f"{VERIFIER_DETAIL}: ")
