"""The panel court's slices in the ledger (P-1, P-9): per slice — keyed by `slice_id` — the frozen
criteria's sha256, every dispatch (an executor report handed over: status, executor, context,
weight, concerns), the concerns resolved with evidence, the rounds and the vettings.

The same file, lock and atomic writes as the blind court's disputes (`records.ledger`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.errors import BadInput
from tribunal.evidence.slice.criteria import SliceCriteria
from tribunal.evidence.slice.report import Concern, ExecutorReport
from tribunal.jury.prompt import Adjudication
from tribunal.records.ledger import judged_root, load_ledger, locked_ledger, resolve_evidence


@dataclass(frozen=True)
class Freezing:
    """What `freeze` did: `new` is False when the same criteria were frozen already."""

    slice_id: str
    sha256: str
    new: bool


def find_slice(ledger: dict[str, Any], slice_id: str) -> dict[str, Any] | None:
    """The ledger's entry for `slice_id`, or None."""
    for entry in ledger.get("slices", []):
        if entry["slice_id"] == slice_id:
            found: dict[str, Any] = entry
            return found
    return None


def frozen_sha(ledger: dict[str, Any], slice_id: str) -> str | None:
    """P-1: the sha256 the ledger froze for `slice_id`, or None."""
    entry = find_slice(ledger, slice_id)
    return entry["criteria_sha256"] if entry is not None else None


def changed_after_freezing(frozen: str, now: str) -> str:
    """P-1: the message for criteria whose hash differs from the frozen one."""
    return f"criteria changed after freezing: frozen {frozen[:12]}, now {now[:12]}"


def freeze(
    path: Path, criteria: SliceCriteria, *, by: str = "freeze", label: str | None = None
) -> Freezing:
    """P-1: record the criteria's sha256 for its slice. Returns the Freezing (not new when the
    same hash was frozen before). Raises BadInput (nothing written) when another hash was."""
    with locked_ledger(path, label=label) as ledger:
        entry = _entry(ledger, criteria.slice_id)
        frozen = entry["criteria_sha256"]
        if frozen is not None and frozen != criteria.sha256:
            raise BadInput(changed_after_freezing(frozen, criteria.sha256), source=criteria.label)
        entry["criteria_sha256"] = criteria.sha256
        entry.setdefault("frozen_by", by)
        return Freezing(criteria.slice_id, criteria.sha256, frozen is None)


def check_unchanged(ledger: dict[str, Any], criteria: SliceCriteria) -> bool:
    """P-1: True when the ledger froze the criteria's slice with these very bytes, False when it
    froze none. Raises BadInput (naming both hashes) when it froze other criteria."""
    frozen = frozen_sha(ledger, criteria.slice_id)
    if frozen is not None and frozen != criteria.sha256:
        raise BadInput(changed_after_freezing(frozen, criteria.sha256), source=criteria.label)
    return frozen is not None


def check_frozen(
    ledger: dict[str, Any],
    criteria: SliceCriteria,
    *,
    at_base: bool,
    base_sha256: str | None = None,
) -> str:
    """P-1: how the criteria are frozen — `"ledger"` (their sha256 frozen first) or `"base"`
    (byte-identical in the base commit). `base_sha256` is the sha256 of the file the base commit
    holds at the criteria's path (None: it holds none). Raises BadInput when a frozen sha256
    differs (naming both) — the base commit's own file counts as frozen, so criteria edited
    after the base are never frozen afresh — or when they are neither."""
    if check_unchanged(ledger, criteria):
        return "ledger"
    if at_base:
        return "base"
    if base_sha256 is not None:
        raise BadInput(
            changed_after_freezing(base_sha256, criteria.sha256) + " (frozen by the base commit)",
            source=criteria.label,
        )
    raise BadInput(
        "the criteria are not frozen: commit them before the work (byte-identical at --base), "
        "or run tribunal panel freeze before the executor starts",
        source=criteria.label,
    )


def vettings(ledger: dict[str, Any], slice_id: str) -> list[dict[str, Any]]:
    """P-9, P-11: the vettings the ledger holds for `slice_id`, in order."""
    entry = find_slice(ledger, slice_id)
    return list(entry["vettings"]) if entry is not None else []


def record_vetting(
    path: Path, slice_id: str, entry: dict[str, Any], *, label: str | None = None
) -> None:
    """P-9, P-11: append a vetting of `slice_id` (run_id, outcome, the lenses that passed and
    refused, the criteria's sha256) to the ledger."""
    with locked_ledger(path, label=label) as ledger:
        _entry(ledger, slice_id)["vettings"].append(entry)


