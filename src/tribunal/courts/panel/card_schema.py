"""L-1, L-7 for the panel: the strict scorecard schema a member's seat sends when its rung asks
for a schema form (P-4).

Built per seat as the verdict's is, from `jury.verdict_schema`'s pieces (its dialects, strict
objects, non-empty text and `location` schema): every property required, no additional
properties, the seated lens a one-value enum, the round and the phase constants (one-value enums
too, the keyword every server honours), each dimension of the criteria a required property with
a whole-number score 1..10 and a confidence 0..1, evidence in either of its two forms as strict
objects, and every `location` held to the `path:line` citations the envelope can back. It only
narrows what the reader accepts: anything valid against it is read by `read_card` as a
`Scorecard` for that seat (a property test holds this) — as long as the envelope has a file to
cite; with none, `location` is any non-empty text, and a quote and location that are both blank
(which no grammar server's schema can rule out, see `verdict_schema`) are still malformed. A
schema sent is not a schema obeyed: every reply is still read and checked (P-4, P-6).

Order: a dimension's evidence comes before its score, and the card's scores, scenarios and
findings before its recommendation — the decoder writes what it looked at before it judges, as a
verdict's `checked` and `findings` come before `verdict`. A citation names its line first, then
quotes it.

Nothing P-4 lets be empty is forced full: a dimension's evidence may be an empty list (P-6 then
refutes an 8 or a 3 that needs some), and findings may be none. Forcing an entry would make the
decoder fabricate one. The one exception is the adversary's failure scenarios (`adversary=True`):
P-2's adversary must oppose, a card without a scenario is malformed anyway, and the schema asks
for at least one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tribunal.courts.panel.cards import MAX_SCORE, MIN_SCORE
from tribunal.enums import Recommendation, ScenarioKind, ScorecardPhase, Severity
from tribunal.jury.verdict_schema import (
    SchemaDialect,
    location_schema,
    non_empty_text,
    strict_object,
)

CONFIDENCES = [0, *(tenth / 10 for tenth in range(1, 10)), 1]  # 0, 0.1, ..., 0.9, 1
SCHEMA_NAME = "scorecard"  # OpenAI's json_schema `name`, Anthropic's tool name


def strict_scorecard_schema(
    lens: str,
    round: int,
    phase: ScorecardPhase,
    dimensions: Iterable[str],
    envelope_files: Mapping[str, str] | None,
    dialect: SchemaDialect = SchemaDialect.GRAMMAR,
    *,
    adversary: bool = False,
    example: tuple[str, int] | None = None,
) -> dict[str, Any]:
    """The strict P-4 card schema for the member seated as `lens`, scoring `dimensions` in
    `phase` of `round`, citing `envelope_files` (path -> the text the member was shown; None: no
    envelope, `location` any non-empty string), written in `dialect`; `adversary` asks for at
    least one failure scenario; `example` is the protocol's example citation (path, line), which
    the location pattern leaves out (E-5: a copy never counts). Returns a new JSON Schema object;
    raises nothing."""
    text = non_empty_text(dialect)
    location = location_schema(envelope_files, dialect, example=example)
    cited = {"location": location, "quote": non_empty_text(dialect)}
    evidence = {
        "anyOf": [
            strict_object(cited),
            strict_object({"command": non_empty_text(dialect), "output": non_empty_text(dialect)}),
        ]
    }
    dimension = strict_object(
        {
            "evidence": {"type": "array", "items": evidence},
            # The scores as an enum, not a range: grammar-constrained servers (llama.cpp's) may
            # not hold an integer to minimum and maximum — a live SmolLM2 135M wrote a 0 — but
            # every one holds a value to its enum.
            "score": {"type": "integer", "enum": list(range(MIN_SCORE, MAX_SCORE + 1))},
            # Tenths, for the same reason (a live SmolLM2 135M wrote 1.698); the reader still
            # takes any number from 0 to 1.
            "confidence": {"type": "number", "enum": CONFIDENCES},
        }
    )
    scenario = strict_object(
        {
            **cited,
            "input": text,
            "wrong_behaviour": text,
            "kind": {"type": "string", "enum": [kind.value for kind in ScenarioKind]},
        }
    )
    finding = strict_object(
        {
            **cited,
            "claim": text,
            "severity": {"type": "string", "enum": [severity.value for severity in Severity]},
            "fix": {"anyOf": [non_empty_text(dialect), {"type": "null"}]},
            "structural": {"type": "boolean"},
        }
    )
    scenarios: dict[str, Any] = {"type": "array", "items": scenario}
    if adversary:
        scenarios["minItems"] = 1  # P-2: the adversary must oppose
    return strict_object(
        {
            "lens": {"type": "string", "enum": [lens]},
            "round": {"type": "integer", "enum": [round]},
            "phase": {"type": "string", "enum": [ScorecardPhase(phase).value]},
            "scores": strict_object({name: dimension for name in dimensions}),
            "failure_scenarios": scenarios,
            "findings": {"type": "array", "items": finding},
            "top_concern": text,
            "recommendation": {"type": "string", "enum": [r.value for r in Recommendation]},
            "escalation": {"anyOf": [non_empty_text(dialect), {"type": "null"}]},
        }
    )
