"""T-7: the tier-pair matrix — the same duel results seen through implementor/verifier pairs.

An implementor tier produces evidence in its form (`minimal_form`: diagnostic_code and
allowed_delta; `extended_form`: evidence_by_invariant); a verifier tier recognises some forms.
A case the duel did not PASS keeps its duel verdict and reasons; otherwise the verifier FAILs
evidence in a form it does not recognise, a `minimal_form` with no code, or an `extended_form`
with a violated invariant. The spec runs once per case (in the duel), never once per pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.documents import load_json, validate
from tribunal.enums import CaseVerdict, EvidenceFormat, InvariantStatus, MatrixSignal
from tribunal.errors import BadInput
from tribunal.evidence.duel import CaseResult, DuelReport


@dataclass(frozen=True)
class Tier:
    """A model tier: the form it produces as implementor, the forms it recognises as verifier."""

    name: str
    produces: EvidenceFormat
    recognizes: tuple[EvidenceFormat, ...]


@dataclass(frozen=True)
class TierPair:
    """One listed implementor/verifier pair."""

    pair_id: str
    impl: str
    verifier: str
    note: str


@dataclass(frozen=True)
class TierConfig:
    """matrix/tiers.json, loaded and checked."""

    label: str
    spec_id: str
    tiers: dict[str, Tier]
    pairs: tuple[TierPair, ...]

    def select(self, wanted: str | None) -> list[TierPair]:
        """The pairs named by `--pairs impl/verifier,...` (in that order), or all pairs (None).

        Raises BadInput for an empty item (so for a value that names no pair: a matrix of no
        pair would be a vacuous uniform_pass, T-7), an item that names an unknown tier, or a
        pair that is not listed.
        """
        if wanted is None:
            return list(self.pairs)
        selected: list[TierPair] = []
        for item in (part.strip() for part in wanted.split(",")):
            if not item:
                raise self._bad_pair(f"list {wanted!r} has an empty item; name impl/verifier")
            impl, slash, verifier = (side.strip() for side in item.partition("/"))
            if not slash or not impl or not verifier:
                raise self._bad_pair(f"{item!r} is not of the form impl/verifier")
            for name in (impl, verifier):
                if name not in self.tiers:
                    known = ", ".join(self.tiers)
                    raise self._bad_pair(f"{item!r} names unknown tier {name!r} (known: {known})")
            pair = next((p for p in self.pairs if (p.impl, p.verifier) == (impl, verifier)), None)
            if pair is None:
                raise self._bad_pair(f"{item!r} is not a pair listed in {self.label}")
            if pair not in selected:
                selected.append(pair)
        return selected

    def _bad_pair(self, message: str) -> BadInput:
        return BadInput(f"pair {message}", field="--pairs")


def load_tiers(path: Path, label: str, spec_id: str) -> TierConfig:
    """Load and check tiers.json for the spec `spec_id`.

    Raises BadInput for a schema violation, a pair naming an unknown tier, or another spec_id.
    """
    document = load_json(path, label)
    validate(document, "tiers")
    data = document.data
    if data["spec_id"] != spec_id:
        raise document.bad(
            f"spec_id {data['spec_id']!r} differs from the spec's {spec_id!r}", ("spec_id",)
        )
    tiers = {
        name: Tier(
            name,
            EvidenceFormat(entry["impl_produces"]),
            tuple(EvidenceFormat(form) for form in entry["verif_recognizes"]),
        )
        for name, entry in data["tiers"].items()
    }
    pairs: list[TierPair] = []
    for index, entry in enumerate(data["pairs"]):
        for role in ("impl", "verifier"):
            if entry[role] not in tiers:
                raise document.bad(
                    f"pair {entry['id']!r} names unknown tier {entry[role]!r}",
                    ("pairs", index, role),
                )
        if any(pair.pair_id == entry["id"] for pair in pairs):
            raise document.bad(f"pair id {entry['id']!r} is listed twice", ("pairs", index, "id"))
        pairs.append(TierPair(entry["id"], entry["impl"], entry["verifier"], entry.get("note", "")))
    return TierConfig(document.label, data["spec_id"], tiers, tuple(pairs))


def produce_evidence(result: CaseResult, form: EvidenceFormat) -> dict[str, Any]:
    """The evidence an implementor of form `form` hands over for one duel result."""
    if form is EvidenceFormat.MINIMAL_FORM:
        actual = result.actual()
        return {
            "evidence_format": form.value,
            "diagnostic_code": actual["diagnostic_code"],
            "allowed_delta": actual["allowed_delta"],
        }
    return {
        "evidence_format": form.value,
        "evidence_by_invariant": [
            {
                "statement": check.invariant.text,
                "status": check.status.value,
                "actual": check.values,
            }
            for check in result.run.invariants
        ],
    }


def verify(evidence: dict[str, Any], verifier: Tier) -> tuple[CaseVerdict, list[str]]:
    """A verifier tier's verdict on evidence of a case the duel PASSed, with its reasons."""
    form = EvidenceFormat(evidence["evidence_format"])
    if form not in verifier.recognizes:
        known = ", ".join(f.value for f in verifier.recognizes)
        reason = f"verifier does not recognise evidence_format={form.value}, knows only [{known}]"
        return CaseVerdict.FAIL, [reason]
    if form is EvidenceFormat.MINIMAL_FORM:
        if evidence["diagnostic_code"] is None:
            return CaseVerdict.FAIL, ["minimal_form evidence has no diagnostic_code"]
        return CaseVerdict.PASS, []
    violated = [
        f"extended_form evidence has a violated invariant: {entry['statement']}"
        for entry in evidence["evidence_by_invariant"]
        if entry["status"] == InvariantStatus.VIOLATED.value
    ]
    return (CaseVerdict.FAIL, violated) if violated else (CaseVerdict.PASS, [])


