"""E-1, E-3, E-4, B-6: envelopes built from real git repositories in tmp_path.

Commits carry conftest's identity: "Test Author" <author@example.invalid> and "Test Committer"
<committer@example.invalid>, so the words `author` and `committer` (local parts of 4+ characters)
are identity terms too.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.documents import first_schema_error
from tribunal.errors import BadInput
from tribunal.jury.envelope.build import Envelope, build_envelope, related_tests
from tribunal.jury.envelope.contract import Contract, load_contract
from tribunal.jury.envelope.read import read_envelope
from tribunal.jury.envelope.text import (
    ExampleCitation,
    fence_for,
    file_lines,
    number_lines,
    unnumber_lines,
)

CALC_BASE = (
    "def add(a, b):\n    return a + b\n\n"
    + "# filler line\n" * 40
    + "\ndef sub(a, b):\n    return a - b\n"
)
TEST_CALC = "from src.calc import sub\n\ndef test_sub():\n    assert sub(1, 2) == 0\n"
CALC_HEAD = CALC_BASE.replace("return a - b", "return a - b if a > b else 0")
CONTRACT = "intent: Clamp subtraction at zero.\ncriteria:\n  - sub(1, 2) == 0\n"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """A repository with a base commit (tagged `base`) and one change commit on top."""
    git_repo = GitRepo(tmp_path / "repo")
    git_repo.commit(
        "base",
        {
            "src/calc.py": CALC_BASE,
            "src/util.py": "def unused():\n    pass\n",
            "tests/test_calc.py": TEST_CALC,
            "tests/conftest.py": "import pytest\n",
            "tests/test_util.py": "def test_nothing():\n    pass\n",
            "docs/guide.md": "GUIDE_BODY_MARKER\n",
        },
    )  # fmt: skip
    git_repo.git("tag", "base")
    git_repo.commit(
        "change", {"src/calc.py": CALC_HEAD, "src/shiny.py": "X = 1\n"}, remove=("docs/guide.md",)
    )
    return git_repo


def contract_file(tmp_path: Path, text: str = CONTRACT) -> Path:
    path = tmp_path / "contract.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def contract_of(tmp_path: Path, text: str = CONTRACT) -> Contract:
    return load_contract(contract_file(tmp_path, text), "contract.yaml")


def build(repo: GitRepo, tmp_path: Path, text: str = CONTRACT, **kwargs: object) -> Envelope:
    return build_envelope(repo.path, "base", contract_of(tmp_path, text), **kwargs)  # type: ignore[arg-type]


def roles(envelope: Envelope) -> list[tuple[str, str]]:
    return [(file.path, file.role.value) for file in envelope.files]


def test_roles_changed_test_deleted(repo: GitRepo, tmp_path: Path) -> None:
    envelope = build(repo, tmp_path)
    assert roles(envelope) == [
        ("src/calc.py", "changed"),
        ("src/shiny.py", "changed"),
        ("tests/conftest.py", "test"),
        ("tests/test_calc.py", "test"),
        ("docs/guide.md", "deleted"),
    ]
    assert envelope.head == repo.git("rev-parse", "HEAD").strip()
    assert envelope.base == repo.git("rev-parse", "base").strip()


def test_whole_files_not_hunks(repo: GitRepo, tmp_path: Path) -> None:
    text = build(repo, tmp_path).text
    # The whole head file, verbatim, each line after its number (E-5).
    assert f"```\n{number_lines(CALC_HEAD)}```\n" in text
    assert "  45 | def sub(a, b):\n  46 |     return a - b if a > b else 0\n" in text
    assert "@@" not in text and "return a - b\n" not in text  # no hunk, no base side
    assert "GUIDE_BODY_MARKER" not in text and "- docs/guide.md\n" in text  # deleted: path only
    assert "Intent: Clamp subtraction at zero." in text and "1. sub(1, 2) == 0" in text
    assert text.index("## Review contract") < text.index("## Changed files (2)")
    assert text.index("## Changed files") < text.index("## Test files (2)")
    assert text.index("## Test files") < text.index("## Deleted files (1)")


def test_manifest_hashes_and_schema(repo: GitRepo, tmp_path: Path) -> None:
    envelope = build(repo, tmp_path)
    manifest = envelope.manifest()
    assert first_schema_error(manifest, "manifest") is None
    by_path = {entry["path"]: entry for entry in manifest["files"]}
    assert by_path["src/calc.py"]["sha256"] == hashlib.sha256(CALC_HEAD.encode()).hexdigest()
    assert by_path["docs/guide.md"]["sha256"] is None
    assert manifest["tokens_estimate"] == len(envelope.text.encode("utf-8")) // 2
    assert list(manifest) == [
        "repo", "base", "head", "receipt", "tokens_estimate", "warnings", "files"
    ]  # fmt: skip


def test_receipt_ignores_git_config_that_changes_the_diff_bytes(
    repo: GitRepo, tmp_path: Path
) -> None:
    # E-1: the same range gives the same receipt whatever the user's git configuration says.
    repo.commit(
        "rename", {"src/helpers_moved.py": "def unused():\n    pass\n"}, remove=("src/util.py",)
    )
    plain = build(repo, tmp_path).receipt
    command = ["git", "diff", "--binary", "--full-index", "base...HEAD"]
    default = subprocess.run(command, cwd=repo.path, capture_output=True, check=True).stdout
    for key, value in [
        ("diff.noprefix", "true"),
        ("core.abbrev", "12"),
        ("diff.renames", "false"),
        ("diff.algorithm", "patience"),
        ("diff.context", "7"),
        ("diff.mnemonicPrefix", "true"),
        ("core.quotePath", "false"),
    ]:
        repo.git("config", key, value)
    configured = subprocess.run(command, cwd=repo.path, capture_output=True, check=True).stdout
    assert configured != default  # the configuration really changes what plain git prints
    assert build(repo, tmp_path).receipt == plain
    assert plain == hashlib.sha256(default).hexdigest()


def test_receipt_is_sha256_of_binary_diff(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("binary", {"assets/logo.bin": bytes(range(256)) * 4})
    envelope = build(repo, tmp_path)
    diff = subprocess.run(
        ["git", "diff", "--binary", "--full-index", "base...HEAD"],
        cwd=repo.path,
        capture_output=True,
        check=True,
    ).stdout
    assert b"GIT binary patch" in diff
    assert envelope.receipt == hashlib.sha256(diff).hexdigest()
    logo = next(file for file in envelope.files if file.path == "assets/logo.bin")
    assert logo.text is None and logo.sha256 == hashlib.sha256(bytes(range(256)) * 4).hexdigest()
    assert "### assets/logo.bin\n\n(binary file, 1024 bytes: content not included)\n" in (
        envelope.text
    )


def test_dirty_tree_is_warned_and_not_read(repo: GitRepo, tmp_path: Path) -> None:
    repo.write("src/calc.py", "DIRTY_MARKER = 'Test Author'\n")
    repo.write("src/util.py", "STAGED_MARKER = 1\n")
    repo.git("add", "src/util.py")
    envelope = build(repo, tmp_path)
    assert "DIRTY_MARKER" not in envelope.text and "STAGED_MARKER" not in envelope.text
    assert number_lines(CALC_HEAD) in envelope.text
    assert any("uncommitted changes" in warning for warning in envelope.warnings)


def test_clean_tree_has_no_warning(repo: GitRepo, tmp_path: Path) -> None:
    repo.write("untracked.txt", "not part of anything\n")
    assert build(repo, tmp_path).warnings == ()


def test_head_other_than_head(repo: GitRepo, tmp_path: Path) -> None:
    first = repo.git("rev-parse", "HEAD").strip()
    repo.commit("later", {"src/later.py": "Y = 2\n"})
    envelope = build(repo, tmp_path, head=first)
    assert envelope.head == first
    assert "src/later.py" not in [file.path for file in envelope.files]


def test_related_tests_by_name(tmp_path: Path) -> None:
    tree = dict.fromkeys(
        ["a/test_foo.py", "b/foo_test.py", "web/foo.test.js", "web/foo.spec.ts", "c/test_bar.py",
         "tests/data/foo.json", "d/foo.py"]
    )  # fmt: skip
    assert related_tests(["src/foo.py"], tree) == {  # type: ignore[arg-type]
        "a/test_foo.py", "b/foo_test.py", "web/foo.test.js", "web/foo.spec.ts"
    }  # fmt: skip


def test_contract_tests_and_nested_conftest(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(
        "more",
        {
            "checks/cases.py": "CASES = [1]\n",
            "checks/data/one.json": "{}\n",
            "pkg/sub/test_shiny.py": "def test_x():\n    pass\n",
            "pkg/conftest.py": "X = 0\n",
            "conftest.py": "Y = 0\n",
        },
    )
    text = CONTRACT + "tests: [checks/cases.py, checks/data/]\n"
    envelope = build(repo, tmp_path, text)
    assert set(roles(envelope)) >= {
        ("checks/cases.py", "changed"),  # touched by the change: changed wins over test
        ("checks/data/one.json", "changed"),
        ("pkg/sub/test_shiny.py", "changed"),
        ("pkg/conftest.py", "changed"),
        ("tests/test_calc.py", "test"),
    }
    repo.git("tag", "base2")
    repo.commit("touch shiny", {"src/shiny.py": "X = 2\n"})
    later = build_envelope(repo.path, "base2", contract_of(tmp_path, text))
    assert roles(later) == [
        ("src/shiny.py", "changed"),
        ("checks/cases.py", "test"),
        ("checks/data/one.json", "test"),
        ("conftest.py", "test"),
        ("pkg/conftest.py", "test"),
        ("pkg/sub/test_shiny.py", "test"),
    ]


def test_contract_test_missing_from_head_is_bad_input(repo: GitRepo, tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        build(repo, tmp_path, CONTRACT + "tests:\n  - checks/nowhere.py\n")
    assert (info.value.source, info.value.line, info.value.field) == (
        "contract.yaml", 5, "tests[0]"
    )  # fmt: skip


def test_state_dir_is_never_part_of_an_envelope(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(
        "state",
        {".tribunal/run.json": '{"by": "Test Author"}\n', "sub/.tribunal/x": "Test Author\n"},
    )
    envelope = build(repo, tmp_path, CONTRACT + "tests: [.tribunal]\n")
    assert not any(".tribunal" in file.path for file in envelope.files)
    assert ".tribunal" not in envelope.text
    assert any("2 file(s) under .tribunal/ left out" in w for w in envelope.warnings)


def test_contract_inside_the_change_is_shown_once(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("contract", {"review/contract.yaml": CONTRACT + "deny: [Zebulon Quux]\n"})
    contract = load_contract(repo.path / "review/contract.yaml", "review/contract.yaml")
    envelope = build_envelope(repo.path, "base", contract)
    assert "review/contract.yaml" not in [file.path for file in envelope.files]
    assert "Zebulon" not in envelope.text
    assert "review/contract.yaml: the contract file is shown as the review contract" in (
        envelope.warnings
    )


def test_fence_outlasts_any_backtick_run(repo: GitRepo, tmp_path: Path) -> None:
    tricky = "x = 1\n```\n`````\n## Deleted files (0)\n"
    repo.commit("fences", {"docs/tricky.md": tricky})
    text = build(repo, tmp_path).text
    assert fence_for(tricky) == "``````"
    assert f"``````\n{number_lines(tricky)}``````\n" in text
    assert fence_for("plain") == "```" and fence_for("a `b` c") == "```"


def test_missing_newline_at_end_is_noted(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("no eol", {"src/eol.py": "Z = 3"})
    assert "```\n   1 | Z = 3\n```\n(no newline at end of file)\n" in build(repo, tmp_path).text


def test_same_inputs_give_identical_bytes_anywhere(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C-6: a clone elsewhere gives the same envelope.md and manifest.json, byte for byte."""
    clone = tmp_path / "elsewhere" / "clone"
    subprocess.run(["git", "clone", "-q", str(repo.path), str(clone)], check=True)
    contract = contract_file(tmp_path)
    outputs = []
    for where in (repo.path, clone):
        monkeypatch.chdir(where)
        out = tmp_path / f"out-{len(outputs)}"
        result = CliRunner().invoke(
            cli, ["envelope", "--repo", ".", "--base", "base", "--contract", str(contract),
                  "--out", str(out)]
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        outputs.append(((out / "envelope.md").read_bytes(), (out / "manifest.json").read_bytes()))
    assert outputs[0] == outputs[1]


def test_symlink_and_non_utf8_files_by_path_with_a_note(repo: GitRepo, tmp_path: Path) -> None:
    (repo.path / "src/link.py").symlink_to("calc.py")
    repo.commit("odd files", {"data/latin1.txt": "caf\xe9\n".encode("latin-1")})
    envelope = build(repo, tmp_path)
    assert "### src/link.py\n\n(symbolic link to calc.py)\n" in envelope.text
    assert "### data/latin1.txt\n\n(binary file, 5 bytes: content not included)\n" in envelope.text
    latin = next(file for file in envelope.files if file.path == "data/latin1.txt")
    assert latin.sha256 == hashlib.sha256(b"caf\xe9\n").hexdigest()


def test_submodule_by_path_with_its_commit(repo: GitRepo, tmp_path: Path) -> None:
    commit = repo.git("rev-parse", "HEAD").strip()
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{commit},vendor/lib")
    repo.git("commit", "-q", "-m", "submodule")
    envelope = build(repo, tmp_path)
    vendored = next(file for file in envelope.files if file.path == "vendor/lib")
    assert vendored.sha256 is None and vendored.role.value == "changed"
    assert f"(submodule at commit {commit}: content not included)" in envelope.text


def test_hit_in_the_envelopes_own_words_names_its_line(repo: GitRepo, tmp_path: Path) -> None:
    with pytest.raises(BadInput) as info:
        build(repo, tmp_path, CONTRACT + "deny: [Criteria]\n")
    line = build(repo, tmp_path).text.splitlines().index("Criteria:") + 1
    assert (info.value.source, info.value.line) == ("envelope.md", line)
    assert "'Criteria' (deny list)" in info.value.message


def test_written_envelope_reads_back_whole(repo: GitRepo, tmp_path: Path) -> None:
    (repo.path / "src/link.py").symlink_to("calc.py")
    repo.commit(
        "assorted",
        {
            "src/empty.py": "",
            "src/eol.py": "Z = 3",
            "docs/fences.md": "````\n### src/calc.py\n\n```\n",
            "assets/blob.bin": b"\0\1\2",
        },
    )
    built = build(repo, tmp_path)
    built.write(tmp_path / "out")
    again = read_envelope(tmp_path / "out", "out")
    assert again == built
    assert again.file_texts()["docs/fences.md"] == "````\n### src/calc.py\n\n```\n"
    assert again.file_texts()["src/eol.py"] == "Z = 3"
    assert "assets/blob.bin" not in again.file_texts()


def test_the_gutter_is_shown_not_hashed(repo: GitRepo, tmp_path: Path) -> None:
    # E-5: the manifest hashes the file, citations see the file; only envelope.md shows numbers.
    built = build(repo, tmp_path)
    calc = next(file for file in built.files if file.path == "src/calc.py")
    assert calc.text == CALC_HEAD
    assert calc.sha256 == hashlib.sha256(CALC_HEAD.encode()).hexdigest()
    assert built.file_texts()["src/calc.py"] == CALC_HEAD
    assert "   1 | def add(a, b):\n   2 |     return a + b\n   3 |\n" in built.text
    built.write(tmp_path / "out")
    assert read_envelope(tmp_path / "out", "out").file_texts() == built.file_texts()


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("", ""),
        ("\n", "   1 |\n"),
        ("a", "   1 | a"),
        ("a\n\n  b\n", "   1 | a\n   2 |\n   3 |   b\n"),
        ("x\r\n\r\n", "   1 | x\r\n   2 | \r\n"),
        ("form\x0cfeed\u2028same line\n", "   1 | form\x0cfeed\u2028same line\n"),
        (" \n", "   1 |  \n"),
    ],
)
def test_number_lines_and_back(text: str, shown: str) -> None:
    assert number_lines(text) == shown
    assert unnumber_lines(shown) == text


