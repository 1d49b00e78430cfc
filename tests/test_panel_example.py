"""P-12: the offline golden run's material in examples/panel — the demo repository, its frozen
criteria, the executor reports, the replay fleet and its recorded scorecards — loaded with the
real loaders and checked against the demo repository's heads; and the plan vetted before the
work (P-11), its lenses' recorded verdicts checked at the lines they cite.

The end-to-end golden run drives `tribunal panel convene` with exactly this material (run from
the checkout's root; --builder defaults to the reports' executor, vendor-a):

    python3 examples/panel/make_demo_repo.py DIR
    tribunal panel convene --criteria DIR/repo/criteria.yaml \
      --report examples/panel/report-round1.yaml --repo DIR/repo --base base \
      --fleet examples/panel/fleet.yaml --out DIR/round1 --ledger DIR/ledger.json
    tribunal panel convene --criteria DIR/repo/criteria.yaml \
      --report examples/panel/report-round2.yaml --repo DIR/repo --base base \
      --fleet examples/panel/fleet.yaml --out DIR/round2 --ledger DIR/ledger.json

Round 1 is ITERATE at 0.68 (exit 1), the window-edge scenario in the fix list; round 2 is SHIP at
0.81 (exit 0), the adversary's refuted 4 listed. The criteria are given as the demo repository's
copy: P-1's freeze by the base commit compares the file inside --repo with its bytes at --base
(`bytes_at`), and a path outside the repository is never frozen that way. The reports' addresses
are the tags `round1` and `round2` (P-9: a commit SHA or a ref), which resolve in DIR/repo.

The recorded cards are read by the panel's own card reader (`read_card`), and every citation is
checked at its cited line of that round's head — stricter than P-6, which asks only that the quote
occur in the file — so the material never leans on a loose check; the golden run itself is the
real command, both rounds, through the ledger.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from testing import REPO
from testing.hermetic import make_hermetic
from testing.jurors import JurorServer, reply

from tribunal.courts.panel import (
    Checker,
    CommandEvidence,
    Evidence,
    QuoteEvidence,
    Scorecard,
    ScorecardPhase,
    read_card,
)
from tribunal.courts.panel.vet_brief import VET_LENS_IDS, plan_envelope
from tribunal.enums import CitationStatus, ExecutorStatus, Transport
from tribunal.evidence.proofs.repo import ProofRepo
from tribunal.evidence.slice.criteria import SliceCriteria, bytes_at, load_criteria
from tribunal.evidence.slice.report import load_report
from tribunal.evidence.slice.verification import Verification, run_verification
from tribunal.jury.citations import CitationSources, check_citations, quote_occurs, read_location
from tribunal.jury.envelope.text import file_lines
from tribunal.jury.fleet import load_fleet
from tribunal.jury.transports.replay import load_answers
from tribunal.jury.verdict import parse_verdict
from tribunal.records.slices import check_frozen

EXAMPLE = REPO / "examples" / "panel"
LENSES = ("quality", "fitness", "adversary")
HEADS = {1: "round1", 2: "round2"}
# Round 2's adversary quotes a function its limiter does not have: the only citations that fail.
PHANTOM = "self.reset_window(now)"


@dataclass(frozen=True)
class Head:
    """One round's head in the demo repository: its commit, the files a citation may name (the
    envelope's changed files and the references, as they stand there), and the fresh output of
    each verification command run there."""

    commit: str
    files: Mapping[str, str] = field(repr=False)
    verification: Verification = field(repr=False)


@dataclass(frozen=True)
class Demo:
    target: Path
    repo: Path
    printed: list[str]
    criteria: SliceCriteria = field(repr=False)
    heads: Mapping[int, Head] = field(repr=False)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


def build(target: Path) -> list[str]:
    """Run the builder as a user does; the lines it prints."""
    made = subprocess.run(
        [sys.executable, str(EXAMPLE / "make_demo_repo.py"), str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    return made.stdout.splitlines()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        target = tmp_path_factory.mktemp("panel") / "demo"
        printed = build(target)
        repo = target / "repo"
        criteria = load_criteria(repo / "criteria.yaml")
        heads = {}
        for number, tag in HEADS.items():
            commit = git(repo, "rev-parse", f"{tag}^{{commit}}").strip()
            changed = git(repo, "diff", "--name-only", "base", commit).split()
            files = {
                path: git(repo, "show", f"{commit}:{path}")
                for path in (*changed, *criteria.references)
            }
            verification = run_verification(
                repo, commit, criteria.verification_commands, timeout_s=criteria.timeout_s
            )
            heads[number] = Head(commit, files, verification)
        yield Demo(target, repo, printed, criteria, heads)


def _recorded() -> dict[str, str]:
    return load_answers(EXAMPLE / "answers.yaml", "examples/panel/answers.yaml")


def _answers() -> dict[str, str]:
    """The members' recorded scorecards (the `panel/` seat keys)."""
    return {key: text for key, text in _recorded().items() if key.startswith("panel/")}


