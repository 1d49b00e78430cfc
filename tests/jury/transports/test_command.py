"""L-7 `command`: a real harness (a small python script) on its own detached worktree of head,
hashed before and after, in a real git repository built in tmp_path."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from testing.gitrepo import GitRepo

from tribunal.enums import ReasonCode
from tribunal.errors import BadInput
from tribunal.jury.transports import (
    Annulled,
    Checkout,
    NotAnswered,
    Oversize,
    Reply,
    SeatRequest,
    Truncated,
    open_transport,
)
from tribunal.jury.transports.base import TransportConfig, TransportContext
from tribunal.jury.transports.worktree import detached_worktree
from tribunal.jury.verdict import MAX_REPLY_BYTES

VERDICT = '{"verdict": "pass", "lens": "defect", "findings": []}'


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.commit("base", {"app.py": "print('v1')\n", "docs/readme.md": "hello\n"})
    repo.commit("head", {"app.py": "print('v2')\n"})
    repo.write("app.py", "print('uncommitted')\n")  # the checkout's own state is never judged
    return repo


def harness(code: str, **fields: object) -> TransportConfig:
    return TransportConfig.from_mapping(
        {
            "id": "harness-c",
            "family": "vendor-c",
            "transport": "command",
            "command": [sys.executable, "-c", code],
            "timeout_s": 20,
            **fields,
        }
    )


def ask(repo: GitRepo, config: TransportConfig, prompt: str = "the prompt") -> Reply:
    request = SeatRequest(prompt=prompt, seat="defect", checkout=Checkout(repo.path, "HEAD"))
    return open_transport(config, TransportContext(environ=dict(os.environ))).answer(request)


def worktrees(repo: GitRepo) -> list[str]:
    return [
        line
        for line in repo.git("worktree", "list", "--porcelain").splitlines()
        if line.startswith("worktree ")
    ]


def test_harness_reads_stdin_and_runs_on_head(repo: GitRepo) -> None:
    code = (
        "import os, sys, json\n"
        "prompt = sys.stdin.read()\n"
        "print(json.dumps({'prompt': prompt, 'cwd': os.getcwd(),"
        " 'app': open('app.py').read()}))\n"
    )
    reply = ask(repo, harness(code), prompt="Ünïcode prompt")
    said = json.loads(reply.text)
    assert said["prompt"] == "Ünïcode prompt"
    assert said["app"] == "print('v2')\n"  # head's bytes, not the checkout's uncommitted edit
    assert Path(said["cwd"]) != repo.path
    assert not Path(said["cwd"]).exists()  # the worktree is removed afterwards
    assert worktrees(repo) == [f"worktree {repo.path}"]
    assert reply.status is None and reply.finish_reason is None
    assert reply.usage.prompt_tokens is None
    assert (repo.path / "app.py").read_text() == "print('uncommitted')\n"


@pytest.mark.parametrize(
    ("code", "changed"),
    [
        ("open('notes.txt', 'w').write('x')", ["notes.txt"]),
        ("open('app.py', 'a').write('# more')", ["app.py"]),
        ("import os; os.remove('docs/readme.md')", ["docs/readme.md"]),
        ("import os; os.chmod('app.py', 0o755)", ["app.py"]),
        ("import os; os.mkdir('build')", ["build"]),
    ],
    ids=["adds", "edits", "deletes", "chmods", "mkdirs"],
)
def test_a_harness_that_writes_is_annulled(repo: GitRepo, code: str, changed: list[str]) -> None:
    config = harness(f"{code}\nprint({VERDICT!r})")
    with pytest.raises(Annulled) as caught:
        ask(repo, config)
    assert caught.value.reason is ReasonCode.ANNULLED
    assert list(caught.value.changed_paths) == changed
    assert VERDICT in caught.value.raw_tail  # its words are kept for the next round
    assert worktrees(repo) == [f"worktree {repo.path}"]
    assert repo.git("status", "--porcelain") == " M app.py\n"  # the real checkout untouched


def test_a_harness_that_commits_is_annulled(repo: GitRepo) -> None:
    code = (
        "import subprocess\n"
        "subprocess.run(['git', 'commit', '-q', '--allow-empty', '-m', 'x'], check=True)\n"
        f"print({VERDICT!r})\n"
    )
    with pytest.raises(Annulled) as caught:
        ask(repo, harness(code))
    assert caught.value.changed_paths == ("HEAD",)


def test_timeout_kills_the_process_group(repo: GitRepo, tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    code = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(60)\n"
    )
    with pytest.raises(NotAnswered) as caught:
        ask(repo, harness(code, timeout_s=1.5))
    assert "killed" in caught.value.message
    child = int(pid_file.read_text())
    assert _gone(child)
    assert worktrees(repo) == [f"worktree {repo.path}"]


def _gone(pid: int) -> bool:
    """True once `pid` no longer runs (a zombie waiting for init counts as gone)."""
    for _ in range(100):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def test_failing_harness_is_not_answered(repo: GitRepo) -> None:
    code = "import sys; sys.stderr.write('auth failed: log in first'); sys.exit(3)"
    with pytest.raises(NotAnswered) as caught:
        ask(repo, harness(code))
    assert "status 3" in caught.value.message
    assert caught.value.raw_tail == "auth failed: log in first"


def test_missing_harness_is_not_answered(repo: GitRepo) -> None:
    config = TransportConfig(
        id="h", family="f", transport="command", command=("no-such-harness-cli", "-p")
    )
    with pytest.raises(NotAnswered) as caught:
        ask(repo, config)
    assert "no-such-harness-cli" in caught.value.message
    assert worktrees(repo) == [f"worktree {repo.path}"]


def test_silent_harness_is_truncated(repo: GitRepo) -> None:
    with pytest.raises(Truncated):
        ask(repo, harness("import sys; sys.stdin.read()"))


def test_a_flood_is_read_no_further_than_one_mebibyte(repo: GitRepo) -> None:
    code = (
        "import sys\n"
        "chunk = b'x' * 65536\n"
        "for _ in range(10 * 16):\n"
        "    sys.stdout.buffer.write(chunk)\n"
    )
    with pytest.raises(Oversize) as caught:
        ask(repo, harness(code))
    assert caught.value.reason is ReasonCode.MALFORMED
    assert len(caught.value.raw_tail) <= 2048


def test_just_under_the_cap_is_a_reply(repo: GitRepo) -> None:
    code = f"import sys; sys.stdin.read(); sys.stdout.write('y' * {MAX_REPLY_BYTES - 10})"
    reply = ask(repo, harness(code))
    assert len(reply.text) == MAX_REPLY_BYTES - 10


def test_large_prompt_is_fed_whole(repo: GitRepo) -> None:
    prompt = "p" * (3 * 1024 * 1024)
    code = "import sys; print(len(sys.stdin.read()))"
    assert ask(repo, harness(code), prompt=prompt).text == f"{len(prompt)}\n"


def test_a_harness_needs_a_checkout_and_a_command(repo: GitRepo) -> None:
    config = harness("print(1)")
    with pytest.raises(BadInput):
        open_transport(config).answer(SeatRequest(prompt="p", seat="defect"))
    no_command = TransportConfig(id="h", family="f", transport="command")
    with pytest.raises(BadInput):
        ask(repo, no_command)


def test_worktree_is_removed_when_the_caller_fails(repo: GitRepo) -> None:
    with pytest.raises(RuntimeError), detached_worktree(repo.path, "HEAD") as tree:
        assert (tree.path / "app.py").read_text() == "print('v2')\n"
        kept = tree.path
        raise RuntimeError("boom")
    assert not kept.exists()
    assert worktrees(repo) == [f"worktree {repo.path}"]


def test_worktree_survives_a_harness_that_breaks_it(repo: GitRepo) -> None:
    import shutil

    with detached_worktree(repo.path, "HEAD~1") as tree:
        before = tree.fingerprint()
        shutil.rmtree(tree.path)
        tree.path.mkdir()
        assert "app.py" in tree.changed_since(before)
        assert "HEAD" in tree.changed_since(before)
    assert worktrees(repo) == [f"worktree {repo.path}"]


def test_worktree_of_a_commit_by_id(repo: GitRepo) -> None:
    base = repo.git("rev-parse", "HEAD~1").strip()
    with detached_worktree(repo.path, base[:10]) as tree:
        assert tree.commit == base
        assert (tree.path / "app.py").read_text() == "print('v1')\n"
        before = tree.fingerprint()
        assert tree.changed_since(before) == []
        (tree.path / "docs" / "link").symlink_to("readme.md")
        assert tree.changed_since(before) == ["docs/link"]


def test_worktree_bad_input(repo: GitRepo, tmp_path: Path) -> None:
    with (
        pytest.raises(BadInput, match="not a git repository"),
        detached_worktree(tmp_path / "nowhere", "HEAD"),
    ):
        pass
    with (
        pytest.raises(BadInput, match="names no commit"),
        detached_worktree(repo.path, "no-such-rev"),
    ):
        pass
