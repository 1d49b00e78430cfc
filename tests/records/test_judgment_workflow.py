"""The CI recipe for a judgment, examples/records/judgment-check.workflow.yaml: its job fails unless
the judgment the pull request carries approves, the judgment reaches the job summary whatever its
verdict, and docs/ci.md shows the file as it is.

The job's own `run:` steps are run here the way GitHub runs them (bash -e, a failed step fails the
job and skips every later step but those marked `if: always()`); the install step is left to
tests/test_install_lines.py, and `uses:` steps need GitHub.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from testing import REPO
from testing.markdown_page import Page

from tribunal.documents import load_yaml

WORKFLOW = REPO / "examples" / "records" / "judgment-check.workflow.yaml"
JUDGMENT = "---\nverdict: {verdict}\nreason: {reason}\nevidence_ref: evidence.json#/ok\n---\n"


def test_the_ci_page_quotes_the_workflow_verbatim() -> None:
    page = Page.read(REPO / "docs" / "ci.md", REPO)
    assert WORKFLOW.read_text(encoding="utf-8") in [fence.body for fence in page.blocks({"yaml"})]


def run_job(root: Path) -> tuple[bool, list[tuple[str, int]]]:
    """The workflow's job run in `root`: whether it passed, and each step that failed, by name,
    with its exit status."""
    job: dict[str, Any] = load_yaml(WORKFLOW).data["jobs"]["check"]
    env = {**os.environ, **job["env"], "GITHUB_STEP_SUMMARY": str(root / "summary.md")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    passed = True
    failed: list[tuple[str, int]] = []
    for step in job["steps"]:
        if "run" not in step or "pip install" in step["run"]:
            continue
        if not passed and step.get("if") != "always()":
            continue
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            passed = False
            failed.append((step.get("name", step["run"]), result.returncode))
    return passed, failed


@pytest.mark.parametrize(
    ("verdict", "reason", "status"),
    [("APPROVE", "clean", 0), ("DENY", "manual:unsafe", 1), ("DEFERRED", "manual:unsure", 3)],
)
def test_the_job_fails_unless_the_judgment_approves_and_always_shows_it(
    verdict: str, reason: str, status: int, tmp_path: Path
) -> None:
    (tmp_path / "evidence.json").write_text('{"ok": true}\n', encoding="utf-8")
    judgment = tmp_path / "review" / "judgment.md"
    judgment.parent.mkdir()
    judgment.write_text(JUDGMENT.format(verdict=verdict, reason=reason), encoding="utf-8")
    passed, failed = run_job(tmp_path)
    assert passed is (status == 0)
    assert failed == ([("Check the judgment (fails unless APPROVE)", status)] if status else [])
    assert (tmp_path / "summary.md").read_text(encoding="utf-8") == judgment.read_text("utf-8")
