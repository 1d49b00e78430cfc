"""A-3: `tribunal evidence check` — schema, hooks and scenarios evidence, each checked by machine;
missing any kind is DENY `missing_evidence:<kind>` in `tribunal arbitrate`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from testing.disputes import (
    DISPUTE,
    FEATURE,
    full_evidence,
    hook_line,
    make_dispute,
    sha256,
    vote,
    write,
)

from tribunal.cli import cli
from tribunal.evidence.dispute.scenarios import pytest_bdd_name
from tribunal.frontmatter import parse_judgment

D = DISPUTE


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.chdir(repo)
    return repo


def check() -> Result:
    return CliRunner().invoke(cli, ["evidence", "check", D])


def missing_lines(outcome: Result) -> list[str]:
    return [line.strip() for line in outcome.stdout.splitlines() if line.startswith("  ")]


def test_all_three_kinds_present(root: Path) -> None:
    make_dispute(root)
    outcome = check()
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout == (
        f"schema: present — 2 record(s) in 1 file(s) checked against "
        f"`{D}/evidence/limit.schema.json`\n"
        "hooks: present — 1 PreToolUse, 1 PostToolUse in 1 log(s)\n"
        "scenarios: present — 2 of 2 scenario(s) in 1 feature file(s) passed in 1 JUnit file(s)\n"
    )


def test_dispute_option_is_the_same_as_the_argument(root: Path) -> None:
    make_dispute(root)
    outcome = CliRunner().invoke(cli, ["evidence", "check", "--dispute", D])
    assert outcome.exit_code == 0 and outcome.stdout == check().stdout


def test_absent_kind_names_where_dispute_yaml_should_declare_it(root: Path) -> None:
    directory = make_dispute(root)
    declared = full_evidence(directory)
    del declared["hooks"]
    make_dispute(root, evidence=declared)
    outcome = check()
    assert outcome.exit_code == 1
    assert "hooks: MISSING — not declared\n" in outcome.stdout
    assert missing_lines(outcome) == [
        f"{D}/dispute.yaml:4: evidence.hooks is absent or empty in dispute.yaml"
    ]


# --- schema ---------------------------------------------------------------------------------


def test_schema_violations_name_record_file_line_and_field(root: Path) -> None:
    directory = make_dispute(root)
    write(
        directory / "evidence/rate_limit.ndjson",
        json.dumps({"tenant_id": "A", "limit_reason": "burst", "expires_at": "t"})
        + "\n"
        + json.dumps({"tenant_id": "A", "limit_reason": "burst"})
        + "\n\n"
        + json.dumps({"tenant_id": "A", "limit_reason": "b", "expires_at": "t", "limit": "60"})
        + "\n{not json\n",
    )
    outcome = check()
    assert outcome.exit_code == 1
    assert missing_lines(outcome) == [
        f"{D}/evidence/rate_limit.ndjson:2: expires_at: required field is missing",
        f"{D}/evidence/rate_limit.ndjson:4: limit: '60' is not of type 'integer'",
        f"{D}/evidence/rate_limit.ndjson:5: malformed JSON: Expecting property name enclosed "
        "in double quotes",
    ]


def test_a_json_document_is_one_record_with_field_lines(root: Path) -> None:
    directory = make_dispute(root)
    declared = full_evidence(directory)
    write(directory / "evidence/one.json", '{\n  "tenant_id": "A",\n  "limit": 0\n}\n')
    declared["schema"]["records"] = ["evidence/one.json"]
    make_dispute(root, evidence=declared)
    assert missing_lines(check()) == [
        f"{D}/evidence/one.json: limit_reason: required field is missing",
        f"{D}/evidence/one.json: expires_at: required field is missing",
        f"{D}/evidence/one.json:3: limit: 0 is less than the minimum of 1",
    ]


def test_schema_or_record_file_absent_is_missing_not_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    (directory / "evidence/rate_limit.ndjson").unlink()
    outcome = check()
    assert outcome.exit_code == 1
    assert missing_lines(outcome) == [f"{D}/evidence/rate_limit.ndjson: file not found"]
    (directory / "evidence/limit.schema.json").write_text('{"type": 5}\n', "utf-8")
    assert missing_lines(check()) == [
        f"{D}/evidence/limit.schema.json: not a valid JSON Schema: 5 is not valid under any of "
        "the given schemas"
    ]


# --- hooks ----------------------------------------------------------------------------------


def test_hooks_need_a_pre_and_a_post_record(root: Path) -> None:
    directory = make_dispute(root)
    write(directory / "evidence/hooks.ndjson", hook_line("PreToolUse", decision="block") + "\n")
    outcome = check()
    assert outcome.exit_code == 1
    assert missing_lines(outcome) == [
        f"{D}/dispute.yaml:9: no valid PostToolUse record in `{D}/evidence/hooks.ndjson`"
    ]


def test_hook_records_in_the_agent_cli_spelling_are_read(root: Path) -> None:
    directory = make_dispute(root)
    pre = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "decision": "allow", "ts": 1}
    post = {
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "exit_code": 0,
        "diff_sha256": sha256("x"),
        "ts": "2026-05-18T10:00:01Z",
        "session_id": "s-1",
    }
    write(directory / "evidence/hooks.ndjson", json.dumps(pre) + "\n" + json.dumps(post) + "\n")
    assert check().exit_code == 0


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (hook_line("PreToolUse"), "'decision' is required"),
        (hook_line("PostToolUse", diff_sha256=sha256("x")), "'exit_code' is required"),
        (hook_line("PostToolUse", exit_code=0, diff_sha256="abc"), "diff_sha256: 'abc' does not"),
        (hook_line("Notification", decision="allow"), "event: 'Notification' is not one of"),
        ('{"event": "PreToolUse", "decision": "allow", "ts": "t"}', "'tool' is required"),
        ("[1, 2]", "a hook record must be a JSON object"),
    ],
)
def test_a_malformed_hook_record_makes_hooks_missing(root: Path, line: str, problem: str) -> None:
    directory = make_dispute(root)
    log = directory / "evidence/hooks.ndjson"
    write(log, log.read_text("utf-8") + line + "\n")
    outcome = check()
    assert outcome.exit_code == 1
    [shortfall] = missing_lines(outcome)
    assert shortfall.startswith(f"{D}/evidence/hooks.ndjson:3: {problem}"), shortfall


# --- scenarios ------------------------------------------------------------------------------


def junit(*cases: str) -> str:
    return "<testsuites><testsuite>" + "".join(cases) + "</testsuite></testsuites>\n"


def test_pytest_bdd_names() -> None:
    assert pytest_bdd_name("Tenant isolation under burst") == "test_tenant_isolation_under_burst"
    assert pytest_bdd_name("2 tenants: A's burst, B's quota!") == "test_tenants_as_burst_bs_quota"


def test_scenario_without_a_testcase_or_with_a_failure_is_missing(root: Path) -> None:
    directory = make_dispute(root)
    write(
        directory / "results/junit.xml",
        junit(
            '<testcase name="test_tenant_isolation_under_burst[a]"/>',
            '<testcase name="test_tenant_isolation_under_burst[b]"><failure/></testcase>',
        ),
    )
    outcome = check()
    assert outcome.exit_code == 1
    assert missing_lines(outcome) == [
        f"{D}/features/rate_limit.feature:3: scenario 'Tenant isolation under burst': testcase "
        f"'test_tenant_isolation_under_burst[b]' did not pass in {D}/results/junit.xml",
        f"{D}/features/rate_limit.feature:11: scenario 'Limit expires' has no testcase in the "
        "results (looked for 'Limit expires' or 'test_limit_expires')",
    ]


def test_skipped_or_errored_testcases_do_not_pass(root: Path) -> None:
    directory = make_dispute(root)
    write(
        directory / "results/junit.xml",
        junit(
            '<testcase name="Tenant isolation under burst"><skipped/></testcase>',
            '<testcase name="test_limit_expires"><error message="boom"/></testcase>',
        ),
    )
    assert len(missing_lines(check())) == 2


def test_scenarios_inside_rules_and_outlines_count(root: Path) -> None:
    directory = make_dispute(root)
    feature = FEATURE + (
        "\n  Rule: quotas\n"
        "    Scenario Outline: Quota of <tenant>\n"
        "      Given tenant <tenant>\n"
        "      Examples:\n"
        "        | tenant |\n"
        "        | B      |\n"
    )
    write(directory / "features/rate_limit.feature", feature)
    write(
        directory / "results/junit.xml",
        junit(
            '<testcase name="test_tenant_isolation_under_burst"/>',
            '<testcase name="Limit expires"/>',
        ),
    )
    assert missing_lines(check()) == [
        f"{D}/features/rate_limit.feature:17: scenario 'Quota of <tenant>' has no testcase in "
        "the results (looked for 'Quota of <tenant>' or 'test_quota_of_tenant')"
    ]
    write(directory / "results/extra.xml", junit('<testcase name="test_quota_of_tenant[B]"/>'))
    declared = full_evidence(directory)
    write(directory / "features/rate_limit.feature", feature)
    declared["scenarios"]["results"].append("results/extra.xml")
    make_dispute(root, evidence=declared)
    assert check().exit_code == 0


def test_malformed_feature_and_junit_are_missing_evidence(root: Path) -> None:
    directory = make_dispute(root)
    write(
        directory / "features/rate_limit.feature",
        "Feature: x\n  Scenario: a\n    Given b\n  oops\n",
    )
    write(directory / "results/junit.xml", "<testsuites><testsuite>\n</testsuites>\n")
    outcome = check()
    assert outcome.exit_code == 1
    lines = missing_lines(outcome)
    assert lines[0].startswith(f"{D}/features/rate_limit.feature:4: malformed Gherkin: expected")
    assert lines[1] == f"{D}/results/junit.xml:2: malformed XML: mismatched tag"


# --- arbitrate: each kind failing its check is DENY missing_evidence:<kind> ----------------


def _break(directory: Path, kind: str) -> str:
    if kind == "schema":
        write(directory / "evidence/rate_limit.ndjson", '{"tenant_id": "A"}\n')
        return f"{D}/evidence/rate_limit.ndjson:1"
    if kind == "hooks":
        write(directory / "evidence/hooks.ndjson", hook_line("PreToolUse", decision="allow") + "\n")
        return f"{D}/dispute.yaml:9"
    write(directory / "results/junit.xml", junit('<testcase name="Limit expires"/>'))
    return f"{D}/features/rate_limit.feature:3"


@pytest.mark.parametrize("kind", ["schema", "hooks", "scenarios"])
def test_a_kind_failing_its_check_denies_the_change(root: Path, kind: str) -> None:
    directory = make_dispute(root)
    for role in ("verifier", "implementor", "safety"):
        vote(directory, 1, role, "APPROVE")
    cited = _break(directory, kind)
    outcome = CliRunner().invoke(cli, ["arbitrate", D])
    assert outcome.exit_code == 1, outcome.stderr
    text = (directory / "judgment.md").read_text("utf-8")
    fields = parse_judgment(text, "judgment.md").fields
    assert fields["reason"] == f"missing_evidence:{kind}"
    assert cited in fields["evidence_ref"]
    assert f"- {kind}: MISSING" in text
    assert CliRunner().invoke(cli, ["judgment", "--check", f"{D}/judgment.md"]).exit_code == 1


def test_evidence_path_escaping_the_repository_is_bad_input(root: Path) -> None:
    directory = make_dispute(root)
    declared = full_evidence(directory)
    declared["hooks"] = ["../../../outside.ndjson"]
    make_dispute(root, evidence=declared)
    outcome = check()
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith(
        f"tribunal: error: {D}/dispute.yaml:10: evidence.hooks[0]: ../../../outside.ndjson: "
        "escapes the repository"
    )
    assert CliRunner().invoke(cli, ["arbitrate", D]).exit_code == 2
    assert not (directory / "judgment.md").exists()


def test_evidence_check_reads_no_vote_file(root: Path) -> None:
    # evidence only; a vote with a broken evidence_ref is arbitrate's bad input.
    directory = make_dispute(root)
    vote(directory, 1, "verifier", evidence_ref="evidence/absent.ndjson:1")
    outcome = check()
    assert outcome.exit_code == 0, outcome.output
    assert CliRunner().invoke(cli, ["arbitrate", D]).exit_code == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "missing the dispute directory: DIR or --dispute DIR"),
        ((D, "--dispute", "elsewhere"), "give the dispute directory once"),
    ],
)
def test_evidence_check_usage(root: Path, args: tuple[str, ...], message: str) -> None:
    make_dispute(root)
    outcome = CliRunner().invoke(cli, ["evidence", "check", *args])
    assert outcome.exit_code == 2 and message in outcome.stderr


def test_a_charter_requiring_no_evidence_checks_none(root: Path) -> None:
    charter = {
        "roles": {"verifier": {"vote_weight": 1}, "implementor": {"vote_weight": 1}},
        "quorum": 2,
        "pass_rule": "at_least_2_approve_and_no_safety_veto",
        "tie_breaker": "safety_first_then_latest_matching_precedent",
        "evidence_required": [],
    }
    directory = make_dispute(root, evidence={}, charter="charter.yaml")
    write(directory / "charter.yaml", json.dumps(charter))
    outcome = check()
    assert outcome.exit_code == 0
    assert outcome.stdout == f"no evidence required by the charter {D}/charter.yaml\n"
    vote(directory, 1, "verifier", "APPROVE", evidence_ref="requirements.md:2")
    vote(directory, 1, "implementor", "APPROVE", evidence_ref="change.diff")
    assert CliRunner().invoke(cli, ["arbitrate", D]).exit_code == 0


# --- schema: $ref and formats (A-3) ----------------------------------------------------------


def _schema_with(directory: Path, schema: dict[str, object]) -> None:
    write(directory / "evidence/limit.schema.json", json.dumps(schema))


def test_a_relative_ref_to_a_sibling_schema_file_resolves(root: Path) -> None:
    directory = make_dispute(root)
    write(
        directory / "evidence/common.schema.json",
        json.dumps({"$defs": {"tenant": {"type": "string", "pattern": "^[A-Z]$"}}}),
    )
    _schema_with(
        directory,
        {
            "type": "object",
            "required": ["tenant_id"],
            "properties": {"tenant_id": {"$ref": "common.schema.json#/$defs/tenant"}},
        },
    )
    outcome = check()
    assert outcome.exit_code == 0, outcome.output
    write(directory / "evidence/rate_limit.ndjson", json.dumps({"tenant_id": "lower"}) + "\n")
    assert missing_lines(check()) == [
        f"{D}/evidence/rate_limit.ndjson:1: tenant_id: 'lower' does not match '^[A-Z]$'"
    ]


@pytest.mark.parametrize(
    "ref",
    [
        "https://example.invalid/common.schema.json#/$defs/tenant",
        "../../../../outside.schema.json#/$defs/tenant",
        "absent.schema.json#/$defs/tenant",
    ],
)
def test_a_ref_outside_the_repository_or_to_a_url_is_missing_not_an_error(
    root: Path, ref: str
) -> None:
    directory = make_dispute(root)
    write(root.parent / "outside.schema.json", json.dumps({"$defs": {"tenant": {}}}))
    _schema_with(directory, {"type": "object", "properties": {"tenant_id": {"$ref": ref}}})
    outcome = check()
    assert outcome.exit_code == 1, outcome.output
    assert missing_lines(outcome) == [
        f"{D}/evidence/limit.schema.json: schema evidence missing: unresolvable $ref `{ref}` "
        "(outside the repository, a URL, or no such file)"
    ]


def test_formats_are_checked(root: Path) -> None:
    directory = make_dispute(root)
    _schema_with(
        directory,
        {
            "type": "object",
            "properties": {
                "expires_at": {"type": "string", "format": "date-time"},
                "day": {"type": "string", "format": "date"},
            },
        },
    )
    good = {"expires_at": "2026-05-18T10:01:00Z", "day": "2026-05-18"}
    offset = {"expires_at": "2026-05-18T10:01:00.5+02:00"}
    bad = {"expires_at": "not-a-date", "day": "2026-13-01"}
    naive = {"expires_at": "2026-05-18T10:01:00"}
    lines = [json.dumps(record) for record in (good, offset, bad, naive)]
    write(directory / "evidence/rate_limit.ndjson", "\n".join(lines) + "\n")
    assert missing_lines(check()) == [
        f"{D}/evidence/rate_limit.ndjson:3: expires_at: 'not-a-date' is not a 'date-time'",
        f"{D}/evidence/rate_limit.ndjson:3: day: '2026-13-01' is not a 'date'",
        f"{D}/evidence/rate_limit.ndjson:4: expires_at: '2026-05-18T10:01:00' is not a 'date-time'",
    ]
