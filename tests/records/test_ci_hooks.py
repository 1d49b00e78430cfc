"""R-6: the repository's CI runs the records check; a pre-commit hook offers it to others."""

from __future__ import annotations

import yaml
from testing import REPO


def test_ci_runs_records_check() -> None:
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "tribunal records check" in lines


def test_pre_commit_hook_runs_records_check() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "tribunal-records-check"]
    assert hook["entry"] == "tribunal records check" and hook["pass_filenames"] is False
