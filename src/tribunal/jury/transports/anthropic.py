"""The `anthropic` transport (L-7): `POST {endpoint}/v1/messages`.

The key of the rung's `api_key_env` in `x-api-key` (or the rung's `api_key_header`),
`anthropic-version`, `max_tokens` from the answer budget, temperature 0, `params` merged into
the body, `headers` applied, no client retries.
`stop_reason: max_tokens` is a truncated reply (L-6). Extended thinking is off unless `params`
turn it on, so `reasoning: true` needs nothing sent to keep the verdict's budget whole.

The two schema forms of `response_format` (L-1) force a tool: `tools: [{name, description,
input_schema: <the seat's strict verdict schema>}]` with `tool_choice: {type: tool, name}`, and
the `input` of each `tool_use` block of that name, written back as JSON, is the text the verdict
parser reads (several blocks: every one, so V-2 sees them all). A reply without such a block is
read from its text blocks, as `json_object` and `none` replies are: Anthropic has no JSON mode,
so those send nothing.
"""

from __future__ import annotations

import json
import re
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
    key_headers,
    require_capacity,
    response_form,
)
from tribunal.jury.transports.deadline import Deadline
from tribunal.jury.transports.registry import TransportRegistry
from tribunal.jury.transports.wire import (
    FormatRejection,
    int_or_none,
    mapping,
    post_json,
    unreadable,
)
from tribunal.jury.verdict_schema import SCHEMA_NAME

DEFAULT_ENDPOINT = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
TOOL_DESCRIPTION = "Record your verdict on the change, with what you checked and found."
# L-6: a 400 naming the forced tool (extended thinking, say, cannot be forced to a tool).
FORMAT_WORDS = re.compile(r"\btool_choice\b|\btools\b", re.IGNORECASE)


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
        if response_form(self.config, request).sends_schema:
            tool = {
                "name": SCHEMA_NAME,
                "description": TOOL_DESCRIPTION,
                "input_schema": dict(request.response_schema or {}),
            }
            body["tools"] = [tool]
            body["tool_choice"] = {"type": "tool", "name": SCHEMA_NAME}
        body.update(self.config.params)
        return body

    def format_rejection(self, request: SeatRequest) -> FormatRejection | None:
        """How Anthropic would reject this call's forced tool (None: it sends none)."""
        form = response_form(self.config, request)
        if not form.sends_schema:
            return None
        return FormatRejection.of(
            FORMAT_WORDS,
            rung=self.config.id,
            form=form,
            instead="json_object",
            note="no tool is sent then",
        )

    def answer(self, request: SeatRequest) -> Reply:
        """Ask once; return the reply or raise a RungFailure (L-6)."""
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        require_capacity(
            self.config, request, answer_budget(self.config, request), self.config.context_tokens
        )
        headers = {"Content-Type": "application/json", "anthropic-version": API_VERSION}
        headers.update(key_headers(self.config, key, "x-api-key", key or ""))
        headers.update(self.config.headers)
        wire = post_json(
            f"{self.endpoint}/v1/messages",
            self.body(request),
            headers=headers,
            deadline=Deadline.for_call(self.config, request),
            secrets=secrets,
            format_rejection=self.format_rejection(request),
        )
        blocks = wire.data.get("content")
        if not isinstance(blocks, list):
            raise unreadable("the reply has no content blocks", wire, self.config.id)
        text = _tool_text(blocks) or "".join(
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


def _tool_text(blocks: list[Any]) -> str:
    """The `input` of every `tool_use` block of the verdict tool, each written as JSON on a
    line of its own ('' when there is none)."""
    inputs = [
        block["input"]
        for block in blocks
        if isinstance(block, dict)
        and block.get("type") == "tool_use"
        and block.get("name") == SCHEMA_NAME
        and "input" in block
    ]
    return "\n".join(json.dumps(value, ensure_ascii=False) for value in inputs)


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `anthropic`."""
    registry.register("anthropic", AnthropicTransport)