def _verdicts() -> dict[str, str]:
    """The vetting lenses' recorded verdicts (the `vet/` seat keys)."""
    return {key: text for key, text in _recorded().items() if key.startswith("vet/")}


def seat(round_number: int, lens: str, phase: ScorecardPhase = ScorecardPhase.SCORE) -> str:
    """The seat key a member's card is recorded under."""
    key = f"panel/R{round_number}/{lens}"
    return f"{key}/synthesis" if phase is ScorecardPhase.SYNTHESIS else key


def scorecard(text: str) -> Scorecard:
    """A recorded card read as a member's reply is read (P-4: fail closed); it must be well
    formed."""
    given = json.loads(text)
    card = read_card(
        text,
        lens=given["lens"],
        round=given["round"],
        phase=ScorecardPhase(given["phase"]),
        dimensions=("correctness", "robustness", "clarity"),
        rung="recorded",
        adversary=given["lens"] == "adversary",
    )
    assert isinstance(card, Scorecard), card
    return card


def cards(round_number: int, phase: ScorecardPhase = ScorecardPhase.SCORE) -> tuple[Scorecard, ...]:
    answers = _answers()
    return tuple(scorecard(answers[seat(round_number, lens, phase)]) for lens in LENSES)


def checker(head: Head, criteria: SliceCriteria) -> Checker:
    """P-6's citation check at `head`: a quote occurs verbatim in the file its location names
    (one of the envelope or the references), at the line (or lines) it names; a quote without a
    location occurs in one of those files or the request; a command's output occurs in the
    fresh output of that verification command."""
    sources = CitationSources(head.files, {"request": criteria.request})

    def check(evidence: Evidence) -> str | None:
        if isinstance(evidence, CommandEvidence):
            output = head.verification.output_of(evidence.command)
            if output is None:
                return f"{evidence.command!r} is no verification command"
            if not quote_occurs(evidence.output, output):
                return f"{evidence.output!r} is not in the output of {evidence.command!r}"
            return None
        if evidence.location is None:
            found = evidence.quote is not None and sources.holder(evidence.quote)
            return None if found else f"{evidence.quote!r} occurs nowhere it may be quoted from"
        mark = sources.mark(evidence.location, evidence.quote)
        if mark.status is CitationStatus.EVIDENCE_NOT_FOUND:
            return f"{evidence.quote!r} does not occur verbatim in {evidence.location}"
        if mark.status is not CitationStatus.VERIFIED:
            return f"{evidence.location}: {mark.status.value}"
        place = read_location(evidence.location)
        assert place is not None
        lines = file_lines(head.files[place.path])[place.first - 1 : place.last]
        if evidence.quote is not None and not quote_occurs(evidence.quote, "\n".join(lines)):
            return f"{evidence.quote!r} is in {place.path} but not at {evidence.location}"
        return None

    return check


def citations(card: Scorecard) -> Iterator[Evidence]:
    """Every citation a card makes: each score's evidence, each scenario's and finding's."""
    for score in card.scores.values():
        yield from score.evidence
    for item in (*card.failure_scenarios, *card.findings):
        yield QuoteEvidence(item.quote, item.location)


