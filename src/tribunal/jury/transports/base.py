"""L-7: the one interface every transport shares — prompt and budgets in; text, finish reason,
usage and the raw reply out.

A transport is any object with a `config` and an `answer(request) -> Reply` method, built by a
factory `(TransportConfig, TransportContext) -> Transport` registered under an L-1 `transport`
name (see `registry`). What cannot become a reply is raised as a `RungFailure` (failures.py).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tribunal.enums import ResponseFormat
from tribunal.errors import BadInput
from tribunal.jury.transports.failures import NoCredentials, OverCapacity, Truncated
from tribunal.jury.transports.worktree import Sitting


@dataclass(frozen=True)
class TransportConfig:
    """One rung's transport settings. Field names are exactly the L-1 long-form rung fields, so a
    fleet `Rung` maps onto it one to one (`from_rung`)."""

    id: str
    family: str
    transport: str  # openai | anthropic | ollama | command | replay (or a registered name)
    endpoint: str | None = None
    model: str | None = None
    api_key_env: str | None = None  # keys only ever come from the environment (L-8)
    api_key_header: str | None = None  # the header the key travels in; None: the provider's own
    context_tokens: int | None = None  # None: holds any artifact
    max_output_tokens: int | None = None
    reasoning: bool = False  # True: ask for no reasoning channel (reasoning_effort "none")
    # The structured output asked for; the schema forms send the request's `response_schema`.
    response_format: ResponseFormat = ResponseFormat.JSON_OBJECT
    params: Mapping[str, Any] = field(default_factory=dict)  # merged into the request body
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float | None = None
    local: bool = False
    max_concurrency: int | None = None
    command: tuple[str, ...] | None = None  # a harness CLI: prompt on stdin, reply on stdout
    answers: str | None = None  # replay: answers YAML, relative to the fleet file

    @classmethod
    def from_rung(cls, rung: object) -> TransportConfig:
        """The config of a fleet rung: every field read by name from `rung` (an object with the
        L-1 long-form attributes; missing ones take their defaults). Returns a new config."""
        values: dict[str, Any] = {}
        for spec in dataclasses.fields(cls):
            if hasattr(rung, spec.name):
                values[spec.name] = getattr(rung, spec.name)
        return cls.from_mapping(values)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> TransportConfig:
        """The config from a mapping of L-1 field names (unknown names are ignored, so a whole
        long-form rung entry can be passed). Returns a new config; raises BadInput (field
        `response_format`) for a response format that is not one of the four."""
        names = {spec.name for spec in dataclasses.fields(cls)}
        kept = {name: value for name, value in values.items() if name in names}
        if kept.get("command") is not None:
            kept["command"] = tuple(kept["command"])
        if "response_format" in kept:
            try:
                kept["response_format"] = ResponseFormat(kept["response_format"])
            except ValueError:
                known = ", ".join(form.value for form in ResponseFormat)
                raise BadInput(
                    f"unknown response_format {kept['response_format']!r} of rung"
                    f" {kept.get('id')!r} (known: {known})",
                    field="response_format",
                ) from None
        for name in ("params", "headers"):
            kept[name] = dict(kept.get(name) or {})
        return cls(**kept)

    @property
    def answer_budget(self) -> int:
        """The answer budget in tokens: `max_output_tokens`, else the default."""
        from tribunal.jury.prompt_size import DEFAULT_ANSWER_TOKENS

        return self.max_output_tokens or DEFAULT_ANSWER_TOKENS


@dataclass(frozen=True)
class Checkout:
    """The commit a harness rung runs against: a repository and its `head` (full or short id).

    `owner` is the run_id its worktrees are named after (None: a fresh one per worktree);
    `sitting` tracks the harness runs in flight, so that an interrupted sitting ends them."""

    repo: Path
    head: str
    owner: str | None = None
    sitting: Sitting = field(default_factory=Sitting, compare=False)


@dataclass(frozen=True)
class SeatRequest:
    """One call: the rendered prompt and its budgets.

    `seat` names who is asked — a lens id, a role, or `implementor/<id>` /
    `matrix_verifier/<id>` — and keys replay answers. `max_output_tokens` and `timeout_s`
    override the rung's own budgets when given. `checkout` is required by harness rungs.
    `response_schema` is the seat's strict verdict schema (`tribunal.jury.verdict_schema`),
    sent by a rung whose `response_format` is a schema form; None when the call has none.
    """

    prompt: str
    seat: str
    max_output_tokens: int | None = None
    timeout_s: float | None = None
    checkout: Checkout | None = None
    response_schema: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def tokens_estimate(self) -> int:
        """E-4: the prompt's UTF-8 bytes / 2, rounded up — conservative for code and CJK."""
        from tribunal.jury.prompt_size import estimate_tokens

        return estimate_tokens(self.prompt)


