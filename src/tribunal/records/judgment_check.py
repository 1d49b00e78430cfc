"""`tribunal judgment --check` (T-6): a judgment file is valid when its front matter passes the
`judgment` schema and every evidence_ref resolves inside the repository.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tribunal.errors import BadInput, BrokenRef
from tribunal.frontmatter import JudgmentFile, read_judgment
from tribunal.refs import admit_evidence_ref, evidence_base
from tribunal.settings import scratch_dirs


def evidence_refs(fields: dict[str, object]) -> list[str]:
    """`evidence_ref` as a list (T-6 allows a string or a non-empty list)."""
    refs = fields["evidence_ref"]
    if isinstance(refs, str):
        return [refs]
    return [str(ref) for ref in refs] if isinstance(refs, list) else []


def check_refs(
    refs: list[str],
    *,
    root: Path,
    source: str,
    lines: list[int | None],
    scratch: Sequence[str] = (),
    base: Path | None = None,
) -> None:
    """Raise BadInput naming the first ref of `refs` that does not resolve inside `root`
    (relative to `base`, default the root) or points into one of the `scratch` directories
    (T-6; see `scratch_refused`)."""
    for index, ref in enumerate(refs):
        try:
            admit_evidence_ref(ref, root=root, scratch=scratch, base=base)
        except BrokenRef as exc:
            field = "evidence_ref" if len(refs) == 1 else f"evidence_ref[{index}]"
            raise BadInput(str(exc), source=source, line=lines[index], field=field) from None


def check_judgment(path: Path, label: str, *, root: Path) -> JudgmentFile:
    """Read `path`, validate its front matter and resolve every evidence_ref against `root`.

    Returns the judgment; raises BadInput naming the file, line and field of the first problem.
    """
    judgment = read_judgment(path, label)
    refs = evidence_refs(judgment.fields)
    single = isinstance(judgment.fields["evidence_ref"], str)
    lines = [
        judgment.front.line_of(("evidence_ref",) if single else ("evidence_ref", index))
        for index in range(len(refs))
    ]
    scratch = scratch_refused(judgment.fields, root)
    # R-6/B-1: a judgment inside a run dir resolves relative to its own dir, as records check does.
    base = evidence_base(path, root)
    check_refs(refs, root=root, source=label, lines=lines, scratch=scratch, base=base)
    return judgment


def scratch_refused(fields: dict[str, object], root: Path) -> tuple[str, ...]:
    """The scratch dirs a judgment's refs may not point into (T-6): all of them, except for a
    court's judgment (`court` set), whose refs follow its court's rules (§7-§9: a seated vote
    may cite the envelope it read)."""
    return () if fields.get("court") else scratch_dirs(root)
