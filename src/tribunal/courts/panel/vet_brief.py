"""What a vetting juror is shown (P-11): the three lenses and their questions, and the envelope of
the plan and the criteria its work will be scored against.

The envelope shows each file whole, its lines numbered as the blind court's envelope numbers
them (`file_text`), so a juror cites `path:line` the way every juror does and its citations are
checked against the very texts it was shown (V-4). The prompt itself is the jury's: the lens's
question, the envelope fenced by a fresh nonce (S-2: the plan is material to judge, never
instructions) and the V-1 output protocol, its example a real line of the envelope (E-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tribunal.enums import FileRole
from tribunal.jury.envelope.text import EnvelopeFile, ExampleCitation, example_citation, file_text
from tribunal.jury.lenses import Lens

# P-11: the three lenses, in this order.
VET_QUESTIONS = {
    "works": (
        "Will the plan work, and are its checks concrete? Refuse a step whose result nothing "
        'checks, and a check that is not a command, a test or an observable fact — "make sure '
        'it works" checks nothing. Pass when following the plan would meet the criteria and '
        "show that it does."
    ),
    "followable": (
        "Can an executor follow the plan as written, without coming back to ask? Refuse a step "
        "that leaves open which file, which input, which order or when it is done. Pass when "
        "every step says what to do and how to tell it is done."
    ),
    "cheapest": (
        "Is the plan the cheapest path that is still sufficient? Refuse a step, file or "
        "dependency the criteria do not call for, and a plan where a simpler one meets the "
        "same criteria. Never trade away a check the criteria require: a cheaper plan that "
        "proves less is not sufficient."
    ),
}
VET_LENS_IDS = tuple(VET_QUESTIONS)

VET_PREAMBLE = (
    "You are one of three reviewers vetting a plan before anything is built. The envelope\n"
    "below holds the plan and the criteria the finished work will be scored against, each\n"
    "file whole. Judge the plan as it is written, through your lens only: pass when it holds\n"
    "up, refuse when it does not, and cite the lines of the plan or the criteria your verdict\n"
    "rests on.\n"
)

_ENVELOPE_PREAMBLE = """\
# Envelope

The plan under vetting, then the criteria its work will be scored against: each file whole and
verbatim between fences, each line shown after its line number and a bar (line 12 starts with
`  12 | `): the number and the bar are not part of the file.
"""


def vet_lenses(tier: str) -> tuple[Lens, ...]:
    """The three lenses, in order, each routed on `tier` (the panel's tier, else generalist)."""
    return tuple(Lens(lens, tier, question) for lens, question in VET_QUESTIONS.items())


@dataclass(frozen=True)
class PlanEnvelope:
    """The text every vetting juror reads, the files it shows by path (what citations are
    checked against), and the line the output protocol cites as its example (None: none)."""

    text: str
    files: Mapping[str, str]
    example: ExampleCitation | None


def plan_envelope(plan: tuple[str, str], criteria: tuple[str, str]) -> PlanEnvelope:
    """The envelope of `plan` and `criteria`, each given as (its path as shown, its text).
    Returns the PlanEnvelope; raises nothing."""
    sections = (("The plan", plan), ("The criteria", criteria))
    text = _ENVELOPE_PREAMBLE + "".join(
        f"\n## {title}\n{file_text(path, content)}" for title, (path, content) in sections
    )
    files = [EnvelopeFile(path, FileRole.CHANGED, None, content) for _, (path, content) in sections]
    return PlanEnvelope(
        text=text,
        files=MappingProxyType({file.path: file.text or "" for file in files}),
        example=example_citation(files),
    )
