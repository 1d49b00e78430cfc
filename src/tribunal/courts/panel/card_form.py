"""The panel member's output protocol as data (P-4, P-3, E-5): the scorecard form the jury's
`render_protocol` renders, so the panel's prompt shows its card the way the blind court shows
its verdict.

The lens, the round and the phase are written literally (`"lens": "adversary"`, `"round": 2`,
`"phase": "synthesis"`), never as placeholders, and every dimension is named by its id. Scores
and confidences are shown as ranges, never one example number: a member shown a number anchors
on it, and P-3 lets no expected score reach a prompt. Choices and ranges keep the example from
being a whole valid card to copy. Its citations are the envelope's example line (E-5), or absent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tribunal.enums import Recommendation, ScenarioKind, ScorecardPhase, Severity
from tribunal.evidence.slice.criteria import PanelLens
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.prompt import AnswerForm, OneOf, Rule, Slot, Span


def scorecard_form(
    lens: PanelLens,
    *,
    round: int,
    phase: ScorecardPhase,
    dimensions: Sequence[str],
    example: ExampleCitation | None,
) -> AnswerForm:
    """The card of `phase` in `round` for the member seated on `lens`, as an `AnswerForm` for
    `render_protocol`: the lens, the round and the phase as literal values, every one of
    `dimensions` by its id, ranges for the numbers, and, when `example` is given, its line as
    the example's every citation (without it, no citation is shown)."""
    # E-5: a citation names its line first, then quotes it.
    cited = {"location": Slot.LOCATION, "quote": Slot.QUOTE}
    evidence = [cited] if example is not None else []
    score = {"score": Span(1, 10), "confidence": Span(0.0, 1.0), "evidence": evidence}
    round_line = f'"round": {json.dumps(round)}'
    phase_line = f'"phase": {json.dumps(phase.value)}'
    scenario_rule = (
        "`failure_scenarios`: as the adversary you name at least one (which input, which wrong "
        "behaviour, where): a card without one is not counted."
        if lens.adversary
        else "`failure_scenarios`: each way the change fails (which input, which wrong "
        "behaviour, where); it may be empty."
    )
    rules = [
        _always(
            f"Write the lens, the round and the phase exactly as shown: {{lens_line}}, "
            f"{round_line}, {phase_line}."
        ),
        _always(
            f"Score every dimension, each by its id: {_literal(', '.join(dimensions))}. A card "
            "that leaves "
            "one out is not counted."
        ),
        _always(
            "`score` is a whole number from 1 to 10; `confidence` a number from 0.0 to 1.0, how "
            "sure you are of that score."
        ),
        _always(
            "Every score rests on its evidence: a score of 8 or more needs a verbatim quote, a "
            "score of 3 or less a location or command output, and a score citing evidence "
            "that does not check against the material is discarded."
        ),
        Rule(
            "`location` is a path as written after ### in the envelope (or a reference's path), "
            "a colon, one line number, like {location}; `quote` copies that line's text, like "
            "{quote} (not the number and bar before it).",
            without_example="`location` is a path as written after ### in the envelope (or a "
            "reference's path), a colon, one line number; `quote` copies that line's text (not "
            "the number and bar before it).",
        ),
        _always(
            "Evidence may also be an object with `command`, a verification command exactly as "
            "listed, and `output`, text that command's output above holds verbatim."
        ),
        Rule("The example's {location} only shows the form: cite the lines you judged."),
        _always(scenario_rule),
        _always(
            "`findings`: every defect, the most severe first. `fix` is the local fix, or null "
            "when only a redesign mends it: then `structural` is true."
        ),
        _always(
            "`escalation` stays null unless a correctness or safety concern cannot be "
            "rebutted: then it is ESCALATE, a colon and the reason, as one string."
        ),
        _always(
            "A finding about code the envelope does not hold is not a finding: say what is "
            "missing from the envelope instead."
        ),
    ]
    if phase is ScorecardPhase.SYNTHESIS:
        rules.append(
            _always(
                "This is the synthesis phase: re-score every dimension, whether or not your "
                "score changes, with the same checks on every citation."
            )
        )
    return AnswerForm(
        fields=(
            ("lens", Slot.LENS),
            ("round", round),
            ("phase", phase.value),
            ("scores", dict.fromkeys(dimensions, score)),
            (
                "failure_scenarios",
                [
                    {
                        "input": "the input that makes it fail",
                        "wrong_behaviour": "what goes wrong then",
                        "kind": OneOf(tuple(kind.value for kind in ScenarioKind)),
                        **cited,
                    }
                ],
            ),
            (
                "findings",
                [
                    {
                        "severity": OneOf(tuple(severity.value for severity in Severity)),
                        "claim": "what is wrong on that line",
                        **cited,
                        "fix": "the local fix",
                        "structural": OneOf((False, True)),
                    }
                ],
            ),
            ("top_concern", "your strongest concern, in one sentence"),
            ("recommendation", OneOf(tuple(item.value for item in Recommendation))),
            ("escalation", None),
        ),
        rules=tuple(rules),
    )


def _always(text: str) -> Rule:
    """A rule that cites nothing of the example: shown with an example or without one."""
    return Rule(text, without_example=text)


def _literal(text: str) -> str:
    """`text` inside a rule, shown as written (a rule's text is formatted with the example)."""
    return text.replace("{", "{{").replace("}", "}}")
