"""The `tribunal-precedents` git merge driver (C-9, R-3): `tribunal precedent merge-file %O %A %B`.

precedents.md only ever grows at its end, so a merge of two branches that each added entries is
the base, then what ours appended, then what theirs appended — every section whole, ours first.
Any other edit (a changed byte of the base on either side) is a conflict: git's own conflict
markers are left in the file and the driver fails, as git expects of a driver. `merge=union` is
never used: it interleaves lines of two entries into one block.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MergeOutcome:
    """The merged bytes, and whether the merge is clean."""

    data: bytes
    clean: bool
    reason: str = ""


def merge_precedents(base: bytes, ours: bytes, theirs: bytes) -> MergeOutcome:
    """Merge three versions of precedents.md (see the module doc)."""
    if ours == theirs or theirs == base:
        return MergeOutcome(ours, True)
    if ours == base:
        return MergeOutcome(theirs, True)
    if not base and not (ours.startswith(theirs) or theirs.startswith(ours)):
        # Both sides created the file: there is no common start to append to.
        return _conflict(base, ours, theirs, "both sides created the file differently")
    if not ours.startswith(base):
        return _conflict(base, ours, theirs, "ours changed existing bytes")
    if not theirs.startswith(base):
        return _conflict(base, ours, theirs, "theirs changed existing bytes")
    ours_added, theirs_added = ours[len(base) :], theirs[len(base) :]
    if ours_added.startswith(theirs_added):
        return MergeOutcome(ours, True)  # theirs appended nothing ours lacks
    if theirs_added.startswith(ours_added):
        return MergeOutcome(theirs, True)
    separator = b"" if ours.endswith(b"\n") or not ours else b"\n"
    return MergeOutcome(ours + separator + theirs_added, True)


def _conflict(base: bytes, ours: bytes, theirs: bytes, reason: str) -> MergeOutcome:
    """git's own conflict markers (`git merge-file`); when git would merge the edit cleanly,
    one whole-file conflict, so that the edit is never accepted silently."""
    with tempfile.TemporaryDirectory(prefix="tribunal-merge-") as scratch:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(scratch) / name
            path.write_bytes(data)
            paths.append(str(path))
        done = subprocess.run(
            ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *paths],
            capture_output=True,
            check=False,
        )
    if done.returncode > 0:
        return MergeOutcome(done.stdout, False, reason)
    nl = b"" if ours.endswith(b"\n") or not ours else b"\n"
    nl_theirs = b"" if theirs.endswith(b"\n") or not theirs else b"\n"
    whole = b"<<<<<<< ours\n" + ours + nl + b"=======\n" + theirs + nl_theirs + b">>>>>>> theirs\n"
    return MergeOutcome(whole, False, reason)