def test_the_gutter_widens_for_long_files() -> None:
    text = "x\n" * 10000
    shown = number_lines(text)
    assert shown.startswith("    1 | x\n") and shown.endswith("10000 | x\n")
    assert unnumber_lines(shown) == text and len(file_lines(text)) == 10000


@pytest.mark.parametrize("shown", ["   1 |x\n", "   2 | a\n", "  1 | a\n", "   1 | a\nb\n"])
def test_a_broken_gutter_is_not_read_back(shown: str) -> None:
    assert unnumber_lines(shown) is None


def test_the_example_citation_is_a_test_files_first_plain_line(
    repo: GitRepo, tmp_path: Path
) -> None:
    # E-5: a line no review needs, so that a juror copying it (never counted) loses nothing.
    assert build(repo, tmp_path).example == ExampleCitation("tests/conftest.py", 1, "import pytest")


def test_without_a_test_file_the_example_is_the_first_plain_line(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "plain")
    repo.commit("base", {"README.md": "A project.\n"})
    repo.git("tag", "base")
    repo.commit("change", {"src/q.py": '\n"""A docstring."""\n' + "#" * 80 + "\nVALUE = 1\n"})
    assert build(repo, tmp_path).example == ExampleCitation("src/q.py", 4, "VALUE = 1")


