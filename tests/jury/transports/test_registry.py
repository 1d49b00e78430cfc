"""L-7: one registry of transports, the built-ins registered like a third-party one; the config
maps a fleet rung one to one."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from tribunal.errors import BadInput
from tribunal.jury.transports import (
    Reply,
    SeatRequest,
    TransportConfig,
    TransportContext,
    TransportRegistry,
    Usage,
    default_registry,
    installed_registry,
    key_values,
    open_transport,
)

L1_LONG_FORM = [
    "id",
    "family",
    "transport",
    "endpoint",
    "model",
    "api_key_env",
    "api_key_header",
    "context_tokens",
    "max_output_tokens",
    "reasoning",
    "response_format",
    "params",
    "headers",
    "timeout_s",
    "local",
    "max_concurrency",
    "command",
    "answers",
]


def test_config_fields_are_the_l1_long_form() -> None:
    assert [spec.name for spec in dataclasses.fields(TransportConfig)] == L1_LONG_FORM


@dataclass(frozen=True)
class FleetRung:  # the shape the fleet loader's Rung has: the long form plus its own fields
    id: str
    family: str
    transport: str
    model: str | None = None
    command: list[str] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    timeout_s: float | None = None
    cost: dict[str, float] = field(default_factory=dict)


def test_from_rung_copies_by_name() -> None:
    rung = FleetRung(
        "harness-c",
        "vendor-c",
        "command",
        command=["vendor-cli", "-p"],
        timeout_s=30,
        params={"x": 1},
        cost={"input_per_mtok": 0.1},
    )
    config = TransportConfig.from_rung(rung)
    assert config == TransportConfig(
        id="harness-c",
        family="vendor-c",
        transport="command",
        command=("vendor-cli", "-p"),
        timeout_s=30,
        params={"x": 1},
    )


def test_default_registry_holds_the_l1_transports() -> None:
    assert default_registry().names() == ["anthropic", "command", "ollama", "openai", "replay"]


def test_the_installed_registry_is_built_once_and_kept() -> None:
    first = installed_registry()
    assert installed_registry() is first
    assert first.names() == default_registry().names()
    assert default_registry() is not default_registry()  # a fresh one when asked for


def test_unknown_transport_is_bad_input() -> None:
    config = TransportConfig(id="r", family="f", transport="carrier-pigeon")
    with pytest.raises(BadInput) as caught:
        open_transport(config)
    assert "carrier-pigeon" in str(caught.value)
    assert caught.value.field == "transport"


class EchoTransport:
    """A third-party transport, written against the public interface only."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config

    def answer(self, request: SeatRequest) -> Reply:
        return Reply(self.config.id, request.prompt, "stop", Usage(), None, request.prompt)


def test_a_third_party_transport_registers_like_the_builtins() -> None:
    registry = default_registry(plugins=False)
    registry.register("echo", EchoTransport)
    config = TransportConfig(id="e", family="echo", transport="echo")
    reply = registry.open(config).answer(SeatRequest(prompt="hello", seat="defect"))
    assert reply.text == "hello"
    assert "echo" not in default_registry().names()  # nothing leaks into a fresh registry


def test_a_name_registers_once() -> None:
    registry = TransportRegistry()
    registry.register("echo", EchoTransport)
    with pytest.raises(ValueError, match="twice"):
        registry.register("echo", EchoTransport)


def test_opening_transports_imports_no_http_client_or_git() -> None:
    """C-1: httpx and GitPython load on the first call, not when a fleet is routed."""
    code = (
        "import sys\n"
        "from tribunal.jury.transports import TransportConfig, default_registry\n"
        "registry = default_registry()\n"
        "for name in registry.names():\n"
        "    registry.open(TransportConfig(id='r', family='f', transport=name))\n"
        "print(','.join(m for m in ('httpx', 'git') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_key_values_are_what_a_convening_redacts() -> None:
    configs = [
        TransportConfig(id="a", family="f", transport="openai", api_key_env="A_KEY"),
        TransportConfig(id="b", family="f", transport="openai", api_key_env="B_KEY"),
        TransportConfig(id="c", family="f", transport="openai", api_key_env="A_KEY"),
        TransportConfig(id="d", family="f", transport="openai", api_key_env="UNSET"),
        TransportConfig(id="e", family="f", transport="replay"),
    ]
    environ = {"A_KEY": "ka", "B_KEY": "kb", "UNSET": "", "OTHER": "not a rung's"}
    assert key_values(configs, environ) == ["ka", "kb"]
