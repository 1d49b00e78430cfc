"""E-3 zero authorship and the `tribunal envelope` command (E-1, E-2, C-3) on real repositories.

Commits carry conftest's identity: "Test Author" <author@example.invalid> and "Test Committer"
<committer@example.invalid>.
"""

from __future__ import annotations

import json
import shutil
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from testing.gitrepo import GitRepo

from tribunal.cli import cli
from tribunal.enums import TermSource
from tribunal.errors import BadInput
from tribunal.jury.envelope.build import build_envelope
from tribunal.jury.envelope.contract import load_contract
from tribunal.jury.envelope.identity import Term, TermScanner

CONTRACT = "intent: Add a greeting.\ncriteria:\n  - greet() returns hello\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """A repository (the working directory) whose `base` tag precedes one change commit."""
    git_repo = GitRepo(tmp_path / "repo")
    git_repo.commit("base", {"README.md": "A project.\n"})
    git_repo.git("tag", "base")
    monkeypatch.chdir(git_repo.path)
    return git_repo


def run(tmp_path: Path, *extra: str, contract: str = CONTRACT, base: str = "base") -> Result:
    contract_path = tmp_path / "contract.yaml"
    contract_path.write_text(contract, encoding="utf-8")
    args = ["envelope", "--repo", ".", "--base", base, "--contract", str(contract_path)]
    return CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "out"), *extra])


def change(repo: GitRepo, text: str, env: dict[str, str] | None = None) -> None:
    repo.commit("change", {"src/greet.py": f"def greet():\n    return 'hello'\n{text}\n"}, env=env)


def assert_refused(result: Result, tmp_path: Path, where: str, term: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"tribunal: error: {where}: identity term {term!r} ")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()  # nothing written


@pytest.mark.parametrize(
    ("line", "term"),
    [
        ("# reviewed by Test Author", "Test Author"),
        ("# TEST COMMITTER was here", "Test Committer"),  # case-insensitive
        ("# ping Test  Author", "Test Author"),  # any run of spaces
        ("MAIL = 'author@example.invalid'", "author@example.invalid"),  # address, not local part
        ("# the committer signs", "committer"),  # local part of 4+ characters
    ],
)
def test_commit_identity_fails_naming_path_line_and_term(
    repo: GitRepo, tmp_path: Path, line: str, term: str
) -> None:
    change(repo, line)
    assert_refused(run(tmp_path), tmp_path, "src/greet.py:3", term)


# E-3: the other Unicode forms of a name (and of its case) are the same name.
FORMS = ("NFC", "NFD", "NFKC", "NFKD")
CASES = (str, str.upper, str.lower)
LETTER = st.one_of(
    st.characters(categories=("Lu", "Ll"), max_codepoint=0x4FF),  # Latin, Greek, Cyrillic
    st.sampled_from("ǅǈǋǲẞﬁﬂﬀµſ"),  # titlecase digraphs, compatibility letters
).filter(
    # Case folding equates the cases it relates; a dotless ı upper-cased is an I, whose fold is i.
    lambda c: c.upper().casefold() == c.casefold() == c.lower().casefold()
)
NAME = st.lists(st.text(LETTER, min_size=2, max_size=8), min_size=1, max_size=3).map(" ".join)


@given(
    name=NAME,
    committed=st.sampled_from(FORMS),
    written=st.sampled_from(FORMS),
    case=st.sampled_from(CASES),
)
def test_a_name_is_found_in_any_normalisation_form_and_case(
    name: str, committed: str, written: str, case: Callable[[str], str]
) -> None:
    term = Term(unicodedata.normalize(committed, name), TermSource.NAME)
    other = case(unicodedata.normalize(written, name))
    scanner = TermScanner([term])
    text = f"def greet():\n    return 'hello'\n# thanks, {other}!\n"
    assert list(scanner.search(text)) == [(term, 2)]
    # Still whole words only: inside a longer word it is no hit.
    assert list(scanner.search(f"# thanks, {other}x and x{other}\n")) == []


@pytest.mark.parametrize(
    ("committed", "written"),
    [
        ("Zoë", "Zoe\u0308"),  # precomposed, written with a combining diaeresis
        ("Zoe\u0308", "ZOË"),  # the other way round, in capitals
        ("Zoë Strauß", "ZOË STRAUSS"),
        ("Daniel Ǆordjević", "daniel džordjević"),  # a compatibility digraph
    ],
)
def test_an_author_written_in_another_unicode_form_reaches_no_juror(
    repo: GitRepo, tmp_path: Path, committed: str, written: str
) -> None:
    author = {"GIT_AUTHOR_NAME": committed, "GIT_AUTHOR_EMAIL": "zb@example.invalid"}
    change(repo, f"# kudos to {written}", env=author)
    assert_refused(run(tmp_path), tmp_path, "src/greet.py:3", committed)


def test_a_longer_name_is_no_hit_in_any_form(repo: GitRepo, tmp_path: Path) -> None:
    author = {"GIT_AUTHOR_NAME": "Zoë", "GIT_AUTHOR_EMAIL": "zb@example.invalid"}
    change(repo, "# Zoe\u0308y and Zoëtrope are other words", env=author)
    result = run(tmp_path)
    assert result.exit_code == 0, result.output


def test_identity_of_every_commit_in_the_range_only(repo: GitRepo, tmp_path: Path) -> None:
    outsider = {"GIT_AUTHOR_NAME": "Grace Hopper", "GIT_AUTHOR_EMAIL": "gh@example.invalid"}
    second = {"GIT_AUTHOR_NAME": "Alan Turing", "GIT_AUTHOR_EMAIL": "alan.t@example.invalid"}
    repo.git("tag", "-d", "base")
    repo.commit("before the range", {"old.txt": "x\n"}, env=outsider)
    repo.git("tag", "base")
    change(repo, "# thanks Grace Hopper, gh")  # authored before the range: not a term
    assert run(tmp_path).exit_code == 0
    shutil.rmtree(tmp_path / "out")
    repo.commit("second", {"notes.txt": "Credit: alan.t\n"}, env=second)
    assert_refused(run(tmp_path), tmp_path, "notes.txt:1", "alan.t")


def test_whole_words_only(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "# authority, committers, Test Authors and authored are other words")
    result = run(tmp_path)
    assert result.exit_code == 0, result.output


def test_short_local_part_is_not_a_term(repo: GitRepo, tmp_path: Path) -> None:
    env = {"GIT_AUTHOR_NAME": "Bo Li", "GIT_AUTHOR_EMAIL": "bo@example.invalid"}
    change(repo, "# bo is fine: under 4 characters", env=env)
    assert run(tmp_path).exit_code == 0


@pytest.mark.parametrize("where", ["contract", "file"])
def test_deny_terms_fail(repo: GitRepo, tmp_path: Path, where: str) -> None:
    change(repo, "# built by Acme-Bot")
    if where == "contract":
        result = run(tmp_path, contract=CONTRACT + "deny: [acme-bot]\n")
    else:
        deny = tmp_path / "deny.txt"
        deny.write_text("# our bots\n\nacme-bot\n", encoding="utf-8")
        result = run(tmp_path, "--deny", str(deny))
    assert_refused(result, tmp_path, "src/greet.py:3", "acme-bot")


def test_identity_allow_suppresses_known_false_positive(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "# the author field of a record")
    assert run(tmp_path).exit_code == 2
    result = run(tmp_path, contract=CONTRACT + "identity_allow: [Author]\n")
    assert result.exit_code == 0, result.output
    assert "the author field" in (tmp_path / "out" / "envelope.md").read_text(encoding="utf-8")


def test_identity_allow_does_not_lift_the_deny_list(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "# acme-bot")
    deny = tmp_path / "deny.txt"
    deny.write_text("acme-bot\n", encoding="utf-8")
    result = run(tmp_path, "--deny", str(deny), contract=CONTRACT + "identity_allow: [acme-bot]\n")
    assert_refused(result, tmp_path, "src/greet.py:3", "acme-bot")


def test_identity_in_a_file_path_fails(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit("path", {"notes/committer/todo.txt": "nothing personal\n"})
    result = run(tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "tribunal: error: notes/committer/todo.txt: path: identity term 'committer' "
    )


def test_identity_in_the_contract_fails_naming_its_field(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "")
    result = run(tmp_path, contract=CONTRACT + "  - Test Author approves\n")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"tribunal: error: {tmp_path}/contract.yaml:4: criteria[1]: identity term 'Test Author' "
    )


def test_builder_terms_fail_and_content_terms_warn(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "import openai\nMODEL = 'gpt-4o'\n# openai again")
    (tmp_path / "c.yaml").write_text(CONTRACT, encoding="utf-8")
    contract = load_contract(tmp_path / "c.yaml", "c.yaml")
    with pytest.raises(BadInput) as info:
        build_envelope(repo.path, "base", contract, builder_terms=["GPT-4o"])
    assert (info.value.source, info.value.line) == ("src/greet.py", 4)
    assert "'GPT-4o' (builder model id)" in info.value.message
    envelope = build_envelope(repo.path, "base", contract, content_terms=["OpenAI", "gpt-4o"])
    assert envelope.warnings == (
        "content term 'OpenAI' (fleet family or model id) at src/greet.py:3 and 1 more place(s)"
        " (content, not authorship)",
        "content term 'gpt-4o' (fleet family or model id) at src/greet.py:4"
        " (content, not authorship)",
    )
    # The same text as a builder term and as content fails: authorship outranks content.
    with pytest.raises(BadInput):
        build_envelope(
            repo.path, "base", contract, builder_terms=["gpt-4o"], content_terms=["gpt-4o"]
        )


def test_cli_writes_envelope_and_manifest(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "")
    result = run(tmp_path)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["repo"] == "."
    assert manifest["files"][0]["path"] == "src/greet.py"
    assert (tmp_path / "out" / "envelope.md").read_text(encoding="utf-8").startswith("# Envelope")


def test_old_behaviour_prose_exits_2_naming_the_field(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "")
    result = run(tmp_path, contract=CONTRACT + "  - it used to return None\n")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tribunal: error: {tmp_path}/contract.yaml:4: criteria[1]: ")
    assert "'used to'" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--base", "no-such-rev"], ".: --base: 'no-such-rev' does not name a commit"),
        (["--base", "--output=/tmp/x"], ".: --base: '--output=/tmp/x' is not a revision"),
        (["--head", "deadbeef"], ".: --head: 'deadbeef' does not name a commit"),
        (["--head", "HEAD:README.md"], ".: --head: 'HEAD:README.md' does not name a commit"),
    ],
)
def test_bad_revisions_exit_2(repo: GitRepo, tmp_path: Path, args: list[str], message: str) -> None:
    change(repo, "")
    base = args[1] if args[0] == "--base" else "base"
    extra = args if args[0] == "--head" else []
    result = run(tmp_path, *extra, base=base)
    assert result.exit_code == 2
    assert result.stderr == f"tribunal: error: {message}\n"
    assert not (tmp_path / "out").exists()


def test_not_a_repository_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    result = run(tmp_path)
    assert result.exit_code == 2
    assert result.stderr == "tribunal: error: .: --repo: not a git repository\n"


def test_unrelated_histories_exit_2(repo: GitRepo, tmp_path: Path) -> None:
    repo.git("checkout", "-q", "--orphan", "other")
    repo.commit("orphan", {"x.txt": "x\n"})
    result = run(tmp_path, "--head", "other", base="main")
    assert result.exit_code == 2
    assert result.stderr == (
        "tribunal: error: .: --base: 'main' and 'other' share no history (no merge base)\n"
    )


ENVELOPE_FLEET = """\
rungs:
  - {id: coder, family: openai, transport: openai, endpoint: "http://127.0.0.1:9/v1",
     model: gpt-4o}
  - {id: other, family: vendor-b, transport: openai, endpoint: "http://127.0.0.1:9/v1",
     model: vb-large}
