"""`tribunal init`: the starter layout of a repository that keeps its records (C-9).

Idempotent and never clobbering: a file that exists is kept as it is; `.gitignore` and
`.gitattributes` only get the lines they lack, appended. In a git repository the
`tribunal-precedents` merge driver is registered in the repository's git config.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tribunal.atomic import write_atomic
from tribunal.jury.lenses import DEFAULT_LENSES
from tribunal.outputs import check_output_path
from tribunal.precedents.add import STARTER

DRIVER = "tribunal-precedents"
NEXT_STEPS_NAME = "TRIBUNAL.md"
DRIVER_COMMAND = "tribunal precedent merge-file %O %A %B"
# C-4: `.*.tmp` is the temporary-file form of atomic writes (`.precedents.md.<random>.tmp`); one
# left by a writer killed mid-write must never be committed by `git add -A`.
GITIGNORE_LINES = (".tribunal/", "out/", ".*.tmp")

TRIBUNALIGNORE = """\
# Paths `tribunal records check` skips (gitignore syntax, relative to the repository root).
# Golden negative examples are malformed on purpose, for instance:
# tests/**/negative/
"""

CONTRACT = """\
# The review contract: what the change under review is for, and what it is judged against.
intent: Describe in one line what the change under review is for.
criteria:
  - Every new behaviour is covered by a test that fails without the change.
  - No existing test is weakened or deleted.
test_command: python3 -m pytest -q {tests} --junitxml={junit}
test_runner: pytest
# The red-first commit: the commit that adds the new tests, before the fix. Name it (a commit id
# or a ref) and the proofs run: the new tests fail at red, pass at head, and fail again with the
# fix undone. Without it a convening can at best HOLD.
# red: <commit>
"""

BUILDER_FAMILY = "my-builder"
ANSWERS = "replay/answers.yaml"
# Recorded jurors of three families (and a local one at the end of every ladder), so every lens
# is seated for the builder and the fused tier's verifier is of another family than its primary.
FLEET = f"""\
# The starter fleet: recorded jurors only — no network, no keys.
#
# Their replies are the same for every change and cite only the review contract, so a convening
# with this fleet shows how the court works, never a review of your change: it can at best HOLD,
# never LAND. TRIBUNAL.md says how to put real rungs in front of them.
rungs:
  # The model that builds your changes. Convene with --builder {BUILDER_FAMILY}: every rung of
  # its family is refused on every ladder, so it never judges its own work. Replace it with the
  # rung of the model that really builds them (its family names its vendor) and convene with
  # --builder naming that family.
  - id: {BUILDER_FAMILY}
    family: {BUILDER_FAMILY}
    transport: replay
    answers: {ANSWERS}
  - {{id: recorded-a, family: recorded-a, transport: replay, answers: {ANSWERS}}}
  - {{id: recorded-b, family: recorded-b, transport: replay, answers: {ANSWERS}}}
  - {{id: recorded-c, family: recorded-c, transport: replay, answers: {ANSWERS}}}
  - {{id: recorded-local, family: recorded-d, transport: replay, answers: {ANSWERS}, local: true}}
tiers:
  generalist: [{BUILDER_FAMILY}, recorded-a, recorded-b, recorded-c, recorded-local]
  operator_safety: [{BUILDER_FAMILY}, recorded-b, recorded-c, recorded-a, recorded-local]
  deep_state: [{BUILDER_FAMILY}, recorded-c, recorded-a, recorded-b, recorded-local]
  fast_structural:
    primary: [{BUILDER_FAMILY}, recorded-a, recorded-b, recorded-c, recorded-local]
    verifier: [recorded-b, recorded-c, recorded-a]
"""

NEXT_STEPS = f"""\
# tribunal: next steps

`tribunal init` wrote a starter layout. It runs as it is, offline, but its jurors are
**recorded**: `fleet.yaml` seats replay rungs whose replies are the same for every change and cite
only the review contract. A convening with it shows how the court works, never a review of your
change — it can at best HOLD, never LAND.

## 1. Say what the change is for

Edit `contract.yaml`: a one-line `intent`, the `criteria` a juror checks, the `test_command`, and
`red:` — the commit that adds the new tests before the fix (without it, the proofs cannot run and
a convening can at best HOLD). Then build the envelope every juror reads, here for the change
from `main` (the branch your change goes into) to the commit checked out:

    tribunal envelope --repo . --base main --contract contract.yaml --out out/envelope

## 2. Put real rungs in the fleet

Replace the `{BUILDER_FAMILY}` rung with the model that builds your changes (its `family` names
its vendor; pass that family as `--builder`), and put rungs of other families at the front of
each ladder in `tiers:`, for
example `- use: openai/<model>` (key from `OPENAI_API_KEY`), `- use: anthropic/<model>`
(`ANTHROPIC_API_KEY`), or a local server (`transport: openai`, `endpoint:
http://127.0.0.1:8080/v1`). Keys only ever come from the environment.

