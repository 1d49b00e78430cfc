"""Building the blind envelope (E-1, E-3, E-4, B-6): what every juror reads, and its manifest.

The envelope holds the whole content, read from the head commit's objects, of every file the
change touched, plus their test files, deleted files by path only, and the review contract.
Before anything is written it is scanned for identity terms (E-3); a hit fails the build.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from tribunal.documents import read_text
from tribunal.enums import FileRole
from tribunal.errors import BadInput
from tribunal.jury.envelope.commits import GITLINK_MODE, SYMLINK_MODE, CommitRange, TreeEntry
from tribunal.jury.envelope.contract import Contract, is_conventional_test_file
from tribunal.jury.envelope.identity import ALLOWABLE_SOURCES, Term, TermScanner, identity_terms
from tribunal.jury.envelope.text import (
    ENVELOPE_NAME,
    EnvelopeFile,
    ExampleCitation,
    Segment,
    example_citation,
    render,
)

MANIFEST_NAME = "manifest.json"
RUN_COMMENT = "<!-- run_id: {run_id} -->"
STATE_DIR = ".tribunal"  # B-6: tribunal's own state is never part of an envelope
_BINARY_PROBE = 8000  # git's own heuristic: a NUL in the first 8000 bytes means binary


@dataclass(frozen=True)
class Envelope:
    """A built, identity-scanned envelope: `text` is `envelope.md`, the rest the manifest."""

    repo: str
    base: str
    head: str
    receipt: str
    files: tuple[EnvelopeFile, ...]
    warnings: tuple[str, ...]
    text: str
    run_id: str | None = None  # B-1: the convening whose run dir holds this envelope

    def for_run(self, run_id: str) -> Envelope:
        """This envelope as the convening `run_id` shows it and writes it (B-5: every file of a
        run dir carries its run_id): its text opens with a comment naming the run, its manifest
        has `run_id`. The comment is the envelope's own words, so the scan has nothing to see."""
        text = f"{RUN_COMMENT.format(run_id=run_id)}\n{self.text}"
        return dataclasses.replace(self, text=text, run_id=run_id)

    @property
    def tokens_estimate(self) -> int:
        """E-4: UTF-8 bytes of envelope.md // 2 — conservative for code, CJK and encoded blobs."""
        return len(self.text.encode("utf-8")) // 2

    def file_texts(self) -> dict[str, str]:
        """The whole text of every file the envelope holds, by path (for citation checks)."""
        return {file.path: file.text for file in self.files if file.text is not None}

    @property
    def example(self) -> ExampleCitation | None:
        """E-5: the line the output protocol shows as its example citation (None: no file has
        a line fit to show). A citation that copies it is never counted (V-4)."""
        return example_citation(self.files)

    def manifest(self) -> dict[str, Any]:
        """The `manifest.json` document (valid against the `manifest` schema)."""
        run = {"run_id": self.run_id} if self.run_id is not None else {}
        return {
            **run,
            "repo": self.repo,
            "base": self.base,
            "head": self.head,
            "receipt": self.receipt,
            "tokens_estimate": self.tokens_estimate,
            "warnings": list(self.warnings),
            "files": [
                {"path": file.path, "sha256": file.sha256, "role": file.role.value}
                for file in self.files
            ],
        }

    def write(self, out_dir: Path, *, mode: int = 0o644) -> None:
        """Write `envelope.md` and `manifest.json` into `out_dir`, atomically (C-4)."""
        from tribunal.atomic import write_atomic, write_json
        from tribunal.documents import first_schema_error

        manifest = self.manifest()
        error = first_schema_error(manifest, "manifest")
        if error is not None:  # a bug, not bad input: never write a manifest we cannot read back
            raise AssertionError(f"manifest does not match its schema: {error}")
        write_atomic(Path(out_dir) / ENVELOPE_NAME, self.text, mode=mode)
        write_json(Path(out_dir) / MANIFEST_NAME, manifest, mode=mode)


def load_deny_file(path: Path, label: str | None = None) -> list[str]:
    """Identity terms from a `--deny FILE`: one per line; blank lines and `#` comments skipped.

    Raises BadInput when the file is missing, empty, binary or not UTF-8."""
    text = read_text(path, label if label is not None else str(path))
    terms = (line.strip() for line in text.splitlines())
    return [term for term in terms if term and not term.startswith("#")]


