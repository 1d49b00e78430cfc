"""One seat (L-3, L-5, L-6, L-9, L-11): its walk down the ladder (`walk`), what each rung's
answer becomes (`answer`), the record it leaves (`record`), all seats of a sitting at once
(`dispatch`) with their costs (`costs`), and a seat on its own against a built envelope
(`alone`). The prompt a seat is given is `tribunal.jury.prompt`."""

# The front is lazy (PEP 562): routing reads seat records while a seat's walk reads routing, so
# importing every module here at once would import them in a circle.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tribunal.jury.seat.alone import sit_alone
    from tribunal.jury.seat.dispatch import SeatJob, dispatch_seats
    from tribunal.jury.seat.record import RejectedRung, SeatRecord, VerifierSeat
    from tribunal.jury.seat.walk import SeatContext, walk_seat

_HOMES = {
    "sit_alone": "alone",
    "SeatJob": "dispatch",
    "dispatch_seats": "dispatch",
    "RejectedRung": "record",
    "SeatRecord": "record",
    "VerifierSeat": "record",
    "SeatContext": "walk",
    "walk_seat": "walk",
}

__all__ = [
    "RejectedRung",
    "SeatContext",
    "SeatJob",
    "SeatRecord",
    "VerifierSeat",
    "dispatch_seats",
    "sit_alone",
    "walk_seat",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
