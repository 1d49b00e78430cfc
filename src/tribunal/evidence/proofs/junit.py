"""Per-test outcomes from a pytest JUnit XML report (B-4 regression, red_first, fake_green).

Tests are named by pytest-style node ids built from the report's `classname` and `name`
(`tests/test_x.py::TestK::test_c`), mapping the dotted module back onto the tree's files. The
report's module names are relative to pytest's rootdir, which may lie below the tree's top, so a
module also matches the dotted tail of a file's path when that tail names one file only.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tribunal.enums import TestOutcome

_WORST_FIRST = list(TestOutcome)
_CHILD_OUTCOME = {
    "error": TestOutcome.ERROR,
    "failure": TestOutcome.FAILED,
    "skipped": TestOutcome.SKIPPED,
}


@dataclass(frozen=True)
class ReportedTest:
    """One test of the report; `collection_error` when its module failed to collect."""

    node_id: str
    outcome: TestOutcome
    collection_error: bool = False


class NodeIds:
    """Maps a report's dotted module names onto the `.py` files of a tree."""

    def __init__(self, files: Iterable[str]) -> None:
        paths = sorted(path for path in files if path.endswith(".py"))
        self._modules: dict[str, str | None] = {_dotted(path): path for path in paths}
        tails: dict[str, str | None] = {}
        for path in paths:
            parts = _dotted(path).split(".")
            for start in range(1, len(parts)):
                tail = ".".join(parts[start:])
                tails[tail] = path if tails.get(tail, path) == path else None  # ambiguous: None
        for tail, owner in tails.items():
            self._modules.setdefault(tail, owner)

    def file_of_module(self, dotted: str) -> str | None:
        """The file the dotted module names, or None when no file (or more than one) fits."""
        return self._modules.get(dotted)

    def node_id(self, classname: str, name: str) -> str:
        """`path::Class::name` for a test; the file's path for a module-level entry (empty
        `classname`, the module in `name`); the report's own names when no file fits."""
        if not classname:
            return self.file_of_module(name) or name
        parts = classname.split(".")
        for cut in range(len(parts), 0, -1):
            path = self.file_of_module(".".join(parts[:cut]))
            if path is not None:
                return "::".join([path, *parts[cut:], name])
        return f"{classname}::{name}"


def file_of(node_id: str) -> str:
    """The file part of a node id."""
    return node_id.split("::", 1)[0]


def testcase_outcomes(
    root: ElementTree.Element,
) -> Iterator[tuple[ElementTree.Element, TestOutcome]]:
    """Each `<testcase>` under `root` with its outcome: the worst of its failure, error and
    skipped children, else passed. The one JUnit reading of B-4 and A-3's scenarios check."""
    for case in root.iter("testcase"):
        outcome = TestOutcome.PASSED
        for child in case:
            reported = _CHILD_OUTCOME.get(child.tag)
            if reported is not None and _WORST_FIRST.index(reported) < _WORST_FIRST.index(outcome):
                outcome = reported
        yield case, outcome


def read_junit(path: Path, ids: NodeIds) -> list[ReportedTest] | None:
    """Every test in the JUnit XML report at `path`, worst outcome per node id, in report
    order; None when there is no readable report."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return None
    found: dict[str, ReportedTest] = {}
    for case, outcome in testcase_outcomes(root):
        classname = case.get("classname", "")
        node_id = ids.node_id(classname, case.get("name", ""))
        # pytest writes a module that failed to collect as a classname-less error entry.
        test = ReportedTest(node_id, outcome, not classname and outcome is TestOutcome.ERROR)
        earlier = found.get(node_id)
        if earlier is None or _WORST_FIRST.index(outcome) < _WORST_FIRST.index(earlier.outcome):
            found[node_id] = test  # a teardown error after a pass: the worst counts
    return list(found.values())


def _dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")
