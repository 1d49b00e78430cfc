"""`tribunal init` (C-9): the starter layout of a repository that keeps its records.

Idempotent and never clobbering: a file that exists is kept as it is; `.gitignore` and
`.gitattributes` only get the lines they lack, appended. In a git repository the
`tribunal-precedents` merge driver is registered in the repository's git config.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tribunal.atomic import write_atomic
from tribunal.records.store import STARTER

DRIVER = "tribunal-precedents"
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
# The review contract (E-2): what the change is for and how it is judged.
intent: Describe in one line what the change under review is for.
criteria:
  - The new behaviour is covered by a test that failed before the change.
  - No existing test is weakened or deleted.
test_command: python3 -m pytest -q {tests} --junitxml={junit}
test_runner: pytest
"""

FLEET = """\
# A replay fleet (L-1): recorded replies, no network, no keys. Swap in real rungs later.
rungs:
  - id: recorded
    family: replay
    transport: replay
    answers: replay/answers.yaml
tiers:
  generalist: [recorded]
  operator_safety: [recorded]
  deep_state: [recorded]
  fast_structural: [recorded]
"""

LENSES = (
    ("defect", "contract.yaml"),
    ("proportion", "contract.yaml"),
    ("operator_consequence", "contract.yaml"),
    ("telemetry", "contract.yaml"),
    ("reversibility", "contract.yaml"),
    ("state_continuity", "contract.yaml"),
    ("resource_economy", "contract.yaml"),
    ("boundary_condition", "contract.yaml"),
)


def _answers() -> str:
    lines = ["# Raw replies per lens (V-1), as a juror would send them; labelled recorded.\n"]
    for lens, location in LENSES:
        reply = (
            f'{{"verdict": "pass", "lens": "{lens}", "findings": [], "checked": '
            f'[{{"claim": "the contract states the intent", "location": "{location}:2"}}]}}'
        )
        lines.append(f"{lens}: |\n  {reply}\n")
    return "".join(lines)


@dataclass
class InitReport:
    """What `tribunal init` did, path by path (paths relative to the root)."""

    created: list[str] = field(default_factory=list)
    appended: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def init_project(root: Path, precedents: Path | None = None) -> InitReport:
    """Write the starter layout into `root` (see the module doc) and return what was done."""
    root = root.resolve()
    precedents = (precedents or root / "precedents.md").resolve()
    report = InitReport()
    precedents_name = _relative(precedents, root)
    files = {
        precedents_name: STARTER,
        ".tribunalignore": TRIBUNALIGNORE,
        "contract.yaml": CONTRACT,
        "fleet.yaml": FLEET,
        "replay/answers.yaml": _answers(),
    }
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
