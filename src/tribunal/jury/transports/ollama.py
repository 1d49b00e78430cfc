"""The `ollama` transport (L-3, L-7): `/api/show` for the model's context length, then one
`/api/chat` with `stream: false` and the rung's `response_format` as Ollama's `format`: the
seat's strict verdict schema for the two schema forms, `"json"` for `json_object` (the
default), nothing for `none`.

Ollama's default window (4096) silently cuts a long prompt, so every call sizes `num_ctx` to
the prompt estimate (UTF-8 bytes / 2) plus the answer budget, within the model's own length,
and caps `num_predict` at the budget; a prompt that cannot fit is refused before sending
(`capacity`). A reply is truncated only when `prompt_eval_count` (plus any cached count)
reached `num_ctx − num_predict` — the window filled; a missing count is null, not truncation.
`keep_alive: -1` keeps the model loaded for the whole convening: no call ever unloads a model
another seat may still be using; the convening's last holder calls `release()`.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

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
from tribunal.jury.transports.failures import Truncated
from tribunal.jury.transports.registry import TransportRegistry
from tribunal.jury.transports.wire import FormatRejection, int_or_none, post_json, unreadable

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_PORT = 11434
KEEP_LOADED = -1  # Ollama: a negative keep_alive keeps the model loaded until released
# L-6: a 400 naming `format` (an Ollama before 0.5 cannot read a schema there).
FORMAT_WORDS = re.compile(r"\bformat\b", re.IGNORECASE)


def ollama_base(host: str) -> str:
    """An OLLAMA_HOST value (`host`, `host:port` or a URL) as a base URL."""
    if "://" not in host:
        host = f"http://{host}"
    parts = urlsplit(host)
    if parts.port is None and parts.scheme == "http":
        host = parts._replace(netloc=f"{parts.netloc}:{DEFAULT_PORT}").geturl()
    return host.rstrip("/")


def model_context_length(model_info: Any) -> int | None:
    """The context length in an `/api/show` `model_info`: `<architecture>.context_length`, else
    the smallest `*.context_length` given, else None."""
    if not isinstance(model_info, dict):
        return None
    architecture = model_info.get("general.architecture")
    own = int_or_none(model_info.get(f"{architecture}.context_length"))
    if own is not None:
        return own
    lengths = [
        length
        for name, value in model_info.items()
        if str(name).endswith(".context_length") and (length := int_or_none(value)) is not None
    ]
    return min(lengths) if lengths else None


class OllamaTransport:
    """A model served by Ollama's native API."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config
        self.context = context

    @property
    def endpoint(self) -> str:
        """The rung's endpoint, else OLLAMA_HOST, else the local default."""
        return ollama_base(endpoint_of(self.config, self.context, "OLLAMA_HOST", DEFAULT_HOST))

    def _headers(self, key: str | None) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        # a remote Ollama behind a proxy that wants a key: a bearer key, or its own header
        headers.update(key_headers(self.config, key, "Authorization", f"Bearer {key}"))
        headers.update(self.config.headers)
        return headers

    def context_length(self, deadline: Deadline, key: str | None) -> int | None:
        """L-3: the rung's context — the model's own length from `/api/show` and the rung's
        `context_tokens`, the smaller when both are known; None when neither is."""
        wire = post_json(
            f"{self.endpoint}/api/show",
            {"model": self.config.model},
            headers=self._headers(key),
            deadline=deadline,
            secrets=[key] if key else [],
        )
        known = [
            length
            for length in (
                model_context_length(wire.data.get("model_info")),
                self.config.context_tokens,
            )
            if length is not None
        ]
        return min(known) if known else None

    def body(self, request: SeatRequest, num_ctx: int, num_predict: int) -> dict[str, Any]:
        """The `/api/chat` body (params merged last; `options` merged key by key)."""
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": [{"role": "user", "content": request.prompt}],
            "stream": False,
            "options": {"temperature": 0, "num_ctx": num_ctx, "num_predict": num_predict},
            "keep_alive": KEEP_LOADED,
        }
        form = response_form(self.config, request)
        if form.sends_schema:
            body["format"] = dict(request.response_schema or {})
        elif form is ResponseFormat.JSON_OBJECT:
            body["format"] = "json"
        if self.config.reasoning:  # no thinking channel for a structured verdict (source 000)
            body["think"] = False
        params = dict(self.config.params)
        options = params.pop("options", None)
        if isinstance(options, dict):
            body["options"].update(options)
        body.update(params)
        return body

    def format_rejection(self, request: SeatRequest) -> FormatRejection | None:
        """How Ollama would reject this call's `format` (None: it sends none)."""
        form = response_form(self.config, request)
        if form is ResponseFormat.NONE:
            return None
        if form.sends_schema:
            return FormatRejection.of(
                FORMAT_WORDS,
                rung=self.config.id,
                form=form,
                instead="json_object",
                note="a schema format needs Ollama 0.5 or later",
            )
        return FormatRejection.of(FORMAT_WORDS, rung=self.config.id, form=form, instead="none")

    def answer(self, request: SeatRequest) -> Reply:
        """Ask once; return the reply or raise a RungFailure (L-6)."""
        key = api_key(self.config, self.context.environ)
        secrets = [key] if key else []
        deadline = Deadline.for_call(self.config, request)
        budget = answer_budget(self.config, request)
        require_capacity(self.config, request, budget, self.config.context_tokens)
        context = self.context_length(deadline, key)
        require_capacity(self.config, request, budget, context)
        body = self.body(request, request.tokens_estimate + budget, budget)
        wire = post_json(
            f"{self.endpoint}/api/chat",
            body,
            headers=self._headers(key),
            deadline=deadline,
            secrets=secrets,
            format_rejection=self.format_rejection(request),
        )
        message = wire.data.get("message")
        if not isinstance(message, dict):
            raise unreadable("the reply has no message", wire, self.config.id)
        text = message.get("content")
        done = wire.data.get("done_reason")
        reply = checked_reply(
            Reply(
                rung=self.config.id,
                text=redact(text if isinstance(text, str) else "", secrets),
                finish_reason=done if isinstance(done, str) else None,
                usage=Usage(
                    prompt_tokens=int_or_none(wire.data.get("prompt_eval_count")),
                    completion_tokens=int_or_none(wire.data.get("eval_count")),
                    cached_tokens=int_or_none(wire.data.get("prompt_eval_cached_count")),
                    prompt_eval_count=int_or_none(wire.data.get("prompt_eval_count")),
                ),
                status=wire.status,
                raw_tail=wire.raw_tail,
            )
        )
        _require_open_window(reply, body["options"])
        return reply

    def release(self, timeout_s: float = 10.0) -> None:
        """Unload the model (`keep_alive: 0`): only the convening's last holder calls this.
        Raises a RungFailure when Ollama does not answer."""
        key = api_key(self.config, self.context.environ)
        post_json(
            f"{self.endpoint}/api/generate",
            {"model": self.config.model, "keep_alive": 0},
            headers=self._headers(key),
            deadline=Deadline(timeout_s, self.config.id),
            secrets=[key] if key else [],
        )


def _require_open_window(reply: Reply, options: dict[str, Any]) -> None:
    """L-3: raise Truncated when the prompt filled the window (`prompt_eval_count` plus any
    cached count reached `num_ctx − num_predict`): Ollama then cut the prompt silently."""
    evaluated = reply.usage.prompt_eval_count
    num_ctx = int_or_none(options.get("num_ctx"))
    num_predict = int_or_none(options.get("num_predict"))
    if evaluated is None or num_ctx is None or num_predict is None:
        return  # a missing count is recorded as null, never as truncation
    filled = evaluated + (reply.usage.cached_tokens or 0)
    if filled >= num_ctx - num_predict:
        raise Truncated(
            f"the prompt filled the window: {filled} tokens evaluated of"
            f" num_ctx {num_ctx} − num_predict {num_predict}",
            rung=reply.rung,
            status=reply.status,
            raw_tail=reply.raw_tail,
        )


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `ollama`."""
    registry.register("ollama", OllamaTransport)
