"""One JSON POST over httpx for every HTTP transport, with the L-6 faults mapped in one place.

The body is streamed and read no further than its cap, so a 10 MB reply never sits in memory
(L-6: over 1 MiB is `malformed`). Connection errors, timeouts and non-2xx statuses become
`not_answered` with the status; a 400 whose body says the context is exceeded is `capacity`;
an error whose body names the response format the call sent (see `FormatRejection`) is
`response_format_unsupported`; a 2xx body that is not a JSON object is `malformed`. Every
message and tail is redacted (L-8).
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tribunal.errors import BadInput
from tribunal.jury.redaction import raw_tail, redact
from tribunal.jury.transports.deadline import Deadline
from tribunal.jury.transports.failures import (
    FormatUnsupported,
    NotAnswered,
    OverCapacity,
    Oversize,
    Unreadable,
)
from tribunal.jury.verdict import MAX_REPLY_BYTES

if TYPE_CHECKING:
    import ssl

ERROR_BODY_CAP = 64 * 1024  # an error body is read for its words, never in full

# L-6: how OpenAI-compatible servers, Anthropic and gateways word "your input is too long".
CONTEXT_EXCEEDED = re.compile(
    r"context[ _-]?(length|window)|maximum context|prompt is too long|input is too long"
    r"|too many (input )?tokens|reduce the length|exceeds? the (model'?s )?(maximum )?"
    r"(context|token limit|input)",
    re.IGNORECASE,
)


# Statuses that say who may call, or how often — never what the request asked for.
_NOT_ABOUT_THE_REQUEST = frozenset({401, 403, 407, 429})


@dataclass(frozen=True)
class FormatRejection:
    """How a server says it cannot give the response format a call sent (L-6, L-7): an error
    status (`any_status`: any 4xx or 5xx but the credential and rate statuses; else only 400)
    whose body matches `words`. `message` says so, and what to set instead."""

    words: re.Pattern[str]
    message: str
    any_status: bool = False

    @classmethod
    def of(
        cls,
        words: re.Pattern[str],
        *,
        rung: str,
        form: str,
        instead: str,
        note: str = "",
        any_status: bool = False,
    ) -> FormatRejection:
        """The rejection of rung `rung`'s `form`, whose message names the form to set
        `instead` (and a `note` on it)."""
        message = f"the server rejected response_format {form}: set response_format: {instead}"
        message += f" on rung {rung}" + (f" ({note})" if note else "")
        return cls(words, message, any_status)

    def rejects(self, status: int, body: str) -> bool:
        """True when an error reply of `status` with `body` rejected the format."""
        if status in _NOT_ABOUT_THE_REQUEST:
            return False
        if status != 400 and not (self.any_status and 400 <= status < 600):
            return False
        return self.words.search(body) is not None


@dataclass(frozen=True)
class WireReply:
    """A 2xx reply: its status, its JSON object, and the redacted raw tail."""

    status: int
    data: dict[str, Any]
    raw_tail: str


def post_json(
    url: str,
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str],
    deadline: Deadline,
    secrets: Sequence[str],
    format_rejection: FormatRejection | None = None,
) -> WireReply:
    """POST `body` as JSON to `url` once (no retries) and return the 2xx reply object.

    Raises NotAnswered (connection refused, timeout, non-2xx), OverCapacity (400 saying the
    context is exceeded), FormatUnsupported (an error `format_rejection` recognises),
    Oversize (a 2xx body over 1 MiB) or Unreadable (a 2xx body that is not a JSON object);
    BadInput (field `endpoint`) when `url` is not an http(s) URL.
    """
    import httpx

    rung = deadline.rung
    problem = endpoint_problem(url)  # an endpoint from the environment is checked here
    if problem is not None:
        message = redact(f"rung {rung!r}: endpoint {url!r} {problem}", secrets)
        raise BadInput(message, field="endpoint")
    sent = {"Accept-Encoding": "identity", **headers}  # compressed bodies could defeat the cap
    try:
        with (
            # L-7: every read is held to the call's deadline, not only the first one.
            httpx.Client(verify=_tls(), transport=deadline.transport(_tls())) as client,
            client.stream(
                "POST", url, json=dict(body), headers=sent, timeout=deadline.httpx_timeout()
            ) as response,
        ):
            status = response.status_code
            ok = 200 <= status < 300
            data, cut = _read_capped(response, MAX_REPLY_BYTES if ok else ERROR_BODY_CAP, deadline)
    except httpx.TimeoutException:
        raise deadline.expired() from None
    except (httpx.InvalidURL, httpx.UnsupportedProtocol) as error:
        # a fleet mistake, not a rung that did not answer: re-seating would hide it (C-3)
        message = redact(f"rung {rung!r}: endpoint {url!r} is not an http(s) URL: {error}", secrets)
        raise BadInput(message, field="endpoint") from None
    except httpx.HTTPError as error:
        message = redact(f"{type(error).__name__}: {error}", secrets)
        raise NotAnswered(message, rung=rung) from None
    text = data.decode("utf-8", errors="replace")
    tail = raw_tail(text, secrets, cut=cut)
    if not ok:
        said = redact(text, secrets)
        if status == 400 and CONTEXT_EXCEEDED.search(said):
            raise OverCapacity(
                "the server refused the input as too long", rung=rung, status=status, raw_tail=tail
            )
        if format_rejection is not None and format_rejection.rejects(status, said):
            message = redact(format_rejection.message, secrets)
            raise FormatUnsupported(message, rung=rung, status=status, raw_tail=tail)
        raise NotAnswered(f"HTTP {status}", rung=rung, status=status, raw_tail=tail)
    if cut:
        raise Oversize(
            f"reply over {MAX_REPLY_BYTES} bytes, read no further",
            rung=rung,
            status=status,
            raw_tail=tail,
        )
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):  # a megabyte of `[[[[` nests deeper than the parser
        parsed = None
    if not isinstance(parsed, dict):
        raise Unreadable(
            "the reply body is not a JSON object", rung=rung, status=status, raw_tail=tail
        )
    return WireReply(status=status, data=parsed, raw_tail=tail)


def endpoint_problem(url: str) -> str | None:
    """Why `url` cannot be a rung's endpoint, or None: the one check (L-1, C-3), made by the
    parser that sends the requests (httpx) and the name lookup that follows it, so a URL it
    passes is one every call can be made to. An http(s) URL with a host, a port from 1 to
    65535, and a host name the resolver can encode (no empty or over-long label)."""
    from urllib.parse import urlsplit

    import httpx

    try:
        scheme = urlsplit(url).scheme
        parsed = httpx.URL(url)
        host = parsed.raw_host.decode("ascii")
        port = parsed.port
        parsed.host.encode("idna")  # what httpx decodes, what the resolver encodes (getaddrinfo)
        host.encode("idna")
    except (httpx.InvalidURL, ValueError) as error:  # UnicodeError, IDNA errors among them
        return f"is not an http(s) URL: {error}"
    if scheme not in ("http", "https") or not host:
        return "is not an http(s) URL"
    if port is not None and not 1 <= port <= 65535:
        return f"is not an http(s) URL: port {port} is outside 1-65535"
    return None


_TLS_LOCK = threading.Lock()


def _tls() -> ssl.SSLContext:
    """One TLS context for every call: building one per client costs tens of milliseconds.

    Built under a lock: eight seats starting at once (L-9) would otherwise each build one,
    all holding the GIL, and a convening of eight would start a second later than one (X-1).
    """
    with _TLS_LOCK:
        return _tls_context()


@functools.cache
def _tls_context() -> ssl.SSLContext:
    import httpx

    return httpx.create_ssl_context()


def _read_capped(response: Any, cap: int, deadline: Deadline) -> tuple[bytes, bool]:
    """At most `cap` bytes of the streamed body, and whether there was more (then the rest is
    never read: the connection is closed). The deadline is checked between chunks, so a
    trickling server cannot outlast it."""
    body = bytearray()
    for chunk in response.iter_bytes():
        deadline.remaining()
        room = cap - len(body)
        if len(chunk) > room:
            body += chunk[:room]
            return bytes(body), True
        body += chunk
    return bytes(body), False


def unreadable(message: str, reply: WireReply, rung: str) -> Unreadable:
    """The failure for a 2xx JSON object that lacks the protocol's reply fields."""
    return Unreadable(message, rung=rung, status=reply.status, raw_tail=reply.raw_tail)


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one (a field the server left out)."""
    return value if isinstance(value, dict) else {}


def int_or_none(value: Any) -> int | None:
    """A reported token count, or None when it is missing or not an integer (never a guess)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
