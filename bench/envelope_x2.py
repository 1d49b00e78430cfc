"""X-2: an envelope for a change touching 100 files of 20 KB in a 20,000-file repository, built
and identity-scanned in under 2 s.

Run through `python3 bench/run.py --only X-2`.
The repository is written with one `git fast-import`, so building it takes seconds, not minutes.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 2.0
_WORDS = ("alpha", "beta", "gamma", "delta", "value", "result", "index", "count", "total")
_IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench Writer",
    "GIT_AUTHOR_EMAIL": "bench.writer@example.invalid",
    "GIT_COMMITTER_NAME": "Bench Writer",
    "GIT_COMMITTER_EMAIL": "bench.writer@example.invalid",
}


def make_repository(path: Path, files: int, changed: int, size: int) -> None:
    """A repository of `files` small modules whose last commit rewrites `changed` of them to
    `size` bytes each; the commit before it is tagged `base`."""
    rng = random.Random(2)

    def module(number: int, length: int) -> bytes:
        lines, total = ["def f():\n"], 0
        while total < length:
            word, call = rng.choice(_WORDS), rng.choice(_WORDS)
            line = f"    {word}_{number} = {call}({rng.randint(0, 999)})\n"
            lines.append(line)
            total += len(line)
        return "".join(lines).encode()

    def entry(name: str, data: bytes) -> bytes:
        return f"M 100644 inline {name}\ndata {len(data)}\n".encode() + data + b"\n"

    who = b"Bench Writer <bench.writer@example.invalid>"
    stream = [b"commit refs/heads/main\nmark :1\ncommitter " + who + b" 0 +0000\ndata 4\nbase\n"]
    stream += [entry(f"pkg{n // 100}/mod{n}.py", module(n, 300)) for n in range(files)]
    stream.append(
        b"commit refs/heads/main\ncommitter " + who + b" 1 +0000\ndata 6\nchange\nfrom :1\n"
    )
    step = max(1, files // changed)
    stream += [
        entry(f"pkg{n // 100}/mod{n}.py", module(n + 1, size))
        for n in range(0, step * changed, step)
    ]
    env = {**os.environ, **_IDENTITY}
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, env=env)
    subprocess.run(["git", "fast-import", "--quiet"], input=b"".join(stream), cwd=path, check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=path, check=True, env=env)
    subprocess.run(["git", "tag", "base", "main~1"], cwd=path, check=True, env=env)


def measure(quick: bool, work: Path) -> dict[str, float]:
    """Build the X-2 repository under `work` and time `build_envelope` in-process (median of a
    few runs, git processes included) and `tribunal envelope` end to end.

    Returns {"files", "changed", "library_s", "cli_s", "tokens"}."""
    sys.path.insert(0, str(REPO / "src"))
    from tribunal.jury.envelope.build import build_envelope
    from tribunal.jury.envelope.contract import load_contract

    files, changed, size = (400, 5, 20_000) if quick else (20_000, 100, 20_000)
    repo = work / "repo"
    make_repository(repo, files, changed, size)
    contract_path = work / "contract.yaml"
    contract_path.write_text(
        "intent: Rewrite modules.\ncriteria:\n  - they import\ndeny: [acme-bot]\n",
        encoding="utf-8",
    )
    contract = load_contract(contract_path)
    samples = []
    envelope = None
    for _ in range(3 if quick else 5):
        start = time.perf_counter()
        envelope = build_envelope(
            repo, "base", contract, builder_terms=["gpt-4o"], content_terms=["openai", "llama3"]
        )
        samples.append(time.perf_counter() - start)
    assert envelope is not None and len(envelope.files) == changed
    script = Path(sys.executable).parent / "tribunal"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "tribunal"]
    start = time.perf_counter()
    subprocess.run(
        [*command, "envelope", "--repo", str(repo), "--base", "base",
         "--contract", str(contract_path), "--out", str(work / "out")],
        check=True, capture_output=True,
    )  # fmt: skip
    cli_s = time.perf_counter() - start
    return {
        "files": files,
        "changed": changed,
        "library_s": statistics.median(samples),
        "cli_s": cli_s,
        "tokens": envelope.tokens_estimate,
    }