def build_envelope(
    repo: Path,
    base: str,
    contract: Contract,
    *,
    head: str = "HEAD",
    repo_label: str | None = None,
    deny: Sequence[str] = (),
    builder_terms: Sequence[str] = (),
    content_terms: Sequence[str] = (),
) -> Envelope:
    """Build the envelope of `base...head` in `repo` under `contract` and scan it (E-1, E-3).

    `deny` adds identity terms to the contract's; `builder_terms` (the builder's model ids) fail
    the build when found; `content_terms` (family names, other fleet model ids) are recorded as
    warnings. Returns the Envelope, nothing written; raises BadInput for a bad repository or
    revision, a contract test path missing from head, or any identity term found (naming
    `path:line` and the term).
    """
    with CommitRange.open(Path(repo), base, head, label=repo_label) as commits:
        warnings: list[str] = []
        files = _select(commits, contract, warnings)
        segments = render(contract, files)
        terms = identity_terms(
            [(identity.kind, identity.text) for identity in commits.identities()],
            deny=[*contract.deny, *deny],
            builder_terms=builder_terms,
            content_terms=content_terms,
            allow=contract.identity_allow,
        )
        warnings += _scan(segments, terms)
        if commits.is_dirty():
            warnings.append(
                "the working tree has uncommitted changes: they are not part of the envelope, "
                f"which holds commit {commits.head}"
            )
        return Envelope(
            repo=commits.label,
            base=commits.base,
            head=commits.head,
            receipt=commits.receipt(),
            files=tuple(files),
            warnings=tuple(warnings),
            text="".join(segment.text for segment in segments),
        )


def _select(commits: CommitRange, contract: Contract, warnings: list[str]) -> list[EnvelopeFile]:
    """The envelope's files in order: changed, then test, then deleted, each sorted by path."""
    tree = commits.tree()
    contract_path = _contract_path(commits, contract)
    excluded: list[str] = []
    changed: dict[str, TreeEntry] = {}
    deleted: list[str] = []
    for touched in commits.touched():
        if _is_state(touched.path):
            excluded.append(touched.path)
        elif touched.path == contract_path:
            # Shown once, as the review contract section; its deny list must not reach a juror.
            warnings.append(f"{touched.path}: the contract file is shown as the review contract")
        elif touched.entry is None:
            deleted.append(touched.path)
        else:
            changed[touched.path] = touched.entry
    if excluded:
        warnings.append(
            f"{len(excluded)} file(s) under {STATE_DIR}/ left out: {STATE_DIR}/ is never part "
            "of an envelope"
        )
    tests = _contract_tests(contract, tree)
    tests |= related_tests([*changed, *deleted], tree)
    tests |= _conftests([*tests, *(p for p in changed if contract.is_test_file(p))], tree)
    tests -= set(changed)
    tests = {path for path in tests if not _is_state(path) and path != contract_path}
    chosen = [(path, changed[path], FileRole.CHANGED) for path in sorted(changed)]
    chosen += [(path, tree[path], FileRole.TEST) for path in sorted(tests)]
    files = _read(commits, chosen)
    files += [EnvelopeFile(path, FileRole.DELETED, None, None) for path in sorted(deleted)]
    return files


def related_tests(paths: Iterable[str], tree: dict[str, TreeEntry]) -> set[str]:
    """Test files in `tree` named after one of `paths`: for `pkg/foo.py`, any `test_foo.*`,
    `foo_test.*`, `foo.test.*` or `foo.spec.*` anywhere in the tree (E-1 "their test files")."""
    wanted = {_stem(path.rpartition("/")[2]) for path in paths}
    related: set[str] = set()
    for path in tree:
        stem = _stem(path.rpartition("/")[2])
        for subject in (
            stem.removeprefix("test_") if stem.startswith("test_") else None,
            stem.removesuffix("_test") if stem.endswith("_test") else None,
            stem.removesuffix(".test") if stem.endswith(".test") else None,
            stem.removesuffix(".spec") if stem.endswith(".spec") else None,
        ):
            if subject and subject in wanted:
                related.add(path)
    return related


def _conftests(tests: Iterable[str], tree: dict[str, TreeEntry]) -> set[str]:
    """Every `conftest.py` in the directory of a chosen test file or above it: its fixtures."""
    found: set[str] = set()
    for path in tests:
        for parent in PurePosixPath(path).parents:
            candidate = "conftest.py" if str(parent) == "." else f"{parent}/conftest.py"
            if candidate in tree and is_conventional_test_file(candidate):
                found.add(candidate)
    return found


