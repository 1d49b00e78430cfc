"""The run dir of a convening (B-5, S-3): claimed with `.tribunal-stamp` before anything in it is
swept, written file by file as seats finish, completed by `summary.json` written last.

- A dir holding tribunal-shaped files without our stamp is refused (BadInput, exit 2), the files
  and the remedy named, nothing deleted. Besides `verdict_*.json` and `summary.json` (B-5's two
  shapes) that covers every other name a convening writes (`judgment.md`, `envelope.md`,
  `manifest.json`, `routing.json`, `history/`): writing into such a dir would overwrite a file
  that is not ours.
- A dir holding only foreign files is used; its files are never touched (nor its mode changed).
- Convening again into a dir we stamped sweeps the earlier run: its `judgment.md` and
  `summary.json` move to `history/<run_id>/` together with the files its judgment can cite
  (`verdict_*.json`, `envelope.md`, `manifest.json`, `routing.json`; R-6: the history judgment
  resolves from its own dir); an earlier run without a judgment or summary (cut short) has its
  run files deleted; foreign files stay.
- Every file is written atomically with mode 0600, every dir we create is 0700 (C-4).
- A run dir without `summary.json` is recognisably incomplete; verdicts already written stay
  whole after a crash or `kill -9` (S-3).
- A claimed dir is held by an exclusive lock until the convening releases it: a second
  convening into it is refused (BadInput, exit 2) naming the holder — its run_id, process and
  host — and touches nothing. The lock is `.tribunal-lock`, an flock(2) on a file that names
  its holder while it is held and is removed on release, so a finished run dir holds no file
  without its run_id (and two runs still differ only in it, C-6); a lock dies with its
  process, so a dir whose convening was killed is claimed again at once. (filelock is not used
  here: its lock files name nobody and stay behind.)

The run_id is random (C-6: on a replay fleet the outputs of two convenings differ only in it).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.atomic import dump_json, write_atomic
from tribunal.errors import BadInput
from tribunal.jury.seat.record import SeatRecord

if TYPE_CHECKING:
    from tribunal.jury.envelope.build import Envelope

STAMP_NAME = ".tribunal-stamp"
LOCK_NAME = ".tribunal-lock"
SUMMARY_NAME = "summary.json"
JUDGMENT_NAME = "judgment.md"
ROUTING_NAME = "routing.json"
ENVELOPE_NAMES = ("envelope.md", "manifest.json")
HISTORY_DIR = "history"
FILE_MODE = 0o600  # B-5: owner-only, everything the court writes
DIR_MODE = 0o700
STAMP_TOOL = "tribunal"

# The files of one run, by name; verdicts by pattern. Kept in history: judgment and summary
# (B-5), and with them every file the judgment can cite (R-6: its refs resolve from its dir).
# The panel court's run adds the closing report, its verification and its members' scorecards;
# a vetting of a plan (P-11) adds `vet.json`.
VET_NAME = "vet.json"
PANEL_NAMES = ("report.md", "verification.json", VET_NAME)
RUN_FILES = (SUMMARY_NAME, JUDGMENT_NAME, ROUTING_NAME, *ENVELOPE_NAMES, *PANEL_NAMES)
KEPT_IN_HISTORY = (JUDGMENT_NAME, SUMMARY_NAME)
CITED_IN_HISTORY = (ROUTING_NAME, *ENVELOPE_NAMES, *PANEL_NAMES)
_VERDICT = re.compile(r"(?:verdict|scorecard)_[A-Za-z0-9][A-Za-z0-9_.-]*\.json\Z")
_LENS = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")  # the fleet schema's `name`
_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")  # also safe as a history/<run_id> dir name
_FRONT_RUN_ID = re.compile(r"^run_id:\s*['\"]?([A-Za-z0-9_-]{1,64})['\"]?\s*$", re.M)
# `write_atomic`'s temporary files: `.<name>.<random>.tmp`.
_TEMPORARY = re.compile(r"\.(.+)\.[^.]+\.tmp\Z")
RUN_ID_BYTES = 8


def new_run_id() -> str:
    """A fresh random run id (16 hex characters)."""
    return secrets.token_hex(RUN_ID_BYTES)


def verdict_name(lens: str) -> str:
    """`verdict_<lens>.json`. Raises BadInput when `lens` is not a safe file-name part."""
    if not _LENS.match(lens):
        raise BadInput(f"lens id {lens!r} cannot name a verdict file", field="lens")
    return f"verdict_{lens}.json"


def is_verdict_name(name: str) -> bool:
    """True when `name` has the shape of a seat's file: a juror's verdict or a panel member's
    scorecard (`scorecard_<lens>.json`, `scorecard_<lens>.synthesis.json`)."""
    return _VERDICT.match(name) is not None


class RunLock:
    """The exclusive lock on one run dir (see the module doc), held from `take` to `release`."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, directory: Path, run_id: str, *, label: str) -> RunLock:
        """Lock `directory` for the run `run_id` and name the holder in the lock file. Raises
        BadInput naming the holder when another process holds it, or when the file system
        cannot lock."""
        import fcntl

        path = Path(directory) / LOCK_NAME
        while True:
            try:
                descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, FILE_MODE)
            except OSError as error:  # a symbolic link or a directory in its place, ...
                raise BadInput(
                    f"cannot open {LOCK_NAME} ({error.strerror}); nothing was touched",
                    source=label,
                    field="--out",
                ) from None
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                os.close(descriptor)
                if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise BadInput(
                        f"is in use by another convening ({_holder(path)}); nothing was "
                        "touched. Wait for it to end, or give --out another directory",
                        source=label,
                        field="--out",
                    ) from None
                raise BadInput(
                    f"cannot be locked ({error.strerror}): give --out a directory on a local "
                    "file system",
                    source=label,
                    field="--out",
                ) from None
            # The holder before us removes the file on release: lock the file that is there.
            try:
                same = os.path.samestat(os.fstat(descriptor), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(descriptor)
        holder = dump_json(
            {"tool": STAMP_TOOL, "run_id": run_id, "pid": os.getpid(), "host": socket.gethostname()}
        ).encode("utf-8")
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, holder, 0)
        return cls(path, descriptor)

    def release(self) -> None:
        """Remove the lock file, then let go of the lock. Idempotent; raises nothing."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(descriptor)


def _holder(path: Path) -> str:
    """Who holds the lock at `path`, as its lock file says."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("run_id"), str):
        return "its holder has not named itself yet"
    pid, host = data.get("pid"), data.get("host")
    return f"run {data['run_id']}, process {pid} on host {host}"


