"""The `openai` transport (L-7): any OpenAI-compatible `POST {endpoint}/chat/completions`.

JSON-object response format, temperature 0, `max_tokens` from the answer budget, no client
retries; `params` merged into the body, `headers` applied, a bearer key from the rung's
`api_key_env`. A rung with `reasoning: true` asks for `reasoning_effort: "none"` — a structured
verdict never shares its budget with a reasoning channel (source 000) — unless its `params`
spell the reasoning switch their own way.
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

DEFAULT_ENDPOINT = "https://api.openai.com/v1"


class OpenAITransport:
    """An OpenAI-compatible chat completions endpoint."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config
        self.context = context

    @property
    def endpoint(self) -> str:
        """The rung's endpoint, else OPENAI_BASE_URL, else the OpenAI API."""
        return endpoint_of(self.config, self.context, "OPENAI_BASE_URL", DEFAULT_ENDPOINT)

    def body(self, request: SeatRequest) -> dict[str, Any]:
        """The request body for `request` (params merged last)."""
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": [{"role": "user", "content": request.prompt}],
            "temperature": 0,
            "max_tokens": answer_budget(self.config, request),
            "response_format": {"type": "json_object"},
        }
        params = dict(self.config.params)
        if self.config.reasoning and not any("reasoning" in name for name in params):
            body["reasoning_effort"] = "none"
        if "max_completion_tokens" in params:  # newer models respell the budget; never send both
            del body["max_tokens"]
        body.update(params)
        return body

    def answer(self, request: SeatRequest) -> Reply:
        """Ask once; return the reply or raise a RungFailure (L-6)."""
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        require_capacity(
            self.config, request, answer_budget(self.config, request), self.config.context_tokens
        )
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        headers.update(self.config.headers)
        deadline = Deadline.for_call(self.config, request)
        wire = post_json(
            f"{self.endpoint}/chat/completions",
            self.body(request),
            headers=headers,
            deadline=deadline,
            secrets=secrets,
        )
        choices = wire.data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise unreadable("the reply has no choices", wire, self.config.id)
        choice = choices[0]
        message = mapping(choice.get("message"))
        # a refusal is words from the model: a reply (the verdict parser makes it malformed)
        text = message.get("content") or message.get("refusal") or ""
        usage = mapping(wire.data.get("usage"))
        details = usage.get("prompt_tokens_details")
        finish = choice.get("finish_reason")
        return checked_reply(
            Reply(
                rung=self.config.id,
                text=redact(text if isinstance(text, str) else "", secrets),
                finish_reason=finish if isinstance(finish, str) else None,
                usage=Usage(
                    prompt_tokens=int_or_none(usage.get("prompt_tokens")),
                    completion_tokens=int_or_none(usage.get("completion_tokens")),
                    cached_tokens=int_or_none(
                        details.get("cached_tokens") if isinstance(details, dict) else None
                    ),
                ),
                status=wire.status,
                raw_tail=wire.raw_tail,
            )
        )


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `openai`."""
    registry.register("openai", OpenAITransport)
