"""L-7, L-3: what each HTTP transport sends and how it reads the reply, against real local
servers speaking the protocol."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from testing.jurors import VALID, JurorServer, length, reply, verdict

from tribunal.enums import ReasonCode
from tribunal.errors import BadInput
from tribunal.jury.prompt_size import DEFAULT_ANSWER_TOKENS
from tribunal.jury.transports import (
    NoCredentials,
    OverCapacity,
    SeatRequest,
    TransportConfig,
    Truncated,
    open_transport,
)
from tribunal.jury.transports.base import TransportContext
from tribunal.jury.transports.ollama import ollama_base

KEY = "sk-proto-abcdef0123456789"
ENV = {"JUROR_KEY": KEY}
PROMPT = "Ünïcode prompt — " * 20  # multi-byte: the estimate counts UTF-8 bytes
REQUEST = SeatRequest(prompt=PROMPT, seat="defect")
ESTIMATE = (len(PROMPT.encode("utf-8")) + 1) // 2


@pytest.fixture
def openai() -> Iterator[JurorServer]:
    with JurorServer("openai") as server:
        server.always(reply(VALID))
        yield server


@pytest.fixture
def anthropic() -> Iterator[JurorServer]:
    with JurorServer("anthropic") as server:
        server.always(reply(VALID))
        yield server


@pytest.fixture
def ollama() -> Iterator[JurorServer]:
    with JurorServer("ollama", context_length=8192) as server:
        server.always(reply(VALID))
        yield server


def test_openai_request(openai: JurorServer) -> None:
    config = openai.rung(
        api_key_env="JUROR_KEY",
        max_output_tokens=512,
        params={"seed": 7},
        headers={"api-version": "2026-01-01"},
    )
    answered = open_transport(config, TransportContext(environ=ENV)).answer(REQUEST)
    assert answered.text == VALID
    [sent] = openai.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["Authorization"] == f"Bearer {KEY}"
    assert sent.headers["api-version"] == "2026-01-01"
    assert sent.body == {
        "model": "juror-1",
        "messages": [{"role": "user", "content": PROMPT}],
        "temperature": 0,
        "max_tokens": 512,
        "response_format": {"type": "json_object"},
        "seed": 7,
    }


def test_openai_reasoning_off(openai: JurorServer) -> None:
    """L-1: `reasoning: true` sends reasoning_effort "none" — a verdict never shares its budget
    with a reasoning channel."""
    open_transport(openai.rung(reasoning=True), TransportContext(environ={})).answer(REQUEST)
    assert openai.requests[-1].body["reasoning_effort"] == "none"
    open_transport(openai.rung(), TransportContext(environ={})).answer(REQUEST)
    assert "reasoning_effort" not in openai.requests[-1].body


def test_openai_params_respell_reasoning_and_budget(openai: JurorServer) -> None:
    config = openai.rung(
        reasoning=True,
        max_output_tokens=300,
        params={"reasoning": {"effort": "none"}, "max_completion_tokens": 300},
    )
    open_transport(config, TransportContext(environ={})).answer(REQUEST)
    body = openai.requests[-1].body
    assert body["reasoning"] == {"effort": "none"}
    assert "reasoning_effort" not in body
    assert body["max_completion_tokens"] == 300
    assert "max_tokens" not in body


def test_openai_endpoint_from_environment(openai: JurorServer) -> None:
    config = openai.rung(endpoint=None)
    environ = {"OPENAI_BASE_URL": openai.endpoint + "/"}
    assert open_transport(config, TransportContext(environ=environ)).answer(REQUEST).text == VALID
    assert "Authorization" not in openai.requests[-1].headers  # no key variable named, none sent


def test_openai_cached_count_and_refusal_field(openai: JurorServer) -> None:
    openai.script(
        reply(
            "",
            extra={
                "choices": [
                    {
                        "message": {"role": "assistant", "content": None, "refusal": "I can't."},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": 900,
                    "completion_tokens": 3,
                    "prompt_tokens_details": {"cached_tokens": 512},
                },
            },
        )
    )
    answered = open_transport(openai.rung(), TransportContext(environ={})).answer(REQUEST)
    assert answered.text == "I can't."  # refusal words are a reply: the parser judges them
    assert answered.usage.cached_tokens == 512
    assert answered.usage.prompt_tokens == 900


def test_anthropic_request(anthropic: JurorServer) -> None:
    config = anthropic.rung(api_key_env="JUROR_KEY", params={"top_k": 1})
    answered = open_transport(config, TransportContext(environ=ENV)).answer(REQUEST)
    assert answered.finish_reason == "end_turn"
    [sent] = anthropic.requests
    assert sent.path == "/v1/messages"
    assert sent.headers["x-api-key"] == KEY
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert "Authorization" not in sent.headers
    assert sent.body == {
        "model": "juror-1",
        "max_tokens": DEFAULT_ANSWER_TOKENS,
        "temperature": 0,
        "messages": [{"role": "user", "content": PROMPT}],
        "top_k": 1,
    }


def test_anthropic_endpoint_and_text_blocks(anthropic: JurorServer) -> None:
    anthropic.script(
        reply(
            "",
            extra={
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "text", "text": '{"verdict": '},
                    {"type": "text", "text": '"pass"}'},
                ],
                "usage": {"input_tokens": 5, "output_tokens": 2, "cache_read_input_tokens": 4},
            },
        )
    )
    config = anthropic.rung(endpoint=None)
    environ = {"ANTHROPIC_BASE_URL": anthropic.url}
    answered = open_transport(config, TransportContext(environ=environ)).answer(REQUEST)
    assert answered.text == '{"verdict": "pass"}'
    assert answered.usage.cached_tokens == 4


def test_anthropic_max_tokens_stop_is_truncated(anthropic: JurorServer) -> None:
    anthropic.script(length())
    with pytest.raises(Truncated) as caught:
        open_transport(anthropic.rung(), TransportContext(environ={})).answer(REQUEST)
    assert "max_tokens" in caught.value.message


@pytest.mark.parametrize("protocol", ["openai", "anthropic", "ollama"])
def test_unset_key_is_no_credentials_before_any_request(protocol: str) -> None:
    with JurorServer(protocol) as server:
        config = server.rung(api_key_env="JUROR_KEY")
        with pytest.raises(NoCredentials) as caught:
            open_transport(config, TransportContext(environ={"JUROR_KEY": ""})).answer(REQUEST)
        assert server.requests == []
    assert caught.value.reason is ReasonCode.NO_CREDENTIALS
    assert "JUROR_KEY" in caught.value.message


def test_ollama_sizes_the_window(ollama: JurorServer) -> None:
    """L-3: /api/show first; num_ctx = estimate + answer budget; num_predict capped; the model
    stays loaded (keep_alive) and the reply is JSON, not streamed."""
    config = ollama.rung(max_output_tokens=1000, reasoning=True)
    answered = open_transport(config, TransportContext(environ={})).answer(REQUEST)
    assert answered.text == VALID
    show, chat = ollama.requests
    assert show.path == "/api/show"
    assert show.body == {"model": "juror-1"}
    assert chat.path == "/api/chat"
    assert chat.body == {
        "model": "juror-1",
        "messages": [{"role": "user", "content": PROMPT}],
        "stream": False,
        "format": "json",
        "options": {"temperature": 0, "num_ctx": ESTIMATE + 1000, "num_predict": 1000},
        "keep_alive": -1,
        "think": False,
    }
    assert answered.usage.prompt_eval_count == 11
    assert answered.usage.completion_tokens == 7


def test_ollama_params_merge_options(ollama: JurorServer) -> None:
    config = ollama.rung(params={"options": {"top_k": 5}, "keep_alive": "2h"})
    open_transport(config, TransportContext(environ={})).answer(REQUEST)
    chat = ollama.chat_requests()[-1].body
    assert chat["options"]["top_k"] == 5
    assert chat["options"]["num_predict"] == DEFAULT_ANSWER_TOKENS
    assert chat["keep_alive"] == "2h"


@pytest.mark.parametrize(
    ("model_length", "context_tokens"), [(200, None), (None, 200), (8192, 200), (200, 8192)]
)
def test_ollama_context_is_the_smaller_known_length(
    model_length: int | None, context_tokens: int | None
) -> None:
    """L-3: the rung's context is the smaller of /api/show's length and context_tokens; a prompt
    plus budget that does not fit is refused before /api/chat."""
    with JurorServer("ollama", context_length=model_length) as server:
        server.always(reply(VALID))
        config = server.rung(max_output_tokens=100, context_tokens=context_tokens)
        with pytest.raises(OverCapacity):
            open_transport(config, TransportContext(environ={})).answer(REQUEST)
        assert server.chat_requests() == []


def test_ollama_unknown_length_still_sizes_the_window() -> None:
    with JurorServer("ollama", context_length=None) as server:
        server.always(reply(VALID))
        config = server.rung(max_output_tokens=64)
        open_transport(config, TransportContext(environ={})).answer(REQUEST)
        assert server.chat_requests()[0].body["options"]["num_ctx"] == ESTIMATE + 64


def test_ollama_filled_window_is_truncated(ollama: JurorServer) -> None:
    """L-3: truncated only when prompt_eval_count (plus any cached count) reached
    num_ctx − num_predict — the prompt filled the window and Ollama cut it."""
    config = ollama.rung(max_output_tokens=100)
    transport = open_transport(config, TransportContext(environ={}))
    ollama.script(reply(VALID, extra={"prompt_eval_count": ESTIMATE}))
    with pytest.raises(Truncated) as caught:
        transport.answer(REQUEST)
    assert "filled the window" in caught.value.message
    ollama.script(reply(VALID, extra={"prompt_eval_count": ESTIMATE - 10}))
    assert transport.answer(REQUEST).usage.prompt_eval_count == ESTIMATE - 10
    ollama.script(
        reply(VALID, extra={"prompt_eval_count": ESTIMATE - 10, "prompt_eval_cached_count": 10})
    )
    with pytest.raises(Truncated):
        transport.answer(REQUEST)


def test_ollama_missing_count_is_null_not_truncation(ollama: JurorServer) -> None:
    ollama.script(reply(VALID, extra={"prompt_eval_count": None}))
    answered = open_transport(ollama.rung(), TransportContext(environ={})).answer(REQUEST)
    assert answered.usage.prompt_eval_count is None
    assert answered.text == VALID


def test_ollama_host_from_environment(ollama: JurorServer) -> None:
    host = ollama.url.removeprefix("http://")
    config = ollama.rung(endpoint=None)
    answered = open_transport(config, TransportContext(environ={"OLLAMA_HOST": host})).answer(
        REQUEST
    )
    assert answered.text == VALID


def test_ollama_release_unloads(ollama: JurorServer) -> None:
    from tribunal.jury.transports.ollama import OllamaTransport

    OllamaTransport(ollama.rung(), TransportContext(environ={})).release()
    assert ollama.requests[-1].path == "/api/generate"
    assert ollama.requests[-1].body == {"model": "juror-1", "keep_alive": 0}


@pytest.mark.parametrize(
    ("host", "base"),
    [
        ("127.0.0.1", "http://127.0.0.1:11434"),
        ("gpu-box:9999", "http://gpu-box:9999"),
        ("https://ollama.example/", "https://ollama.example"),
        ("http://127.0.0.1:11434/", "http://127.0.0.1:11434"),
    ],
)
def test_ollama_base(host: str, base: str) -> None:
    assert ollama_base(host) == base


@pytest.mark.parametrize("endpoint", ["127.0.0.1:8080/v1", "ftp://127.0.0.1/v1"])
def test_an_endpoint_that_is_no_http_url_is_bad_input(endpoint: str) -> None:
    """A fleet mistake is reported, not re-seated silently as a rung that did not answer."""
    config = TransportConfig(id="gw", family="f", transport="openai", endpoint=endpoint)
    with pytest.raises(BadInput) as caught:
        open_transport(config, TransportContext(environ={})).answer(REQUEST)
    assert caught.value.field == "endpoint"
    assert "gw" in str(caught.value)


def test_reply_json_form(openai: JurorServer) -> None:
    text = verdict("defect", findings=["[minor] app.py:3 a claim"])
    openai.script(reply(text, extra={"usage": {"prompt_tokens": 3}}))
    answered = open_transport(openai.rung(), TransportContext(environ={})).answer(REQUEST)
    assert answered.to_dict() == {
        "rung": "openai-juror",
        "text": text,
        "finish_reason": "stop",
        "usage": {
            "prompt_tokens": 3,
            "completion_tokens": None,
            "cached_tokens": None,
            "prompt_eval_count": None,
        },
        "status": 200,
        "raw_tail": answered.raw_tail,
        "recorded": False,
    }
    assert answered.raw_tail.endswith("}")