def _contract_tests(contract: Contract, tree: dict[str, TreeEntry]) -> set[str]:
    """The files the contract's `tests` name (a file, or every file under a directory)."""
    found: set[str] = set()
    for index, entry in enumerate(contract.tests):
        under = [path for path in tree if path == entry or path.startswith(f"{entry}/")]
        if not under:
            raise BadInput(
                f"{entry!r} is not a file or directory in the head commit",
                source=contract.label,
                line=contract.line_of(("tests", index)),
                field=f"tests[{index}]",
            )
        found.update(under)
    return found


def _read(
    commits: CommitRange, chosen: list[tuple[str, TreeEntry, FileRole]]
) -> list[EnvelopeFile]:
    """Read every chosen blob (one cat-file process) into EnvelopeFiles, in `chosen` order."""
    blob_shas = [entry.sha for _, entry, _ in chosen if entry.mode != GITLINK_MODE]
    blobs = iter(commits.blobs(blob_shas))
    files: list[EnvelopeFile] = []
    for path, entry, role in chosen:
        if entry.mode == GITLINK_MODE:
            note = f"submodule at commit {entry.sha}: content not included"
            files.append(EnvelopeFile(path, role, None, None, note))
            continue
        data = next(blobs)
        digest = hashlib.sha256(data).hexdigest()
        text = _text(data)
        if text is None:
            note = f"binary file, {len(data)} bytes: content not included"
            files.append(EnvelopeFile(path, role, digest, None, note))
        elif entry.mode == SYMLINK_MODE:
            note = f"symbolic link to {text}"
            files.append(EnvelopeFile(path, role, digest, None, note))
        else:
            files.append(EnvelopeFile(path, role, digest, text))
    return files


def _scan(segments: list[Segment], terms: list[Term]) -> list[str]:
    """E-3: raise BadInput on the first identity hit; return warnings for content-term hits."""
    scanner = TermScanner(terms)
    failures: list[tuple[Term, str, int | None, str | None]] = []
    first_place: dict[Term, str] = {}  # content term -> where it first occurs
    count: dict[Term, int] = {}
    envelope_line = 1
    for segment in segments:
        for term, newlines in scanner.search(segment.text):
            source, line, field = _where(segment, newlines, envelope_line)
            if term.source.fails:
                failures.append((term, source, line, field))
            else:
                first_place.setdefault(term, source if line is None else f"{source}:{line}")
                count[term] = count.get(term, 0) + 1
        envelope_line += segment.text.count("\n")
    if failures:
        term, source, line, field = failures[0]
        more = f" ({len(failures)} hits in all)" if len(failures) > 1 else ""
        advice = (
            "list it in the contract's identity_allow if it is a known false positive"
            if term.source in ALLOWABLE_SOURCES
            else "remove it from the change"
        )
        raise BadInput(
            f"identity term {term.text!r} ({term.source.described}) would reach a juror{more}; "
            f"{advice}",
            source=source,
            line=line,
            field=field,
        )
    return [
        f"content term {term.text!r} ({term.source.described}) at {place}"
        + (f" and {count[term] - 1} more place(s)" if count[term] > 1 else "")
        + " (content, not authorship)"
        for term, place in first_place.items()
    ]


def _where(
    segment: Segment, newlines: int, envelope_line: int
) -> tuple[str, int | None, str | None]:
    """(source, line, field) of a hit after `newlines` line breaks of `segment`."""
    if segment.source is None:
        return ENVELOPE_NAME, envelope_line + newlines, None
    line = None if segment.line is None else segment.line + newlines
    return segment.source, line, segment.field


def _text(data: bytes) -> str | None:
    """The blob as text, or None when it is binary (a NUL early on, or not UTF-8)."""
    if b"\0" in data[:_BINARY_PROBE]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name


def _is_state(path: str) -> bool:
    return STATE_DIR in PurePosixPath(path).parts


def _contract_path(commits: CommitRange, contract: Contract) -> str | None:
    """The contract file's path in the repository, when it lives in the working tree."""
    top = commits.top
    if contract.document is None or top is None:
        return None
    try:
        return Path(contract.document.path).resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return None
