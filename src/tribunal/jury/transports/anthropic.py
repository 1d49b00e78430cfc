"""The `anthropic` transport (L-7): `POST {endpoint}/v1/messages`.

`x-api-key` from the rung's `api_key_env`, `anthropic-version`, `max_tokens` from the answer
budget, temperature 0, `params` merged into the body, `headers` applied, no client retries.
`stop_reason: max_tokens` is a truncated reply (L-6). Extended thinking is off unless `params`
turn it on, so `reasoning: true` needs nothing sent to keep the verdict's budget whole.
"""

from __future__ import annotations

from typing import Any

from tribunal.jury.redaction import redact
from tribunal.jury.transports.base import (
    Reply,
    SeatRequest,
    TransportConfig,
    TransportContext,
    Usage,
    answer_budget,
    api_key,
    checked_reply,
    endpoint_of,
    require_capacity,
)
from tribunal.jury.transports.deadline import Deadline
from tribunal.jury.transports.registry import TransportRegistry
from tribunal.jury.transports.wire import int_or_none, mapping, post_json, unreadable

DEFAULT_ENDPOINT = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


class AnthropicTransport:
    """The Anthropic Messages API."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config
        self.context = context

    @property
    def endpoint(self) -> str:
        """The rung's endpoint, else ANTHROPIC_BASE_URL, else the Anthropic API."""
        return endpoint_of(self.config, self.context, "ANTHROPIC_BASE_URL", DEFAULT_ENDPOINT)

    def body(self, request: SeatRequest) -> dict[str, Any]:
        """The request body for `request` (params merged last)."""
        body: dict[str, Any] = {
            "model": self.config.model,
            "max_tokens": answer_budget(self.config, request),
            "temperature": 0,
            "messages": [{"role": "user", "content": request.prompt}],
        }
        body.update(self.config.params)
        return body

    def answer(self, request: SeatRequest) -> Reply:
        """Ask once; return the reply or raise a RungFailure (L-6)."""
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        require_capacity(
            self.config, request, answer_budget(self.config, request), self.config.context_tokens
        )
        headers = {"Content-Type": "application/json", "anthropic-version": API_VERSION}
        if key:
            headers["x-api-key"] = key
        headers.update(self.config.headers)
        wire = post_json(
            f"{self.endpoint}/v1/messages",
            self.body(request),
            headers=headers,
            deadline=Deadline.for_call(self.config, request),
            secrets=secrets,
        )
        blocks = wire.data.get("content")
        if not isinstance(blocks, list):
            raise unreadable("the reply has no content blocks", wire, self.config.id)
        text = "".join(
            block["text"]
            for block in blocks
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        )
        usage = mapping(wire.data.get("usage"))
        stop = wire.data.get("stop_reason")
        return checked_reply(
            Reply(
                rung=self.config.id,
                text=redact(text, secrets),
                finish_reason=stop if isinstance(stop, str) else None,
                usage=Usage(
                    prompt_tokens=int_or_none(usage.get("input_tokens")),
                    completion_tokens=int_or_none(usage.get("output_tokens")),
                    cached_tokens=int_or_none(usage.get("cache_read_input_tokens")),
                ),
                status=wire.status,
                raw_tail=wire.raw_tail,
            ),
            length_reasons=("max_tokens",),
        )


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `anthropic`."""
    registry.register("anthropic", AnthropicTransport)