def test_with_no_line_fit_to_show_there_is_no_example(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "plain")
    repo.commit("base", {"README.md": "A project.\n"})
    repo.git("tag", "base")
    repo.commit("change", {"data.bin": b"\0\1", "blank.txt": "\n\n"}, remove=("README.md",))
    assert build(repo, tmp_path).example is None


def test_edited_envelope_is_bad_input(repo: GitRepo, tmp_path: Path) -> None:
    build(repo, tmp_path).write(tmp_path / "out")
    md = tmp_path / "out" / "envelope.md"
    md.write_text(md.read_text(encoding="utf-8").replace("a + b", "a * b"), encoding="utf-8")
    with pytest.raises(BadInput) as info:
        read_envelope(tmp_path / "out", "out")
    assert (info.value.source, info.value.field) == ("out/envelope.md", "files[0]")
    assert "'src/calc.py' is not in envelope.md as manifest.json records it" in str(info.value)


def test_an_envelope_without_its_gutter_is_bad_input(repo: GitRepo, tmp_path: Path) -> None:
    # The gutter is part of how envelope.md was written: a file shown without it was edited.
    build(repo, tmp_path).write(tmp_path / "out")
    md = tmp_path / "out" / "envelope.md"
    md.write_text(md.read_text(encoding="utf-8").replace("   1 | def add", "def add"), "utf-8")
    with pytest.raises(BadInput):
        read_envelope(tmp_path / "out", "out")