def convene(
    demo: Demo, round_number: int, fleet: Path, name: str
) -> tuple[int, dict[str, Any], Path]:
    """`tribunal panel convene` on round `round_number`, as the docs page runs it, on `fleet`;
    its exit, summary.json and run dir."""
    out = demo.target / name / f"round{round_number}"
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "tribunal",
            "panel",
            "convene",
            "--criteria",
            str(demo.repo / "criteria.yaml"),
            "--report",
            str(EXAMPLE / f"report-round{round_number}.yaml"),
            "--repo",
            str(demo.repo),
            "--base",
            "base",
            "--fleet",
            str(fleet),
            "--out",
            str(out),
            "--ledger",
            str(demo.target / name / "ledger.json"),
        ],
        capture_output=True,
        text=True,
        cwd=demo.target,
    )
    assert ran.returncode in (0, 1), ran.stderr
    return ran.returncode, json.loads((out / "summary.json").read_text()), out


def scorecard_server(server: JurorServer) -> None:
    """Script `server` to answer each member as the recorded cards do: per lens, round and
    phase (synthesis first: a synthesis prompt also shows the member's own first card)."""
    for key, text in _answers().items():
        _, round_key, lens, *phase = key.split("/")
        texts = (f'"lens": "{lens}"', f'"round": {round_key[1:]}',
                 f'"phase": "{phase[0] if phase else "score"}"')  # fmt: skip
        server.when(texts, reply(text), first=bool(phase))


def http_fleet(directory: Path, server: JurorServer) -> Path:
    """The example fleet's three families and ranks, each rung calling `server`."""
    rungs = [
        {"id": f"live-{family}", "family": family, "transport": "openai", "rank": rank,
         "endpoint": server.endpoint, "model": f"{family}-model", "timeout_s": 10}
        for family, rank in (("vendor-b", 1), ("vendor-c", 2), ("vendor-d", 3))
    ]  # fmt: skip
    fleet = directory / "fleet.yaml"
    directory.mkdir(parents=True, exist_ok=True)
    tiers = {"panel": [rung["id"] for rung in rungs]}
    fleet.write_text(yaml.safe_dump({"rungs": rungs, "tiers": tiers}), encoding="utf-8")
    return fleet


@pytest.fixture(scope="module", params=["replay", "http"])
def golden(
    request: pytest.FixtureRequest, demo: Demo
) -> Iterator[dict[int, tuple[int, dict[str, Any], Path]]]:
    """Both rounds of the golden run, in order (round 2 reads round 1 from the ledger): on the
    example's replay fleet, and on a scorecard server speaking the OpenAI protocol on
    127.0.0.1 that answers with the same cards."""
    if request.param == "replay":
        yield {n: convene(demo, n, EXAMPLE / "fleet.yaml", "replay") for n in (1, 2)}
        return
    with JurorServer("openai") as server:
        scorecard_server(server)
        fleet = http_fleet(demo.target / "http", server)
        yield {n: convene(demo, n, fleet, "http") for n in (1, 2)}
        assert len(server.chat_requests()) == 3 + 3 + 3  # round 1 with its synthesis, round 2


def scores(summary: dict[str, Any], phase: str) -> dict[str, list[int]]:
    return {d["id"]: [s["score"] for s in d[phase] or ()] for d in summary["dimensions"]}


class Clock:
    """A clock moved by hand, as the demo's own tests move theirs."""

    now = 0.0

    def __call__(self) -> float:
        return self.now


def load_module(path: Path, text: str) -> ModuleType:
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The material itself.


def test_the_builder_prints_its_directory_and_each_tag_with_its_commit(demo: Demo) -> None:
    assert demo.printed[0] == str(demo.target)
    tags = dict(line.split() for line in demo.printed[1:])
    assert list(tags) == ["base", "round1", "round2"]
    for tag, commit in tags.items():
        assert git(demo.repo, "rev-parse", f"{tag}^{{commit}}").strip() == commit
    assert git(demo.repo, "rev-list", "--reverse", "round2").split() == list(tags.values())