tiers:
  deep_state: [coder, other]
  operator_safety: [coder, other]
  generalist: [coder, other]
  fast_structural: {primary: [coder], verifier: [other]}
"""


@pytest.mark.parametrize("builder", ["coder", "GPT-4o"])
def test_cli_builder_naming_a_rung_or_model_fails_on_its_model_id(
    repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    # E-1/E-3: --builder naming a rung or a model puts its model id on the identity list.
    change(repo, "MODEL = 'gpt-4o'\n")
    (tmp_path / "fleet.yaml").write_text(ENVELOPE_FLEET, encoding="utf-8")
    result = run(tmp_path, "--fleet", str(tmp_path / "fleet.yaml"), "--builder", builder)
    assert result.exit_code == 2, result.output
    assert "identity term 'gpt-4o' (builder model id)" in result.stderr
    assert "src/greet.py:3" in result.stderr
    assert not (tmp_path / "out").exists()


def test_cli_builder_naming_a_family_and_fleet_terms_are_warnings(
    repo: GitRepo, tmp_path: Path
) -> None:
    # A family names no model: the model ids and family names found are content (warnings).
    change(repo, "import openai\nMODEL = 'gpt-4o'  # or vb-large\n")
    (tmp_path / "fleet.yaml").write_text(ENVELOPE_FLEET, encoding="utf-8")
    result = run(tmp_path, "--fleet", str(tmp_path / "fleet.yaml"), "--builder", "openai")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    warned = [warning.split(" (")[0] for warning in manifest["warnings"]]
    assert warned == [
        "content term 'openai'",
        "content term 'gpt-4o'",
        "content term 'vb-large'",
    ]


def test_cli_builder_without_fleet_or_unknown_is_bad_input(repo: GitRepo, tmp_path: Path) -> None:
    change(repo, "")
    (tmp_path / "fleet.yaml").write_text(ENVELOPE_FLEET, encoding="utf-8")
    assert run(tmp_path, "--builder", "openai").exit_code == 2
    result = run(tmp_path, "--fleet", str(tmp_path / "fleet.yaml"), "--builder", "nobody")
    assert result.exit_code == 2
    assert "known families: openai, vendor-b" in result.stderr
    assert not (tmp_path / "out").exists()