See who would sit for each lens, and every rung refused because it is the builder's family:

    tribunal ladder --fleet fleet.yaml --builder {BUILDER_FAMILY}

Try one seat against the envelope before trusting the fleet (exit 0 pass, 1 refuse, 3 hold):

    tribunal seat --fleet fleet.yaml --builder {BUILDER_FAMILY} --lens defect \\
      --envelope out/envelope

## 3. Convene

    tribunal convene --repo . --base main --contract contract.yaml --fleet fleet.yaml \\
      --builder {BUILDER_FAMILY} --out out/run

It prints where the run dir and its `judgment.md` are, and what to do next when the outcome is
not LAND (exit 0 LAND, 1 ITERATE, 3 HOLD, ESCALATE or INVALID, 2 bad input).
"""


# What `tribunal init` says last: what the starter fleet is, and where the next steps are.
STARTER_NOTE = (
    f"fleet.yaml seats recorded jurors: a convening with it shows how the court works, never a "
    f"review of your change (at best HOLD). Convene with --builder {BUILDER_FAMILY}; "
    f"{NEXT_STEPS_NAME} says how to put real rungs in the fleet."
)


def _answers() -> str:
    lines = [
        "# Recorded replies, one per lens, the same for every change. They cite only the review\n"
        "# contract, which is not part of the change, so every pass they give is bare.\n"
    ]
    for lens in (lens.id for lens in DEFAULT_LENSES):
        lines.append(
            f'{lens}: |\n  {{"verdict": "pass", "lens": "{lens}", "findings": [],\n'
            '   "checked": [{"claim": "the contract states the intent", '
            '"location": "contract.yaml:2"}]}\n'
        )
    return "".join(lines)


APPENDED = (".gitignore", ".gitattributes")  # files init adds lines to


@dataclass
class InitReport:
    """What `tribunal init` did, path by path (paths relative to the root)."""

    created: list[str] = field(default_factory=list)
    appended: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class InitRequest:
    """The repository root to lay out, and the precedents file to start (None:
    precedents.md at the root)."""

    root: Path
    precedents: Path | None = None


def init(request: InitRequest) -> InitReport:
    """Write the starter layout into the root (see the module doc); return what was done."""
    root = request.root.resolve()
    given = request.precedents or root / "precedents.md"
    precedents = given.absolute().parent.resolve() / given.name  # a link at the name: refused
    report = InitReport()
    precedents_name = _relative(precedents, root)
    files = {
        precedents_name: STARTER,
        ".tribunalignore": TRIBUNALIGNORE,
        "contract.yaml": CONTRACT,
        "fleet.yaml": FLEET,
        ANSWERS: _answers(),
        NEXT_STEPS_NAME: NEXT_STEPS,
    }
    # C-3: every file init writes or keeps is a regular file or nothing, checked before the
    # first is written: never a link (written through), a FIFO or a device.
    for name in [*files, *APPENDED]:
        check_output_path(root / name, None, name)
    for name, text in files.items():
        _create(root, name, text, report)
    _append_lines(root, ".gitignore", GITIGNORE_LINES, report)
    _append_lines(root, ".gitattributes", (f"{precedents_name} merge={DRIVER}",), report)
    _register_driver(root, report)
    return report


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _create(root: Path, name: str, text: str, report: InitReport) -> None:
    path = root / name
    if path.exists():
        report.kept.append(name)
        return
    write_atomic(path, text)
    report.created.append(name)


def _append_lines(root: Path, name: str, wanted: tuple[str, ...], report: InitReport) -> None:
    path = root / name
    old = path.read_bytes() if path.exists() else b""
    have = {line.strip().lstrip("/") for line in old.decode("utf-8", "replace").splitlines()}
    missing = [line for line in wanted if line.lstrip("/") not in have]
    if not missing:
        report.kept.append(name)
        return
    separator = b"" if not old or old.endswith(b"\n") else b"\n"
    write_atomic(path, old + separator + "".join(f"{line}\n" for line in missing).encode())
    (report.appended if old else report.created).append(name)


def _register_driver(root: Path, report: InitReport) -> None:
    if not (root / ".git").exists():
        report.notes.append(
            "not a git repository: merge driver not registered (run tribunal init after git init)"
        )
        return
    key = f"merge.{DRIVER}.driver"
    current = subprocess.run(
        ["git", "config", "--local", "--get", key], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    if current == DRIVER_COMMAND:
        report.kept.append(f"git config {key}")
        return
    if current:
        report.notes.append(f"git config {key} is already {current!r}; left as it is")
        return
    for name, value in ((key, DRIVER_COMMAND), (f"merge.{DRIVER}.name", "precedents.md append")):
        subprocess.run(["git", "config", "--local", name, value], cwd=root, check=True)
    report.created.append(f"git config {key}")
