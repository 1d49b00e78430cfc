"""Model transports (L-7): one interface, one timeout policy, one registry.

    from tribunal.jury.transports import SeatRequest, TransportConfig, open_transport

    transport = open_transport(TransportConfig.from_rung(rung), TransportContext(fleet_dir))
    reply = transport.answer(SeatRequest(prompt=prompt, seat="defect"))

`answer` returns a `Reply` (redacted text, finish reason, usage, status, raw tail, recorded
flag) or raises a `RungFailure` whose `reason` is the L-6 code to record on the rung.
"""

from __future__ import annotations

from tribunal.jury.transports.base import (
    Checkout,
    Reply,
    SeatRequest,
    Transport,
    TransportConfig,
    TransportContext,
    Usage,
    key_values,
)
from tribunal.jury.transports.failures import (
    Annulled,
    FormatUnsupported,
    NoCredentials,
    NotAnswered,
    OverCapacity,
    Oversize,
    RungFailure,
    Truncated,
    Unreadable,
)
from tribunal.jury.transports.registry import (
    TransportRegistry,
    default_registry,
    installed_registry,
    open_transport,
)

__all__ = [
    "Annulled",
    "Checkout",
    "FormatUnsupported",
    "NoCredentials",
    "NotAnswered",
    "OverCapacity",
    "Oversize",
    "Reply",
    "RungFailure",
    "SeatRequest",
    "Transport",
    "TransportConfig",
    "TransportContext",
    "TransportRegistry",
    "Truncated",
    "Unreadable",
    "Usage",
    "default_registry",
    "installed_registry",
    "key_values",
    "open_transport",
]
