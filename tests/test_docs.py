"""The pages speak to users, and hang together. No page holds a requirement ID (users never need
one: the maintainers' index lives with the tests, `tests/requirement_index.md`); every link
between pages lands on a file that exists, and on a heading of it when it names one; every page
under docs/ is reachable from the README; the YAML a page quotes is YAML; the index names every
requirement ID the code cites; and the architecture page names every layer of the import-linter
contract.

Shell blocks are run by tests/test_readme.py.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath

import pytest
from ruamel.yaml import YAML
from testing import REPO
from testing.markdown_page import Page

DOCS = REPO / "docs"
README = REPO / "README.md"
INDEX = REPO / "tests" / "requirement_index.md"
PAGES = {path: Page.read(path, REPO) for path in [README, *sorted(DOCS.rglob("*.md"))]}
# A requirement ID as SPEC.md writes them — a prefix letter, a hyphen, one or two digits, standing
# alone (`T-1`, `(E-2)`, `B-1..B-7`, `X-3's`) — or a SPEC section sign (`SPEC §11`). Not a word
# that merely has the shape: `X-ray`, `B-tree`, `UTF-8`, `SHA-1`, `PREC-001`, `R2-validation`.
REQUIREMENT_ID = re.compile(r"(?<![\w-])[TRELVBAPCXSWK]-[0-9]{1,2}(?![\w-]|\.[0-9])|§ ?[0-9]+")
# How the code cites an ID (the pattern the index is built from).
CITED_ID = re.compile(r"\b[TRELVBAPCXSWK]-[0-9]{1,2}\b")
# One row of the index: `| ID | requirement | modules |`.
INDEX_ROW = re.compile(r"^\| ([A-Z]-[0-9]+) \| [^|]+ \| (?P<modules>[^|]+) \|$", re.M)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:")  # https:, mailto:, ...


def requirement_ids(text: str) -> list[str]:
    return [match[0] for match in REQUIREMENT_ID.finditer(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rules of T-6; tribunal judgment", ["T-6"]),
        ("the contract (E-2) and (R-1)", ["E-2", "R-1"]),
        ("B-1..B-7, L-10 and X-3's worst query", ["B-1", "B-7", "L-10", "X-3"]),
        ("see SPEC §11 and §2", ["§11", "§2"]),
        ("an X-ray of a B-tree, UTF-8 text, SHA-1, SHA-256", []),
        ("## PREC-001, votes/R2-verifier.yaml, R1-safety", []),
        ("C1–C4 pass, T-100 and x-1 and P-value, K-12x", []),
        ("1.02x-1.18x over three runs, version B-1.2", []),
    ],
)
def test_the_id_pattern_finds_ids_and_only_ids(text: str, expected: list[str]) -> None:
    assert requirement_ids(text) == expected


@pytest.mark.parametrize("page", list(PAGES.values()), ids=lambda page: page.name)
def test_no_page_holds_a_requirement_id(page: Page) -> None:
    found = [
        f"{page.name}:{number}: {ids}"
        for number, line in enumerate(page.source.splitlines(), start=1)
        if (ids := requirement_ids(line))
    ]
    assert found == []


def index_text() -> str:
    return INDEX.read_text(encoding="utf-8")


def test_the_index_is_where_the_ids_are() -> None:
    assert len(set(requirement_ids(index_text()))) > 50


def link_problems(path: Path, page: Page) -> list[str]:
    """`name:line: message` for every link of `page` (at `path`) to a page of the checkout that
    does not exist, or to a heading that page does not have."""
    problems: list[str] = []
    for link in page.links:
        if EXTERNAL.match(link.href):
            continue
        target, _, anchor = link.href.partition("#")
        where = f"{page.name}:{link.line}: {link.href}"
        file = (path.parent / target).resolve()
        if target and not file.is_file():
            problems.append(f"{where}: no such file")
            continue
        if anchor and (not target or file.suffix == ".md"):
            anchors = Page.read(file).anchors if target else page.anchors
            if anchor not in anchors:
                problems.append(f"{where}: no heading with anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", list(PAGES), ids=lambda path: path.relative_to(REPO).as_posix())
def test_every_link_between_pages_lands(path: Path) -> None:
    assert link_problems(path, PAGES[path]) == []


def test_a_broken_link_is_named(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A heading\n", encoding="utf-8")
    source = (
        "[ok](other.md#a-heading) [gone](missing.md) [no anchor](other.md#nope)\n\n"
        "[here](#page) [web](https://example.invalid/x.md) [lost](#nowhere)\n\n# Page\n"
    )
    page = Page.parse(source, name="page.md")
    assert link_problems(tmp_path / "page.md", page) == [
        "page.md:1: missing.md: no such file",
        "page.md:1: other.md#nope: no heading with anchor #nope",
        "page.md:3: #nowhere: no heading with anchor #nowhere",
    ]


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {
        PurePosixPath(link.href.partition("#")[0]) for link in PAGES[README].links if link.href
    }
    pages = {PurePosixPath(path.relative_to(REPO).as_posix()) for path in PAGES if path != README}
    assert pages - linked == set()


@pytest.mark.parametrize("path", list(PAGES), ids=lambda path: path.relative_to(REPO).as_posix())
def test_the_yaml_a_page_quotes_is_yaml(path: Path) -> None:
    for fence in PAGES[path].blocks({"yaml", "yml"}):
        YAML(typ="safe", pure=True).load(fence.body)


def cited_ids() -> set[str]:
    package = REPO / "src" / "tribunal"
    return {
        match[0]
        for source in package.rglob("*")
        if source.is_file() and source.suffix in (".py", ".json", ".j2", ".yaml")
        for match in CITED_ID.finditer(source.read_text(encoding="utf-8"))
    }


def test_the_index_has_a_line_for_every_id_the_code_cites() -> None:
    indexed = [row[1] for row in INDEX_ROW.finditer(index_text())]
    assert sorted(indexed) == sorted(set(indexed)), "an ID has two lines"
    assert cited_ids() - set(indexed) == set()


def test_every_module_the_index_names_exists() -> None:
    package = REPO / "src" / "tribunal"
    missing = [
        f"{row[1]}: {module}"
        for row in INDEX_ROW.finditer(index_text())
        for module in re.findall(r"`([^`]+)`", row["modules"])
        if not (package / module).exists()
    ]
    assert missing == []


def test_the_architecture_page_draws_every_layer() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers"]
    page = PAGES[DOCS / "architecture.md"]
    (diagram,) = page.blocks({"mermaid"})
    modules = [
        name.strip().removeprefix("tribunal.")
        for layer in layers["layers"]
        for name in re.split(r"[|:]", layer)
    ]
    drawn = [m for m in modules if re.search(rf"(?<![\w.]){re.escape(m)}(?!\w)", diagram.body)]
    assert sorted(set(modules) - set(drawn)) == []
