"""L-7: one registry mapping the L-1 `transport` names to implementations.

Built-in transports register themselves exactly as a third-party one would (simonw/llm style):
a module defines `register_transports(registry)` and calls `registry.register(name, factory)`.
Third-party packages expose that hook under the `tribunal.transports` entry-point group.
Nothing registers at import time: `installed_registry()` builds the registry once, on first use,
and keeps it (simonw/llm's plugins load the same way); `default_registry()` builds a fresh one.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from importlib.metadata import entry_points

from tribunal.errors import BadInput
from tribunal.jury.transports.base import Transport, TransportConfig, TransportContext

TransportFactory = Callable[[TransportConfig, TransportContext], Transport]

ENTRY_POINT_GROUP = "tribunal.transports"
BUILTIN_MODULES = (
    "tribunal.jury.transports.openai",
    "tribunal.jury.transports.anthropic",
    "tribunal.jury.transports.ollama",
    "tribunal.jury.transports.command",
    "tribunal.jury.transports.replay",
)


class TransportRegistry:
    """Transport factories by name."""

    def __init__(self) -> None:
        self._factories: dict[str, TransportFactory] = {}

    def register(self, name: str, factory: TransportFactory) -> None:
        """Register `factory` under `name`; raises ValueError when the name is taken."""
        if name in self._factories:
            raise ValueError(f"transport {name!r} is registered twice")
        self._factories[name] = factory

    def names(self) -> list[str]:
        """The registered names, sorted."""
        return sorted(self._factories)

    def open(self, config: TransportConfig, context: TransportContext | None = None) -> Transport:
        """The transport for the rung of `config`. Raises BadInput (field `transport`) when no
        transport of that name is registered."""
        factory = self._factories.get(config.transport)
        if factory is None:
            raise BadInput(
                f"unknown transport {config.transport!r} of rung {config.id!r}"
                f" (known: {', '.join(self.names())})",
                field="transport",
            )
        return factory(config, context if context is not None else TransportContext())


def default_registry(*, plugins: bool = True) -> TransportRegistry:
    """A registry holding the built-in transports and, with `plugins`, every
    `tribunal.transports` entry point's `register_transports` hook. Returns a new registry."""
    registry = TransportRegistry()
    hooks: list[Callable[[TransportRegistry], None]] = [
        importlib.import_module(name).register_transports for name in BUILTIN_MODULES
    ]
    if plugins:
        hooks += [point.load() for point in entry_points(group=ENTRY_POINT_GROUP)]
    for hook in hooks:
        hook(registry)
    return registry


@functools.cache
def installed_registry() -> TransportRegistry:
    """The registry of the built-in transports and every installed plugin, built on first use
    and kept for the life of the process."""
    return default_registry()


def open_transport(config: TransportConfig, context: TransportContext | None = None) -> Transport:
    """The transport for `config` from the installed registry (see `TransportRegistry.open`)."""
    return installed_registry().open(config, context)
