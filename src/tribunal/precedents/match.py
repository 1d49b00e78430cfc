"""`tribunal precedent match` (R-4): which precedents a later dispute falls under.

For each entry (superseded ones hidden unless asked for):
- scope only prose (a string `applies_to`, or a mapping with only `text`): a *candidate*, ranked
  by full-text relevance of the entry against the dispute's string values — never `applies`;
- a declared `domains`/`tiers`/`modes` the dispute's `domain`/`tier`/`mode` is not in (a list of
  values matches when any of them is declared): not listed; `all` matches anything, even a
  dispute that does not say;
- a declared scope key the dispute lacks (absent or null): *scope_unknown*, with those keys;
- scope matches, then `next_check`:
  - prose only: *applies* — prose cannot be triggered by facts (a person re-examines it);
  - `when` evaluates true: *due_for_reexamination*, with the names it read and their values;
  - `when` evaluates false: *applies*;
  - `when` cannot be evaluated (it reads a field the dispute lacks, a None operand, a
    non-boolean result): *cannot_evaluate*, with the missing fields — never "not triggered".

Every list except the candidates is ordered DENY, DEFERRED, APPROVE, then the higher number
(safety first, then the latest precedent).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tribunal.enums import MatchStatus
from tribunal.errors import BadInput, CannotEvaluate
from tribunal.paths import display_path
from tribunal.precedents.entry import ALL_SCOPE, SCOPE_KEYS, Precedent, PrecedentsFile
from tribunal.precedents.facts import Facts
from tribunal.precedents.next_check import WHEN_FIELD, entry_when
from tribunal.precedents.parsing import parse_precedents, read_precedents

# a precedent's scope key -> the dispute's field it is matched against.
FACT_KEYS = {"domains": "domain", "tiers": "tier", "modes": "mode"}


@dataclass(frozen=True)
class Placement:
    """Where one precedent stands for one dispute, with what the JSON lists show for it."""

    status: MatchStatus
    entry: Precedent
    keys: list[str] = field(default_factory=list)  # scope_unknown: the dispute's missing keys
    values: dict[str, Any] = field(default_factory=dict)  # due: the names read, their values
    missing: list[str] = field(default_factory=list)  # cannot_evaluate: fields the dispute lacks
    why: str = ""  # cannot_evaluate: the evaluator's reason
    score: float = 0.0  # candidates: text relevance, higher is better


@dataclass(frozen=True)
class MatchResult:
    """The answer of `precedent match` (R-4), each list in its order."""

    applies: list[Placement]
    due_for_reexamination: list[Placement]
    cannot_evaluate: list[Placement]
    scope_unknown: list[Placement]
    candidates: list[Placement]

    @property
    def none(self) -> bool:
        """True when nothing applies, is due, cannot be evaluated or lacks scope (candidates do
        not count)."""
        return not (
            self.applies or self.due_for_reexamination or self.cannot_evaluate or self.scope_unknown
        )

    def to_json(self) -> dict[str, Any]:
        """The `--json` document (match.schema.json)."""
        return {
            "applies": [_entry_json(p.entry) for p in self.applies],
            "due_for_reexamination": [
                {"case_id": p.entry.case_id, "when": p.entry.next_check_when, "values": p.values}
                for p in self.due_for_reexamination
            ],
            "cannot_evaluate": [
                {
                    "case_id": p.entry.case_id,
                    "when": p.entry.next_check_when,
                    "missing": p.missing,
                    "why": p.why,
                }
                for p in self.cannot_evaluate
            ],
            "scope_unknown": [
                {"case_id": p.entry.case_id, "keys": p.keys} for p in self.scope_unknown
            ],
            "candidates": [{**_entry_json(p.entry), "score": p.score} for p in self.candidates],
            "none": self.none,
        }


def match_precedents(
    source: Path,
    root: Path,
    facts: Facts,
    *,
    include_superseded: bool = False,
    candidate_limit: int | None = 20,
) -> MatchResult:
    """Place every precedent of `source` for the dispute described by `facts` (R-4).

    Candidates are the prose-scoped entries sharing a word with the facts' string values, best
    first, at most `candidate_limit` (0: none, and the search index is not touched). Raises
    BadInput when the precedents file is missing, does not parse, or holds a `next_check.when`
    that does not compile.
    """
    label = display_path(source, root)
    parsed = read_precedents(source, label, strict=False)
    parsed.require_clean()
    hidden = set() if include_superseded else parsed.superseded_ids()
    lists: dict[MatchStatus, list[Placement]] = {status: [] for status in MatchStatus}
    for entry in parsed.entries:
        if entry.case_id in hidden:
            continue
        placement = place(entry, facts.values, label, parsed)
        lists[placement.status].append(placement)
    for status in (
        MatchStatus.APPLIES,
        MatchStatus.DUE,
        MatchStatus.CANNOT_EVALUATE,
        MatchStatus.SCOPE_UNKNOWN,
    ):
        lists[status].sort(key=lambda p: (-p.entry.verdict.strictness, -p.entry.number))
    return MatchResult(
        applies=lists[MatchStatus.APPLIES],
        due_for_reexamination=lists[MatchStatus.DUE],
        cannot_evaluate=lists[MatchStatus.CANNOT_EVALUATE],
        scope_unknown=lists[MatchStatus.SCOPE_UNKNOWN],
        candidates=_ranked(
            source, root, parsed, facts, lists[MatchStatus.CANDIDATE], include_superseded,
            candidate_limit,
        ),
    )  # fmt: skip


def place(
    entry: Precedent,
    facts: Mapping[str, Any],
    label: str,
    parsed: PrecedentsFile | None = None,
) -> Placement:
    """Where `entry` stands for a dispute with fields `facts` (see the module doc).

    Raises BadInput when the entry's `next_check.when` does not compile.
    """
    if all(entry.scope(key) is None for key in SCOPE_KEYS):
        return Placement(MatchStatus.CANDIDATE, entry)
    unknown: list[str] = []
    for key in SCOPE_KEYS:
        declared = entry.scope(key)
        if declared is None or ALL_SCOPE in declared:
            continue
        value = facts.get(FACT_KEYS[key])
        if value is None:
            unknown.append(FACT_KEYS[key])
        elif not any(str(item) in declared for item in _items(value)):
            return Placement(MatchStatus.OUT_OF_SCOPE, entry)
    if unknown:
        return Placement(MatchStatus.SCOPE_UNKNOWN, entry, keys=unknown)
    return _next_check(entry, facts, label, parsed)


def _next_check(
    entry: Precedent, facts: Mapping[str, Any], label: str, parsed: PrecedentsFile | None
) -> Placement:
    try:
        when = entry_when(entry, label)
    except BadInput as error:
        raise _located(error, entry, parsed) from None
    if when is None:
        return Placement(MatchStatus.APPLIES, entry)  # prose cannot be triggered by facts
    reads = _Reads(facts)
    try:
        value = when.evaluate(reads)
    except CannotEvaluate as error:
        missing = [name for name in when.names if name not in facts] if reads.missing else []
        return Placement(MatchStatus.CANNOT_EVALUATE, entry, missing=missing, why=error.why)
    if not isinstance(value, bool):
        why = f"condition gave {type(value).__name__}, not a boolean"
        return Placement(MatchStatus.CANNOT_EVALUATE, entry, why=why)
    if value:
        return Placement(MatchStatus.DUE, entry, values=dict(reads.read))
    return Placement(MatchStatus.APPLIES, entry)


class _Reads(Mapping[str, Any]):
    """The dispute's fields, recording which names an expression read and which it lacked."""

    def __init__(self, facts: Mapping[str, Any]) -> None:
        self.facts = facts
        self.read: dict[str, Any] = {}
        self.missing: list[str] = []

    def __getitem__(self, name: str) -> Any:
        if name not in self.facts:
            self.missing.append(name)
            raise KeyError(name)
        value = self.facts[name]
        self.read.setdefault(name, value)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)


