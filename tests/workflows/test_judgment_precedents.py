"""R-4: `tribunal judgment --precedents P [--facts F]` follows the applicable precedents."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st
from testing import REPO
from testing.judgment_repos import METRICS, Repo, make_repo, result

from tribunal.cli import cli
from tribunal.courts.following import follow_precedents
from tribunal.courts.judgment.decide import Decision
from tribunal.enums import JudgmentVerdict
from tribunal.frontmatter import parse_judgment
from tribunal.precedents.parsing import parse_precedents

FAILED_INVARIANT = {**METRICS, "false_escalation_rate": 0.2}


def precedent(
    number: int, verdict: str, scope: str = "domains: [autoscale]", when: str = ""
) -> str:
    case_id = f"PREC-{number:03d}"
    next_check = f"{{when: '{when}', text: t}}" if when else "prose"
    return (
        f"## {case_id}\n\n```yaml\ncase_id: {case_id}\nverdict: {verdict}\n"
        f"evidence_ref: metrics/validation_metrics.json\napplies_to: {{{scope}, text: x}}\n"
        f"next_check: {next_check}\n```\n\n"
    )


def setup(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    results: list[dict[str, Any]],
    *entries: str,
    metrics: dict[str, Any] | None = None,
) -> Repo:
    repo = make_repo(tmp_path, results, metrics)
    repo.write("precedents.md", "# Precedents\n\n" + "".join(entries))
    repo.write("facts.yaml", "domain: autoscale\nburst_window_sec: 30\n")
    monkeypatch.chdir(repo.root)
    done = invoke("invariants", "--metrics", "metrics/validation_metrics.json", "--out",
                  "out/invariants.json")  # fmt: skip
    assert done.exit_code in (0, 1)
    return repo


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def judge(*extra: str) -> dict[str, Any]:
    done = invoke(
        "judgment",
        "--duel-out",
        "out/duel.json",
        "--invariants-out",
        "out/invariants.json",
        "--to",
        "out/judgment.md",
        *extra,
    )
    assert done.exit_code == 0, done.output
    fields: dict[str, Any] = parse_judgment(
        Path("out/judgment.md").read_text(encoding="utf-8"), "j"
    ).fields
    return fields


FOLLOW = ("--precedents", "precedents.md", "--facts", "facts.yaml")


def test_an_agreeing_precedent_resolves_by_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(tmp_path, monkeypatch, [result("a_ok")], precedent(1, "APPROVE"), precedent(2, "APPROVE"))
    fields = judge(*FOLLOW)
    assert (fields["verdict"], fields["reason"]) == ("APPROVE", "precedent:PREC-002")
    assert fields["linked_precedents"] == ["PREC-002", "PREC-001"]
    assert fields["evidence_ref"][-1] == "precedents.md:13"  # the heading of PREC-002
    assert fields["evidence_ref"][:-1] == ["cases/a_ok.json", "metrics/validation_metrics.json"]
    # Resolved by reference: the next step is the precedent's (the spec has none for it).
    assert fields["next_step"] == "prose"
    assert "resolved by reference" in fields["reason_text"]
    # The cited entry, the links and every other ref resolve: records check is clean.
    assert invoke("judgment", "--check", "out/judgment.md").exit_code == 0
    subprocess.run(["git", "init", "-q"], check=True)
    subprocess.run(["git", "add", "-A"], check=True)
    checked = invoke("records", "check")
    assert checked.exit_code == 0, checked.output
    assert "1 judgment(s), 1 precedents file(s)" in checked.stdout


def test_the_cited_line_is_the_top_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = setup(
        tmp_path, monkeypatch, [result("a_ok")], precedent(1, "APPROVE"), precedent(2, "DENY")
    )
    fields = judge(*FOLLOW)
    line = next(e.line for e in parse_precedents(repo.read("precedents.md"), "p").entries
                if e.case_id == "PREC-002")  # fmt: skip
    assert fields["evidence_ref"][-1] == f"precedents.md:{line}"


@pytest.mark.parametrize(
    ("results", "metrics", "precedent_verdict", "verdict"),
    [
        ([result("a_ok")], None, "DENY", "DENY"),  # stricter precedent wins
        ([result("a_ok")], None, "DEFERRED", "DEFERRED"),
        ([result("a_ok"), result("b", "DEFERRED")], None, "DENY", "DENY"),
        # Never loosens: a FAIL, a breached invariant or a deferred case stays as strict.
        ([result("a_ok"), result("c", "FAIL")], None, "APPROVE", "DENY"),
        ([result("a_ok")], FAILED_INVARIANT, "APPROVE", "DENY"),
        ([result("a_ok")], FAILED_INVARIANT, "DEFERRED", "DENY"),
        ([result("a_ok"), result("b", "DEFERRED")], None, "APPROVE", "DEFERRED"),
    ],
)
def test_a_disagreeing_precedent_is_a_conflict_and_the_stricter_verdict_wins(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    results: list[dict[str, Any]],
    metrics: dict[str, Any] | None,
    precedent_verdict: str,
    verdict: str,
) -> None:
    setup(tmp_path, monkeypatch, results, precedent(1, precedent_verdict), metrics=metrics)
    plain = judge()
    fields = judge(*FOLLOW)
    assert (fields["verdict"], fields["reason"]) == (verdict, "precedent_conflict:PREC-001")
    assert fields["linked_precedents"] == ["PREC-001"]
    assert fields["evidence_ref"] == [*plain["evidence_ref"], "precedents.md:3"]
    assert plain["reason"] in fields["reason_text"]


def test_only_applicable_precedents_are_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(
        tmp_path,
        monkeypatch,
        [result("a_ok")],
        precedent(1, "DENY", "domains: [billing]"),  # out of scope
        precedent(2, "DENY", "domains: [autoscale], tiers: [C1]"),  # scope unknown: no tier
        precedent(3, "DENY", when="burst_window_sec > 10"),  # due for re-examination
        precedent(4, "DENY", when="replicas > 10"),  # cannot be evaluated
        "## PREC-005\n\n```yaml\ncase_id: PREC-005\nverdict: DENY\nevidence_ref: "
        "metrics/validation_metrics.json\napplies_to: autoscale\nnext_check: x\n```\n",  # prose
        precedent(6, "APPROVE", when="burst_window_sec > 60"),  # applies: not triggered
    )
    fields = judge(*FOLLOW)
    assert (fields["verdict"], fields["reason"]) == ("APPROVE", "precedent:PREC-006")
    assert fields["linked_precedents"] == ["PREC-006"]
    # Candidates are never followed, so no search index is built for them.
    assert not (tmp_path / ".tribunal" / "index").exists()


def test_without_facts_the_computed_front_matter_is_the_dispute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(
        tmp_path,
        monkeypatch,
        [result("a_ok"), result("c", "FAIL")],
        precedent(1, "DENY", "domains: [all]", when='reason == "clean"'),
        precedent(2, "DENY", "domains: [autoscale]"),  # the front matter has no domain
    )
    fields = judge("--precedents", "precedents.md")
    assert (fields["verdict"], fields["reason"]) == ("DENY", "precedent:PREC-001")
    # The same answer `precedent match --judgment` gives over the judgment written without them.
    judge()
    matched = invoke("precedent", "match", "--judgment", "out/judgment.md", "--json")
    assert '"case_id": "PREC-001"' in matched.stdout.split('"due_for_reexamination"')[0]


def test_no_applicable_precedent_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(tmp_path, monkeypatch, [result("a_ok")], precedent(1, "DENY", "domains: [billing]"))
    plain = Path("out/judgment.md")
    judge()
    before = plain.read_bytes()
    judge(*FOLLOW)
    assert plain.read_bytes() == before


def test_the_precedents_setting_feeds_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = setup(tmp_path, monkeypatch, [result("a_ok")], precedent(1, "DENY", "domains: [all]"))
    repo.write("tribunal.toml", 'precedents = "precedents.md"\n')
    assert judge()["reason"] == "precedent_conflict:PREC-001"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--facts", "facts.yaml"), "--facts needs --precedents"),
        (("--precedents", "nope.md"), "nope.md"),
        (("--precedents", "precedents.md", "--facts", "nope.yaml"), "nope.yaml"),
    ],
)
def test_bad_input_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    setup(tmp_path, monkeypatch, [result("a_ok")], precedent(1, "DENY"))
    done = invoke("judgment", "--duel-out", "out/duel.json", "--invariants-out",
                  "out/invariants.json", "--to", "out/judgment.md", *args)  # fmt: skip
    assert done.exit_code == 2 and message in done.stderr
    assert not Path("out/judgment.md").exists()


def test_the_tutorial_script_passes_them_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(tmp_path, monkeypatch, [result("a_ok")], precedent(1, "DEFERRED"))
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "write_judgment.py"), "--duel-out",
         "out/duel.json", "--invariants-out", "out/invariants.json", "--to", "out/judgment.md",
         *FOLLOW],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    fields = parse_judgment(Path("out/judgment.md").read_text(encoding="utf-8"), "j").fields
    assert (fields["verdict"], fields["reason"]) == ("DEFERRED", "precedent_conflict:PREC-001")


VERDICTS = list(JudgmentVerdict)


@given(st.sampled_from(VERDICTS), st.lists(st.sampled_from(VERDICTS), min_size=1, max_size=4))
def test_a_precedent_never_loosens_the_verdict(
    computed: JudgmentVerdict, precedents: list[JudgmentVerdict]
) -> None:
    entries = parse_precedents(
        "".join(precedent(n, v.value) for n, v in enumerate(precedents, 1)), "p"
    ).entries
    decision = Decision(computed, "clean", ["e.json"], [], "s.")
    followed = follow_precedents(decision, entries, "precedents.md:1").decision
    assert followed.verdict.strictness >= computed.strictness
    assert followed.verdict in (computed, entries[0].verdict)
    assert followed.verdict.strictness == max(computed.strictness, entries[0].verdict.strictness)


def test_every_pair_of_verdicts_has_its_reason() -> None:
    for computed, top in itertools.product(VERDICTS, VERDICTS):
        entries = parse_precedents(precedent(7, top.value), "p").entries
        decision = Decision(computed, "clean", ["e.json"], [], "s.")
        reason = follow_precedents(decision, entries, "p.md:3").decision.reason
        kind = "precedent" if computed is top else "precedent_conflict"
        assert reason == f"{kind}:PREC-007"


def test_precedents_not_applied_are_said_in_the_body_and_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-4: a precedent that cannot be evaluated (or whose scope is unknown, or that is due) is
    never dropped in silence — and never changes the verdict either."""
    setup(
        tmp_path,
        monkeypatch,
        [result("a_ok")],
        precedent(1, "DEFERRED", "domains: [all]", when="backup_verified == True"),
        precedent(2, "DENY", "domains: [autoscale], tiers: [C1]"),  # scope unknown: no tier
        precedent(3, "DENY", "domains: [billing]", when="backup_verified == True"),  # out of scope
        precedent(4, "APPROVE", when="burst_window_sec > 10"),  # due for re-examination
    )
    plain = judge()
    done = invoke("judgment", "--duel-out", "out/duel.json", "--invariants-out",
                  "out/invariants.json", "--to", "out/judgment.md", *FOLLOW)  # fmt: skip
    assert done.exit_code == 0, done.output
    body = Path("out/judgment.md").read_text(encoding="utf-8")
    fields = parse_judgment(body, "j").fields
    assert (fields["verdict"], fields["reason"]) == ("APPROVE", plain["reason"])
    assert fields["linked_precedents"] == []
    lines = [  # cannot_evaluate, scope_unknown, due_for_reexamination; each in match order
        "PREC-001 (DEFERRED): `cannot_evaluate` — next_check.when `backup_verified == True` "
        "cannot be evaluated: the dispute lacks backup_verified",
        "PREC-002 (DENY): `scope_unknown` — the dispute lacks the scope key(s) tier",
        "PREC-004 (APPROVE): `due_for_reexamination` — next_check.when "
        "`burst_window_sec > 10` is true (burst_window_sec=30)",
    ]
    section = body.split("## Precedents not applied\n")[1].split("\n## ")[0]
    assert [line[2:] for line in section.splitlines() if line.startswith("- ")] == lines
    stderr = [line for line in done.stderr.splitlines() if "not applied" in line]
    assert stderr == [
        f"judgment: precedent not applied: {line.replace('`', '', 2)}" for line in lines
    ]
