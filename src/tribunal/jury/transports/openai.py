"""The `openai` transport (L-7): any OpenAI-compatible `POST {endpoint}/chat/completions`.

The rung's `response_format` (L-1): `json_schema` sends OpenAI's structured outputs
`{type: json_schema, json_schema: {name, strict: true, schema}}`, `json_object_schema` sends
`{type: json_object, schema}` (the form llama.cpp's and llama-cpp-python's servers constrain
decoding with), `json_object` (the default) sends `{type: json_object}`, `none` sends nothing.
A server that rejects the form with an error naming `response_format` is
`response_format_unsupported` (L-6), and the message names the form to set instead.
Temperature 0, `max_tokens` from the answer budget, no client retries; `params` merged into the
body, `headers` applied, a bearer key from the rung's `api_key_env` (or the bare key in its
`api_key_header`: `api-key` for Azure OpenAI). A rung with
`reasoning: true` asks for `reasoning_effort: "none"` — a structured verdict never shares its
budget with a reasoning channel (source 000) — unless its `params` spell the reasoning switch
their own way.
"""

from __future__ import annotations

import re
from typing import Any

from tribunal.enums import ResponseFormat
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

DEFAULT_ENDPOINT = "https://api.openai.com/v1"
# L-6: an error body naming the field (llama-cpp-python answers json_schema with a 500 whose
# validation error names `response_format`); what to set instead of each form.
FORMAT_WORDS = re.compile(r"response[_ ]format", re.IGNORECASE)
INSTEAD = {
    ResponseFormat.JSON_SCHEMA: "json_object (or json_object_schema for llama.cpp)",
    ResponseFormat.JSON_OBJECT_SCHEMA: "json_object (or json_schema for OpenAI)",
    ResponseFormat.JSON_OBJECT: "none",
}


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
        }
        response_format = self.response_format(request)
        if response_format is not None:
            body["response_format"] = response_format
        params = dict(self.config.params)
        if self.config.reasoning and not any("reasoning" in name for name in params):
            body["reasoning_effort"] = "none"
        if "max_completion_tokens" in params:  # newer models respell the budget; never send both
            del body["max_tokens"]
        body.update(params)
        return body

    def response_format(self, request: SeatRequest) -> dict[str, Any] | None:
        """The body's `response_format` for `request`, or None when the rung sends none."""
        form = response_form(self.config, request)
        schema = dict(request.response_schema or {})
        if form is ResponseFormat.JSON_SCHEMA:
            strict = {"name": SCHEMA_NAME, "strict": True, "schema": schema}
            return {"type": "json_schema", "json_schema": strict}
        if form is ResponseFormat.JSON_OBJECT_SCHEMA:
            return {"type": "json_object", "schema": schema}
        if form is ResponseFormat.JSON_OBJECT:
            return {"type": "json_object"}
        return None

    def format_rejection(self, request: SeatRequest) -> FormatRejection | None:
        """How this call's server would reject its response format (None: it sends none)."""
        form = response_form(self.config, request)
        if form is ResponseFormat.NONE:
            return None
        return FormatRejection.of(
            FORMAT_WORDS, rung=self.config.id, form=form, instead=INSTEAD[form], any_status=True
        )

    def answer(self, request: SeatRequest) -> Reply:
        """Ask once; return the reply or raise a RungFailure (L-6)."""
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        require_capacity(
            self.config, request, answer_budget(self.config, request), self.config.context_tokens
        )
        headers = {"Content-Type": "application/json"}
        headers.update(key_headers(self.config, key, "Authorization", f"Bearer {key}"))
        headers.update(self.config.headers)
        deadline = Deadline.for_call(self.config, request)
        wire = post_json(
            f"{self.endpoint}/chat/completions",
            self.body(request),
            headers=headers,
            deadline=deadline,
            secrets=secrets,
            format_rejection=self.format_rejection(request),
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
