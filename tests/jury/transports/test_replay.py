"""L-7 `replay`: recorded replies from the rung's answers YAML, relative to the fleet file,
keyed by lens id, role, or implementor/<id>; every reply labelled recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunal.errors import BadInput
from tribunal.jury.transports import (
    NotAnswered,
    Oversize,
    Reply,
    SeatRequest,
    TransportConfig,
    TransportContext,
    Truncated,
    open_transport,
)
from tribunal.jury.verdict import MAX_REPLY_BYTES

ANSWERS = """\
defect: '{"verdict": "pass", "lens": "defect", "findings": []}'
verifier: |
  ```json
  {"verdict": "refuse", "lens": "verifier"}
  ```
implementor/cx-1: "I'm sorry, I can't."
matrix_verifier/cx-1: ""
"""


@pytest.fixture
def fleet_dir(tmp_path: Path) -> Path:
    (tmp_path / "replay").mkdir()
    (tmp_path / "replay" / "answers.yaml").write_text(ANSWERS, encoding="utf-8")
    return tmp_path


def recorded(answers: str = "replay/answers.yaml") -> TransportConfig:
    return TransportConfig(id="recorded", family="replay", transport="replay", answers=answers)


def ask(fleet_dir: Path, seat: str, answers: str = "replay/answers.yaml") -> Reply:
    transport = open_transport(recorded(answers), TransportContext(fleet_dir=fleet_dir))
    return transport.answer(SeatRequest(prompt="ignored", seat=seat))


@pytest.mark.parametrize(
    ("seat", "starts"),
    [
        ("defect", '{"verdict": "pass"'),
        ("verifier", "```json\n"),
        ("implementor/cx-1", "I'm sorry"),
    ],
)
def test_recorded_replies_by_seat(fleet_dir: Path, seat: str, starts: str) -> None:
    reply = ask(fleet_dir, seat)
    assert reply.text.startswith(starts)
    assert reply.recorded is True
    assert reply.rung == "recorded"
    assert reply.raw_tail == reply.text


def test_missing_key_is_not_answered(fleet_dir: Path) -> None:
    with pytest.raises(NotAnswered) as caught:
        ask(fleet_dir, "telemetry")
    assert "telemetry" in caught.value.message


def test_empty_recorded_reply_is_truncated(fleet_dir: Path) -> None:
    with pytest.raises(Truncated):
        ask(fleet_dir, "matrix_verifier/cx-1")


def test_oversize_recorded_reply_is_malformed(fleet_dir: Path) -> None:
    big = "x" * (MAX_REPLY_BYTES + 1)
    (fleet_dir / "big.yaml").write_text(f"defect: {big}\n", encoding="utf-8")
    with pytest.raises(Oversize):
        ask(fleet_dir, "defect", "big.yaml")


def test_absolute_answers_path(fleet_dir: Path, tmp_path: Path) -> None:
    absolute = str(fleet_dir / "replay" / "answers.yaml")
    reply = ask(tmp_path / "elsewhere", "defect", absolute)
    assert reply.recorded is True


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- a\n- b\n", "is not of type 'object'"),
        ("defect: 1\n", "is not of type 'string'"),
        ("defect: a\ndefect: b\n", "duplicate"),
    ],
)
def test_bad_answers_file_is_bad_input(fleet_dir: Path, text: str, message: str) -> None:
    (fleet_dir / "bad.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as caught:
        ask(fleet_dir, "defect", "bad.yaml")
    assert message in str(caught.value)
    assert "bad.yaml" in str(caught.value)


def test_missing_answers_file_or_field_is_bad_input(fleet_dir: Path) -> None:
    with pytest.raises(BadInput, match="file not found"):
        ask(fleet_dir, "defect", "replay/none.yaml")
    config = TransportConfig(id="recorded", family="replay", transport="replay")
    with pytest.raises(BadInput, match="names no answers file"):
        open_transport(config).answer(SeatRequest(prompt="p", seat="defect"))
