"""A-1, A-2: the charter, the vote files and `tribunal arbitrate` deciding a dispute directory.

Each rule of A-2 has a case that only that rule decides: removing the rule changes the outcome.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.disputes import dump_yaml, full_evidence, make_dispute, vote, write

from tribunal.cli import cli
from tribunal.courts.arbiter.rounds import Arbitration, arbitrate
from tribunal.courts.arbiter.rules import ApplicablePrecedent
from tribunal.enums import (
    DisputeEvidenceKind,
    FinalVerdict,
    JudgmentVerdict,
    PassRule,
    Role,
    TieBreaker,
    Veto,
)
from tribunal.errors import BadInput
from tribunal.evidence.dispute.charter import load_charter
from tribunal.evidence.dispute.checks import check_evidence
from tribunal.evidence.dispute.model import load_dispute
from tribunal.evidence.dispute.movement import read_movement_files
from tribunal.frontmatter import parse_judgment

D = "disputes/rate-limit"
PREC_DENY = ApplicablePrecedent("PREC-007", JudgmentVerdict.DENY)
PREC_DEFERRED = ApplicablePrecedent("PREC-012", JudgmentVerdict.DEFERRED)
PREC_APPROVE = ApplicablePrecedent("PREC-020", JudgmentVerdict.APPROVE)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.chdir(repo)
    return repo


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def decide(directory: Path, root: Path, *precedents: ApplicablePrecedent) -> Arbitration:
    dispute = load_dispute(directory, root=root)
    return arbitrate(dispute, check_evidence(dispute), read_movement_files(dispute), precedents)


def votes(directory: Path, round_number: int = 1, **by_role: str) -> None:
    for role, verdict in by_role.items():
        vote(directory, round_number, role, verdict)


# --- A-1 charter ----------------------------------------------------------------------------


def test_default_charter_ships_the_a1_values() -> None:
    charter = load_charter()
    weights = {role: seat.vote_weight for role, seat in charter.roles.items()}
    assert weights == {Role.VERIFIER: 1, Role.IMPLEMENTOR: 1, Role.SAFETY: 1, Role.COORDINATOR: 0}
    assert charter.roles[Role.SAFETY].veto is Veto.CRITICAL_RISK
    assert charter.roles[Role.COORDINATOR].votes is False
    assert charter.quorum == 2
    assert charter.pass_rule is PassRule.AT_LEAST_2_APPROVE_AND_NO_SAFETY_VETO
    assert charter.tie_breaker is TieBreaker.SAFETY_FIRST_THEN_LATEST_MATCHING_PRECEDENT
    assert charter.evidence_required == tuple(DisputeEvidenceKind)


def test_charter_veto_belongs_to_safety(tmp_path: Path) -> None:
    path = dump_yaml(
        tmp_path / "charter.yaml",
        {
            "roles": {"verifier": {"vote_weight": 1, "veto": "critical_risk"}},
            "quorum": 1,
            "pass_rule": "at_least_2_approve_and_no_safety_veto",
            "tie_breaker": "safety_first_then_latest_matching_precedent",
            "evidence_required": [],
        },
    )
    with pytest.raises(BadInput, match="only safety holds the critical_risk veto") as caught:
        load_charter(path, "charter.yaml")
    assert caught.value.line == 2 and caught.value.field == "roles.verifier"


def test_charter_unknown_field_is_bad_input(tmp_path: Path) -> None:
    charter = {
        "roles": {"verifier": {"vote_weight": 1}},
        "quorum": 2,
        "pass_rule": "at_least_2_approve_and_no_safety_veto",
        "tie_breaker": "safety_first_then_latest_matching_precedent",
        "evidence_required": [],
        "majority": True,
    }
    path = dump_yaml(tmp_path / "c.yaml", charter)
    with pytest.raises(BadInput, match="unknown field 'majority'"):
        load_charter(path, "c.yaml")


def test_the_coordinator_never_votes(root: Path) -> None:
    # a weight for the coordinator is refused, so its vote file stays bad input.
    path = dump_yaml(root / "c.yaml", {"roles": {"coordinator": {"vote_weight": 1}}})
    with pytest.raises(BadInput, match="the coordinator keeps the protocol") as caught:
        load_charter(path, "c.yaml")
    assert (caught.value.line, caught.value.field) == (3, "roles.coordinator.vote_weight")
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    vote(directory, 1, "coordinator", "APPROVE")
    outcome = invoke("arbitrate", D)
    assert outcome.exit_code == 2 and "coordinator" in outcome.stderr, outcome.stderr


def test_a_partial_charter_takes_the_default_for_what_it_leaves_out(tmp_path: Path) -> None:
    # "default 1 each" — a charter names only what differs from the default charter.
    quorum_only = load_charter(dump_yaml(tmp_path / "q.yaml", {"quorum": 3}), "q.yaml")
    default = load_charter()
    assert quorum_only.quorum == 3
    assert (quorum_only.roles, quorum_only.pass_rule, quorum_only.evidence_required) == (
        default.roles,
        default.pass_rule,
        default.evidence_required,
    )
    roles = {"verifier": {"vote_weight": 2}, "safety": {"veto": None}}
    weighted = load_charter(dump_yaml(tmp_path / "w.yaml", {"roles": roles}), "w.yaml")
    weights = {role: seat.vote_weight for role, seat in weighted.roles.items()}
    assert weights == {
        Role.VERIFIER: 2,
        Role.IMPLEMENTOR: 1,
        Role.SAFETY: 1,
        Role.COORDINATOR: 0,
    }
    assert weighted.roles[Role.SAFETY].veto is None
    assert weighted.quorum == default.quorum == 2


# --- A-2 rules, in order: each decides a case alone ------------------------------------------


def test_missing_evidence_denies_whatever_the_votes(root: Path) -> None:
    directory = make_dispute(root)
    dump = (directory / "dispute.yaml").read_text("utf-8")
    (directory / "dispute.yaml").write_text(
        dump.replace("  hooks:\n  - evidence/hooks.ndjson\n", "")
    )
    votes(directory, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DENY, "missing_evidence:hooks")
    assert outcome.final_verdict is FinalVerdict.REJECTED


@pytest.mark.parametrize("kind", ["schema", "hooks", "scenarios"])
def test_each_kind_declared_empty_is_missing(root: Path, kind: str) -> None:
    directory = make_dispute(root)
    declared = full_evidence(directory)
    declared[kind] = [] if kind == "hooks" else {}
    make_dispute(root, evidence=declared)
    votes(directory, verifier="APPROVE", implementor="APPROVE", safety="APPROVE")
    outcome = decide(directory, root)
    assert outcome.reason == f"missing_evidence:{kind}"
    assert outcome.evidence.missing == (DisputeEvidenceKind(kind),)


def test_safety_veto_beats_two_approvals(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    vote(directory, 1, "safety", "DENY", action="challenged", critical_risk=True)
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DENY, "safety_veto")
    assert [v.role for v in outcome.decision.deciding] == [Role.SAFETY]


def test_safety_deny_without_critical_risk_is_outvoted(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE", safety="DENY")
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.APPROVE, "pass_rule")


def test_no_quorum_defers_what_the_pass_rule_would_approve(root: Path) -> None:
    charter = dict(
        roles={
            "verifier": {"vote_weight": 1},
            "implementor": {"vote_weight": 1},
            "safety": {"vote_weight": 1},
        },
        quorum=3,
        pass_rule="at_least_2_approve_and_no_safety_veto",
        tie_breaker="safety_first_then_latest_matching_precedent",
        evidence_required=["schema", "hooks", "scenarios"],
    )
    directory = make_dispute(root, charter="charter.yaml")
    dump_yaml(directory / "charter.yaml", charter)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DEFERRED, "no_quorum")


def test_a_withdrawn_vote_does_not_count_toward_the_quorum(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "verifier", "APPROVE")
    vote(directory, 1, "implementor", "APPROVE", action="withdrawn")
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DEFERRED, "no_quorum")


def test_pass_rule_approves_with_two_and_leaves_the_deferred_item(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE", safety="DEFERRED")
    outcome = decide(directory, root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.APPROVE, "pass_rule")
    assert outcome.final_verdict is FinalVerdict.PARTIAL
    assert [v.role for v in outcome.deferred] == [Role.SAFETY]


def test_denying_weight_of_two_denies(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="DENY", implementor="DENY", safety="APPROVE")
    outcome = decide(directory, root, PREC_APPROVE)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DENY, "deny_weight")


def test_tie_breaker_safety_deny_decides(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="DEFERRED", safety="DENY")
    outcome = decide(directory, root, PREC_DEFERRED)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DENY, "tie_breaker:safety")


@pytest.mark.parametrize("precedent", [PREC_DENY, PREC_DEFERRED])
def test_tie_breaker_then_the_first_applicable_precedent_decides(
    root: Path, precedent: ApplicablePrecedent
) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="DENY", safety="DEFERRED")
    outcome = decide(directory, root, precedent, PREC_APPROVE)
    assert outcome.verdict is precedent.verdict
    assert outcome.reason == f"precedent:{precedent.case_id}"
    assert outcome.linked_precedents == (precedent.case_id, PREC_APPROVE.case_id)


def test_tie_breaker_never_approves_even_on_an_approving_precedent(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="DENY", safety="DEFERRED")
    outcome = decide(directory, root, PREC_APPROVE)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DEFERRED, "tie_breaker:unresolved")


def test_no_votes_at_all_is_no_quorum(root: Path) -> None:
    outcome = decide(make_dispute(root), root)
    assert (outcome.verdict, outcome.reason) == (JudgmentVerdict.DEFERRED, "no_quorum")


# --- the CLI --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ballot", "code", "verdict"),
    [
        ({"verifier": "APPROVE", "implementor": "APPROVE", "safety": "APPROVE"}, 0, "APPROVE"),
        ({"verifier": "DENY", "implementor": "DENY", "safety": "APPROVE"}, 1, "DENY"),
        ({"verifier": "APPROVE", "implementor": "DENY", "safety": "DEFERRED"}, 3, "DEFERRED"),
    ],
)
def test_arbitrate_exits_by_verdict_and_writes_a_checkable_judgment(
    root: Path, ballot: dict[str, str], code: int, verdict: str
) -> None:
    directory = make_dispute(root)
    votes(directory, **ballot)
    outcome = invoke("arbitrate", "disputes/rate-limit")
    assert outcome.exit_code == code, outcome.stderr
    text = (directory / "judgment.md").read_text("utf-8")
    fields = parse_judgment(text, "judgment.md").fields
    assert fields["court"] == "arbiter" and fields["verdict"] == verdict
    assert fields["dispute_id"] == "rate-limit-001"
    assert fields["linked_precedents"] == []
    assert invoke("judgment", "--check", "disputes/rate-limit/judgment.md").exit_code == code


def test_judgment_front_matter_and_body(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "verifier", "APPROVE", summary="schema, hooks and scenarios check")
    vote(directory, 1, "implementor", "APPROVE", evidence_ref=["change.diff", "requirements.md:2"])
    vote(directory, 1, "safety", "DEFERRED", action="deferred", summary="cooldown unproven")
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 0
    text = (directory / "judgment.md").read_text("utf-8")
    front = parse_judgment(text, "judgment.md").fields
    assert front["final_verdict"] == "partial"
    assert front["reason"] == "pass_rule"
    assert front["evidence_ref"] == [
        "disputes/rate-limit/votes/R1-verifier.yaml",
        "disputes/rate-limit/evidence/rate_limit.ndjson:1",
        "disputes/rate-limit/votes/R1-implementor.yaml",
        "disputes/rate-limit/change.diff",
        "disputes/rate-limit/requirements.md:2",
        "disputes/rate-limit/evidence/rate_limit.ndjson",
        "disputes/rate-limit/evidence/limit.schema.json",
        "disputes/rate-limit/evidence/hooks.ndjson",
        "disputes/rate-limit/features/rate_limit.feature",
        "disputes/rate-limit/results/junit.xml",
    ]
    assert "approving weight 2, denying weight 0" in front["verdict_rationale"]
    assert (
        "- verifier proposed, votes APPROVE: schema, hooks and scenarios check — evidence: "
        "`disputes/rate-limit/evidence/rate_limit.ndjson:1` "
        "(`disputes/rate-limit/votes/R1-verifier.yaml`)\n"
    ) in text
    assert "## Deferred items\n\n- R1 safety (deferred, DEFERRED): cooldown unproven" in text
    assert "- final verdict: partial\n" in text


def test_arbitrate_is_byte_identical_wherever_the_repository_lives(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="DENY", safety="DENY")
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 1
    first = (directory / "judgment.md").read_bytes()
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 1  # its own output: rewritten
    assert (directory / "judgment.md").read_bytes() == first
    elsewhere = tmp_path / "other" / "checkout"
    shutil.copytree(root, elsewhere)
    (elsewhere / "disputes/rate-limit/judgment.md").unlink()
    monkeypatch.chdir(elsewhere / "disputes")
    assert invoke("arbitrate", "rate-limit").exit_code == 1
    assert (elsewhere / "disputes/rate-limit/judgment.md").read_bytes() == first


def test_to_writes_elsewhere_and_never_rewrites_a_record(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    assert invoke("arbitrate", "disputes/rate-limit", "--to", "out/j.md").exit_code == 0
    assert (root / "out/j.md").is_file() and not (directory / "judgment.md").exists()
    write(root / "judgments/x.judgment.md", "kept\n")
    outcome = invoke("arbitrate", "disputes/rate-limit", "--to", "judgments/x.judgment.md")
    assert outcome.exit_code == 2 and "which no command rewrites" in outcome.stderr
    assert (root / "judgments/x.judgment.md").read_text("utf-8") == "kept\n"


# --- bad input: exit 2, nothing written -----------------------------------------------------


def _bad(root: Path, directory: Path, expected: str) -> None:
    outcome = invoke("arbitrate", "disputes/rate-limit")
    assert outcome.exit_code == 2, outcome.stderr
    assert outcome.stderr.startswith(f"tribunal: error: {expected}"), outcome.stderr
    assert outcome.stderr.count("\n") == 1
    assert not (directory / "judgment.md").exists()


def test_unknown_role_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "arbiter", "APPROVE")
    _bad(
        root,
        directory,
        "disputes/rate-limit/votes/R1-arbiter.yaml:2: role: 'arbiter' is not one of",
    )


def test_coordinator_does_not_vote(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "coordinator", "APPROVE")
    _bad(
        root, directory, "disputes/rate-limit/votes/R1-coordinator.yaml:2: role: coordinator keeps"
    )


def test_vote_file_name_disagreeing_with_round_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "verifier", "APPROVE", name="R2-verifier.yaml")
    _bad(root, directory, "disputes/rate-limit/votes/R2-verifier.yaml:1: round: round 1 disagrees")


def test_vote_file_name_disagreeing_with_role_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "safety", "APPROVE", name="R1-verifier.yaml")
    _bad(root, directory, "disputes/rate-limit/votes/R1-verifier.yaml:2: role: role 'safety'")


def test_vote_file_with_another_name_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "safety", "APPROVE", name="safety.yaml")
    _bad(root, directory, "disputes/rate-limit/votes/safety.yaml: not a vote file")


def test_malformed_vote_yaml_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    write(directory / "votes/R1-verifier.yaml", "round: 1\nrole: verifier\nrole: safety\n")
    _bad(root, directory, "disputes/rate-limit/votes/R1-verifier.yaml:3: malformed YAML")


def test_malformed_dispute_yaml_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    write(directory / "dispute.yaml", "dispute_id: [unclosed\n")
    _bad(root, directory, "disputes/rate-limit/dispute.yaml:2: malformed YAML")


def test_vote_citing_a_missing_file_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    vote(directory, 1, "verifier", "APPROVE", evidence_ref=["change.diff", "nope.json"])
    _bad(
        root, directory, "disputes/rate-limit/votes/R1-verifier.yaml:9: evidence_ref[1]: nope.json"
    )


def test_a_round_left_out_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    vote(directory, 3, "verifier", "APPROVE")
    _bad(root, directory, "disputes/rate-limit/votes/R3-verifier.yaml:1: round: round 3 without")


def test_spec_that_does_not_resolve_is_bad_input(root: Path) -> None:
    directory = make_dispute(root, spec="missing.md")
    _bad(root, directory, "disputes/rate-limit/dispute.yaml:")


def test_change_may_be_a_git_range(root: Path) -> None:
    directory = make_dispute(root, change="main..feature")
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    assert invoke("arbitrate", "disputes/rate-limit").exit_code == 0
    assert "change `main..feature`" in (directory / "judgment.md").read_text("utf-8")


def test_each_judgment_gets_its_own_trace_and_a_trace_is_never_rewritten(root: Path) -> None:
    # two disputes arbitrated into one directory keep one trace each.
    directory = make_dispute(root)
    votes(directory, verifier="APPROVE", implementor="APPROVE")
    # judgments/ holds records, whether git tracks them yet or not.
    assert invoke("arbitrate", D, "--to", "judgments/a.judgment.md").exit_code == 0
    votes(directory, verifier="DENY", implementor="DENY")
    assert invoke("arbitrate", D, "--to", "judgments/b.md").exit_code == 1
    first = json.loads((root / "judgments/a.decision_trace.json").read_text("utf-8"))
    second = json.loads((root / "judgments/b.decision_trace.json").read_text("utf-8"))
    assert (first["verdict"], second["verdict"]) == ("APPROVE", "DENY")
    assert "`judgments/a.decision_trace.json`" in (root / "judgments/a.judgment.md").read_text()
    assert not (root / "judgments/decision_trace.json").exists()
    (root / "judgments/a.judgment.md").unlink()
    outcome = invoke("arbitrate", D, "--to", "judgments/a.judgment.md")
    assert outcome.exit_code == 2 and "which no command rewrites" in outcome.stderr, outcome.stderr
    assert outcome.stderr.startswith("tribunal: error: judgments/a.decision_trace.json: --to: ")
    assert not (root / "judgments/a.judgment.md").exists()
    assert json.loads((root / "judgments/a.decision_trace.json").read_text("utf-8")) == first


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("dispute_id:", "unknown_key: 1\ndispute_id:", "unknown_key"),
        ("  schema:\n", "  schema:\n    colour: red\n", "evidence.schema.colour"),
    ],
)
def test_an_unknown_field_names_its_own_line(root: Path, old: str, new: str, field: str) -> None:
    # C-3: the line and field path of the unknown key itself, not of its parent mapping.
    directory = make_dispute(root)
    path = directory / "dispute.yaml"
    text = path.read_text("utf-8").replace(old, new, 1)
    path.write_text(text, "utf-8")
    key = field.rsplit(".", 1)[-1]
    lines = text.splitlines()
    line = next(n for n, at in enumerate(lines, start=1) if at.strip().startswith(f"{key}:"))
    _bad(root, directory, f"{D}/dispute.yaml:{line}: {field}: unknown field '{key}'")