def test_the_builder_is_deterministic(demo: Demo, tmp_path: Path) -> None:
    assert build(tmp_path / "again")[1:] == demo.printed[1:]


def test_the_builder_refuses_a_directory_that_is_not_empty(demo: Demo) -> None:
    refused = subprocess.run(
        [sys.executable, str(EXAMPLE / "make_demo_repo.py"), str(demo.target)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert "is not empty" in refused.stderr


def test_the_criteria_load_and_are_frozen_by_the_base_commit(demo: Demo) -> None:
    shipped = load_criteria(EXAMPLE / "criteria.yaml")
    criteria = demo.criteria
    assert criteria.sha256 == shipped.sha256
    assert criteria.slice_id == "rate-limiter-window"
    assert [(d.id, d.weight) for d in criteria.dimensions] == [
        ("correctness", 1),
        ("robustness", 1),
        ("clarity", 1),
    ]
    assert criteria.target == Fraction(4, 5)
    assert [lens.id for lens in criteria.lenses] == list(LENSES)
    assert criteria.verification_commands == ("{python} -m pytest -q tests/test_limiter.py",)
    assert criteria.references == ("docs/limits.md",)
    assert (criteria.rounds, criteria.dispatches) == (3, 5)
    path = demo.repo / "criteria.yaml"
    at_base = bytes_at(demo.repo, "base", path) == path.read_bytes()
    assert check_frozen({}, criteria, at_base=at_base) == "base"
    # The shipped copy lies outside the demo repository: the base commit cannot freeze it.
    assert bytes_at(demo.repo, "base", EXAMPLE / "criteria.yaml") is None


def test_the_verification_command_passes_at_both_heads(demo: Demo) -> None:
    for number, head in demo.heads.items():
        (run,) = head.verification.runs
        assert (run.exit_code, run.invalid) == (0, None), run.output
        assert f"{number + 2} passed" in run.output


def test_the_reports_load_and_their_addresses_resolve_to_the_round_heads(demo: Demo) -> None:
    with ProofRepo.open(demo.repo) as repo:
        for number, tag in HEADS.items():
            report = load_report(EXAMPLE / f"report-round{number}.yaml")
            assert report.status is ExecutorStatus.DONE
            assert report.executor == "vendor-a"
            assert report.address == tag
            assert repo.resolve(tag) == demo.heads[number].commit
            assert repo.changes("base", tag)  # a diff to judge


def test_the_fleet_seats_the_panel_offline_on_three_other_families() -> None:
    fleet = load_fleet(EXAMPLE / "fleet.yaml")
    ladder = fleet.tier("panel").ladder
    assert len(ladder) == 3
    rungs = [fleet.rungs[rung] for rung in ladder]
    assert {rung.transport for rung in rungs} == {Transport.REPLAY}
    assert {rung.answers for rung in rungs} == {EXAMPLE / "answers.yaml"}
    families = {rung.family for rung in rungs}
    assert len(families) == 3
    assert "vendor-a" not in families


def test_the_answers_load_one_card_per_seat_of_each_phase() -> None:
    assert set(_recorded()) == set(_answers()) | set(_verdicts())
    answers = _answers()
    assert sorted(answers) == sorted(
        [seat(1, lens) for lens in LENSES]
        + [seat(1, lens, ScorecardPhase.SYNTHESIS) for lens in LENSES]
        + [seat(2, lens) for lens in LENSES]
    )
    for key, text in answers.items():
        card = json.loads(text)
        # P-3: the literal text the output protocol asks for.
        assert f'"lens": "{card["lens"]}"' in text
        assert f'"round": {card["round"]}' in text
        assert f'"phase": "{card["phase"]}"' in text
        assert key == seat(card["round"], card["lens"], ScorecardPhase(card["phase"]))
        assert list(card["scores"]) == ["correctness", "robustness", "clarity"]
        if card["lens"] == "adversary":
            assert card["failure_scenarios"], key  # P-4: an adversary that opposes


# The bug and the fix, as the cards describe them.


def test_round_1_passes_twice_the_limit_on_a_burst_straddling_the_window_edge(
    demo: Demo, tmp_path: Path
) -> None:
    for number, expected in ((1, [True] * 6), (2, [True] * 3 + [False] * 3)):
        module = load_module(
            tmp_path / f"limiter_round{number}.py", demo.heads[number].files["limiter.py"]
        )
        clock = Clock()
        limiter = module.RateLimiter(3, 60, clock)
        passed = []
        for at in (59.0, 61.0):
            clock.now = at
            passed += [limiter.allow() for _ in range(3)]
        assert passed == expected, number


# Every citation of every recorded card, checked where P-6 checks it.


def test_every_recorded_citation_checks_at_its_head_except_the_phantom(demo: Demo) -> None:
    answers = _answers()
    failing = []
    checked = 0
    for key, text in answers.items():
        card = scorecard(text)
        check = checker(demo.heads[card.round], demo.criteria)
        for evidence in citations(card):
            checked += 1
            why = check(evidence)
            if why is not None:
                failing.append((key, evidence, why))
    assert checked > 40
    phantom = QuoteEvidence(PHANTOM, "limiter.py:29")
    reason = f"{PHANTOM!r} does not occur verbatim in limiter.py:29"
    assert failing == [("panel/R2/adversary", phantom, reason)] * 2  # its 4 and its scenario
    assert "reset_window" not in demo.heads[2].files["limiter.py"]


def test_scores_at_either_end_carry_what_their_level_needs(demo: Demo) -> None:
    for text in _answers().values():
        card = scorecard(text)
        for dimension, score in card.scores.items():
            where = (card.lens, card.round, dimension)
            if score.score >= 8:
                assert any(isinstance(e, QuoteEvidence) and e.quote for e in score.evidence), where
            if score.score <= 3:
                assert any(isinstance(e, CommandEvidence) or e.location for e in score.evidence), (
                    where
                )


# The recorded cards decided: P-12's figures.


def test_round_1_figures(golden: dict[int, tuple[int, dict[str, Any], Path]]) -> None:
    code, summary, _ = golden[1]
    assert (code, summary["outcome"], summary["overall"]) == (1, "ITERATE", 0.68)
    assert scores(summary, "first_scores") == {
        "correctness": [8, 8, 7], "robustness": [8, 7, 3], "clarity": [8, 8, 7]
    }  # fmt: skip
    assert [(t["name"], t["dimension"]) for t in summary["triggers"]] == [
        ("spread", "robustness"),
        ("pass/fail split", None),
    ]
    assert summary["triggers"][1]["detail"] == (
        "own overalls quality 0.80, fitness 0.77, adversary 0.57 against target 0.80"
    )
    assert scores(summary, "synthesis_scores") == {
        "correctness": [8, 8, 7], "robustness": [5, 5, 3], "clarity": [8, 8, 7]
    }  # fmt: skip
    correctness, robustness, clarity = summary["dimensions"]
    assert correctness["consensus"]["value"] == clarity["consensus"]["value"] == 7.67
    assert robustness["consensus"] == {
        "kind": "majority", "value": 5.0, "members": ["quality", "fitness"]
    }  # fmt: skip
    assert [(d["lens"], d["score"]) for d in robustness["dissents"]] == [("adversary", 3)]
    assert [r.split(":")[0] for r in summary["reasons"]] == [
        "overall below the caveat band",
        "unrefuted correctness or safety scenario",
    ]
    (item,) = summary["fix_list"]
    assert (item["kind"], item["lenses"], item["location"]) == (
        "scenario", ["adversary"], "limiter.py:28"
    )  # fmt: skip
    assert summary["refuted"] == []


def test_round_2_figures(golden: dict[int, tuple[int, dict[str, Any], Path]]) -> None:
    code, summary, out = golden[2]
    assert (code, summary["outcome"], summary["overall"]) == (0, "SHIP", 0.81)
    assert (summary["round"], summary["rounds_left"]) == (2, 1)
    assert summary["triggers"] == []
    assert scores(summary, "first_scores") == {
        "correctness": [9, 8, 8], "robustness": [8, 8, 4], "clarity": [8, 8, 8]
    }  # fmt: skip
    correctness, robustness, clarity = summary["dimensions"]
    assert correctness["consensus"]["value"] == 8.33
    assert robustness["consensus"]["value"] == clarity["consensus"]["value"] == 8.0
    assert robustness["consensus"]["members"] == ["quality", "fitness"]
    assert [(r["lens"], r["kind"], r["dimension"]) for r in summary["refuted"]] == [
        ("adversary", "score", "robustness"),
        ("adversary", "scenario", None),
    ]
    assert summary["reasons"] == ["overall at or above target: overall 0.81 >= 0.80"]
    # The refuted dissent is listed verbatim for the requester.
    assert PHANTOM in (out / "report.md").read_text()
    assert PHANTOM in (out / "judgment.md").read_text()


def test_the_golden_runs_records_check(
    demo: Demo, golden: dict[int, tuple[int, dict[str, Any], Path]]
) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "tribunal", "records", "check", str(golden[1][2].parent)],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 judgment(s)" in checked.stdout
    ledger = json.loads((golden[1][2].parent / "ledger.json").read_text())
    (entry,) = ledger["slices"]
    assert [(r["round"], r["outcome"]) for r in entry["rounds"]] == [(1, "ITERATE"), (2, "SHIP")]


# Vetting the plan first: the recorded verdicts, and the vetting they decide.

VET_FILES = ("examples/panel/plan.md", "examples/panel/criteria.yaml")


def test_every_recorded_verdict_is_its_lens_and_cites_the_line_it_quotes() -> None:
    plan, criteria = ((path, (REPO / path).read_text(encoding="utf-8")) for path in VET_FILES)
    envelope = plan_envelope(plan, criteria)
    sources = CitationSources(envelope.files, example=envelope.example)
    verdicts = _verdicts()
    assert list(verdicts) == [f"vet/{lens}" for lens in VET_LENS_IDS]
    given = {}
    for key, text in verdicts.items():
        lens = key.removeprefix("vet/")
        verdict = check_citations(parse_verdict(text, lens=lens), sources)
        entries = (*verdict.findings, *verdict.checked)
        assert entries and {entry.citation for entry in entries} == {CitationStatus.VERIFIED}
        for entry in entries:
            assert entry.location is not None and entry.evidence is not None
            place = read_location(entry.location)
            assert place is not None and place.first == place.last
            line = file_lines(envelope.files[place.path])[place.first - 1]
            assert quote_occurs(entry.evidence, line), (key, entry.location)
        given[lens] = verdict.verdict.value
    assert given == {"works": "pass", "followable": "refuse", "cheapest": "pass"}


def test_vetting_the_plan_proceeds_and_freezes_the_golden_criteria(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "tribunal", "panel", "vet", "--plan", VET_FILES[0],
         "--criteria", VET_FILES[1], "--fleet", "examples/panel/fleet.yaml",
         "--builder", "vendor-a", "--out", str(tmp_path / "vet"),
         "--ledger", str(tmp_path / "ledger.json")],
        capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    summary = json.loads((tmp_path / "vet" / "summary.json").read_text())
    assert (summary["outcome"], summary["passed"], summary["refused"]) == (
        "PROCEED", ["works", "cheapest"], ["followable"]
    )  # fmt: skip
    # Three independent lenses on the ladder of three families: one family each.
    assert [seat["family"] for seat in summary["seats"]] == ["vendor-b", "vendor-c", "vendor-d"]
    shipped = load_criteria(EXAMPLE / "criteria.yaml")
    (entry,) = json.loads((tmp_path / "ledger.json").read_text())["slices"]
    assert (entry["criteria_sha256"], entry["frozen_by"]) == (shipped.sha256, "vet")
    judgment = (tmp_path / "vet" / "judgment.md").read_text()
    assert "### followable — refused" in judgment and "examples/panel/plan.md:15" in judgment
