"""Reading a built envelope back from its directory (E-1): `manifest.json` and `envelope.md`.

A seat run against an envelope built earlier (`--envelope DIR`) needs the whole text of every
file the juror was shown, to check citations (V-4). Each file is cut out of `envelope.md` by its
header and fence, its line-number gutter taken off (E-5: the gutter is how a line is shown, not
part of the file), and checked against the sha256 the manifest recorded, so an edited
`envelope.md` is bad input, not a silently different artifact.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from tribunal.documents import load_json, read_text, validate
from tribunal.enums import FileRole
from tribunal.errors import BadInput
from tribunal.jury.envelope.build import MANIFEST_NAME, Envelope
from tribunal.jury.envelope.text import (
    ENVELOPE_NAME,
    NO_NEWLINE_NOTE,
    EnvelopeFile,
    shown_path,
    unnumber_lines,
)


def read_envelope(directory: Path, label: str | None = None) -> Envelope:
    """The Envelope written into `directory` (named `label` in messages).

    Returns it with every file's text as the juror saw it; raises BadInput when either file is
    missing or malformed, or when `envelope.md` does not hold a file of the manifest with the
    recorded sha256."""
    where = label if label is not None else str(directory)
    manifest = load_json(Path(directory) / MANIFEST_NAME, f"{where}/{MANIFEST_NAME}")
    validate(manifest, "manifest")
    text_label = f"{where}/{ENVELOPE_NAME}"
    text = read_text(Path(directory) / ENVELOPE_NAME, text_label)
    files: list[EnvelopeFile] = []
    cursor = 0
    for index, entry in enumerate(manifest.data["files"]):
        path, role, digest = entry["path"], FileRole(entry["role"]), entry["sha256"]
        if role is FileRole.DELETED:
            files.append(EnvelopeFile(path, role, None, None))
            continue
        file, cursor = _cut(text, cursor, path, role, digest)
        if file is None:
            raise BadInput(
                f"{path!r} is not in {ENVELOPE_NAME} as {MANIFEST_NAME} records it",
                source=text_label,
                field=f"files[{index}]",
            )
        files.append(file)
    data = manifest.data
    return Envelope(
        repo=data["repo"],
        base=data["base"],
        head=data["head"],
        receipt=data["receipt"],
        files=tuple(files),
        warnings=tuple(data["warnings"]),
        text=text,
        run_id=data.get("run_id"),
    )


def _cut(
    text: str, cursor: int, path: str, role: FileRole, digest: str | None
) -> tuple[EnvelopeFile | None, int]:
    """The file whose header comes first after `cursor`, and where its section ends."""
    header = f"\n### {shown_path(path)}\n\n"
    at = text.find(header, cursor)
    if at < 0:
        return None, cursor
    start = at + len(header)
    if not text.startswith("```", start):
        # No content: a note in parentheses (binary, symbolic link, submodule).
        end = text.find(")\n", start)
        if not text.startswith("(", start) or end < 0:
            return None, cursor
        return EnvelopeFile(path, role, digest, None, text[start + 1 : end]), end + 2
    fence_end = text.index("\n", start)
    fence = text[start:fence_end]
    # The fence outlasts every backtick run in the content, so its first recurrence closes it.
    close = text.find(f"\n{fence}\n", fence_end)
    if close < 0:
        return None, cursor
    shown = text[fence_end + 1 : close + 1]
    end = close + len(fence) + 2
    if text.startswith(NO_NEWLINE_NOTE, end):
        shown, end = shown[:-1], end + len(NO_NEWLINE_NOTE)
    content = unnumber_lines(shown)
    if content is None or digest is None:
        return None, cursor
    if hashlib.sha256(content.encode("utf-8")).hexdigest() != digest:
        return None, cursor
    return EnvelopeFile(path, role, digest, content), end
