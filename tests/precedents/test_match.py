"""R-4: `tribunal precedent match` — scope, re-examination conditions, candidates, order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from testing import REPO
from testing.records_repos import write

from tribunal.cli import cli
from tribunal.documents import first_schema_error
from tribunal.errors import BadInput
from tribunal.precedents.facts import Facts
from tribunal.precedents.match import match_precedents

HEAD = "# Precedents\n\nProse between sections is kept.\n\n"


def entry(number: int, verdict: str, applies_to: str, next_check: str, extra: str = "") -> str:
    case_id = f"PREC-{number:03d}"
    return (
        f"## {case_id}\n\n```yaml\ncase_id: {case_id}\nverdict: {verdict}\n"
        f"evidence_ref: ev.json\napplies_to: {applies_to}\nnext_check: {next_check}\n{extra}```\n\n"
    )


SCOPED = "{domains: [billing], tiers: [C1, C2], text: invoices}"
CONDITIONED = "{when: 'burst_window_sec > 60', text: re-check the burst}"


def store(tmp_path: Path, *entries: str) -> Path:
    return write(tmp_path, "precedents.md", HEAD + "".join(entries))


def placed(path: Path, facts: dict[str, Any], **options: Any) -> dict[str, Any]:
    result = match_precedents(path, path.parent, Facts("facts.yaml", facts), **options)
    document = result.to_json()
    assert first_schema_error(document, "match") is None
    return document


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [item["case_id"] for item in items]


def test_scope_matches_declared_values_and_all(tmp_path: Path) -> None:
    path = store(
        tmp_path,
        entry(1, "DENY", SCOPED, "prose only"),
        entry(2, "DENY", "{domains: [all], modes: [canary], text: anywhere}", "prose"),
        entry(3, "DENY", "{domains: [auth], text: auth only}", "prose"),
    )
    got = placed(path, {"domain": "billing", "tier": "C2", "mode": "canary"})
    assert ids(got["applies"]) == ["PREC-002", "PREC-001"]  # PREC-003: out of scope, not listed
    assert got["scope_unknown"] == [] and got["none"] is False
    # A list of values matches when any of them is declared.
    assert ids(placed(path, {"domain": ["auth", "x"], "mode": "canary"})["applies"]) == [
        "PREC-003",
        "PREC-002",
    ]


def test_a_dispute_lacking_a_declared_key_is_scope_unknown(tmp_path: Path) -> None:
    path = store(
        tmp_path,
        entry(1, "DENY", SCOPED, "prose only"),
        entry(2, "APPROVE", "{tiers: [all], text: every tier}", "prose"),
    )
    got = placed(path, {"domain": "billing", "tier": None})
    # `all` matches anything, even a dispute that does not say (PREC-002 applies).
    assert got["scope_unknown"] == [{"case_id": "PREC-001", "keys": ["tier"]}]
    assert ids(got["applies"]) == ["PREC-002"]
    assert placed(path, {})["scope_unknown"] == [
        {"case_id": "PREC-001", "keys": ["domain", "tier"]}
    ]
    # A declared value the dispute contradicts wins over a missing key: not listed at all.
    assert placed(path, {"domain": "auth"})["scope_unknown"] == []


def test_next_check_when_decides_applies_due_or_cannot_evaluate(tmp_path: Path) -> None:
    path = store(tmp_path, entry(1, "DENY", SCOPED.replace("tiers: [C1, C2], ", ""), CONDITIONED))
    dispute = {"domain": "billing"}
    assert ids(placed(path, {**dispute, "burst_window_sec": 30})["applies"]) == ["PREC-001"]
    due = placed(path, {**dispute, "burst_window_sec": 90})
    assert due["applies"] == [] and due["due_for_reexamination"] == [
        {"case_id": "PREC-001", "when": "burst_window_sec > 60", "values": {"burst_window_sec": 90}}
    ]
    lacking = placed(path, dispute)
    assert lacking["applies"] == [] and lacking["due_for_reexamination"] == []
    assert lacking["cannot_evaluate"] == [
        {
            "case_id": "PREC-001",
            "when": "burst_window_sec > 60",
            "missing": ["burst_window_sec"],
            "why": "name 'burst_window_sec' is not bound",
        }
    ]
    assert lacking["none"] is False
    # A None operand is not a missing field, and still never "not triggered".
    none = placed(path, {**dispute, "burst_window_sec": None})["cannot_evaluate"]
    assert none[0]["missing"] == [] and none[0]["why"] == "None operand for >"


def test_values_are_the_names_the_condition_read(tmp_path: Path) -> None:
    when = "{when: 'backup_verified == True or replicas > 3', text: t}"
    path = store(tmp_path, entry(1, "DEFERRED", "{domains: [all], text: x}", when))
    # Short-circuit: `replicas` is never read, so its absence does not matter.
    due = placed(path, {"backup_verified": True})["due_for_reexamination"]
    assert due[0]["values"] == {"backup_verified": True}
    due = placed(path, {"backup_verified": False, "replicas": 5})["due_for_reexamination"]
    assert due[0]["values"] == {"backup_verified": False, "replicas": 5}
    both_missing = placed(path, {})["cannot_evaluate"][0]
    assert both_missing["missing"] == ["backup_verified", "replicas"]
    not_boolean = store(
        tmp_path, entry(1, "DENY", "{domains: [all], text: x}", "{when: n, text: t}")
    )
    assert placed(not_boolean, {"n": 3})["cannot_evaluate"][0]["why"] == (
        "condition gave int, not a boolean"
    )


def test_prose_scope_is_a_candidate_ranked_by_text_never_applies(tmp_path: Path) -> None:
    path = store(
        tmp_path,
        entry(1, "DENY", '"rate-limit without tenant_id dedup"', "prose"),
        entry(2, "DENY", "{text: rate limit rate limit on the billing exporter}", "prose"),
        entry(3, "APPROVE", '"unrelated: dns caching"', "prose"),
        entry(4, "DENY", '"東京 のレート制限"', "prose"),
    )
    got = placed(path, {"summary": "rate limit in billing", "region": "東京", "n": 3})
    # PREC-003 shares no word with the dispute; the best match holds "rate limit" twice.
    assert ids(got["candidates"])[0] == "PREC-002"
    assert sorted(ids(got["candidates"])) == ["PREC-001", "PREC-002", "PREC-004"]
    scores = [item["score"] for item in got["candidates"]]
    assert scores == sorted(scores, reverse=True) and scores[-1] > 0
    assert got["applies"] == [] and got["none"] is True  # candidates do not count
    assert got["candidates"][0] == {
        "case_id": "PREC-002",
        "verdict": "DENY",
        "applies_to": {"text": "rate limit rate limit on the billing exporter"},
        "next_check": "prose",
        "evidence_ref": "ev.json",
        "score": scores[0],
    }
    assert placed(path, {"count": 3})["candidates"] == []  # no text, nothing to rank by
    limited = match_precedents(path, tmp_path, Facts("f", {"s": "rate"}), candidate_limit=1)
    assert [p.entry.case_id for p in limited.candidates] == ["PREC-002"]


def test_order_is_deny_deferred_approve_then_the_higher_number(tmp_path: Path) -> None:
    anywhere = "{domains: [all], text: x}"
    path = store(
        tmp_path,
        *(
            entry(n, verdict, anywhere, "prose")
            for n, verdict in [
                (1, "APPROVE"),
                (2, "DENY"),
                (3, "DEFERRED"),
                (4, "DENY"),
                (5, "APPROVE"),
            ]
        ),
        entry(6, "APPROVE", "{domains: [billing], text: x}", "prose"),
        entry(7, "DENY", "{domains: [billing], text: x}", "prose"),
    )
    got = placed(path, {})
    assert ids(got["applies"]) == ["PREC-004", "PREC-002", "PREC-003", "PREC-005", "PREC-001"]
    assert ids(got["scope_unknown"]) == ["PREC-007", "PREC-006"]


def test_superseded_entries_are_hidden_unless_all(tmp_path: Path) -> None:
    anywhere = "{domains: [all], text: x}"
    path = store(
        tmp_path,
        entry(1, "DENY", anywhere, "prose"),
        entry(2, "APPROVE", anywhere, "prose", "supersedes: PREC-001\n"),
        entry(3, "DENY", '"rate limit"', "prose", "supersedes: PREC-002\n"),
        entry(4, "DENY", '"rate limit again"', "prose"),
    )
    got = placed(path, {"s": "rate"})
    assert got["applies"] == [] and ids(got["candidates"]) == ["PREC-003", "PREC-004"]
    everything = placed(path, {"s": "rate"}, include_superseded=True)
    assert ids(everything["applies"]) == ["PREC-001", "PREC-002"]


def test_a_condition_that_does_not_compile_is_bad_input_at_its_line(tmp_path: Path) -> None:
    path = store(tmp_path, entry(1, "DENY", "{domains: [all], text: x}", "{when: a.b, text: t}"))
    with pytest.raises(BadInput) as caught:
        match_precedents(path, tmp_path, Facts("f", {}))
    assert str(caught.value) == (
        "precedents.md:12: next_check.when: attribute access is not allowed in expression 'a.b'"
    )


# --- the command ------------------------------------------------------------------------------


def run(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["precedent", "match", *args])
    return result.exit_code, result.stdout, result.stderr


CAPSTONE = REPO / "capstone" / "precedents.md"


def capstone_repo(tmp_path: Path) -> Path:
    write(tmp_path, "precedents.md", CAPSTONE.read_text(encoding="utf-8"))
    return tmp_path


def test_facts_file_json_and_listing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = capstone_repo(tmp_path)
    facts = {"domain": "auto-remediation", "mode": "strict_guardrails_prompt"}
    write(repo, "verified.json", json.dumps({**facts, "backup_verified": True}))
    code, out, err = run(repo, monkeypatch, "--facts", "verified.json", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["due_for_reexamination"] == [
        {
            "case_id": "PREC-001",
            "when": "backup_verified == True",
            "values": {"backup_verified": True},
        }
    ]
    write(repo, "unverified.yaml", "domain: auto-remediation\nmode: strict_guardrails_prompt\n"
          "backup_verified: false\n")  # fmt: skip
    assert run(repo, monkeypatch, "--facts", "unverified.yaml") == (
        0,
        "applies:\n  PREC-001  DEFERRED  auto-remediation of a stateful service whose backup is "
        "not verified\n",
        "",
    )
    write(repo, "nothing.yaml", "domain: billing\n")
    assert run(repo, monkeypatch, "--facts", "nothing.yaml")[:2] == (
        0,
        "no precedent applies, is due, or needs more of the dispute's fields\n",
    )


def test_facts_of_a_case_file_and_of_a_judgment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = store(
        tmp_path,
        entry(1, "DENY", "{domains: [all], text: x}", "{when: 'scale_up_percent > 100', text: t}"),
        entry(2, "DENY", "{domains: [all], text: x}", "{when: \"reason == 'clean'\", text: t}"),
    ).parent
    case = {
        "counterexample_id": "c1",
        "assertion_id": "a",
        "given_snapshot": {"current_replicas": 12},
        "when_payload": {"scale_up_percent": 200},
        "minimality_trace": ["t"],
        "expected_failure": {},
    }
    write(repo, "case.json", json.dumps(case))
    code, out, _ = run(repo, monkeypatch, "--case", "case.json", "--json")
    got = json.loads(out)
    assert code == 0 and ids(got["due_for_reexamination"]) == ["PREC-001"]
    assert got["cannot_evaluate"][0]["missing"] == ["reason"]
    write(repo, "j.md", "---\nverdict: APPROVE\nreason: clean\nevidence_ref: case.json\n---\n")
    got = json.loads(run(repo, monkeypatch, "--judgment", "j.md", "--json")[1])
    assert ids(got["due_for_reexamination"]) == ["PREC-002"]
    assert got["cannot_evaluate"][0]["missing"] == ["scale_up_percent"]


@pytest.mark.parametrize(
    ("args", "files", "message"),
    [
        ((), {}, "give exactly one of --case, --judgment, --facts"),
        (("--facts", "a.yaml", "--case", "b.json"), {}, "give exactly one of"),
        (("--facts", "list.yaml"), {"list.yaml": "- a\n"}, "list.yaml:1: facts must be a mapping"),
        (("--facts", "missing.yaml"), {}, "missing.yaml"),
        (("--case", "bad.json"), {"bad.json": '{"counterexample_id": "x"}'}, "bad.json"),
        (("--judgment", "j.md"), {"j.md": "no front matter\n"}, "j.md:1: no YAML front matter"),
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    files: dict[str, str],
    message: str,
) -> None:
    repo = capstone_repo(tmp_path)
    for name, text in files.items():
        write(repo, name, text)
    code, out, err = run(repo, monkeypatch, *args)
    assert (code, out) == (2, "") and message in err


@pytest.mark.parametrize(
    ("when", "facts", "why"),
    [
        ("replicas > 3", {"replicas": True}, "> needs numbers or strings, got bool (replicas)"),
        ("3 <= replicas", {"replicas": False}, "<= needs numbers or strings, got bool (replicas)"),
        ("0 < replicas < 9", {"replicas": True}, "< needs numbers or strings, got bool (replicas)"),
        ("replicas + 1 > 3", {"replicas": True}, "+ needs numbers, got bool (replicas)"),
        ("max(replicas, 1) > 3", {"replicas": True}, "max() needs numbers, got bool (replicas)"),
        ("-replicas < 0", {"replicas": True}, "unary - needs numbers, got bool (replicas)"),
        ("a > b", {"a": 5, "b": False}, "> needs numbers or strings, got bool (b)"),
    ],
)
def test_a_boolean_is_never_a_number_to_a_condition(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str, facts: dict[str, Any], why: str
) -> None:
    # R-4, T-2: `replicas: true` once read as 1, so `replicas > 3` was "not triggered" and the
    # precedent applied; arithmetic or ordering on a boolean cannot be evaluated, naming it.
    path = store(
        tmp_path, entry(1, "DENY", "{domains: [all], text: x}", f"{{when: '{when}', text: t}}")
    )
    write(tmp_path, "facts.json", json.dumps(facts))
    code, out, err = run(
        tmp_path, monkeypatch, "--facts", "facts.json", "--json", "--file", path.name
    )
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["applies"] == [] and document["due_for_reexamination"] == []
    assert document["cannot_evaluate"] == [
        {"case_id": "PREC-001", "when": when, "missing": [], "why": why}
    ]
    assert document["none"] is False


@pytest.mark.parametrize(
    ("when", "facts", "placed_in"),
    [
        ("verified == True", {"verified": True}, "due_for_reexamination"),
        ("verified != False and replicas > 3", {"verified": False, "replicas": 9}, "applies"),
        ("not verified", {"verified": True}, "applies"),
        ("replicas > 3", {"replicas": 4}, "due_for_reexamination"),
    ],
)
def test_booleans_still_compare_equal_and_decide(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    when: str,
    facts: dict[str, Any],
    placed_in: str,
) -> None:
    path = store(
        tmp_path, entry(1, "DENY", "{domains: [all], text: x}", f"{{when: '{when}', text: t}}")
    )
    assert ids(placed(path, facts)[placed_in]) == ["PREC-001"]
