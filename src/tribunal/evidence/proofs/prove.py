"""B-4 proofs: what the harness establishes about a change before any seat sits.

The *new tests* are the test files (E-2 convention, or the contract's `tests`) that the
contract's `red` commit added or changed, counted from `base` — the diff `base...red` — so a red
phase of several commits on top of `base` counts whole, and when `red` is one commit on `base`
this is exactly what that commit added or changed. Deleted test files are not new tests.

Every proof runs and is recorded even when an earlier one failed; the proofs that need `red`
(all but `regression`) are recorded as not run when the contract names none, and those that run
the suite are not run when it names no `test_command`. Every run happens in a temporary worktree
under the `timeout_s` cap (see `suite_run` for what makes a run INVALID).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath

from tribunal.enums import ProofName, ProofStatus, SuiteRunner, TestOutcome
from tribunal.errors import BadInput
from tribunal.evidence.proofs.junit import file_of
from tribunal.evidence.proofs.repo import ProofRepo
from tribunal.evidence.proofs.report import ProofRecord, ProofReport
from tribunal.evidence.proofs.suite import Suite, SuiteRun
from tribunal.jury.envelope.contract import Contract

NO_RED = "not run: the contract names no red commit"
NO_COMMAND = "not run: the contract names no test_command"
NOTHING_TO_RUN = "red adds or changes no test file to run"
NO_NEW_TESTS = f"not run: {NOTHING_TO_RUN}"
_SHOWN = 5  # test ids named in a detail before "and N more"


def run_proofs(
    repo: Path,
    base: str,
    head: str,
    contract: Contract,
    *,
    label: str | None = None,
    run_id: str | None = None,
) -> ProofReport:
    """Run the five B-4 proofs of `base..head` in `repo` against `contract`; the worktrees they
    run in carry `run_id` (the convening's; None: a fresh one) in their names.

    Returns the ProofReport (never raises for a proof that fails or a run that is INVALID).
    Raises BadInput when `repo` is no git repository, `base`/`head` name no commit (fields
    `--base`, `--head`), or the contract's `red` names no commit (field `red`, its line);
    NotFinished when a git step of the harness (a worktree, a checkout) fails on the resolved
    commits.
    """
    with ProofRepo.open(repo, label, owner=run_id) as git_repo:
        base_id = _commit(git_repo, base, "--base")
        head_id = _commit(git_repo, head, "--head")
        red_id = None
        if contract.red is not None:
            red_id = git_repo.resolve(contract.red)
            if red_id is None:
                raise BadInput(
                    f"{contract.red!r} does not name a commit in {git_repo.label}",
                    source=contract.label,
                    line=contract.line_of(("red",)),
                    field="red",
                )
        return _Prover(git_repo, contract, base_id, head_id, red_id).prove()


def _commit(git_repo: ProofRepo, rev: str, flag: str) -> str:
    commit = git_repo.resolve(rev)
    if commit is None:
        raise BadInput(f"{rev!r} does not name a commit", source=git_repo.label, field=flag)
    return commit


class _Prover:
    """One proving of one change: its trees, its runs, and the five proofs in order."""

    def __init__(
        self, git_repo: ProofRepo, contract: Contract, base: str, head: str, red: str | None
    ) -> None:
        self.git = git_repo
        self.contract = contract
        self.base, self.head, self.red = base, head, red
        command = contract.test_command
        self.suite = Suite(contract, command) if command is not None else None
        self.runs: list[SuiteRun] = []
        self.trees: dict[str, Path] = {}
        self.files: dict[str, dict[str, str]] = {}
        self.new_tests: tuple[str, ...] = ()
        if red is not None:
            self.new_tests = tuple(
                change.path
                for change in git_repo.changes(base, red, since_merge_base=True)
                if change.status != "D" and contract.is_test_file(change.path)
            )
        self.to_run = tuple(path for path in self.new_tests if self._runnable(path))
        self.red_run: SuiteRun | None = None
        self.whole: dict[str, SuiteRun] = {}

    def prove(self) -> ProofReport:
        steps: list[tuple[ProofName, Callable[[], ProofRecord]]] = [
            (ProofName.RED_FIRST, self.red_first),
            (ProofName.TESTS_UNCHANGED, self.tests_unchanged),
            (ProofName.GREEN, self.green),
            (ProofName.REGRESSION, self.regression),
            (ProofName.FAKE_GREEN, self.fake_green),
        ]
        records = [self._not_run(name) or step() for name, step in steps]
        return ProofReport(tuple(records), self.new_tests, tuple(self.runs))

    # -- the five proofs -------------------------------------------------------------------

    def red_first(self) -> ProofRecord:
        assert self.red is not None
        name = ProofName.RED_FIRST
        if not self.git.is_ancestor(self.red, self.head):
            # False whatever a run at red shows: the fix was not built on the red commit.
            detail = f"red {self.red[:10]} is not an ancestor of head"
            return ProofRecord(name, ProofStatus.FAILED, detail, location=self.contract.label)
        if not self.to_run:
            return ProofRecord(name, ProofStatus.FAILED, NOTHING_TO_RUN)
        if self.suite is None:
            return ProofRecord(name, ProofStatus.NOT_RUN, NO_COMMAND)
        run = self.red_run = self._run("red", self.red, self.to_run)
        failing = _named(run.failing) if run.runner is SuiteRunner.PYTEST else ""
        detail = run.summary() + (f"; failing: {failing}" if failing else "")
        if run.invalid is not None:
            return ProofRecord(name, ProofStatus.INVALID, detail)
        if run.fails:
            return ProofRecord(name, ProofStatus.HELD, detail)
        detail = f"no new test fails or errors {run.summary()}"
        return ProofRecord(name, ProofStatus.FAILED, detail, run.summary(), self.to_run[0])

    def tests_unchanged(self) -> ProofRecord:
        assert self.red is not None
        name = ProofName.TESTS_UNCHANGED
        at_red, at_head = self._files(self.red), self._files(self.head)
        changed = [path for path in self.new_tests if at_head.get(path) != at_red[path]]
        if not self.new_tests:
            return ProofRecord(name, ProofStatus.HELD, "red adds or changes no test file")
        if not changed:
            count = len(self.new_tests)
            detail = f"{count} new test file{'s' * (count != 1)} byte-identical at head"
            return ProofRecord(name, ProofStatus.HELD, detail)
        shown = ", ".join(p + (" (deleted)" if p not in at_head else "") for p in changed)
        detail = f"new test files changed since red: {shown}"
        return ProofRecord(name, ProofStatus.FAILED, detail, detail, changed[0])

    def green(self) -> ProofRecord:
        assert self.suite is not None
        name = ProofName.GREEN
        run = None
        if self.contract.test_runner is SuiteRunner.PYTEST:
            # One run at head serves green and regression when it holds every new test file.
            whole = self._whole_suite("head", self.head)
            run = whole.for_files(self.to_run) if whole.invalid is None else None
        if run is None:
            run = self._run("head", self.head, self.to_run)
        detail = run.summary()
        if run.invalid is not None:
            return ProofRecord(name, ProofStatus.INVALID, detail)
        if run.passes:
            return ProofRecord(name, ProofStatus.HELD, detail)
        # B-4: new tests failing at head are `not_green`, never INVALID.
        not_passing = run.not_passing
        detail = f"not every new test passes {detail}"
        if not_passing:
            detail += f"; not passing: {_named(not_passing)}"
        location = file_of(not_passing[0]) if not_passing else self.to_run[0]
        return ProofRecord(name, ProofStatus.FAILED, detail, run.summary(), location)

    def regression(self) -> ProofRecord:
        assert self.suite is not None
        name = ProofName.REGRESSION
        before = self._whole_suite("base", self.base)
        after = self._whole_suite("head", self.head)
        detail = f"{before.summary()}; {after.summary()}"
        if before.invalid is not None or after.invalid is not None:
            return ProofRecord(name, ProofStatus.INVALID, before.invalid or str(after.invalid))
        if self.contract.test_runner is SuiteRunner.GENERIC:
            held = before.exit_code == 0 and after.exit_code == 0
            return ProofRecord(name, ProofStatus.HELD if held else ProofStatus.FAILED, detail)
        if after.broken_files and after.exit_code == 2:
            shown = ", ".join(after.broken_files)
            detail = f"the suite at head stopped at a collection error in {shown}: no old test ran"
            return ProofRecord(name, ProofStatus.FAILED, detail, detail, after.broken_files[0])
        # B-4, no silent pass: a test that passed at base and is gone at head (deleted, renamed
        # away, or skipped at module level under another node id) counts like one that fails —
        # deleting the test that would fail must never let a change land.
        worse = [
            f"{node} ({after.outcomes[node].value if node in after.outcomes else 'missing'})"
            for node, outcome in sorted(before.outcomes.items())
            if outcome is TestOutcome.PASSED and after.outcomes.get(node) is not TestOutcome.PASSED
        ]
        if worse:
            detail = f"passed at base, not at head: {_named(worse)}"
            location = file_of(worse[0])
            evidence = f"{before.summary()}; {after.summary()}"
            return ProofRecord(name, ProofStatus.FAILED, detail, evidence, location)
        return ProofRecord(name, ProofStatus.HELD, detail)

    def fake_green(self) -> ProofRecord:
        assert self.red is not None and self.suite is not None
        name = ProofName.FAKE_GREEN
        # B-4: every non-test file changed since red goes back to its red version.
        changes = [c for c in self.git.changes(self.red, self.head) if not self._is_test(c.path)]
        changed = tuple(sorted(change.path for change in changes))
        tree = self.git.checkout("fake_green", self.head)
        self.git.restore(tree, self.red, changes)
        run = self._run_in(tree, "head with the fix undone", self.head)
        detail = run.summary()
        if not changed:
            detail = f"no non-test file changed since red; {detail}"
        if run.invalid is not None:
            return ProofRecord(name, ProofStatus.INVALID, detail, changed_paths=changed)
        still = self._still_passing(run)
        held = not still if still is not None else run.fails
        if still:
            detail = f"red at red, passing with the fix undone: {_named(still)}; {detail}"
        elif not held:
            detail = f"no new test fails with the fix undone; {detail}"
        status = ProofStatus.HELD if held else ProofStatus.FAILED
        evidence = f"put back to red: {', '.join(changed) or 'nothing'}; {run.summary()}"
        return ProofRecord(name, status, detail, evidence, self.to_run[0], changed)

    # -- runs and trees --------------------------------------------------------------------

    def _not_run(self, name: ProofName) -> ProofRecord | None:
        """The record of a proof that cannot run here, or None when it can."""
        if name is not ProofName.REGRESSION and self.red is None:
            return ProofRecord(name, ProofStatus.NOT_RUN, NO_RED)
        if name not in (ProofName.RED_FIRST, ProofName.TESTS_UNCHANGED) and self.suite is None:
            return ProofRecord(name, ProofStatus.NOT_RUN, NO_COMMAND)
        if name in (ProofName.GREEN, ProofName.FAKE_GREEN) and not self.to_run:
            return ProofRecord(name, ProofStatus.NOT_RUN, NO_NEW_TESTS)
        return None

    def _whole_suite(self, where: str, commit: str) -> SuiteRun:
        """The whole suite (`{tests}` empty) at `commit`, run once per proving."""
        if where not in self.whole:
            self.whole[where] = self._run(where, commit, ())
        return self.whole[where]

    def _run(self, where: str, commit: str, tests: Sequence[str]) -> SuiteRun:
        if where not in self.trees:
            self.trees[where] = self.git.checkout(where, commit)
        return self._run_in(self.trees[where], where, commit, tests)

    def _run_in(
        self, tree: Path, where: str, commit: str, tests: Sequence[str] | None = None
    ) -> SuiteRun:
        assert self.suite is not None
        tests = self.to_run if tests is None else tests
        run = self.suite.run(
            tree,
            where,
            tests=tests,
            junit=self.git.scratch_file(f"junit-{len(self.runs)}.xml"),
            tree_files=self._files(commit),
            # At base the new test files are not new yet: a collection error there is unclean.
            new_tests=frozenset(self.to_run) if where != "base" else frozenset(),
            baseline=where == "base" and not tests,
        )
        self.runs.append(run)
        return run.within(tests) if tests else run

    def _still_passing(self, run: SuiteRun) -> list[str] | None:
        """B-4 fake_green: the tests that were red at `red` and do not fail again in `run`;
        None when `red`'s per-test outcomes are unknown (generic runner, or no clean red run)."""
        red = self.red_run
        if run.runner is SuiteRunner.GENERIC or red is None or red.invalid is not None:
            return None
        if not red.failing:
            return None
        failing = set(run.failing)
        failing_files = {file_of(node) for node in failing}
        # A new test file that failed to collect is one test: its path (B-4).
        return [
            node
            for node in red.failing
            if node not in failing and file_of(node) not in failing and node not in failing_files
        ]

    def _files(self, commit: str) -> dict[str, str]:
        if commit not in self.files:
            self.files[commit] = self.git.blob_ids(commit)
        return self.files[commit]

    def _is_test(self, path: str) -> bool:
        return self.contract.is_test_file(path)

    def _runnable(self, path: str) -> bool:
        """A new test file handed to `{tests}`: every one for `generic`; for pytest a `.py`
        file other than `conftest.py` (pytest reads those itself)."""
        if self.contract.test_runner is SuiteRunner.GENERIC:
            return True
        name = PurePosixPath(path).name
        return name.endswith(".py") and name != "conftest.py"


def _named(nodes: Sequence[str]) -> str:
    shown = ", ".join(nodes[:_SHOWN])
    return shown + (f" and {len(nodes) - _SHOWN} more" if len(nodes) > _SHOWN else "")
