"""B-3: the ledger — rounds per dispute, fingerprints, new findings per round, the round default,
convergence across recorded rounds, `tribunal adjudicate`, locked atomic writes."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from testing import REPO
from testing.seat_records import all_pass, finding, passed, refused

from tribunal.cli import cli
from tribunal.courts.blind.decide import BlindDecision, Proofs, decide
from tribunal.courts.fingerprints import fingerprint
from tribunal.documents import first_schema_error
from tribunal.enums import Outcome, Severity
from tribunal.errors import BadInput
from tribunal.jury.prompt import Adjudication
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.verdict import Finding
from tribunal.records.ledger import (
    DisputeKey,
    adjudicate,
    default_ledger_path,
    load_ledger,
    record_round,
    view,
)

KEY = DisputeKey("contracts/fix.yaml", "a" * 40)
OTHER = DisputeKey("contracts/other.yaml", "b" * 40)
CRASH = finding(Severity.MAJOR, "crashes on an empty list", "src/app.py:3")
SLOW = finding(Severity.MINOR, "loops twice over the input", "src/app.py:8")
CRASH_FP = fingerprint(CRASH.claim, CRASH.location)


def refusing(*found: Finding) -> tuple[SeatRecord, ...]:
    seats = all_pass()
    return (refused("defect", *found), *seats[1:])


def convene(
    ledger: Path, key: DisputeKey, seats: tuple[SeatRecord, ...], repo: Path | None = None
) -> BlindDecision:
    """What a convening does with the ledger: view, decide, record (judging `repo`, by default
    the ledger's directory)."""
    decision = decide(seats, Proofs.no_proofs(), ledger=view(load_ledger(ledger), key))
    judged = repo if repo is not None else ledger.parent
    record_round(ledger, key, decision, run_id=f"run{decision.round}", repo=judged)
    return decision


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def f(items):\n    if not items:\n        return 0\n")
    return tmp_path


def test_an_unseen_dispute_starts_at_round_1(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    seen = view(load_ledger(ledger), KEY)
    assert (seen.round, seen.seen, dict(seen.refuted), dict(seen.new_counts)) == (1, set(), {}, {})
    assert not ledger.exists()


def test_rounds_are_recorded_and_the_next_round_follows(tmp_path: Path) -> None:
    ledger = tmp_path / ".tribunal" / "ledger.json"
    first = convene(ledger, KEY, refusing(CRASH))
    assert first.round == 1
    assert first.new_findings == (CRASH_FP,)
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600
    assert stat.S_IMODE(ledger.parent.stat().st_mode) == 0o700
    data = json.loads(ledger.read_text())
    assert first_schema_error(data, "ledger") is None
    (entry,) = data["disputes"][0]["rounds"]
    assert entry["findings"][0] == {
        "fingerprint": CRASH_FP,
        "lens": "defect",
        "severity": "major",
        "claim": CRASH.claim,
        "location": CRASH.location,
    }
    second = convene(ledger, KEY, refusing(CRASH, SLOW))
    assert second.round == 2
    # Only the finding no earlier round raised is new.
    assert second.new_findings == (fingerprint(SLOW.claim, SLOW.location),)
    later = view(load_ledger(ledger), KEY)
    assert later.round == 3
    assert dict(later.new_counts) == {1: 1, 2: 1}
    # Another dispute is another count.
    assert view(load_ledger(ledger), OTHER).round == 1


def test_an_explicit_round_sees_only_the_rounds_before_it(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    for _ in range(3):
        convene(ledger, KEY, refusing(CRASH))
    second = view(load_ledger(ledger), KEY, 2)
    assert dict(second.new_counts) == {1: 1}
    with pytest.raises(BadInput):
        view(load_ledger(ledger), KEY, 0)


def test_recording_a_round_again_replaces_it(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    convene(ledger, KEY, refusing(CRASH))
    decision = decide(all_pass(), Proofs.no_proofs(), ledger=view(load_ledger(ledger), KEY, 1))
    record_round(ledger, KEY, decision, run_id="again", repo=tmp_path)
    (entry,) = load_ledger(ledger)["disputes"][0]["rounds"]
    assert (entry["run_id"], entry["outcome"]) == ("again", "LAND")


def test_flat_new_findings_escalate_at_round_3(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    outcomes = [
        convene(ledger, KEY, refusing(finding(Severity.MAJOR, f"new defect {name}"))).outcome
        for name in ("one", "two", "three")
    ]
    assert outcomes == [Outcome.ITERATE, Outcome.ITERATE, Outcome.ESCALATE]


def test_falling_new_findings_keep_iterating(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    rounds = [
        [finding(Severity.MAJOR, f"defect {n}") for n in ("a", "b", "c")],
        [finding(Severity.MAJOR, f"defect {n}") for n in ("d", "e")],
        [finding(Severity.MAJOR, "defect f")],
    ]
    outcomes = [convene(ledger, KEY, refusing(*found)).outcome for found in rounds]
    assert outcomes == [Outcome.ITERATE] * 3


def test_adjudicate_records_a_refutation_the_next_round_honours(tmp_path: Path, repo: Path) -> None:
    ledger = tmp_path / "ledger.json"
    minor = finding(Severity.MINOR, "empty input is not handled", "src/app.py:2")
    seats = all_pass()
    with_minor = (refused("defect", minor), *seats[1:])
    convene(ledger, KEY, with_minor)
    key = fingerprint(minor.claim, minor.location)
    refutation = adjudicate(
        ledger, key, evidence="src/app.py:2", note="the guard returns 0", root=repo
    )
    assert (refutation.key, refutation.round) == (KEY, 1)
    following = view(load_ledger(ledger), KEY)
    assert following.adjudications == [
        Adjudication(
            claim=minor.claim,
            evidence="the guard returns 0 (evidence: src/app.py:2)",
            location="src/app.py:2",
        )
    ]
    # The refuted minor finding no longer blocks a pass that raises it again.
    again = (passed("defect", findings=(minor,)), *seats[1:])
    assert decide(again, Proofs.no_proofs(), ledger=following).outcome is Outcome.LAND
    # Recording round 2 keeps round 1's adjudication.
    decision = decide(again, Proofs.no_proofs(), ledger=following)
    record_round(ledger, KEY, decision, run_id="r2", repo=repo)
    assert view(load_ledger(ledger), KEY).adjudications == following.adjudications


def test_adjudicate_refuses_what_it_cannot_record(tmp_path: Path, repo: Path) -> None:
    ledger = tmp_path / "ledger.json"
    convene(ledger, KEY, refusing(CRASH))
    before = ledger.read_bytes()
    cases = [
        ("0" * 16, "src/app.py:1", "note", "no dispute in the ledger raised finding"),
        (CRASH_FP, "src/app.py", "note", "evidence is path:line"),
        (CRASH_FP, "src/app.py:99", "note", "line 99 does not exist"),
        (CRASH_FP, "src/missing.py:1", "note", "no such file"),
        (CRASH_FP, "../outside.py:1", "note", "escapes the repository"),
        (CRASH_FP, "src/app.py:1", "  ", "needs a note"),
    ]
    for key, evidence, note, message in cases:
        with pytest.raises(BadInput, match=message):
            adjudicate(ledger, key, evidence=evidence, note=note, root=repo)
    assert ledger.read_bytes() == before


def test_adjudicate_resolves_evidence_in_the_judged_repository(tmp_path: Path, repo: Path) -> None:
    ledger = tmp_path / "cache" / "ledger.json"
    convene(ledger, KEY, refusing(CRASH), repo=repo)
    assert load_ledger(ledger)["disputes"][0]["repo"] == str(repo.resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # holds no src/app.py: the evidence is the judged repository's
    done = adjudicate(ledger, CRASH_FP, evidence="src/app.py:2", note="guarded", root=elsewhere)
    assert done.fingerprint == CRASH_FP
    with pytest.raises(BadInput, match="line 9 does not exist"):
        adjudicate(ledger, CRASH_FP, evidence="src/app.py:9", note="n", root=elsewhere)


def test_a_ledger_without_a_root_resolves_evidence_where_adjudicate_runs(
    tmp_path: Path, repo: Path
) -> None:
    ledger = tmp_path / "ledger.json"
    convene(ledger, KEY, refusing(CRASH), repo=tmp_path / "moved-away")
    with pytest.raises(BadInput, match="no such file"):
        adjudicate(ledger, CRASH_FP, evidence="src/app.py:2", note="n", root=tmp_path / "empty")
    assert adjudicate(ledger, CRASH_FP, evidence="src/app.py:2", note="n", root=repo)


def test_a_finding_in_two_disputes_needs_contract_and_base(tmp_path: Path, repo: Path) -> None:
    ledger = tmp_path / "ledger.json"
    convene(ledger, KEY, refusing(CRASH))
    convene(ledger, OTHER, refusing(CRASH))
    with pytest.raises(BadInput, match="more than one dispute"):
        adjudicate(ledger, CRASH_FP, evidence="src/app.py:1", note="n", root=repo)
    done = adjudicate(
        ledger, CRASH_FP, evidence="src/app.py:1", note="n", root=repo, contract=OTHER.contract
    )
    assert done.key == OTHER
    assert not view(load_ledger(ledger), KEY).refuted
    assert CRASH_FP in view(load_ledger(ledger), OTHER).refuted


def test_a_broken_ledger_is_bad_input_naming_the_file(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.json"
    ledger.write_text('{"version": 1, "disputes": [{"contract": "c"}]}\n')
    with pytest.raises(BadInput) as caught:
        load_ledger(ledger, "ledger.json")
    assert str(caught.value).startswith("ledger.json:1: disputes[0]")
    with pytest.raises(BadInput):
        record_round(ledger, KEY, decide(all_pass(), Proofs.no_proofs()), run_id="x", repo=tmp_path)
    assert ledger.read_text() == '{"version": 1, "disputes": [{"contract": "c"}]}\n'


WRITER = """
import sys
sys.path.insert(0, {src!r})
sys.path.insert(0, {root!r})
from testing.seat_records import all_pass
from tribunal.courts.blind.decide import Proofs, decide
from tribunal.courts.blind.convergence import LedgerView
from tribunal.records.ledger import DisputeKey, record_round
decision = decide(all_pass(), Proofs.no_proofs(), ledger=LedgerView(round=int(sys.argv[1])))
key = DisputeKey("c.yaml", "base")
record_round({ledger!r}, key, decision, run_id="r" + sys.argv[1], repo={root!r})
"""


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    root = REPO
    ledger = tmp_path / "ledger.json"
    script = WRITER.format(src=str(root / "src"), root=str(root), ledger=str(ledger))
    processes = [
        subprocess.Popen([sys.executable, "-c", script, str(number)]) for number in range(1, 9)
    ]
    assert [process.wait() for process in processes] == [0] * 8
    rounds = load_ledger(ledger)["disputes"][0]["rounds"]
    assert [entry["round"] for entry in rounds] == list(range(1, 9))


# --- tribunal adjudicate -----------------------------------------------------------------------


def test_cli_adjudicate_records_into_the_default_ledger(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    ledger = default_ledger_path(repo)
    assert ledger == repo / ".tribunal" / "ledger.json"
    convene(ledger, KEY, refusing(CRASH), repo=repo)
    args = ["adjudicate", "--finding", CRASH_FP, "--evidence", "src/app.py:2", "--note", "guarded"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"refuted: {CRASH_FP} ({CRASH.claim}) in {KEY} round 1, evidence src/app.py:2\n"
    )
    assert CRASH_FP in view(load_ledger(ledger), KEY).refuted


def test_cli_adjudicate_unknown_fingerprint_exits_2(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    ledger = repo / "cache" / "ledger.json"
    convene(ledger, KEY, refusing(CRASH), repo=repo)
    args = ["adjudicate", "--ledger", "cache/ledger.json", "--finding", "f" * 16]
    result = CliRunner().invoke(cli, [*args, "--evidence", "src/app.py:1", "--note", "n"])
    assert result.exit_code == 2
    assert result.stderr == (
        "tribunal: error: cache/ledger.json: --finding: no dispute in the ledger raised "
        f"finding '{'f' * 16}'\n"
    )


def test_cli_adjudicate_from_another_directory_resolves_in_the_judged_repository(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = tmp_path / "ci-cache" / "ledger.json"
    convene(ledger, KEY, refusing(CRASH), repo=repo / "src")  # the judged root, as recorded
    assert load_ledger(ledger)["disputes"][0]["repo"] == str((repo / "src").resolve())
    elsewhere = tmp_path / "ci-cache"
    monkeypatch.chdir(elsewhere)
    args = ["adjudicate", "--ledger", str(ledger), "--finding", CRASH_FP]
    result = CliRunner().invoke(cli, [*args, "--evidence", "app.py:2", "--note", "guarded"])
    assert result.exit_code == 0, result.output
