"""The ledger of rounds (B-3): per dispute — keyed by the contract file's path and `base` — its
rounds, each with the fingerprints of its findings, the new ones, and the adjudications.

A JSON file (default `<repo>/.tribunal/ledger.json`, gitignored; CI passes `--ledger PATH` and
caches it between runs), validated against the shipped `ledger` schema on every read. Each
dispute also keeps the judged repository's root as its last round saw it, so `adjudicate` resolves
its evidence there, wherever it is run from. Every
change re-reads the file under an exclusive lock and writes it atomically, 0600 (C-4): two
convenings or adjudications at once never lose each other's entries.

Dispute keys: `contract` is the contract file's path relative to the repository (C-8, `/`),
`base` the resolved base commit id (a branch name would move under the dispute). The caller
passes both as it will next time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tribunal.atomic import dump_json, write_atomic
from tribunal.courts.blind.convergence import LedgerView
from tribunal.courts.blind.decide import BlindDecision
from tribunal.errors import BadInput
from tribunal.jury.prompt import Adjudication
from tribunal.refs import parse_ref

LEDGER_VERSION = 1
STATE_DIR = ".tribunal"
LEDGER_NAME = "ledger.json"
FILE_MODE = 0o600
DIR_MODE = 0o700
LOCK_TIMEOUT_S = 60.0


def default_ledger_path(repo: Path) -> Path:
    """B-3: `<repo>/.tribunal/ledger.json`."""
    return Path(repo) / STATE_DIR / LEDGER_NAME


@dataclass(frozen=True)
class DisputeKey:
    """A dispute: the contract file's repository path and the base commit."""

    contract: str
    base: str

    def __str__(self) -> str:
        return f"{self.contract}@{self.base}"


def load_ledger(path: Path, label: str | None = None) -> dict[str, Any]:
    """The ledger document at `path` (an empty ledger when there is no file yet).

    Raises BadInput naming the file, line and field when it is not a valid ledger.
    """
    from tribunal.documents import load_json, validate

    path = Path(path)
    if not path.exists():
        return {"version": LEDGER_VERSION, "disputes": []}
    document = load_json(path, label if label is not None else str(path))
    validate(document, "ledger")
    data: dict[str, Any] = document.data
    return data


def check_writable(path: Path, label: str | None = None) -> None:
    """C-3: make sure the ledger at `path` can be written later (its dir created, its lock file
    opened), so an unwritable `--ledger` fails before the out dir is claimed, not after the
    seats ran. Raises BadInput naming `--ledger` when it cannot.
    """
    path = Path(path)
    shown = label if label is not None else str(path)
    try:
        if path.is_dir():
            raise IsADirectoryError(f"is a directory: {path}")
        path.parent.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        # The lock file record_round takes anyway: creating it proves the dir is writable.
        descriptor = os.open(
            path.with_name(path.name + ".lock"), os.O_WRONLY | os.O_CREAT, FILE_MODE
        )
        os.close(descriptor)
        if path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
    except OSError as error:
        reason = error.strerror or str(error)
        raise BadInput(
            f"cannot write the ledger: {reason}", source=shown, field="--ledger"
        ) from None


def view(ledger: dict[str, Any], key: DisputeKey, round_number: int | None = None) -> LedgerView:
    """The `LedgerView` of round `round_number` of the dispute `key` — by default its last
    round + 1, or 1 for a dispute the ledger has not seen (B-3).

    `seen` and `new_counts` come from the rounds before it; `refuted` from every adjudication
    of the dispute (a refutation with evidence stands until the finding is argued anew).
    Raises BadInput when `round_number` is below 1.
    """
    dispute = _find(ledger, key)
    rounds = dispute["rounds"] if dispute is not None else []
    if round_number is None:
        round_number = max((entry["round"] for entry in rounds), default=0) + 1
    if round_number < 1:
        raise BadInput("a round number is 1 or more", field="--round")
    earlier = [entry for entry in rounds if entry["round"] < round_number]
    seen = frozenset(item["fingerprint"] for entry in earlier for item in entry["findings"])
    counts = {entry["round"]: len(entry["new_findings"]) for entry in earlier}
    refuted = {
        item["fingerprint"]: _adjudication(item)
        for entry in sorted(rounds, key=lambda entry: entry["round"])
        for item in entry["adjudications"]
    }
    return LedgerView(round=round_number, seen=seen, refuted=refuted, new_counts=counts)


def record_round(
    path: Path, key: DisputeKey, decision: BlindDecision, *, run_id: str, repo: Path
) -> dict[str, Any]:
    """Record `decision` as round `decision.round` of the dispute `key` in the repository whose
    root is `repo` (replacing an earlier record of that round, keeping its adjudications).
    Returns the round entry written.

    Raises BadInput when the ledger file is not a valid ledger (nothing written).
    """
    entry: dict[str, Any] = {
        "round": decision.round,
        "run_id": run_id,
        "outcome": decision.outcome.value,
        "findings": [_finding_entry(item.to_dict()) for item in decision.findings],
        "new_findings": list(decision.new_findings),
        "adjudications": [],
    }
    with locked_ledger(path) as ledger:
        dispute = _find(ledger, key)
        if dispute is None:
            dispute = {"contract": key.contract, "base": key.base, "rounds": []}
            ledger["disputes"].append(dispute)
        dispute["repo"] = str(Path(repo).resolve())
        kept = [item for item in dispute["rounds"] if item["round"] != decision.round]
        for item in dispute["rounds"]:
            if item["round"] == decision.round:
                entry["adjudications"] = item["adjudications"]
        dispute["rounds"] = sorted([*kept, entry], key=lambda item: item["round"])
    return entry


