"""L-7: the one timeout policy every transport keeps.

A call has one wall-clock budget, `timeout_s` (the request's, else the rung's, else 120 s),
covering everything it does — Ollama's `/api/show` and `/api/chat` together, every chunk of a
streamed body, a harness process from start to exit. Running out is `not_answered` (L-6): the
walk re-seats. No client retries anywhere (one shot per rung).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from tribunal.jury.transports.failures import NotAnswered

if TYPE_CHECKING:
    import ssl

    import httpx

    from tribunal.jury.transports.base import SeatRequest, TransportConfig

DEFAULT_TIMEOUT_S = 120.0
CONNECT_TIMEOUT_S = 10.0  # a refused or unroutable endpoint is known quickly
# A socket timeout of 0 would make the socket non-blocking (an error, not a timeout): an expired
# deadline still waits this long, so the read ends as a timeout.
_LAST_WAIT_S = 0.001


class Deadline:
    """The wall-clock end of one call to one rung."""

    def __init__(self, seconds: float, rung: str) -> None:
        self.seconds = seconds
        self.rung = rung
        self._end = time.monotonic() + seconds

    @classmethod
    def for_call(cls, config: TransportConfig, request: SeatRequest) -> Deadline:
        """The deadline of `request` to the rung of `config`, starting now."""
        seconds = request.timeout_s or config.timeout_s or DEFAULT_TIMEOUT_S
        return cls(float(seconds), config.id)

    def remaining(self) -> float:
        """Seconds left; raises NotAnswered when none are."""
        left = self._end - time.monotonic()
        if left <= 0:
            raise self.expired()
        return left

    def expired(self) -> NotAnswered:
        """The failure a call that ran out of time becomes."""
        return NotAnswered(f"no answer within {self.seconds:g} s", rung=self.rung)

    def httpx_timeout(self) -> httpx.Timeout:
        """httpx timeouts for the next operation: none may outlast the deadline."""
        import httpx

        left = self.remaining()
        return httpx.Timeout(left, connect=min(left, CONNECT_TIMEOUT_S))

    def left(self, timeout: float | None) -> float:
        """`timeout` (None: no limit) shortened to the seconds left, never below a last
        millisecond (so an expired deadline ends the next socket operation as a timeout)."""
        left = max(_LAST_WAIT_S, self._end - time.monotonic())
        return left if timeout is None else max(_LAST_WAIT_S, min(timeout, left))

    def transport(self, verify: ssl.SSLContext) -> httpx.HTTPTransport:
        """An httpx transport (no retries) whose every socket operation — connect, TLS, each
        write and EACH READ — waits no longer than this deadline has left. httpx applies one
        read timeout per read, fixed when the request starts, so a server that sent its headers
        just before the deadline and then stalled could otherwise hold a call ~2x `timeout_s`."""
        from tribunal.jury.transports.deadline_socket import deadline_transport

        return deadline_transport(self, verify)
