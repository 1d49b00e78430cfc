"""`tribunal convene` with the harness proofs (B-4) on real base -> red -> fix repositories, the
jury unanimous and citing: only the honest fix LANDs; a test not red at `red`, a fix the tests
do not need, a fix commit that weakens the red test each ITERATE; a run over the cap is INVALID;
a contract without `red` HOLDs. Edits to the working tree change nothing judged (B-6).

Every scenario is convened once, side by side (each its own repository, worktrees, juror
servers and processes), so the module costs about one proving.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from testing.convening import Ran, contract_file, convene, jury
from testing.hermetic import make_hermetic
from testing.proof_projects import CALC_RIGHT, CALC_WRONG, PYTEST, Change, change

WIP = "# work in progress, never judged\n"
SLOW_RED = "import time\n\n\ndef test_neg():\n    time.sleep(30)\n"


@dataclass(frozen=True)
class Scenario:
    subject: Change
    red: str | None
    timeout_s: float = 60


def honest(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT})
    # B-6: an uncommitted edit after the commit is never judged.
    subject.repo.write("calc.py", CALC_WRONG + WIP)
    return Scenario(subject, subject.red)


def not_red(path: Path) -> Scenario:
    passing = "import calc\n\n\ndef test_add_zero():\n    assert calc.add(0, 0) == 0\n"
    subject = change(path, {"calc.py": CALC_RIGHT}, red_files={"tests/test_zero.py": passing})
    return Scenario(subject, subject.red)


def fake_green(path: Path) -> Scenario:
    # The conftest (a test file, never put back) does the work; calc.py changes cosmetically.
    fix = {
        "calc.py": "# tidy\n" + CALC_WRONG,
        "tests/conftest.py": "import calc\n\ncalc.neg = lambda x: -x\n",
    }
    subject = change(path, fix)
    return Scenario(subject, subject.red)


def weakened(path: Path) -> Scenario:
    test = "import calc\n\n\ndef test_neg():\n    assert calc.neg(2) == calc.neg(2)\n"
    subject = change(path, {"calc.py": CALC_RIGHT, "tests/test_neg.py": test})
    return Scenario(subject, subject.red)


def capped(path: Path) -> Scenario:
    subject = change(path, {"calc.py": CALC_RIGHT}, red_files={"tests/test_neg.py": SLOW_RED})
    return Scenario(subject, subject.red, timeout_s=1)


def no_red(path: Path) -> Scenario:
    return Scenario(change(path, {"calc.py": CALC_RIGHT}), None)


SCENARIOS: dict[str, Callable[[Path], Scenario]] = {
    build.__name__: build for build in (honest, not_red, fake_green, weakened, capped, no_red)
}


def convened(name: str, scenario: Scenario, where: Path) -> Ran:
    subject = scenario.subject
    contract = contract_file(
        where / "contract.yaml", scenario.red, command=PYTEST, timeout_s=scenario.timeout_s
    )
    with jury(where) as court:
        court.all_pass()
        return convene(
            subject.path, "main~2", contract, court.fleet, where / "out",
            "--ledger", str(where / "ledger.json"), process=True,
        )  # fmt: skip


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Ran]]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        places = {name: tmp_path_factory.mktemp(name) for name in SCENARIOS}
        scenarios = {name: build(places[name] / "repo") for name, build in SCENARIOS.items()}
        with ThreadPoolExecutor(max_workers=4) as pool:
            futures = {
                name: pool.submit(convened, name, scenario, places[name])
                for name, scenario in scenarios.items()
            }
            yield {name: future.result() for name, future in futures.items()}


def proofs(ran: Ran) -> dict[str, str]:
    return {proof["name"]: proof["status"] for proof in ran.summary["proofs"]}


def test_the_honest_fix_lands_with_every_proof_held(runs: dict[str, Ran]) -> None:
    ran = runs["honest"]
    assert (ran.exit_code, ran.outcome) == (0, "LAND"), ran.stdout + ran.stderr
    assert set(proofs(ran).values()) == {"held"}
    fake = next(proof for proof in ran.summary["proofs"] if proof["name"] == "fake_green")
    assert fake["changed_paths"] == ["calc.py"]
    assert "proofs: red_first held, tests_unchanged held, green held" in ran.stdout


def test_working_tree_edits_do_not_change_what_is_judged(runs: dict[str, Ran]) -> None:
    # B-6: receipt and envelope come from git objects, never from the working tree.
    ran = runs["honest"]
    envelope = (ran.out / "envelope.md").read_text(encoding="utf-8")
    assert "return -x" in envelope and WIP.strip() not in envelope
    assert "uncommitted changes" in ran.stderr
    repo = ran.out.parent / "repo"
    assert (repo / "calc.py").read_text(encoding="utf-8") == CALC_WRONG + WIP  # left alone
    manifest = json.loads((ran.out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["receipt"] == ran.summary["receipt"]
    import hashlib
    import subprocess

    diff = subprocess.run(
        # E-1 as pinned in core/commit_range.py: --full-index keeps every blob id whole.
        ["git", "diff", "--binary", "--full-index", "main~2...main"],
        cwd=repo,
        capture_output=True,
        check=True,
    ).stdout
    assert manifest["receipt"] == hashlib.sha256(diff).hexdigest()


@pytest.mark.parametrize(
    ("name", "proof", "code"),
    [
        ("not_red", "red_first", "red_first_failed"),
        ("fake_green", "fake_green", "fake_green"),
        ("weakened", "tests_unchanged", "tests_changed"),
    ],
)
def test_a_false_proof_never_lands_it_iterates(
    runs: dict[str, Ran], name: str, proof: str, code: str
) -> None:
    ran = runs[name]
    assert (ran.exit_code, ran.outcome) == (1, "ITERATE"), ran.stdout
    assert proofs(ran)[proof] == "failed"
    harness = [f for f in ran.summary["findings"] if f["lens"] == "harness"]
    assert code in [finding["claim"] for finding in harness]
    assert all(f["severity"] == "blocker" for f in harness)
    # Every juror passed: only the harness kept it from landing.
    assert {seat["verdict"] for seat in ran.summary["seats"]} == {"pass"}


def test_a_run_over_the_cap_is_invalid(runs: dict[str, Ran]) -> None:
    ran = runs["capped"]
    assert (ran.exit_code, ran.outcome) == (3, "INVALID")
    assert proofs(ran)["red_first"] == "invalid"
    assert ran.summary["proofs_invalid"].startswith("red_first")
    assert "red_first INVALID" in ran.stdout
    assert "verdict: DEFERRED\n" in (ran.out / "judgment.md").read_text(encoding="utf-8")


def test_a_contract_without_red_holds(runs: dict[str, Ran]) -> None:
    ran = runs["no_red"]
    assert (ran.exit_code, ran.outcome) == (3, "HOLD")
    assert proofs(ran)["red_first"] == "not_run"
    assert "--no-proofs not given" in ran.summary["reasons"][0]
