"""L-7: the deadline enforced on every socket operation of an HTTP call, not once per call.

httpx takes one read timeout per request and applies it to each read, so a server that sends
its headers just before the deadline and then stalls could hold a call for a second
`timeout_s`. The connection pool here is httpx's own, given a network backend whose streams
shorten every connect, TLS handshake, write and read to what the `Deadline` has left.
Imported only when a call is made (C-1: httpx and httpcore stay out of `--help`).
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import httpcore
import httpx

if TYPE_CHECKING:
    from tribunal.jury.transports.deadline import Deadline


class DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation waits no longer than the deadline has left."""

    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        """Read, waiting at most the shorter of `timeout` and the time left."""
        return self._stream.read(max_bytes, self._deadline.left(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        """Write, waiting at most the shorter of `timeout` and the time left."""
        self._stream.write(buffer, self._deadline.left(timeout))

    def close(self) -> None:
        """Close the underlying stream."""
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        """The TLS stream, itself held to the deadline."""
        tls = self._stream.start_tls(ssl_context, server_hostname, self._deadline.left(timeout))
        return DeadlineStream(tls, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        """What the underlying stream says (socket, peer, TLS details)."""
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's synchronous backend, its streams held to one deadline."""

    def __init__(self, deadline: Deadline) -> None:
        self._backend = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        """A TCP stream held to the deadline."""
        stream = self._backend.connect_tcp(
            host, port, self._deadline.left(timeout), local_address, socket_options
        )
        return DeadlineStream(stream, self._deadline)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        """A Unix-socket stream held to the deadline."""
        stream = self._backend.connect_unix_socket(
            path, self._deadline.left(timeout), socket_options
        )
        return DeadlineStream(stream, self._deadline)

    def sleep(self, seconds: float) -> None:
        """Sleep (httpcore's retry pause; no retries are configured)."""
        self._backend.sleep(seconds)


def deadline_transport(deadline: Deadline, verify: ssl.SSLContext) -> httpx.HTTPTransport:
    """An httpx transport with no retries whose connection pool uses `DeadlineBackend`."""
    transport = httpx.HTTPTransport(retries=0, verify=verify)
    # httpx offers no network-backend hook: its pool is rebuilt with the same settings plus
    # the backend (httpx <1.0 keeps the pool in `_pool`).
    transport._pool = httpcore.ConnectionPool(
        ssl_context=verify, retries=0, network_backend=DeadlineBackend(deadline)
    )
    return transport
