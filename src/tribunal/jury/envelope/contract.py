"""The review contract (E-2): what a change is for and what a juror checks it against.

A contract is YAML (or JSON) validated against the shipped `contract` schema. It holds no prose
about old behaviour: describing what the code "used to do" plants phantom defects, so any such
phrase in any field is bad input naming the field (exit 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from tribunal.documents import Document, FieldPath, load_any, validate
from tribunal.enums import SuiteRunner
from tribunal.errors import BadInput
from tribunal.jury.envelope.identity import term_key
from tribunal.jury.lenses import Jury, Lens

DEFAULT_TIMEOUT_S = 300

# E-2: phrases that describe what the code did before the change. `used to` is not flagged after a
# form of "be" ("is used to build", "can be used to"): that is the passive, not the past habit.
# `no longer than` is a length bound, not old behaviour.
_OLD_BEHAVIOUR = re.compile(
    r"\b(?:"
    r"previously|formerly|originally|anymore|until\s+now|in\s+the\s+past"
    r"|(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )(?<!\bbeing )used\s+to"
    r"|before\s+(?:this|the)\s+(?:change|fix|patch|commit|pr|pull\s+request)"
    r"|prior\s+to\s+(?:this|the)\s+(?:change|fix|patch|commit)"
    r"|the\s+old\s+(?:code|behaviou?r|implementation|version|logic|way)"
    r"|old\s+behaviou?r"
    r"|no\s+longer(?!\s+than)"
    r")\b",
    re.IGNORECASE,
)

# E-2: test files by convention (besides the contract's `tests`).
_TEST_DIRS = frozenset({"tests", "test"})
_TEST_NAME = re.compile(r"(?:test_.*\.py|.*_test\.py|conftest\.py)\Z")


@dataclass(frozen=True)
class Contract:
    """A loaded, validated review contract (E-2)."""

    label: str  # the contract file as named in messages (C-8)
    intent: str
    criteria: tuple[str, ...]
    tests: tuple[str, ...] = ()
    test_command: str | None = None
    test_runner: SuiteRunner = SuiteRunner.PYTEST
    red: str | None = None
    deny: tuple[str, ...] = ()
    identity_allow: tuple[str, ...] = ()
    timeout_s: float = DEFAULT_TIMEOUT_S
    lenses: tuple[str, ...] | None = None  # a narrower jury for this change; None: all of it
    document: Document | None = None

    def jury(self, lenses: Sequence[Lens]) -> Jury:
        """E-2: the lenses of the whole jury `lenses` that sit for this change — all of them,
        unless the contract names a narrower set — in the jury's order, and the ids of those
        left out. Raises BadInput (file, line, field) for a lens id the jury does not have."""
        if self.lenses is None:
            return Jury.whole(lenses)
        known = [lens.id for lens in lenses]
        for index, lens_id in enumerate(self.lenses):
            if lens_id not in known:
                raise BadInput(
                    f"unknown lens {lens_id!r}; the jury's lenses: {', '.join(known)}",
                    source=self.label,
                    line=self.line_of(("lenses", index)),
                    field=f"lenses[{index}]",
                )
        named = set(self.lenses)
        seated = tuple(lens for lens in lenses if lens.id in named)
        return Jury(seated, tuple(lens.id for lens in lenses if lens.id not in named))

    def line_of(self, where: FieldPath) -> int | None:
        """1-based line of the field at `where` in the contract file, or None when unknown."""
        return self.document.line_of(where) if self.document is not None else None

    def is_test_file(self, path: str) -> bool:
        """True when `path` is a test file by convention or named (or contained) by `tests`."""
        if is_conventional_test_file(path):
            return True
        return any(
            path == entry or path.startswith(entry.rstrip("/") + "/") for entry in self.tests
        )

    def render_test_command(
        self, tests: Sequence[str] = (), junit: str = "", python: str = "python"
    ) -> str | None:
        """`test_command` with `{tests}` replaced by the space-joined `tests`, `{junit}` by
        `junit` and `{python}` by `python` (B-4 passes the interpreter tribunal runs on); None
        when the contract has no test command."""
        if self.test_command is None:
            return None
        return (
            self.test_command.replace("{tests}", " ".join(tests))
            .replace("{junit}", junit)
            .replace("{python}", python)
        )


def is_conventional_test_file(path: str) -> bool:
    """E-2 convention: under a `tests/` or `test/` directory, or named `test_*.py`,
    `*_test.py` or `conftest.py`. `path` is repository-relative with `/`."""
    *dirs, name = path.split("/")
    return bool(_TEST_DIRS.intersection(dirs)) or _TEST_NAME.match(name) is not None


def load_contract(path: Path, label: str | None = None) -> Contract:
    """Load and validate the review contract at `path`.

    Returns the Contract; raises BadInput (file, line, field) for malformed or invalid contracts,
    a multi-line intent, old-behaviour prose in any field, or a term both denied and allowed.
    """
    document = load_any(path, label)
    validate(document, "contract")
    data: dict[str, Any] = document.data
    intent = data["intent"].strip()
    if not intent or "\n" in intent or "\r" in intent:
        raise document.bad("must be one line", ("intent",))
    _reject_old_behaviour(document)
    tests = tuple(
        _repository_path(document, entry, index)
        for index, entry in enumerate(data.get("tests", ()))
    )
    deny = tuple(data.get("deny", ()))
    allow = tuple(data.get("identity_allow", ()))
    denied = {term_key(term) for term in deny}
    for index, term in enumerate(allow):
        if term_key(term) in denied:
            raise document.bad(f"{term!r} is also listed in deny", ("identity_allow", index))
    return Contract(
        label=document.label,
        intent=intent,
        criteria=tuple(data["criteria"]),
        tests=tests,
        test_command=data.get("test_command"),
        test_runner=SuiteRunner(data.get("test_runner", SuiteRunner.PYTEST.value)),
        red=data.get("red"),
        deny=deny,
        identity_allow=allow,
        timeout_s=data.get("timeout_s", DEFAULT_TIMEOUT_S),
        lenses=tuple(data["lenses"]) if "lenses" in data else None,
        document=document,
    )


def _repository_path(document: Document, entry: str, index: int) -> str:
    """A `tests` entry as a repository-relative `/` path; outside the repository is bad input."""
    path = PurePosixPath(entry)
    if path.is_absolute() or ".." in path.parts or str(path) == ".":
        raise document.bad("must be a path inside the repository", ("tests", index))
    return path.as_posix()


def old_behaviour_phrase(text: str) -> str | None:
    """The first phrase in `text` that describes old behaviour (E-2), or None."""
    match = _OLD_BEHAVIOUR.search(text)
    return match.group(0) if match else None


def _reject_old_behaviour(document: Document) -> None:
    for where, text in _strings(document.data, ()):
        phrase = old_behaviour_phrase(text)
        if phrase is not None:
            raise document.bad(
                f"describes old behaviour ({phrase!r}); state what the change must do, "
                "not what the code did",
                where,
            )


def _strings(node: Any, where: FieldPath) -> Iterator[tuple[FieldPath, str]]:
    """Every string value in `node` with its field path, in document order."""
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, (*where, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _strings(value, (*where, index))