@dataclass(frozen=True)
class Usage:
    """Token counts as the server reported them; a count it did not report is None, never a
    guess (L-3)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None  # prompt tokens served from a cache
    prompt_eval_count: int | None = None  # Ollama only

    def to_dict(self) -> dict[str, int | None]:
        """The JSON form (nulls kept: a missing count is recorded as null)."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Reply:
    """What a rung said. `text` and `raw_tail` are already redacted (L-8). `recorded` is True for
    replay rungs: every report labels those replies as recorded (L-7)."""

    rung: str
    text: str
    finish_reason: str | None  # the provider's own word (stop, end_turn, length, ...)
    usage: Usage
    status: int | None  # HTTP status; None for harness and replay rungs
    raw_tail: str  # the last ≤ 2 KB of the raw reply, redacted
    recorded: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (usage nulls kept)."""
        return {
            "rung": self.rung,
            "text": self.text,
            "finish_reason": self.finish_reason,
            "usage": self.usage.to_dict(),
            "status": self.status,
            "raw_tail": self.raw_tail,
            "recorded": self.recorded,
        }


@dataclass(frozen=True)
class TransportContext:
    """What a transport may know beyond its rung: the fleet file's directory (replay answers
    are relative to it) and the environment keys and default endpoints come from."""

    fleet_dir: Path = field(default_factory=Path)
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)


class Transport(Protocol):
    """L-7: the one interface. `answer` returns a Reply or raises a RungFailure."""

    config: TransportConfig

    def answer(self, request: SeatRequest) -> Reply:
        """Ask the rung once (no retries) and return its reply."""
        ...


def api_key(config: TransportConfig, environ: Mapping[str, str]) -> str | None:
    """The rung's API key from its `api_key_env` variable, or None when it names none.

    Raises NoCredentials when the variable is named but unset or empty — before any request.
    """
    if not config.api_key_env:
        return None
    value = environ.get(config.api_key_env, "")
    if not value:
        raise NoCredentials(f"{config.api_key_env} is not set", rung=config.id)
    return value


def key_headers(config: TransportConfig, key: str | None, name: str, value: str) -> dict[str, str]:
    """L-8: the header that carries `key` — `api_key_header: <key>` when the rung names one
    (Azure OpenAI's `api-key`), else the provider's own `name: value` (`Authorization: Bearer
    <key>`, ...); none when there is no key."""
    if not key:
        return {}
    if config.api_key_header:
        return {config.api_key_header: key}
    return {name: value}


def key_values(configs: Iterable[TransportConfig], environ: Mapping[str, str]) -> list[str]:
    """S-6: the value of every set API key variable the rungs name — what a convening redacts
    from everything it writes or logs. Sorted, without duplicates or empty values."""
    return sorted(
        {environ[c.api_key_env] for c in configs if c.api_key_env and environ.get(c.api_key_env)}
    )


def endpoint_of(
    config: TransportConfig, context: TransportContext, variable: str, default: str
) -> str:
    """L-1, L-7: a rung's base URL — its `endpoint`, else the provider's environment variable,
    else the provider's default — without a trailing slash."""
    return (config.endpoint or context.environ.get(variable) or default).rstrip("/")


def response_form(config: TransportConfig, request: SeatRequest) -> ResponseFormat:
    """L-7: the form this call sends — the rung's `response_format`, except that a schema form
    asked without a schema (a call that is not a verdict seat's) sends `json_object`."""
    form = config.response_format
    if form.sends_schema and request.response_schema is None:
        return ResponseFormat.JSON_OBJECT
    return form


def answer_budget(config: TransportConfig, request: SeatRequest) -> int:
    """The answer budget for this call: the request's, else the rung's, else the default."""
    return request.max_output_tokens or config.answer_budget


def require_capacity(
    config: TransportConfig, request: SeatRequest, budget: int, context: int | None
) -> None:
    """L-3: raise OverCapacity when a known `context` cannot hold the prompt estimate plus the
    answer budget (checked again at every hop, before the call)."""
    from tribunal.jury.prompt_size import holds

    if not holds(context, request.tokens_estimate, budget):
        raise OverCapacity(
            f"context of {context} tokens cannot hold the prompt (~{request.tokens_estimate}"
            f" tokens) plus the answer budget ({budget})",
            rung=config.id,
        )


def checked_reply(reply: Reply, *, length_reasons: tuple[str, ...] = ("length",)) -> Reply:
    """L-6: `reply` unless the transport left nothing usable — raises Truncated on empty
    content or a finish reason in `length_reasons` (the answer budget ran out)."""
    if reply.finish_reason in length_reasons:
        raise Truncated(
            f"the answer budget ran out (finish reason {reply.finish_reason})",
            rung=reply.rung,
            status=reply.status,
            raw_tail=reply.raw_tail,
        )
    if not reply.text.strip():
        raise Truncated(
            "empty content", rung=reply.rung, status=reply.status, raw_tail=reply.raw_tail
        )
    return reply
