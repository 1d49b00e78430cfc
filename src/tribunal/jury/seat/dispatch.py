"""L-9: every seat of a sitting dispatched at once, bounded per rung by `max_concurrency`.

Seats run on threads (the HTTP transports are synchronous). Two lenses can walk down to the same
rung, so each rung has ONE semaphore shared by every seat, sized by its `max_concurrency` (a local
card: 1). Local rungs (`local: true`) that call the same server — scheme, host and port of their
resolved endpoint — share ONE semaphore, sized by the smallest `max_concurrency` among them: a
local server such as llama-cpp-python holds one model at a time and reloads when a request names
another, so two rungs of one card asked at once thrash (a seat timed out waiting). Remote rungs
keep a bound each, also on a shared gateway: a convening's wall time stays its slowest seat's.

As each seat finishes, the caller's `on_seat` is called in the calling thread — one at a time,
so it may write `verdict_<lens>.json` without a lock. A seat that crashes is recorded for its
lens as a hold naming the error; the seats already paid for are never discarded (source 000: an
exploding lens never throws away verdicts already paid for).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from tribunal.jury.fleet import Rung
from tribunal.jury.redaction import redact
from tribunal.jury.routing import LensRoute
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, walk_seat

SeatCallback = Callable[[SeatRecord], None]


class RungGates:
    """One bounded semaphore per rung, sized by its `max_concurrency` (L-9); local rungs on one
    server (`server_of`: the server a rung calls, None for none) share one, sized by the
    smallest bound among them."""

    def __init__(
        self, rungs: Iterable[Rung], server_of: Callable[[Rung], str | None] | None = None
    ) -> None:
        rungs = tuple(rungs)
        shared: dict[str, list[Rung]] = {}
        for rung in rungs:
            server = server_of(rung) if rung.local and server_of is not None else None
            if server is not None:
                shared.setdefault(server, []).append(rung)
        self._semaphores: dict[str, threading.BoundedSemaphore] = {}
        for group in shared.values():
            bound = threading.BoundedSemaphore(max(1, min(r.max_concurrency for r in group)))
            self._semaphores.update((rung.id, bound) for rung in group)
        for rung in rungs:
            if rung.id not in self._semaphores:
                bound = threading.BoundedSemaphore(max(1, rung.max_concurrency))
                self._semaphores[rung.id] = bound

    def admit(self, rung: Rung) -> AbstractContextManager[object]:
        """The semaphore of `rung`, held for the whole call. Raises KeyError for a rung the
        gates were not built for."""
        return self._semaphores[rung.id]


@dataclass(frozen=True)
class SeatJob:
    """One seat to sit: its route and its rendered prompt."""

    route: LensRoute
    prompt: str


def dispatch_seats(
    jobs: Sequence[SeatJob],
    context: SeatContext,
    *,
    rungs: Iterable[Rung],
    on_seat: SeatCallback | None = None,
    on_release_failure: Callable[[str], None] | None = None,
) -> list[SeatRecord]:
    """Sit every seat of `jobs` concurrently, each rung bounded by its `max_concurrency`
    (`rungs`: every rung of the fleet; local rungs of one server share a bound), calling
    `on_seat` with each record as it finishes.
    Once every seat is done, each Ollama model the sitting used is unloaded once (L-7);
    `on_release_failure` hears of an unload that failed.

    Returns the records in the order of `jobs`. A seat that raises becomes a hold naming the
    error (redacted, S-6). An exception of `on_seat` itself is recorded, every remaining record
    is still delivered to `on_seat`, and the first such exception is raised once every seat is
    done (B-5: one failed write never discards the verdicts of the other seats).

    KeyboardInterrupt (S-3, C-2: Ctrl-C) stops the waiting at once: the records that already
    finished are delivered to `on_seat`, the seats still sitting are abandoned (daemon threads:
    the process exits without joining them, and no model is unloaded under a seat that may
    still be using it) — their harness runs ended and worktrees removed first, since nothing of
    an abandoned thread runs again — and the interrupt is re-raised.
    """
    if not jobs:
        return []
    rungs = tuple(rungs)
    context = replace(context, gate=RungGates(rungs, context.server_of), asked=set())
    records: list[SeatRecord | None] = [None] * len(jobs)
    finished: queue.SimpleQueue[tuple[int, SeatRecord]] = queue.SimpleQueue()
    # Daemon threads, not a ThreadPoolExecutor: the executor's workers are joined at
    # interpreter exit, so a Ctrl-C would still wait for every stalled seat (L-9, S-3).
    for index, job in enumerate(jobs):
        threading.Thread(
            target=_sit_into,
            args=(index, job, context, finished),
            name=f"seat-{job.route.lens.id}",
            daemon=True,
        ).start()
    errors: list[Exception] = []

    def deliver(index: int, record: SeatRecord) -> None:
        records[index] = record
        if on_seat is None:
            return
        try:
            on_seat(record)
        except Exception as error:  # recorded; the other verdicts are still delivered
            errors.append(error)

    try:
        for _ in jobs:
            deliver(*finished.get())
    except KeyboardInterrupt:
        # S-3: keep every verdict already paid for, wait for none still sitting; L-7: a harness
        # runs in a session of its own, out of Ctrl-C's reach — end it and remove its worktree.
        if context.checkout is not None:
            context.checkout.sitting.abandon()
        while True:
            try:
                item = finished.get_nowait()
            except queue.Empty:
                break
            deliver(*item)
        raise
    # L-7: the last holder unloads — after every seat has finished, never before.
    for message in context.release_models(rungs):
        if on_release_failure is not None:
            on_release_failure(message)
    if errors:
        raise errors[0]
    return [record for record in records if record is not None]


def _sit_into(
    index: int,
    job: SeatJob,
    context: SeatContext,
    finished: queue.SimpleQueue[tuple[int, SeatRecord]],
) -> None:
    try:
        record = _sit(job, context)
    except BaseException as error:  # never leave the sitting waiting for a record (L-9)
        record = _crashed(job.route, error, context)
    finished.put((index, record))


def _sit(job: SeatJob, context: SeatContext) -> SeatRecord:
    route = job.route
    try:
        return walk_seat(route, job.prompt, context)
    except Exception as error:  # L-9: one seat's crash is that lens's hold, not the sitting's
        return _crashed(route, error, context)


def _crashed(route: LensRoute, error: BaseException, context: SeatContext) -> SeatRecord:
    """The hold of a seat that crashed, naming the error (redacted, S-6)."""
    message = redact(f"{type(error).__name__}: {error}", context.secrets)
    return SeatRecord.hold(
        lens=route.lens.id,
        tier=route.tier.name,
        rejected_rungs=tuple(skip.to_rejected() for skip in route.skipped),
        note=f"the seat crashed: {message}",
    )
