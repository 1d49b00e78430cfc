"""DEVELOPERS.md point 1: the README and every page under docs/ can be followed. Each renders as
it is written (every fence closes, every heading stays a heading), and its shell blocks run
verbatim from a fresh copy of the checkout — each block on its own, and all of a page's blocks in
order in one shell, as a reader pastes them.

A page's first block on its own is exactly how its in-order run starts (a fresh copy, nothing run
before it), so that run stands for it: only the later blocks get a run of their own. That keeps
one copy and one run per block, the cost of this file.

Install steps are checked against pyproject.toml instead of re-run; the test command is checked
against .ci/run instead of re-run (it is what is running now). Blocks that need a key or a network
are shown as `text` or `yaml`, never as shell.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from testing import REPO
from testing.markdown_page import Fence, Page
from testing.reader_shell import LEFT_HOME, reader_failure, reader_script, run_as_reader

README = Page.read(REPO / "README.md", REPO)
PAGES = [README, *(Page.read(path, REPO) for path in sorted((REPO / "docs").rglob("*.md")))]
STOPPED = "the shell stopped in the block at "


def page_id(page: Page) -> str:
    return page.name


def test_the_docs_are_more_than_the_readme() -> None:
    assert len(PAGES) > 1, "no page found under docs/"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_renders_as_written(page: Page) -> None:
    assert page.problems() == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            "## One\n\n```bash\necho one\n\n## Two\n\ntext\n",
            [
                "page.md:3: the ```bash fence opened here never closes: it runs on to line 8",
                "page.md:6: the heading '## Two' is not rendered as a heading",
            ],
            id="unclosed-to-the-end",
        ),
        pytest.param(
            "```bash\nexit 0\n\n## Two\n\n```sh\necho two\n```\n\n### Three\n",
            [
                "page.md:1: the ```bash fence opened here never closes: it takes the fence"
                " opening at line 6 as its text, and line 8 closes it",
                "page.md:4: the heading '## Two' is not rendered as a heading",
            ],
            id="closed-by-the-next-fence",
        ),
        pytest.param(
            "- a step\n\n  ```sh\n  echo a\n\nafter the list\n",
            ["page.md:3: the ```sh fence opened here never closes: it runs on to line 5"],
            id="unclosed-in-a-list-item",
        ),
        pytest.param(
            "~~~\n```\n    ~~~\n",
            ["page.md:1: the ~~~ fence opened here never closes: it runs on to line 3"],
            id="a-marker-indented-four-is-text",
        ),
        pytest.param(
            "```\n",
            ["page.md:1: the ``` fence opened here never closes: it runs on to line 1"],
            id="a-lone-opening-line",
        ),
        pytest.param(
            "## One\n\n````markdown\n## PREC-001\n\n```yaml\nverdict: DENY\n```\n````\n\n"
            "> ```sh\n> echo quoted\n> ```\n\n~~~text\n```\n~~~\n\n### Two {#two}\n",
            [],
            id="well-formed",
        ),
    ],
)
def test_problems_names_each_fence_that_never_closes_and_each_lost_heading(
    source: str, expected: list[str]
) -> None:
    assert Page.parse(source, name="page.md").problems() == expected


def test_shell_blocks_are_the_bash_and_sh_fences_with_their_text() -> None:
    page = Page.parse("```bash title\necho a\n```\n\n```text\nno\n```\n\n~~~sh\necho b\n~~~\n")
    assert [(fence.language, fence.line, fence.body) for fence in page.shell_blocks()] == [
        ("bash", 1, "echo a\n"),
        ("sh", 9, "echo b\n"),
    ]


def test_readme_has_both_commands() -> None:
    joined = "\n".join(fence.body for fence in README.shell_blocks())
    assert re.search(r"^python3 -m pip install -e \. && ", joined, re.M), "main-job command"
    assert re.search(r"^python3 -m pip install -e '\.\[test\]' && python3 -m pytest$", joined, re.M)


LATER_BLOCKS = [
    pytest.param(page, fence, id=f"{page.name}:{fence.line}")
    for page in PAGES
    for fence in page.shell_blocks()[1:]
]
PAGES_WITH_BLOCKS = [page for page in PAGES if page.shell_blocks()]


@pytest.mark.parametrize(("page", "fence"), LATER_BLOCKS)
def test_block_runs_on_its_own(page: Page, fence: Fence, tmp_path: Path) -> None:
    failure = reader_failure(run_as_reader(reader_script(page.name, [fence], REPO), REPO, tmp_path))
    assert failure is None, failure


@pytest.mark.parametrize("page", PAGES_WITH_BLOCKS, ids=page_id)
def test_blocks_run_in_order_in_one_shell(page: Page, tmp_path: Path) -> None:
    script = reader_script(page.name, page.shell_blocks(), REPO)
    failure = reader_failure(run_as_reader(script, REPO, tmp_path))
    assert failure is None, failure


def run_page(source: str, tmp_path: Path) -> str | None:
    """How a reader's shell fails running the shell blocks of Markdown `source` in order."""
    page = Page.parse(source, name="page.md")
    script = reader_script(page.name, page.shell_blocks(), REPO)
    return reader_failure(run_as_reader(script, REPO, tmp_path))


def test_a_block_that_leaves_the_reader_elsewhere_fails(tmp_path: Path) -> None:
    source = "```bash\nmkdir demo && cd demo\n```\n\n```bash\ntest -f README.md\n```\n"
    failure = run_page(source, tmp_path)
    assert failure is not None
    assert failure.startswith(f"{STOPPED}page.md:1: exit {LEFT_HOME}\n"), failure
    assert "page.md:1: this block leaves the shell in " in failure


def test_a_block_that_exits_the_shell_fails(tmp_path: Path) -> None:
    source = '```bash\nstatus=0\nexit "$status"\n```\n\n```bash\ntrue\n```\n'
    failure = run_page(source, tmp_path)
    assert failure is not None
    assert failure.startswith(STOPPED + "page.md:1: the shell ended (exit 0) before"), failure


def test_a_block_that_needs_a_fresh_directory_fails_in_order(tmp_path: Path) -> None:
    block = "```bash\nmkdir demo\ntouch demo/calc.py\n```\n\n"
    assert run_page(block, tmp_path / "alone") is None
    failure = run_page(block + block, tmp_path / "in-order")
    assert failure is not None and failure.startswith(STOPPED + "page.md:6: exit 1\n"), failure


def test_a_block_that_commits_needs_its_own_git_identity(tmp_path: Path) -> None:
    commit = "git init -q demo && git -C demo {}commit -q --allow-empty -m start\n"
    failure = run_page(f"```bash\n{commit.format('')}```\n", tmp_path / "without")
    assert failure is not None and failure.startswith(STOPPED + "page.md:1: exit 128\n"), failure
    identity = "-c user.name=demo -c user.email=demo@example.invalid "
    assert run_page(f"```bash\n{commit.format(identity)}```\n", tmp_path / "with") is None
