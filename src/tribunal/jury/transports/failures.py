"""L-6: what a transport raises when it cannot turn a rung's answer into a reply.

Each failure carries the reason code the ladder walk records on the rung, the HTTP status when
there was one, and a redacted `raw_tail` (≤ 2 KB) so the next round reads the cause instead of
guessing it. Messages and tails are redacted by the transport before a failure is raised (L-8).
"""

from __future__ import annotations

from collections.abc import Sequence

from tribunal.enums import ReasonCode
from tribunal.errors import TribunalError


class RungFailure(TribunalError):
    """A rung gave no usable reply; `reason` is its L-6 code."""

    reason: ReasonCode = ReasonCode.NOT_ANSWERED

    def __init__(
        self, message: str, *, rung: str, status: int | None = None, raw_tail: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rung = rung  # the rung id
        self.status = status  # the HTTP status when the server answered at all
        self.raw_tail = raw_tail  # redacted, at most 2 KB

    def __str__(self) -> str:
        status = f" (HTTP {self.status})" if self.status is not None else ""
        return f"{self.rung}: {self.reason.value}{status}: {self.message}"


class NotAnswered(RungFailure):
    """Never answered: connection refused, timeout, HTTP 5xx, 429, 401 or any other 4xx, a
    harness that failed, or a replay file without the seat's key. The walk re-seats."""

    reason = ReasonCode.NOT_ANSWERED


class FormatUnsupported(RungFailure):
    """The server rejected the response format the rung asked for (an HTTP error whose body
    names it: llama-cpp-python answers `json_schema` with a 500). Not the model's answer and
    not a hold: the walk goes on, and the message says which form to set instead."""

    reason = ReasonCode.RESPONSE_FORMAT_UNSUPPORTED


class OverCapacity(RungFailure):
    """The rung cannot hold prompt + answer (known before the call), or refused the input as too
    long (HTTP 400 saying the context is exceeded). A type, not a hold: the walk goes on."""

    reason = ReasonCode.CAPACITY


class Truncated(RungFailure):
    """Nothing usable because of the transport: empty content, `finish_reason: length`, or a
    filled Ollama window (L-3)."""

    reason = ReasonCode.TRUNCATED


class Unreadable(RungFailure):
    """The server answered, but not in its protocol (a 2xx body that is no reply object). The
    rung answered badly: one shot, REFUSE (`malformed`)."""

    reason = ReasonCode.MALFORMED


class Oversize(Unreadable):
    """A reply over 1 MiB, read no further (memory stays bounded): REFUSE (`malformed`)."""


class NoCredentials(RungFailure):
    """The rung names an API key variable that is not set; raised before any request."""

    reason = ReasonCode.NO_CREDENTIALS


class Annulled(RungFailure):
    """A harness rung changed bytes of its worktree: its verdict is annulled (L-6)."""

    reason = ReasonCode.ANNULLED

    def __init__(
        self,
        message: str,
        *,
        rung: str,
        changed_paths: Sequence[str],
        raw_tail: str = "",
    ) -> None:
        super().__init__(message, rung=rung, raw_tail=raw_tail)
        self.changed_paths = tuple(changed_paths)  # worktree-relative, sorted
