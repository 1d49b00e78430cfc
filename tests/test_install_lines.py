"""The distribution is `tribunal-court`: the name `tribunal` on the package index belongs to an
unrelated project. Until a release exists, every install line in the checkout (README, workflow
examples, scripts, messages) installs the checkout or a pinned commit of this repository, never
tribunal by name from an index."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
from testing import REPO
from testing.checkout import tracked_files

DISTRIBUTION = "tribunal-court"
OUR_NAMES = frozenset({"tribunal", DISTRIBUTION})
INSTALL = re.compile(r"\b(?:pip3?|pipx|uv tool) install\b(?P<args>[^\n]*)")
REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# `NAME[extras] @ git+SCHEME://HOST/PATH@REF`: a direct reference to a ref of a repository.
DIRECT = re.compile(
    r"(?P<name>[A-Za-z0-9._-]+)(?:\[[^\]]*\])? @ git\+[a-z+]+://[^/\s]+(?P<path>/[^@\s]+)@[^@/\s]+"
)
THIS_FILE = Path(__file__).resolve().relative_to(REPO).as_posix()


def canonical(name: str) -> str:
    """A distribution name as the index compares it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned(requirement: str) -> bool:
    """True when `requirement` installs tribunal-court from a ref of a git repository (the `@`
    of `git@host` is the host's, not a ref)."""
    direct = DIRECT.fullmatch(requirement)
    return direct is not None and canonical(direct["name"]) == DISTRIBUTION


def fetched_by_name(args: str) -> list[str]:
    """The requirements in the arguments of one install line that name tribunal without
    pinning a commit of its repository (a bare name, a version range, a wrong name)."""
    try:
        words = shlex.split(args, comments=True)
    except ValueError:  # a line quoted for another language (a message in Python code)
        words = args.split()
    found: list[str] = []
    for word in words:
        word = word.strip("'\"`,.;:()")  # quotes and punctuation of the prose around it
        name = REQUIREMENT_NAME.match(word)
        if name is None or word.startswith("-") or canonical(name[0]) not in OUR_NAMES:
            continue
        if not pinned(word):
            found.append(word)
    return found


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("python -m pip install tribunal   # pin the version you reviewed", ["tribunal"]),
        ("pip3 install 'tribunal[test]>=0.1'", ["tribunal[test]>=0.1"]),
        ("pipx install Tribunal_Court==0.1.0", ["Tribunal_Court==0.1.0"]),
        # Unquoted, pip reads three requirements, and the first is the index's tribunal-court.
        ("pip install tribunal-court @ git+https://example.invalid/t@abc", ["tribunal-court"]),
        (
            'pip install "tribunal @ git+https://example.invalid/t@abc"',
            ["tribunal @ git+https://example.invalid/t@abc"],
        ),
        (
            'pip install "tribunal-court @ git+ssh://git@example.invalid/t"',
            ["tribunal-court @ git+ssh://git@example.invalid/t"],
        ),
        ('pip install "tribunal-court @ git+ssh://git@example.invalid/t@abc"', []),
        ('pip install "tribunal-court[test] @ git+https://example.invalid/t@v1"', []),
        ("python3 -m pip install -e '.[test]' && python3 -m pytest", []),
        ("python3 -m pip install --quiet --upgrade pip", []),
    ],
)
def test_fetched_by_name_finds_each_install_of_tribunal_that_is_not_a_pinned_ref(
    line: str, expected: list[str]
) -> None:
    match = INSTALL.search(line)
    assert match is not None
    assert fetched_by_name(match["args"]) == expected


def test_no_install_line_fetches_tribunal_from_the_index() -> None:
    offending: list[str] = []
    lines = 0
    for name in tracked_files(REPO):
        if name == THIS_FILE:
            continue
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for match in INSTALL.finditer(line):
                lines += 1
                for word in fetched_by_name(match["args"]):
                    offending.append(f"{name}:{number}: installs {word!r} by name: {line.strip()}")
    assert lines > 0, "no install line found: the scan reads nothing"
    assert offending == []


def test_the_distribution_is_named_tribunal_court() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION
    assert project["scripts"] == {"tribunal": "tribunal.cli:main"}