@dataclass(frozen=True)
class RunDir:
    """A claimed run dir: every write goes through it, so every file is 0600 and atomic. The
    dir stays locked until `release()` (or the end of a `with` block)."""

    path: Path
    run_id: str
    swept_run_id: str | None = None  # the earlier run whose files were swept, if any
    lock: RunLock | None = field(default=None, repr=False, compare=False)

    def release(self) -> None:
        """B-5: let another convening claim the dir. Idempotent."""
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> RunDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def write_text(self, name: str, text: str) -> Path:
        """Write `text` to `name` inside the run dir (atomic, 0600); return the path."""
        target = self.path / name
        write_atomic(target, text, mode=FILE_MODE, dir_mode=DIR_MODE)
        return target

    def write_json(self, name: str, document: Any) -> Path:
        """Write `document` as JSON to `name` inside the run dir (atomic, 0600)."""
        return self.write_text(name, dump_json(document))

    def write_verdict(self, record: SeatRecord) -> Path:
        """B-1: `verdict_<lens>.json` — the SeatRecord with this run's `run_id` — written as the
        seat finishes, so a later crash never loses it. Raises BadInput for an unsafe lens id."""
        name = verdict_name(record.lens)
        return self.write_json(name, {"run_id": self.run_id, **record.to_dict()})

    def write_routing(self, document: Mapping[str, Any]) -> Path:
        """B-1: `routing.json` — the routing table (`Routing.to_dict()`) with this run's
        `run_id` first."""
        return self.write_json(ROUTING_NAME, {"run_id": self.run_id, **document})

    def write_envelope(self, envelope: Envelope) -> None:
        """B-1: `envelope.md` and `manifest.json`, owner-only like every file of the run, both
        carrying the run_id (`envelope.for_run`: the text the jurors read names it too)."""
        if envelope.run_id != self.run_id:
            raise ValueError("the envelope must carry this run's run_id (Envelope.for_run)")
        envelope.write(self.path, mode=FILE_MODE)

    def write_summary(self, document: Mapping[str, Any]) -> Path:
        """B-5: `summary.json`, written LAST: its presence marks the run complete."""
        if document.get("run_id") != self.run_id:
            raise ValueError("summary.json must carry this run's run_id")
        return self.write_json(SUMMARY_NAME, dict(document))

    @property
    def complete(self) -> bool:
        """True once `summary.json` is written."""
        return is_complete(self.path)