def _items(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _located(error: BadInput, entry: Precedent, parsed: PrecedentsFile | None) -> BadInput:
    """The error at the line of `when`: the bulk parse keeps no field lines, so the file is
    parsed again on the strict path (only on this error path) to find it."""
    if parsed is None or WHEN_FIELD in entry.field_lines:
        return error
    strict = parse_precedents(parsed.text, parsed.label)
    for again in strict.entries:
        if again.span == entry.span:
            return BadInput(
                error.message,
                source=error.source,
                line=again.line_of(WHEN_FIELD),
                field=error.field,
            )
    return error


def _ranked(
    source: Path,
    root: Path,
    parsed: PrecedentsFile,
    facts: Facts,
    candidates: list[Placement],
    include_superseded: bool,
    limit: int | None,
) -> list[Placement]:
    """The prose-scoped entries ranked by the index against the facts' string values."""
    from tribunal.precedents.search import relevance

    if not candidates or limit == 0:
        return []
    by_position = {id(p.entry): p for p in candidates}
    ranked: list[Placement] = []
    hits = relevance(
        source, root, facts.strings(), include_superseded=include_superseded, limit=limit
    )
    for position, case_id, score in hits:
        entry = parsed.entries[position - 1] if position <= len(parsed.entries) else None
        if entry is None or entry.case_id != case_id or id(entry) not in by_position:
            continue  # the file changed between the parse and the index: skip, never guess
        ranked.append(Placement(MatchStatus.CANDIDATE, entry, score=score))
    return ranked


def _entry_json(entry: Precedent) -> dict[str, Any]:
    return {
        "case_id": entry.case_id,
        "verdict": entry.fields["verdict"],
        "applies_to": entry.fields["applies_to"],
        "next_check": entry.fields["next_check"],
        "evidence_ref": entry.fields["evidence_ref"],
    }


def listing(result: MatchResult) -> str:
    """The readable answer (without --json): one section per non-empty list, one line each."""
    lines: list[str] = []

    def section(title: str, placements: list[Placement], detail: Any) -> None:
        if placements:
            lines.append(f"{title}:")
            lines.extend(
                f"  {p.entry.case_id}  {p.entry.verdict.value:<8}  {detail(p)}" for p in placements
            )

    section("applies", result.applies, lambda p: p.entry.applies_to_text)
    section(
        "due for re-examination",
        result.due_for_reexamination,
        lambda p: f"{p.entry.next_check_when}  ({_shown(p.values)})",
    )
    section(
        "cannot evaluate",
        result.cannot_evaluate,
        lambda p: (
            f"{p.entry.next_check_when}  "
            f"({'missing ' + ', '.join(p.missing) if p.missing else p.why})"
        ),
    )
    section(
        "scope unknown", result.scope_unknown, lambda p: f"the dispute lacks {', '.join(p.keys)}"
    )
    section(
        "candidates (scope in prose only: ranked by text, never applied)",
        result.candidates,
        lambda p: f"{p.score:.4g}  {p.entry.applies_to_text}",
    )
    if result.none:
        lines.insert(0, "no precedent applies, is due, or needs more of the dispute's fields")
    return "".join(f"{line}\n" for line in lines)


def _shown(values: dict[str, Any]) -> str:
    import json

    return ", ".join(
        f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in values.items()
    )