def dispatches_used(ledger: dict[str, Any], slice_id: str) -> int:
    """P-9: the dispatch budget spent so far — every recorded report's weight (complexity)."""
    entry = find_slice(ledger, slice_id)
    return sum(item["weight"] for item in entry["dispatches"]) if entry is not None else 0


def last_blocked(ledger: dict[str, Any], slice_id: str) -> dict[str, Any] | None:
    """The latest dispatch of `slice_id` when it was BLOCKED, else None."""
    entry = find_slice(ledger, slice_id)
    if entry is None or not entry["dispatches"]:
        return None
    latest: dict[str, Any] = entry["dispatches"][-1]
    return latest if latest["status"] == "BLOCKED" else None


def resolved_concerns(ledger: dict[str, Any], slice_id: str) -> frozenset[str]:
    """P-9: the fingerprints of the concerns of `slice_id` resolved with evidence."""
    entry = find_slice(ledger, slice_id)
    return frozenset(item["fingerprint"] for item in entry["concerns"]) if entry else frozenset()


def record_dispatch(
    path: Path,
    slice_id: str,
    report: ExecutorReport,
    *,
    round_number: int,
    label: str | None = None,
) -> dict[str, Any]:
    """P-9: record `report` as a dispatch of `slice_id` in round `round_number`. Returns the
    entry written."""
    dispatch = {
        "round": round_number,
        "status": report.status.value,
        "executor": report.executor,
        "context": report.context,
        "weight": report.complexity,
        "concerns": [_concern_entry(concern) for concern in report.concerns],
    }
    with locked_ledger(path, label=label) as ledger:
        _entry(ledger, slice_id)["dispatches"].append(dispatch)
    return dispatch


@dataclass(frozen=True)
class Resolution:
    """What `resolve_concern` recorded."""

    slice_id: str
    concern: dict[str, Any]


def resolve_concern(
    path: Path,
    number: int,
    *,
    evidence: str,
    note: str,
    root: Path,
    slice_id: str | None = None,
    label: str | None = None,
) -> Resolution:
    """P-9: record concern `number` (from 1) of the slice's latest dispatch resolved with
    `evidence` (`path:line`, resolving inside `root`) and `note`. `slice_id` may be omitted when
    the ledger holds one slice. Raises BadInput (nothing written) for an unknown or ambiguous
    slice, a concern the latest report does not have, bad evidence or an empty note."""
    if not note.strip():
        raise BadInput("a resolution needs a note saying why", field="--note")
    shown = label if label is not None else str(path)
    with locked_ledger(path, label=label) as ledger:
        entry = _pick_slice(ledger, slice_id, shown)
        dispatches: Sequence[dict[str, Any]] = entry["dispatches"]
        concerns = dispatches[-1]["concerns"] if dispatches else []
        raised = next((item for item in concerns if item["number"] == number), None)
        if raised is None:
            raise BadInput(
                f"the latest report of slice {entry['slice_id']!r} has no concern {number} "
                f"(it has {len(concerns)})",
                source=shown,
                field="--concern",
            )
        # The evidence resolves in the repository the slice's rounds judged, as a finding's does.
        latest = entry["rounds"][-1] if entry["rounds"] else {}
        resolve_evidence(evidence, judged_root(latest, root))
        record = {
            "fingerprint": raised["fingerprint"],
            "kind": raised["kind"],
            "text": raised["text"],
            "evidence": evidence.strip(),
            "note": note.strip(),
        }
        entry["concerns"] = [
            *(item for item in entry["concerns"] if item["fingerprint"] != raised["fingerprint"]),
            record,
        ]
        return Resolution(entry["slice_id"], record)


def slice_ids(path: Path, label: str | None = None) -> list[str]:
    """Every slice the ledger at `path` holds, in order."""
    return [entry["slice_id"] for entry in load_ledger(path, label).get("slices", [])]


def _pick_slice(ledger: dict[str, Any], slice_id: str | None, shown: str) -> dict[str, Any]:
    slices = ledger.get("slices", [])
    if slice_id is None:
        if len(slices) != 1:
            names = ", ".join(entry["slice_id"] for entry in slices) or "none"
            raise BadInput(
                f"name the slice with --slice (the ledger holds: {names})",
                source=shown,
                field="--slice",
            )
        found: dict[str, Any] = slices[0]
        return found
    entry = find_slice(ledger, slice_id)
    if entry is None:
        raise BadInput(f"the ledger holds no slice {slice_id!r}", source=shown, field="--slice")
    return entry


def _entry(ledger: dict[str, Any], slice_id: str) -> dict[str, Any]:
    entry = find_slice(ledger, slice_id)
    if entry is None:
        entry = {
            "slice_id": slice_id,
            "criteria_sha256": None,
            "dispatches": [],
            "concerns": [],
            "rounds": [],
            "vettings": [],
        }
        ledger.setdefault("slices", []).append(entry)
    return entry