def is_complete(path: Path) -> bool:
    """True when the run dir at `path` holds `summary.json` (S-3: else it is incomplete)."""
    return (Path(path) / SUMMARY_NAME).is_file()


def read_stamp(path: Path) -> str | None:
    """The run_id in `path/.tribunal-stamp`, or None when there is no stamp.

    Raises BadInput when a `.tribunal-stamp` exists but is not ours (not a tribunal stamp).
    """
    stamp = Path(path) / STAMP_NAME
    if not stamp.exists():
        return None
    try:
        data = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        data = None
    run_id = data.get("run_id") if isinstance(data, dict) else None
    if (
        not isinstance(data, dict)
        or data.get("tool") != STAMP_TOOL
        or not isinstance(run_id, str)
        or not _RUN_ID.match(run_id)
    ):
        raise BadInput(
            "not a tribunal stamp; nothing was touched. Remove it, or give --out a fresh directory",
            source=str(stamp),
        )
    return run_id


def tribunal_shaped(path: Path) -> list[str]:
    """Names in `path` (sorted) a convening would write or sweep: run files, verdicts, history."""
    names = []
    for entry in sorted(Path(path).iterdir(), key=lambda entry: entry.name):
        name = entry.name
        if name in RUN_FILES or is_verdict_name(name) or name == HISTORY_DIR:
            names.append(name)
    return names


def claim(path: Path, *, run_id: str | None = None, label: str | None = None) -> RunDir:
    """Claim `path` for a new run: lock it, stamp it, then sweep an earlier run of ours out of it.

    `run_id` fixes the new run id (tests); `label` names the dir in messages (C-8). Returns the
    RunDir, locked until it is released. Raises BadInput (nothing written, nothing deleted)
    when `path` is not a directory, holds tribunal-shaped files without our stamp, holds a
    stamp that is not ours, or is locked by another convening (naming it).
    """
    path = Path(path)
    shown = label if label is not None else str(path)
    run_id = run_id if run_id is not None else new_run_id()
    if not _RUN_ID.match(run_id):
        raise BadInput(f"run id {run_id!r}: letters, digits, _ or - (at most 64)", field="run_id")
    if path.exists() and not path.is_dir():
        raise BadInput("is not a directory", source=shown, field="--out")
    if path.is_dir():
        _previous_run(path, shown)  # a foreign dir is refused before the lock touches it
    else:
        path.mkdir(parents=True, mode=DIR_MODE)
        os.chmod(path, DIR_MODE)  # the umask may have narrowed it; never widened
    lock = RunLock.take(path, run_id, label=shown)
    try:
        # Again under the lock: a convening that held it may have finished meanwhile.
        previous = _previous_run(path, shown)
        if previous is not None:
            os.chmod(path, DIR_MODE)  # ours: keep it owner-only
        # B-5: the stamp first — once it is written the dir is ours, whatever the sweep meets.
        write_atomic(path / STAMP_NAME, _stamp_text(run_id), mode=FILE_MODE, dir_mode=DIR_MODE)
        if previous is not None:
            _sweep(path, previous)
    except BaseException:
        lock.release()
        raise
    return RunDir(path=path, run_id=run_id, swept_run_id=previous, lock=lock)


