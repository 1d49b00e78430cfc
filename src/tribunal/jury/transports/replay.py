"""The `replay` transport (L-7): recorded replies from the rung's `answers` YAML.

The file (relative to the fleet file) maps a seat key — a lens id, a role,
`implementor/<id>` / `matrix_verifier/<id>`, or a panel member's `panel/R<round>/<lens>` (with
`/synthesis` for its synthesis card) — to the raw reply text recorded for it. A missing
key is `not_answered` (the walk re-seats); every reply is flagged `recorded`, so every report
can label it. Recorded text goes through the same checks as a live reply (empty is truncated,
over 1 MiB is malformed), so a replay fleet exercises the same L-6 rows offline.
"""

from __future__ import annotations

from pathlib import Path

from tribunal.errors import BadInput
from tribunal.jury.redaction import raw_tail
from tribunal.jury.transports.base import (
    Reply,
    SeatRequest,
    TransportConfig,
    TransportContext,
    Usage,
    checked_reply,
)
from tribunal.jury.transports.failures import NotAnswered, Oversize
from tribunal.jury.transports.registry import TransportRegistry
from tribunal.jury.verdict import MAX_REPLY_BYTES


def load_answers(path: Path, label: str) -> dict[str, str]:
    """The recorded replies of the answers file at `path` (named `label`), by seat key.

    Raises BadInput when the file is missing, not YAML, or not a mapping of keys to text (C-3).
    """
    from tribunal.documents import load_yaml, validate

    document = load_yaml(path, label)
    validate(document, "answers")
    return dict(document.data)


class ReplayTransport:
    """Recorded replies, looked up by seat key."""

    def __init__(self, config: TransportConfig, context: TransportContext) -> None:
        self.config = config
        self.context = context
        self._answers: dict[str, str] | None = None

    @property
    def answers_path(self) -> Path:
        """The answers file: `answers` resolved against the fleet file's directory. Raises
        BadInput when the rung names none."""
        if not self.config.answers:
            raise BadInput(f"replay rung {self.config.id!r} names no answers file", field="answers")
        return self.context.fleet_dir / self.config.answers

    def answers(self) -> dict[str, str]:
        """The recorded replies by seat key (loaded once). Raises BadInput when the file is
        missing, not YAML, or not a mapping of keys to text (C-3)."""
        if self._answers is None:
            path = self.answers_path
            self._answers = load_answers(path, str(path))
        return self._answers

    def answer(self, request: SeatRequest) -> Reply:
        """The recorded reply for `request.seat`; raises NotAnswered when none is recorded."""
        answers = self.answers()
        if request.seat not in answers:
            raise NotAnswered(
                f"no recorded answer for {request.seat!r} in {self.answers_path}",
                rung=self.config.id,
            )
        text = answers[request.seat]
        if len(text.encode("utf-8")) > MAX_REPLY_BYTES:
            raise Oversize(
                f"recorded reply over {MAX_REPLY_BYTES} bytes",
                rung=self.config.id,
                raw_tail=raw_tail(text[:MAX_REPLY_BYTES], ()),
            )
        return checked_reply(
            Reply(
                rung=self.config.id,
                text=text,
                finish_reason=None,
                usage=Usage(),
                status=None,
                raw_tail=raw_tail(text, ()),
                recorded=True,
            )
        )


def register_transports(registry: TransportRegistry) -> None:
    """The plugin hook: register `replay`."""
    registry.register("replay", ReplayTransport)
