"""E-2: the review contract — schema, defaults, one-line intent, no old-behaviour prose."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribunal.enums import SuiteRunner
from tribunal.errors import BadInput
from tribunal.jury.envelope.contract import (
    DEFAULT_TIMEOUT_S,
    is_conventional_test_file,
    load_contract,
    old_behaviour_phrase,
)

MINIMAL = "intent: Reject negative amounts in transfers.\ncriteria:\n  - transfer(-1) raises\n"


def write(tmp_path: Path, text: str, name: str = "contract.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_minimal_contract_gets_defaults(tmp_path: Path) -> None:
    contract = load_contract(write(tmp_path, MINIMAL), "contract.yaml")
    assert contract.intent == "Reject negative amounts in transfers."
    assert contract.criteria == ("transfer(-1) raises",)
    assert contract.test_runner is SuiteRunner.PYTEST
    assert contract.timeout_s == DEFAULT_TIMEOUT_S == 300
    assert contract.tests == () and contract.deny == () and contract.identity_allow == ()
    assert contract.test_command is None and contract.red is None


def test_full_contract(tmp_path: Path) -> None:
    text = (
        MINIMAL
        + "tests: [checks/transfer_cases.py, ./checks/data/]\n"
        + "test_command: python -m pytest {tests} --junitxml={junit}\n"
        + "test_runner: generic\nred: abc123\ndeny: [acme-bot]\n"
        + "identity_allow: [info]\ntimeout_s: 12.5\n"
    )
    contract = load_contract(write(tmp_path, text))
    assert contract.tests == ("checks/transfer_cases.py", "checks/data")
    assert contract.test_runner is SuiteRunner.GENERIC
    assert contract.red == "abc123" and contract.timeout_s == 12.5
    assert contract.deny == ("acme-bot",) and contract.identity_allow == ("info",)
    assert (
        contract.render_test_command(["t/a.py", "t/b.py"], "out/j.xml")
        == "python -m pytest t/a.py t/b.py --junitxml=out/j.xml"
    )
    assert contract.is_test_file("checks/transfer_cases.py")
    assert contract.is_test_file("checks/data/x.json")
    assert not contract.is_test_file("checks/datax.json")


def test_json_contract(tmp_path: Path) -> None:
    path = write(tmp_path, '{"intent": "x", "criteria": ["y"]}', "contract.json")
    assert load_contract(path).criteria == ("y",)


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        ("criteria: [a]\n", None, None, "'intent' is required"),
        ("intent: x\ncriteria: []\n", 2, "criteria", "should be non-empty"),
        ("intent: x\ncriteria: [a]\ncolour: red\n", 3, "colour", "unknown field 'colour'"),
        ("intent: x\ncriteria: [a]\ntest_runner: nose\n", 3, "test_runner", "is not one of"),
        ("intent: x\ncriteria: [a]\ntimeout_s: 0\n", 3, "timeout_s", "less than or equal"),
        ("intent: x\ncriteria: [a]\ntimeout_s: true\n", 3, "timeout_s", "not of type"),
        ("intent: |\n  one\n  two\ncriteria: [a]\n", 1, "intent", "must be one line"),
        ("intent: x\ncriteria: [a]\ntests: [../up.py]\n", 3, "tests[0]", "inside the repository"),
        ("intent: x\ncriteria: [a]\ntests: [/etc/x]\n", 3, "tests[0]", "inside the repository"),
        (
            "intent: x\ncriteria: [a]\ndeny: [Bob]\nidentity_allow:\n  - bob\n",
            5,
            "identity_allow[0]",
            "also listed in deny",
        ),
    ],
)
def test_invalid_contracts_name_line_and_field(
    tmp_path: Path, text: str, line: int | None, field: str | None, message: str
) -> None:
    with pytest.raises(BadInput) as info:
        load_contract(write(tmp_path, text), "contract.yaml")
    assert info.value.source == "contract.yaml"
    assert info.value.line == line
    assert info.value.field == field
    assert message in info.value.message


@pytest.mark.parametrize(
    ("text", "line", "field", "phrase"),
    [
        ("intent: Previously the cache leaked; fix it\ncriteria: [a]\n", 1, "intent", "Previously"),
        ("intent: x\ncriteria:\n  - ok\n  - it used to crash\n", 4, "criteria[1]", "used to"),
        ("intent: x\ncriteria:\n  - Before this change, x\n", 3, "criteria[0]",
         "Before this change"),
        ("intent: x\ncriteria:\n  - the old code skipped it\n", 3, "criteria[0]", "the old code"),
        ("intent: x\ncriteria: [a]\ntest_command: echo the old  behaviour\n", 3, "test_command",
         "the old  behaviour"),
        ("intent: x\ncriteria: [it no longer drops rows]\n", 2, "criteria[0]", "no longer"),
    ],
)  # fmt: skip
def test_old_behaviour_prose_is_rejected_naming_the_field(
    tmp_path: Path, text: str, line: int, field: str, phrase: str
) -> None:
    with pytest.raises(BadInput) as info:
        load_contract(write(tmp_path, text), "contract.yaml")
    assert (info.value.source, info.value.line, info.value.field) == ("contract.yaml", line, field)
    assert f"({phrase!r})" in info.value.message and "old behaviour" in info.value.message


@pytest.mark.parametrize(
    "text",
    [
        "The key is used to sign the request",
        "It can be used to rebuild the index",
        "Names are no longer than 80 characters",
        "the older entries stay",
        "used_to is a field name",
    ],
)
def test_present_tense_text_is_not_old_behaviour(text: str) -> None:
    assert old_behaviour_phrase(text) is None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("tests/test_a.py", True),
        ("tests/fixtures/data.json", True),
        ("pkg/test/helpers.py", True),
        ("src/test_a.py", True),
        ("src/a_test.py", True),
        ("src/conftest.py", True),
        ("src/a.py", False),
        ("src/testing.py", False),
        ("src/contest.py", False),
        ("tests.py", False),
        ("src/test_a.txt", False),
    ],
)
def test_test_file_convention(path: str, expected: bool) -> None:
    assert is_conventional_test_file(path) is expected
