"""Build the panel court's demonstration: a small repository with base -> round1 -> round2
commits, in DIR (default: a fresh temporary directory). Prints DIR, then each tag and its commit.

    python3 examples/panel/make_demo_repo.py panel-demo
    tribunal panel convene --criteria panel-demo/repo/criteria.yaml \
      --report examples/panel/report-round1.yaml --repo panel-demo/repo --base base \
      --fleet examples/panel/fleet.yaml --out panel-demo/round1 --round 1
    tribunal panel convene --criteria panel-demo/repo/criteria.yaml \
      --report examples/panel/report-round2.yaml --repo panel-demo/repo --base base \
      --fleet examples/panel/fleet.yaml --out panel-demo/round2 --round 2

The project: `limiter.py`, a `RateLimiter` that admits at most `limit` requests in any `window`
seconds (`docs/limits.md`, the reference the criteria list).

- tag `base`: the reference, the criteria (`criteria.yaml`, byte-identical to
  `examples/panel/criteria.yaml`: committed before the work, so this commit freezes them) and a
  `pytest.ini` that makes the repository its own pytest root wherever it is built.
- tag `round1`: the executor's first head. A fixed window whose start never advances: once the
  first window has passed, `allow` resets the count on every call, so a burst straddling the
  window edge passes twice the limit (and no limit holds after it). Its tests pass.
- tag `round2`: the fix. The window slides; its start advances past requests older than it.

The executor reports name these tags as their address (`round1`, `round2`); the recorded
scorecards (`answers.yaml`) quote these files at these lines. Commit dates and identity are fixed,
so the commits — and the envelope's receipt — are the same wherever this runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CRITERIA = HERE / "criteria.yaml"
TAGS = ("base", "round1", "round2")

LIMITS_DOC = """\
# Rate limits

`RateLimiter(limit, window, clock=time.monotonic)` in `limiter.py` admits at most `limit`
requests in any `window` seconds.

- `allow()` returns True and counts the request when it fits, else returns False.
- A refused request is not counted.
- The limit holds across window edges: a burst that straddles the end of one window and the
  start of the next passes at most `limit` requests in any span of `window` seconds.
- `limit` is at least 1 and `window` is positive; anything else raises ValueError.
- `clock` returns the time in seconds; tests pass their own.
"""
PYTEST_INI = """\
# This repository is its own pytest root, wherever it is built.
[pytest]
pythonpath = .
"""
GITIGNORE = "__pycache__/\n.pytest_cache/\n.tribunal/\n"

LIMITER_ROUND1 = '''\
"""A rate limiter: at most `limit` requests per `window` seconds (see docs/limits.md)."""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimiter:
    """Admits at most `limit` requests in each fixed window of `window` seconds; refused
    requests do not count."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit must be at least 1 and window positive")
        self.limit = limit
        self.window = window
        self.clock = clock
        self.start = clock()
        self.count = 0

    def allow(self) -> bool:
        """True when one more request fits in the current window (and counts it), else False."""
        now = self.clock()
        start, window = self.start, self.window
        if now - start > window:
            self.count = 0
        if self.count >= self.limit:
            return False
        self.count += 1
        return True
'''
LIMITER_ROUND2 = '''\
"""A rate limiter: at most `limit` requests in any `window` seconds (see docs/limits.md)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


class RateLimiter:
    """Admits at most `limit` requests in any `window` seconds; refused requests do not count.

    The window slides: it starts at the oldest request it still holds, and that start advances
    as requests age out, so a burst straddling an edge never passes more than `limit`.
    """

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("limit must be at least 1 and window positive")
        self.limit = limit
        self.window = window
        self.clock = clock
        self.allowed: deque[float] = deque()

    def allow(self) -> bool:
        """True when one more request fits in the window ending now (and counts it), else False."""
        now = self.clock()
        while self.allowed and now - self.allowed[0] >= self.window:
            self.allowed.popleft()  # the window's start advances past requests older than it
        if len(self.allowed) >= self.limit:
            return False
        self.allowed.append(now)
        return True
'''
TESTS_ROUND1 = '''\
import pytest

from limiter import RateLimiter


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_admits_up_to_the_limit_then_refuses() -> None:
    limiter = RateLimiter(3, 60, Clock())
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]


def test_a_later_window_admits_again() -> None:
    clock = Clock()
    limiter = RateLimiter(3, 60, clock)
    assert all(limiter.allow() for _ in range(3))
    clock.now = 61
    assert limiter.allow()


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        RateLimiter(0, 60)
'''
TESTS_ROUND2 = (
    TESTS_ROUND1
    + """

def test_a_burst_straddling_the_window_edge_passes_the_limit_once() -> None:
    clock = Clock()
    limiter = RateLimiter(3, 60, clock)
    clock.now = 59
    assert all(limiter.allow() for _ in range(3))
    clock.now = 61
    assert [limiter.allow() for _ in range(3)] == [False, False, False]
    clock.now = 119
    assert limiter.allow()
"""
)

ROUNDS = (
    (
        "base",
        "base: the rate limits reference and the frozen criteria",
        {
            "docs/limits.md": LIMITS_DOC,
            "criteria.yaml": None,  # the shipped criteria, byte for byte
            "pytest.ini": PYTEST_INI,
            ".gitignore": GITIGNORE,
        },
    ),
    (
        "round1",
        "limiter: a fixed-window RateLimiter, with tests",
        {"limiter.py": LIMITER_ROUND1, "tests/test_limiter.py": TESTS_ROUND1},
    ),
    (
        "round2",
        "limiter: the window slides, so a burst at its edge passes the limit once",
        {"limiter.py": LIMITER_ROUND2, "tests/test_limiter.py": TESTS_ROUND2},
    ),
)
IDENTITY = {
    "GIT_AUTHOR_NAME": "Demo Maker",
    "GIT_AUTHOR_EMAIL": "maker@example.invalid",
    "GIT_COMMITTER_NAME": "Demo Maker",
    "GIT_COMMITTER_EMAIL": "maker@example.invalid",
}
# The user's signing and hooks would make the commits differ from machine to machine.
SETTINGS = ("commit.gpgsign=false", "tag.gpgsign=false", "core.hooksPath=/dev/null")
NEUTRAL = tuple(arg for setting in SETTINGS for arg in ("-c", setting))


def git(repo: Path, *args: str, date: str = "2026-01-01T00:00:00+00:00") -> str:
    """Run git in `repo` with the demo's fixed identity and `date`; return its output."""
    env = {**os.environ, **IDENTITY, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    done = subprocess.run(
        ["git", *NEUTRAL, *args], cwd=repo, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def build(target: Path) -> dict[str, str]:
    """The demo in `target`: `repo/` with tags base, round1 and round2. Returns each tag's
    commit id."""
    repo = target / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    commits = {}
    for hour, (tag, message, files) in enumerate(ROUNDS):
        for name, text in files.items():
            path = repo / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if text is None:
                path.write_bytes(CRITERIA.read_bytes())
            else:
                path.write_bytes(text.encode("utf-8"))  # LF on every platform
        date = f"2026-01-01T{hour:02d}:00:00+00:00"
        git(repo, "add", "-A", date=date)
        git(repo, "commit", "-q", "-m", message, date=date)
        git(repo, "tag", tag, date=date)
        commits[tag] = git(repo, "rev-parse", "HEAD", date=date)
    return commits


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="panel-demo-"))
    if target.exists() and any(target.iterdir()):
        print(f"make_demo_repo: {target} is not empty", file=sys.stderr)
        return 2
    commits = build(target)
    print(target)
    for tag, commit in commits.items():
        print(f"{tag} {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
