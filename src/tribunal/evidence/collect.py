"""Evidence records (SPEC §1) from the outputs of the tutorial's producers.

`duel.json` (T-4) gives one record per case, `invariants.json` (T-5) one per check plus one for a
corruption block, and `--evidence` files are records already. Every `evidence_ref` points at
committed inputs with key-based pointers — case files, `specs/…yaml:<line>`,
`metrics/…json#/<metric>` — never at the scratch outputs under `out/` (T-6).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tribunal.documents import Document, load_any, load_json, validate
from tribunal.enums import CaseVerdict, EvidenceKind, InvariantReason, ReasonKind, ThresholdBound
from tribunal.errors import BadInput, BrokenRef
from tribunal.evidence.record import Evidence
from tribunal.paths import SCRATCH_DIRS, is_scratch, scratch_dir_of
from tribunal.refs import admit_evidence_ref
from tribunal.settings import scratch_dirs

# T-6: a reason written into a judgment is `kind` or `kind:argument` (the judgment schema's form).
REASON_FORM = re.compile(r"^[a-z][a-z0-9_]*(:\S.*)?$")


def load_duel(path: Path, label: str) -> Document:
    """Load `duel.json` and check it against the `duel` schema. Raises BadInput."""
    document = load_json(path, label)
    validate(document, "duel")
    return document


def load_invariants(path: Path, label: str) -> Document:
    """Load `invariants.json` and check it against the `invariants` schema. Raises BadInput."""
    document = load_json(path, label)
    validate(document, "invariants")
    return document


def load_evidence_file(path: Path, label: str, *, root: Path | None = None) -> Evidence:
    """Load one Evidence record (JSON or YAML) checked against the `evidence` schema.

    Raises BadInput, also when its `reason_code` could not become a judgment reason, or (with
    `root`) when an evidence_ref does not resolve inside it.
    """
    document = load_any(path, label)
    validate(document, "evidence")
    if not REASON_FORM.match(document.data["reason_code"]):
        raise document.bad("must be `code` or `code:argument` (lower case)", ("reason_code",))
    refs = document.data["evidence_ref"]
    _admit_refs(document, refs, ("evidence_ref",), root, _scratch(root))
    return Evidence.from_dict(document.data)


def duel_evidence(duel: Document, *, root: Path | None = None) -> list[Evidence]:
    """One record per case, in the duel's order (name order, T-3).

    A FAIL is `counterexample_got_through:<id>`, a DEFERRED `deferred:<id>`, a PASS `clean`.
    Raises BadInput when an evidence_ref points under `out/` or (with `root`) does not resolve.
    """
    records = []
    scratch = _scratch(root)
    for index, result in enumerate(duel.data["results"]):
        where = ("results", index, "evidence_ref")
        _admit_refs(duel, result["evidence_ref"], where, root, scratch)
        verdict = CaseVerdict(result["verdict"])
        case_id = result["counterexample_id"]
        if verdict is CaseVerdict.FAIL:
            reason = ReasonKind.COUNTEREXAMPLE_GOT_THROUGH.with_argument(case_id)
        elif verdict is CaseVerdict.DEFERRED:
            reason = ReasonKind.DEFERRED.with_argument(case_id)
        else:
            reason = ReasonKind.CLEAN.value
        records.append(
            Evidence(
                kind=EvidenceKind.DUEL.value,
                verdict=verdict,
                reason_code=reason,
                evidence_ref=list(result["evidence_ref"]),
                details=result,
            )
        )
    return records


def invariants_evidence(invariants: Document, *, root: Path | None = None) -> list[Evidence]:
    """One record per check (in threshold order), then one for the corruption block if any.

    A failed check is `violates_invariant:<metric>` pointing at `<metrics>#/<metric>` — or, when
    the metric is missing, at its threshold, so that the pointer resolves. Raises BadInput when
    the metrics file is under `out/` or (with `root`) a pointer does not resolve.
    """
    data = invariants.data
    metrics = data["metrics"]
    scratch = _scratch(root)
    if is_scratch(metrics, scratch):
        raise _scratch_error(invariants, metrics, ("metrics",), scratch)
    records = []
    for check in data["checks"]:
        metric = check["metric"]
        threshold_key = metric + _bound_of(check["op"]).suffix
        missing = check.get("reason") == InvariantReason.MISSING_METRIC.value
        pointer = (
            metric_ref(metrics, "thresholds", threshold_key)
            if missing
            else metric_ref(metrics, metric)
        )
        records.append(
            Evidence(
                kind=EvidenceKind.INVARIANT.value,
                verdict=CaseVerdict.PASS if check["ok"] else CaseVerdict.FAIL,
                reason_code=(
                    ReasonKind.CLEAN.value
                    if check["ok"]
                    else ReasonKind.VIOLATES_INVARIANT.with_argument(metric)
                ),
                evidence_ref=[pointer],
                details={**check, "threshold_key": threshold_key},
            )
        )
    corruption = data["corruption"]
    if corruption is not None:
        # A breached guard is cited by the same pointer as its own failed check.
        cited = {record.details["metric"]: record.evidence_ref[0] for record in records}
        records.append(_corruption_evidence(data, corruption, cited))
    for record in records:
        for ref in record.evidence_ref:
            field = "metrics" if ref.startswith(f"{metrics}#") else "baseline"
            _admit_refs(invariants, [ref], (field,), root, scratch, indexed=False)
    return records


def metric_ref(path: str, *keys: str) -> str:
    """`path#/key/...` with each key escaped as a JSON pointer token (RFC 6901)."""
    tokens = "".join("/" + key.replace("~", "~0").replace("/", "~1") for key in keys)
    return f"{path}#{tokens}"


def _corruption_evidence(
    data: dict[str, Any], corruption: dict[str, Any], cited: dict[str, str]
) -> Evidence:
    metrics = data["metrics"]
    corrupted = data.get("reason") == InvariantReason.METRIC_CORRUPTION.value
    refs = [metric_ref(metrics, corruption["target"])]
    baseline = data.get("baseline")
    # The baseline is cited only when it is a committed input inside the repository (C-8).
    if baseline and not Path(baseline).is_absolute() and not is_scratch(baseline):
        refs.append(metric_ref(baseline, corruption["target"]))
    refs.extend(cited.get(metric, metric_ref(metrics, metric)) for metric in corruption["breached"])
    return Evidence(
        kind=EvidenceKind.CORRUPTION.value,
        verdict=CaseVerdict.FAIL if corrupted else CaseVerdict.PASS,
        reason_code=ReasonKind.METRIC_CORRUPTION.value if corrupted else ReasonKind.CLEAN.value,
        evidence_ref=refs,
        details=dict(corruption),
    )


def _bound_of(op: str) -> ThresholdBound:
    # invariants.json does not repeat the threshold key: it is `<metric>_max` for `<=`.
    return next(bound for bound in ThresholdBound if bound.op == op)


def _scratch(root: Path | None) -> tuple[str, ...]:
    """The scratch directories refs may not point into (the `out_dir` setting too, with a root)."""
    return SCRATCH_DIRS if root is None else scratch_dirs(root)


def _admit_refs(
    document: Document,
    refs: list[str],
    where: tuple[str | int, ...],
    root: Path | None,
    scratch: tuple[str, ...],
    *,
    indexed: bool = True,
) -> None:
    """T-6: evidence points at committed inputs — never into a scratch dir, and (with `root`)
    resolving inside the repository, so that the judgment written from it passes
    `judgment --check` (which applies the very same check, `admit_evidence_ref`)."""
    for index, ref in enumerate(refs):
        try:
            admit_evidence_ref(ref, root=root, scratch=scratch)
        except BrokenRef as exc:
            raise document.bad(str(exc), (*where, index) if indexed else where) from None


def _scratch_error(
    document: Document, ref: str, where: tuple[str | int, ...], scratch: tuple[str, ...]
) -> BadInput:
    directory = scratch_dir_of(ref, scratch)
    return document.bad(
        f"{ref!r} points at scratch output under {directory}/; evidence must be committed inputs",
        where,
    )