@dataclass(frozen=True)
class Refutation:
    """What `adjudicate` recorded, and where."""

    key: DisputeKey
    round: int
    fingerprint: str
    adjudication: Adjudication


def adjudicate(
    path: Path,
    fingerprint: str,
    *,
    evidence: str,
    note: str,
    root: Path,
    contract: str | None = None,
    base: str | None = None,
    label: str | None = None,
) -> Refutation:
    """B-3: record the finding `fingerprint` refuted with `evidence` (`path:line`) and `note`, in
    the latest round of its dispute that raised it.

    `evidence` resolves inside the judged repository the ledger recorded for the dispute, or
    inside `root` when it recorded none (or that directory is gone). `contract`/`base` pick the
    dispute when the fingerprint occurs in more than one. Returns the Refutation. Raises
    BadInput (nothing written) for evidence that is not `path:line` or does not resolve, an
    empty note, a fingerprint no dispute holds, or an ambiguous one.
    """
    from tribunal.errors import BrokenRef

    shown = label if label is not None else str(path)
    try:
        ref = parse_ref(evidence)
        if ref.line is None:
            raise BrokenRef(f"{evidence}: evidence is path:line")
    except BrokenRef as error:
        raise BadInput(str(error), field="--evidence") from None
    if not note.strip():
        raise BadInput("a refutation needs a note saying why", field="--note")
    with locked_ledger(path, label=shown) as ledger:
        holders = [
            dispute
            for dispute in ledger["disputes"]
            if (contract is None or dispute["contract"] == contract)
            and (base is None or dispute["base"] == base)
            and _raising_rounds(dispute, fingerprint)
        ]
        if not holders:
            raise BadInput(
                f"no dispute in the ledger raised finding {fingerprint!r}",
                source=shown,
                field="--finding",
            )
        if len(holders) > 1:
            names = ", ".join(str(_key(dispute)) for dispute in holders)
            raise BadInput(
                f"finding {fingerprint!r} was raised in more than one dispute ({names}); "
                "pick one with --contract and --base",
                source=shown,
                field="--finding",
            )
        dispute = holders[0]
        resolve_evidence(evidence, judged_root(dispute, root))
        entry = _raising_rounds(dispute, fingerprint)[-1]
        raised = next(item for item in entry["findings"] if item["fingerprint"] == fingerprint)
        record = {
            "fingerprint": fingerprint,
            "claim": raised["claim"],
            "location": raised["location"],
            "evidence": evidence.strip(),
            "note": note.strip(),
        }
        entry["adjudications"] = [
            *(item for item in entry["adjudications"] if item["fingerprint"] != fingerprint),
            record,
        ]
        return Refutation(_key(dispute), entry["round"], fingerprint, _adjudication(record))


def judged_root(dispute: dict[str, Any], fallback: Path) -> Path:
    """The judged repository's root the ledger recorded for `dispute`, else `fallback` (a
    ledger written before roots were recorded, or a repository since moved away)."""
    recorded = dispute.get("repo")
    if recorded is not None and Path(recorded).is_dir():
        return Path(recorded)
    return fallback


def resolve_evidence(evidence: str, root: Path) -> None:
    """BadInput (field `--evidence`) unless `evidence` resolves inside `root`."""
    from tribunal.errors import BrokenRef
    from tribunal.refs import resolve_ref

    try:
        resolve_ref(evidence, base=root, root=root)
    except BrokenRef as error:
        raise BadInput(f"{error} (in {root})", field="--evidence") from None


def _adjudication(item: dict[str, Any]) -> Adjudication:
    """E-5: what the next round's prompt shows of a refutation."""
    return Adjudication(
        claim=item["claim"],
        evidence=f"{item['note']} (evidence: {item['evidence']})",
        location=item["location"] or "",
    )


def _finding_entry(item: dict[str, Any]) -> dict[str, Any]:
    keys = ("fingerprint", "lens", "severity", "claim", "location")
    return {name: item[name] for name in keys}


def _raising_rounds(dispute: dict[str, Any], fingerprint: str) -> list[dict[str, Any]]:
    return [
        entry
        for entry in dispute["rounds"]
        if any(item["fingerprint"] == fingerprint for item in entry["findings"])
    ]


def _find(ledger: dict[str, Any], key: DisputeKey) -> dict[str, Any] | None:
    for dispute in ledger["disputes"]:
        if dispute["contract"] == key.contract and dispute["base"] == key.base:
            found: dict[str, Any] = dispute
            return found
    return None


def _key(dispute: dict[str, Any]) -> DisputeKey:
    return DisputeKey(dispute["contract"], dispute["base"])


@contextmanager
def locked_ledger(path: Path, *, label: str | None = None) -> Iterator[dict[str, Any]]:
    """Hold the ledger's lock, yield the freshly read ledger, write it back atomically when the
    block ends without an error (an error writes nothing)."""
    from filelock import FileLock, Timeout

    from tribunal.documents import first_schema_error

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    lock = FileLock(str(path.with_name(path.name + ".lock")), mode=FILE_MODE)
    try:
        with lock.acquire(timeout=LOCK_TIMEOUT_S):
            ledger = load_ledger(path, label)
            yield ledger
            error = first_schema_error(ledger, "ledger")
            if error is not None:  # a bug, not bad input: never write a ledger we cannot read
                raise AssertionError(f"ledger does not match its schema: {error}")
            write_atomic(path, dump_json(ledger), mode=FILE_MODE, dir_mode=DIR_MODE)
    except Timeout:
        raise BadInput("the ledger is locked by another process", source=str(path)) from None
