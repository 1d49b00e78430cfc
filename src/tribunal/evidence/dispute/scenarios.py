"""A-3 `scenarios` evidence: Gherkin feature files whose every scenario passed in JUnit XML.

Features are parsed with the official Gherkin parser (`gherkin-official`, imported only here).
A scenario passed when the results hold a testcase named like it — its name exactly, or
pytest-bdd's `test_<snake_case name>`, either optionally followed by `[parameters]` — and
every such testcase passed (no failure, error or skipped element).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tribunal.documents import read_text
from tribunal.enums import DisputeEvidenceKind, TestOutcome
from tribunal.errors import BadInput
from tribunal.evidence.dispute.checks import KindCheck, Shortfall
from tribunal.evidence.proofs.junit import testcase_outcomes

if TYPE_CHECKING:
    from tribunal.evidence.dispute.model import Dispute


@dataclass(frozen=True)
class Scenario:
    """A scenario of a feature file: its name and where it stands."""

    name: str
    where: str  # feature file:line


@dataclass(frozen=True)
class TestCase:
    """A JUnit testcase: its name, whether it passed, and where it was read."""

    name: str
    passed: bool
    source: str


def pytest_bdd_name(scenario_name: str) -> str:
    """The test function pytest-bdd generates for a scenario: `test_<snake_case name>`."""
    name = re.sub(r"\W", "", scenario_name.replace(" ", "_"))
    return "test_" + re.sub(r"^\d+_*", "", name).lower()


def read_scenarios(path: Path, label: str) -> tuple[list[Scenario], list[Shortfall]]:
    """(scenarios, problems) of one feature file, parsed by the official Gherkin parser."""
    from gherkin.errors import CompositeParserException, ParserException
    from gherkin.parser import Parser
    from gherkin.token_scanner import TokenScanner

    try:
        text = read_text(path, label)
    except BadInput as exc:
        return [], [Shortfall(label, exc.message)]
    try:
        document = Parser().parse(TokenScanner(text))
    except CompositeParserException as exc:
        return [], [_parser_problem(label, error) for error in exc.errors]
    except ParserException as exc:
        return [], [_parser_problem(label, exc)]
    feature: Any = document.get("feature")
    scenarios = [
        Scenario(node["name"].strip(), f"{label}:{node['location']['line']}")
        for node in _scenario_nodes(feature["children"] if feature else [])
    ]
    if not scenarios:
        return [], [Shortfall(label, "holds no scenario")]
    return scenarios, []


def read_testcases(path: Path, label: str) -> tuple[list[TestCase], list[Shortfall]]:
    """(testcases, problems) of one JUnit XML file."""
    import xml.etree.ElementTree as ElementTree

    try:
        text = read_text(path, label)
    except BadInput as exc:
        return [], [Shortfall(label, exc.message)]
    try:
        tree = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        line = exc.position[0]
        message = re.sub(r": line \d+, column \d+$", "", str(exc))
        return [], [Shortfall(f"{label}:{line}", f"malformed XML: {message}", f"{label}:{line}")]
    # One JUnit reading with B-4 (junit_report); only the error reporting differs: a scenario
    # check names the file and line of malformed XML where B-4 just finds no report.
    cases = [
        TestCase(
            name=str(element.get("name", "")).strip(),
            passed=outcome is TestOutcome.PASSED,
            source=label,
        )
        for element, outcome in testcase_outcomes(tree)
    ]
    if not cases:
        return [], [Shortfall(label, "holds no testcase")]
    return cases, []


def check_scenarios(dispute: Dispute, declared: Any, where: str) -> KindCheck:
    """Check `evidence.scenarios` ({features: [paths], results: [paths]}) of `dispute`."""
    kind = DisputeEvidenceKind.SCENARIOS
    features = list(declared.get("features") or [])
    results = list(declared.get("results") or [])
    shortfalls: list[Shortfall] = []
    files: list[str] = []
    if not features:
        shortfalls.append(Shortfall(where, "evidence.scenarios.features lists no feature file"))
    if not results:
        shortfalls.append(Shortfall(where, "evidence.scenarios.results lists no JUnit XML file"))
    scenarios: list[Scenario] = []
    for index, text in enumerate(features):
        path = dispute.evidence_file(text, ("evidence", "scenarios", "features", index))
        found, problems = read_scenarios(path, dispute.file_label(text))
        scenarios.extend(found)
        shortfalls.extend(problems)
        if path.is_file():
            files.append(dispute.file_label(text))
    cases: list[TestCase] = []
    for index, text in enumerate(results):
        path = dispute.evidence_file(text, ("evidence", "scenarios", "results", index))
        found_cases, problems = read_testcases(path, dispute.file_label(text))
        cases.extend(found_cases)
        shortfalls.extend(problems)
        if path.is_file():
            files.append(dispute.file_label(text))
    unproven = list(_unproven(scenarios, cases)) if results else []
    shortfalls.extend(unproven)
    passed = len(scenarios) - len(unproven) if results else 0
    summary = (
        f"{passed} of {len(scenarios)} scenario(s) in {len(features)} feature file(s) "
        f"passed in {len(results)} JUnit file(s)"
    )
    return KindCheck(kind, where, tuple(files), summary, tuple(shortfalls))


def _unproven(scenarios: list[Scenario], cases: list[TestCase]) -> Iterator[Shortfall]:
    for scenario in scenarios:
        names = (scenario.name, pytest_bdd_name(scenario.name))
        matching = [case for case in cases if _matches(case.name, names)]
        if not matching:
            yield Shortfall(
                scenario.where,
                f"scenario {scenario.name!r} has no testcase in the results "
                f"(looked for {names[0]!r} or {names[1]!r})",
                scenario.where,
            )
            continue
        failed = [case for case in matching if not case.passed]
        if failed:
            yield Shortfall(
                scenario.where,
                f"scenario {scenario.name!r}: testcase {failed[0].name!r} did not pass "
                f"in {failed[0].source}",
                scenario.where,
            )


def _matches(case_name: str, names: tuple[str, ...]) -> bool:
    # pytest-bdd parametrises outlines: `test_name[example]`.
    base = case_name.split("[", 1)[0] if case_name.endswith("]") else case_name
    return base in names or case_name in names


def _scenario_nodes(children: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for child in children:
        if "scenario" in child:
            yield child["scenario"]
        elif "rule" in child:
            yield from _scenario_nodes(child["rule"]["children"])


def _parser_problem(label: str, error: Any) -> Shortfall:
    location = getattr(error, "location", None) or {}
    line = location.get("line")
    where = f"{label}:{line}" if line else label
    text = str(error).splitlines()[0] if str(error) else ""
    message = re.sub(r"^\(\d+:\d+\): ", "", text) or "unexpected text"
    return Shortfall(where, f"malformed Gherkin: {message}")