def _previous_run(path: Path, shown: str) -> str | None:
    """The run id of our stamp in `path`, or None for a dir we never stamped. Raises BadInput
    for a stamp that is not ours, or tribunal-shaped files without a stamp (B-5: never sweep
    what we did not stamp; the files and the way out are named)."""
    previous = read_stamp(path)
    if previous is None:
        shaped = tribunal_shaped(path)
        if shaped:
            raise BadInput(
                f"holds tribunal-shaped files without a {STAMP_NAME}: {', '.join(shaped)}; "
                "nothing was deleted. Give --out a fresh directory, or move these files "
                "away if they are yours to discard",
                source=shown,
                field="--out",
            )
    return previous


def _stamp_text(run_id: str) -> str:
    return dump_json({"tool": STAMP_TOOL, "run_id": run_id})


def _sweep(path: Path, stamped: str) -> None:
    """Move the earlier run's judgment and summary to `history/<run_id>/` with every file its
    judgment can cite (verdicts, envelope, manifest, routing), delete its other run files.
    Idempotent: a sweep cut short by a crash is finished by the next claim."""
    kept = [path / name for name in KEPT_IN_HISTORY if (path / name).is_file()]
    if kept:
        # The run id the file itself carries wins over the stamp's: after a claim cut short,
        # the stamp may already name a run that never wrote this file.
        owner = next((found for found in map(_file_run_id, kept) if found), stamped)
        history = path / HISTORY_DIR / owner
        history.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        os.chmod(path / HISTORY_DIR, DIR_MODE)
        os.chmod(history, DIR_MODE)
        # B-5, R-6: the judgment's evidence_refs resolve relative to its own dir, so what it
        # cites moves with it — and FIRST: a sweep cut short leaves the judgment behind, and
        # the next claim (which keys on it) finishes the move.
        for entry in sorted(path.iterdir(), key=lambda entry: entry.name):
            if entry.is_file() and _cited(entry.name) and _belongs(entry, owner):
                os.replace(entry, history / entry.name)
        for source in kept:
            os.replace(source, history / source.name)
    for entry in sorted(path.iterdir(), key=lambda entry: entry.name):
        if entry.is_file() and _swept(entry.name):
            entry.unlink()


def _cited(name: str) -> bool:
    """A file a judgment of the run can cite: a verdict, the envelope, manifest or routing."""
    return name in CITED_IN_HISTORY or is_verdict_name(name)


def _belongs(path: Path, owner: str) -> bool:
    """False when `path` is JSON carrying a run_id other than `owner` (a later run's file)."""
    if path.suffix != ".json":
        return True
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return True
    found = data.get("run_id") if isinstance(data, dict) else None
    return found is None or found == owner


def _swept(name: str) -> bool:
    """A run file of ours, or the temporary file of a write a crash cut short (C-4)."""
    if name in RUN_FILES or is_verdict_name(name):
        return True
    match = _TEMPORARY.match(name)
    return match is not None and (match[1] in RUN_FILES or is_verdict_name(match[1]))


def _file_run_id(path: Path) -> str | None:
    """The run_id a summary.json or judgment.md carries, when it is readable and safe."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found: Any = None
    if path.name == SUMMARY_NAME:
        try:
            data = json.loads(text)
        except ValueError:
            return None
        found = data.get("run_id") if isinstance(data, dict) else None
    else:
        match = _FRONT_RUN_ID.search(text.split("\n---", 1)[0])
        found = match.group(1) if match else None
    return found if isinstance(found, str) and _RUN_ID.match(found) else None