@dataclass(frozen=True)
class PairResult:
    """One pair's verdict over every case."""

    pair: TierPair
    cases: tuple[dict[str, Any], ...]

    @property
    def passed(self) -> bool:
        """A pair passes if all its cases pass."""
        return all(case["verdict"] == CaseVerdict.PASS.value for case in self.cases)

    def to_dict(self) -> dict[str, Any]:
        """One entry of matrix.json `pairs`."""
        return {
            "pair_id": self.pair.pair_id,
            "impl": self.pair.impl,
            "verifier": self.pair.verifier,
            "note": self.pair.note,
            "verdict": (CaseVerdict.PASS if self.passed else CaseVerdict.FAIL).value,
            "cases": list(self.cases),
        }


@dataclass(frozen=True)
class MatrixReport:
    """All pairs; `to_dict()` is matrix.json."""

    spec_id: str
    pairs: tuple[PairResult, ...]

    @property
    def signal(self) -> MatrixSignal:
        """tier_dependent_spec when some pairs pass and some fail, else uniform_pass/_fail."""
        passed = {pair.passed for pair in self.pairs}
        if passed == {True, False}:
            return MatrixSignal.TIER_DEPENDENT_SPEC
        return MatrixSignal.UNIFORM_PASS if passed <= {True} else MatrixSignal.UNIFORM_FAIL

    def to_dict(self) -> dict[str, Any]:
        """matrix.json, exactly as T-7 (key order fixed, C-6)."""
        signal = self.signal
        return {
            "spec_id": self.spec_id,
            "total_pairs": len(self.pairs),
            "summary": {
                "signal": signal.value,
                "pass_pairs": [p.pair.pair_id for p in self.pairs if p.passed],
                "fail_pairs": [p.pair.pair_id for p in self.pairs if not p.passed],
                "diverging": signal is MatrixSignal.TIER_DEPENDENT_SPEC,
            },
            "pairs": [pair.to_dict() for pair in self.pairs],
        }

    def lines(self) -> list[str]:
        """Stderr: one line per pair, then the signal."""
        lines = []
        for result in self.pairs:
            verdict = CaseVerdict.PASS if result.passed else CaseVerdict.FAIL
            passing = sum(1 for case in result.cases if case["verdict"] == CaseVerdict.PASS.value)
            pair = result.pair
            lines.append(
                f"{verdict.value:<10}{pair.pair_id} {pair.impl} -> {pair.verifier} "
                f"({passing}/{len(result.cases)} cases pass)"
            )
        lines.append(f"signal: {self.signal.value}")
        return lines


def run_matrix(duel: DuelReport, config: TierConfig, pairs: Sequence[TierPair]) -> MatrixReport:
    """Judge every duel result through every pair (the duel's results are reused, X-4)."""
    evidence: dict[EvidenceFormat, list[dict[str, Any]]] = {}
    verdicts: dict[tuple[EvidenceFormat, tuple[EvidenceFormat, ...]], list[dict[str, Any]]] = {}
    results: list[PairResult] = []
    for pair in pairs:
        impl, verifier = config.tiers[pair.impl], config.tiers[pair.verifier]
        form = impl.produces
        if form not in evidence:
            evidence[form] = [produce_evidence(result, form) for result in duel.results]
        key = (form, verifier.recognizes)
        if key not in verdicts:
            # The cells depend only on the form and what the verifier recognises: reuse them.
            verdicts[key] = [
                _cell(result, produced, verifier)
                for result, produced in zip(duel.results, evidence[form], strict=True)
            ]
        results.append(PairResult(pair, tuple(verdicts[key])))
    return MatrixReport(duel.spec.spec_id, tuple(results))


def _cell(result: CaseResult, evidence: dict[str, Any], verifier: Tier) -> dict[str, Any]:
    verdict: CaseVerdict
    if result.verdict is not CaseVerdict.PASS:
        # T-7: a case the duel did not PASS keeps its duel verdict and reasons.
        verdict, reasons = result.verdict, [reason.text for reason in result.reasons]
    else:
        verdict, reasons = verify(evidence, verifier)
    return {
        "counterexample_id": result.case.counterexample_id,
        "evidence_format": evidence["evidence_format"],
        "verdict": verdict.value,
        "reasons": reasons,
    }
