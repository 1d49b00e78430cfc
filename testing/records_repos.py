"""Real git repositories in tmp_path for records tests (never a mocked git)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    """Run git in `repo`; return stdout; fail the test on a non-zero exit."""
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def init_repo(repo: Path) -> Path:
    """A fresh repository on branch main."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    return repo


def commit_all(repo: Path, message: str) -> None:
    """Stage everything and commit."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def write(repo: Path, name: str, text: str) -> Path:
    """Write `text` to `repo/name`, creating directories."""
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


JUDGMENT = """---
verdict: DENY
reason: violates_invariant:silent_p0_ratio
evidence_ref:
- metrics/m.json#/silent_p0_ratio
- specs/s.yaml:2
linked_precedents:
- PREC-001
---
# Judgment
"""

PRECEDENTS = """# Precedents

## PREC-001

```yaml
case_id: PREC-001
verdict: DENY
evidence_ref: metrics/m.json#/silent_p0_ratio
applies_to: "rate-limit without tenant_id dedup"
next_check: "burst_window_sec rises above 60"
```
"""


def records_repo(repo: Path) -> Path:
    """A committed repository holding one valid judgment, one precedent and their evidence."""
    init_repo(repo)
    write(repo, "metrics/m.json", '{"silent_p0_ratio": 0.2}\n')
    write(repo, "specs/s.yaml", "spec_id: x\nthen: y\n")
    write(repo, "judgments/2026-01-rate.judgment.md", JUDGMENT)
    write(repo, "precedents.md", PRECEDENTS)
    commit_all(repo, "records")
    return repo
