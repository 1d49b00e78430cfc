"""Fleet files the routing tests share (written into tmp_path, loaded like a user's)."""

from __future__ import annotations

from pathlib import Path

from tribunal.jury.fleet import Fleet, load_fleet

# The SPEC L-1 example, made whole: four tiers, a fused one, every transport.
SPEC_FLEET = """\
rungs:
  - use: openai/gpt-mini-x
  - use: anthropic/claude-y
  - id: local-coder
    family: qwen
    transport: ollama
    model: qwen2.5-coder:14b
    local: true
    max_concurrency: 1
  - id: gateway-b-long
    family: vendor-b
    transport: openai
    endpoint: http://127.0.0.1:8080/v1
    model: vendor-b/long-1
    api_key_env: GATEWAY_KEY
    context_tokens: 200000
    max_output_tokens: 2048
    reasoning: false
    params: {}
    headers: {}
    cost: {input_per_mtok: 0.15, output_per_mtok: 0.6}
    local: false
    timeout_s: 120
    max_concurrency: 4
  - id: harness-c
    family: vendor-c
    transport: command
    command: ["vendor-cli", "-p"]
  - id: recorded
    family: replay
    transport: replay
    answers: replay/answers.yaml
tiers:
  deep_state: [gateway-b-long, harness-c, local-coder]
  operator_safety: [anthropic/claude-y, harness-c, local-coder]
  generalist: [openai/gpt-mini-x, harness-c, local-coder]
  fast_structural:
    primary: [local-coder, harness-c]
    verifier: [openai/gpt-mini-x, harness-c]
"""

ALL_KEYS = {"OPENAI_API_KEY": "k1", "ANTHROPIC_API_KEY": "k2", "GATEWAY_KEY": "k3"}


# The recorded replies SPEC_FLEET's replay rung names (L-1: checked when the fleet is loaded).
REPLAY_ANSWERS = "replay/answers.yaml"


def write_fleet(tmp_path: Path, text: str, name: str = "fleet.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    answers = tmp_path / REPLAY_ANSWERS
    if REPLAY_ANSWERS in text and not answers.exists():
        answers.parent.mkdir(parents=True, exist_ok=True)
        answers.write_text('defect: \'{"verdict": "pass", "lens": "defect"}\'\n', encoding="utf-8")
    return path


def fleet_from(tmp_path: Path, text: str) -> Fleet:
    return load_fleet(write_fleet(tmp_path, text), "fleet.yaml")