def _concern_entry(concern: Concern) -> dict[str, Any]:
    return {
        "number": concern.number,
        "kind": concern.kind.value,
        "text": concern.text,
        "fingerprint": concern.fingerprint,
    }


def record_panel_round(
    path: Path, slice_id: str, entry: dict[str, Any], *, label: str | None = None
) -> None:
    """P-9: record a round of `slice_id` (receipt, cards, consensus, outcome, finding
    fingerprints); a round of the same number convened again replaces the earlier one."""
    with locked_ledger(path, label=label) as ledger:
        slice_entry = _entry(ledger, slice_id)
        rounds = [item for item in slice_entry["rounds"] if item.get("round") != entry["round"]]
        slice_entry["rounds"] = sorted([*rounds, entry], key=lambda item: item["round"])


def refuted_in_slice(ledger: dict[str, Any], slice_id: str) -> frozenset[str]:
    """P-6, B-3: the fingerprints of the findings and scenarios of `slice_id` refuted with
    evidence — they stay refuted in every later round."""
    entry = find_slice(ledger, slice_id)
    refuted = entry.get("refuted", []) if entry is not None else []
    return frozenset(item["fingerprint"] for item in refuted)


@dataclass(frozen=True)
class SliceRefutation:
    """What `refute_finding` recorded: the slice, the latest round that raised the finding, and
    what the next round's prompts show of it."""

    slice_id: str
    round: int
    fingerprint: str
    adjudication: Adjudication


def raised_in_slices(ledger: dict[str, Any], fingerprint: str) -> list[str]:
    """The slices some round of which raised finding or scenario `fingerprint`."""
    return [
        entry["slice_id"]
        for entry in ledger.get("slices", [])
        if _raising_rounds(entry, fingerprint)
    ]


def refute_finding(
    path: Path,
    fingerprint: str,
    *,
    evidence: str,
    note: str,
    root: Path,
    slice_id: str | None = None,
    label: str | None = None,
) -> SliceRefutation:
    """B-3 for the panel court: record finding or scenario `fingerprint` of a slice's round
    refuted with `evidence` (`path:line`, resolving in the judged repository the round recorded,
    else in `root`) and `note`; it stays refuted in every later round and rides along in its
    prompts (P-6). Raises BadInput (nothing written) for a fingerprint no slice raised (or
    several, without `slice_id`), bad evidence or an empty note."""
    if not note.strip():
        raise BadInput("a refutation needs a note saying why", field="--note")
    shown = label if label is not None else str(path)
    with locked_ledger(path, label=label) as ledger:
        holders = [
            entry
            for entry in ledger.get("slices", [])
            if (slice_id is None or entry["slice_id"] == slice_id)
            and _raising_rounds(entry, fingerprint)
        ]
        if not holders:
            raise BadInput(
                f"no round of a slice raised finding {fingerprint!r}",
                source=shown,
                field="--finding",
            )
        if len(holders) > 1:
            names = ", ".join(entry["slice_id"] for entry in holders)
            raise BadInput(
                f"finding {fingerprint!r} was raised in more than one slice ({names}); pick one "
                "with --slice",
                source=shown,
                field="--slice",
            )
        entry = holders[0]
        latest = _raising_rounds(entry, fingerprint)[-1]
        resolve_evidence(evidence, judged_root(latest, root))
        raised = next(item for item in latest["fix_list"] if item["fingerprint"] == fingerprint)
        record = {
            "fingerprint": fingerprint,
            "round": latest["round"],
            "claim": raised["claim"],
            "location": raised["location"],
            "evidence": evidence.strip(),
            "note": note.strip(),
        }
        entry["refuted"] = [
            *(item for item in entry.get("refuted", []) if item["fingerprint"] != fingerprint),
            record,
        ]
        return SliceRefutation(entry["slice_id"], latest["round"], fingerprint, _shown(record))


def refuted_adjudications(ledger: dict[str, Any], slice_id: str) -> tuple[Adjudication, ...]:
    """What the prompts of `slice_id`'s next rounds show of its refuted findings (P-6)."""
    entry = find_slice(ledger, slice_id)
    return tuple(_shown(item) for item in (entry.get("refuted", []) if entry else []))


def _shown(item: dict[str, Any]) -> Adjudication:
    return Adjudication(
        claim=item["claim"],
        evidence=f"{item['note']} (evidence: {item['evidence']})",
        location=item["location"] or "",
    )


def _raising_rounds(entry: dict[str, Any], fingerprint: str) -> list[dict[str, Any]]:
    return [
        round_entry
        for round_entry in entry["rounds"]
        if any(item["fingerprint"] == fingerprint for item in round_entry.get("fix_list", []))
    ]
