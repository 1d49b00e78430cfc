"""V-1, V-2, V-3, L-6: reading a juror's reply fails closed."""

from __future__ import annotations

import json

import pytest

from tribunal.enums import CitationStatus, ReasonCode, SeatVerdict, Severity
from tribunal.jury.redaction import RAW_TAIL_BYTES, raw_tail
from tribunal.jury.seat.answer import read_reply
from tribunal.jury.seat.record import RejectedRung
from tribunal.jury.verdict import (
    MAX_REPLY_BYTES,
    MalformedVerdict,
    Verdict,
    WrongLens,
    parse_verdict,
)

PASS = {"verdict": "pass", "lens": "defect", "findings": []}


def reply(obj: object) -> str:
    return json.dumps(obj)


def test_plain_pass() -> None:
    verdict = parse_verdict(reply(PASS), lens="defect")
    assert verdict == Verdict(verdict=SeatVerdict.PASS, lens="defect")


def test_fenced_verdict_with_prose_around() -> None:
    text = "Here is my verdict.\n```json\n" + reply(PASS) + "\n```\nThanks!"
    assert parse_verdict(text, lens="defect").verdict is SeatVerdict.PASS


def test_fence_on_one_line_with_json_after_the_info_string() -> None:
    text = "```json " + reply(PASS) + " ```"
    assert parse_verdict(text, lens="defect").verdict is SeatVerdict.PASS


def test_last_object_carrying_verdict_wins_when_the_objects_agree() -> None:
    again = {"verdict": "pass", "lens": "defect", "findings": ["[minor] a.py:1 x"]}
    text = reply(PASS) + "\n to be precise:\n" + reply(again) + '\n{"note": "done"}'
    verdict = parse_verdict(text, lens="defect")
    assert verdict.verdict is SeatVerdict.PASS
    assert [finding.claim for finding in verdict.findings] == ["x"]


REFUSE = {"verdict": "refuse", "lens": "defect", "findings": ["[minor] a.py:1 x"]}


@pytest.mark.parametrize(
    ("objects", "message"),
    [
        ([PASS, REFUSE], 'verdict objects say both "pass" and "refuse"'),
        ([REFUSE, PASS], 'verdict objects say both "refuse" and "pass"'),
        ([PASS, {**PASS, "lens": "proportion"}, PASS], 'lens "defect" and lens "proportion"'),
        ([{**PASS, "lens": "proportion"}, PASS], 'lens "proportion" and lens "defect"'),
        ([{**PASS, "lens": ["defect"]}, PASS], 'lens ["defect"] and lens "defect"'),
        ([PASS, {**PASS, "verdict": "hold"}, PASS], 'both "pass" and "hold"'),
    ],
)
def test_verdict_objects_that_disagree_are_malformed_never_the_last_ones_word(
    objects: list[dict[str, object]], message: str
) -> None:
    """V-2: a reply that says pass and refuse (or answers two lenses) is contradictory."""
    text = "\n on second thought:\n".join(reply(obj) for obj in objects)
    with pytest.raises(MalformedVerdict, match="contradictory reply") as raised:
        parse_verdict(text, lens="defect")
    assert message in raised.value.message
    outcome = read_reply(text, lens="defect", rung="r1")
    assert isinstance(outcome, Verdict)
    assert outcome.verdict is SeatVerdict.REFUSE and outcome.reason is ReasonCode.MALFORMED


def test_braces_inside_strings_and_prose_do_not_confuse_the_reader() -> None:
    obj = {
        "verdict": "refuse",
        "lens": "defect",
        "findings": [{"severity": "minor", "claim": 'uses "{x}" and } and {', "evidence": "{"}],
    }
    text = "I think {this} is {wrong: " + reply(obj) + " } trailing {"
    verdict = parse_verdict(text, lens="defect")
    assert verdict.findings[0].claim == 'uses "{x}" and } and {'


def test_nested_verdict_inside_another_object_is_not_a_verdict_of_its_own() -> None:
    # The top-level object carries no verdict: fail closed rather than dig for one.
    text = reply({"answer": PASS})
    with pytest.raises(MalformedVerdict, match="no JSON object carrying"):
        parse_verdict(text, lens="defect")


def test_string_findings_are_normalised_to_objects() -> None:
    obj = {
        "verdict": "refuse",
        "lens": "defect",
        "findings": ["[Major] src/a.py:12 off by one in the loop", "[info] general remark"],
    }
    findings = parse_verdict(reply(obj), lens="defect").findings
    assert [(f.severity, f.location, f.claim) for f in findings] == [
        (Severity.MAJOR, "src/a.py:12", "off by one in the loop"),
        (Severity.INFO, None, "general remark"),
    ]


def test_string_finding_with_colon_after_location() -> None:
    obj = {"verdict": "refuse", "lens": "defect", "findings": ["[minor] a.py:3-5: too long"]}
    finding = parse_verdict(reply(obj), lens="defect").findings[0]
    assert (finding.location, finding.claim) == ("a.py:3-5", "too long")


@pytest.mark.parametrize("severity", ["blocker", "major"])
def test_contradictory_pass_is_a_refuse_naming_the_severity(severity: str) -> None:
    obj = {**PASS, "findings": [{"severity": "minor", "claim": "m"}, f"[{severity}] a.py:1 bad"]}
    verdict = parse_verdict(reply(obj), lens="defect")
    assert verdict.verdict is SeatVerdict.REFUSE
    assert verdict.reason is ReasonCode.CONTRADICTORY_PASS
    assert verdict.note == f"contradictory pass: lists a {severity} finding"


def test_contradictory_pass_names_the_strongest_severity() -> None:
    obj = {**PASS, "findings": ["[major] a.py:1 x", "[blocker] a.py:2 y"]}
    assert (
        parse_verdict(reply(obj), lens="defect").note
        == "contradictory pass: lists a blocker finding"
    )


def test_pass_with_minor_finding_stays_a_pass() -> None:
    obj = {**PASS, "findings": ["[minor] a.py:1 nit"]}
    verdict = parse_verdict(reply(obj), lens="defect")
    assert verdict.verdict is SeatVerdict.PASS and verdict.reason is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no JSON object carrying"),
        ("I'm sorry, but I can't help with that request.", "no JSON object carrying"),
        ("\x00\xff garbage {{{ ]]] ", "no JSON object carrying"),
        ('{"verdict": "pass", "lens": "defect"', "no JSON object carrying"),
        (reply({**PASS, "verdict": "PASS"}), "is not exactly pass or refuse"),
        (reply({**PASS, "verdict": "approve"}), "is not exactly pass or refuse"),
        (reply({**PASS, "verdict": True}), "is not exactly pass or refuse"),
        (reply({**PASS, "verdict": ["pass"]}), "is not exactly pass or refuse"),
        (reply({"verdict": "pass"}), "verdict without lens"),
        (reply({**PASS, "lens": ""}), "verdict without lens"),
        (reply({**PASS, "lens": 3}), "verdict without lens"),
        (reply({**PASS, "findings": "none"}), "findings"),
        (reply({**PASS, "findings": [{"severity": "critical", "claim": "x"}]}), "severity"),
        (reply({**PASS, "findings": [{"severity": "minor"}]}), "claim"),
        (reply({**PASS, "findings": ["no severity here"]}), "severity"),
        (reply({**PASS, "findings": ["[urgent] a.py:1 x"]}), "severity"),
        (reply({**PASS, "findings": [7]}), r"findings\[0\]"),
        (reply({**PASS, "checked": [{"claim": "x"}]}), "location"),
        ('{"verdict": "refuse", "lens": "defect", "verdict": "pass"}', "duplicate key"),
    ],
)
def test_anything_else_is_malformed(text: str, message: str) -> None:
    with pytest.raises(MalformedVerdict, match=message):
        parse_verdict(text, lens="defect")


def test_null_lists_are_empty_lists() -> None:
    verdict = parse_verdict(reply({**PASS, "findings": None, "checked": None}), lens="defect")
    assert verdict.findings == () and verdict.checked == ()


@pytest.mark.parametrize("field", ["findings", "checked"])
@pytest.mark.parametrize("value", [{}, False, 0, "", 0.0])
def test_falsy_non_lists_are_malformed_not_empty(field: str, value: object) -> None:
    # V-2: only a list (or an absent/null one) is a list; `{}`, `false`, `0`, `""` are not.
    with pytest.raises(MalformedVerdict, match=field):
        parse_verdict(reply({**PASS, field: value}), lens="defect")


def test_wrong_lens_names_both_lenses() -> None:
    with pytest.raises(WrongLens) as info:
        parse_verdict(reply({**PASS, "lens": "telemetry"}), lens="defect")
    assert (info.value.seated, info.value.answered) == ("defect", "telemetry")
    assert "'telemetry'" in str(info.value) and "'defect'" in str(info.value)


def test_reply_over_one_mib_is_malformed_without_reading_it() -> None:
    text = reply(PASS) + " " * MAX_REPLY_BYTES
    with pytest.raises(MalformedVerdict, match="reply over") as info:
        parse_verdict(text, lens="defect")
    assert len(info.value.raw_tail.encode()) <= RAW_TAIL_BYTES


def test_raw_tail_is_bounded_redacted_and_whole_characters() -> None:
    text = "ü" * 5000 + "key=sk-secret-123 end"
    tail = raw_tail(text, secrets=["sk-secret-123"])
    assert tail.endswith("key=[redacted] end")
    assert "sk-secret" not in tail
    assert len(tail.encode()) <= RAW_TAIL_BYTES
    assert set(tail[: -len("key=[redacted] end")]) == {"ü"}


def test_read_reply_malformed_is_a_refuse_with_a_blocker_and_the_tail() -> None:
    text = "x" * 3000 + "I cannot comply with this request."
    outcome = read_reply(text, lens="defect", rung="openai/gpt-x")
    assert isinstance(outcome, Verdict)
    assert outcome.verdict is SeatVerdict.REFUSE
    assert outcome.reason is ReasonCode.MALFORMED
    assert outcome.findings[0].severity is Severity.BLOCKER
    assert outcome.findings[0].claim == "malformed verdict from openai/gpt-x"
    assert outcome.raw_tail is not None and outcome.raw_tail.endswith("comply with this request.")
    assert len(outcome.raw_tail.encode()) == RAW_TAIL_BYTES


def test_read_reply_wrong_lens_rejects_the_rung() -> None:
    outcome = read_reply(
        reply({**PASS, "lens": "telemetry"}), lens="defect", rung="r1", secrets=["defect"]
    )
    assert isinstance(outcome, RejectedRung)
    assert outcome.reason is ReasonCode.WRONG_LENS
    assert outcome.answered_lens == "telemetry"
    assert outcome.raw_tail is not None and '"lens": "telemetry"' in outcome.raw_tail


def test_read_reply_checks_citations_when_given_an_envelope() -> None:
    obj = {
        **PASS,
        "checked": [{"claim": "loop bound", "location": "a.py:2", "evidence": "range(n)"}],
    }
    outcome = read_reply(reply(obj), lens="defect", rung="r1", envelope={"a.py": "x\nrange(n)\n"})
    assert isinstance(outcome, Verdict)
    assert outcome.checked[0].citation is CitationStatus.VERIFIED
    assert outcome.low_information is False


def test_bare_pass_is_low_information() -> None:
    outcome = read_reply(reply(PASS), lens="defect", rung="r1", envelope={"a.py": "x\n"})
    assert isinstance(outcome, Verdict)
    assert outcome.verdict is SeatVerdict.PASS and outcome.low_information is True


def test_pass_with_only_unverified_citations_is_low_information() -> None:
    obj = {**PASS, "checked": [{"claim": "c", "location": "b.py:1"}]}
    outcome = read_reply(reply(obj), lens="defect", rung="r1", envelope={"a.py": "x\n"})
    assert isinstance(outcome, Verdict)
    assert outcome.checked[0].citation is CitationStatus.OUTSIDE_ENVELOPE
    assert outcome.low_information is True


def test_a_refuse_is_never_low_information() -> None:
    obj = {"verdict": "refuse", "lens": "defect", "findings": ["[minor] x"]}
    assert parse_verdict(reply(obj), lens="defect").low_information is False


def test_a_verdict_longer_than_the_read_window_is_read_whole() -> None:
    findings = [
        {"severity": "minor", "claim": "c" * 300, "evidence": 'q"{x}\\u00fc'} for _ in range(200)
    ]
    text = "prose {x} " + reply({"verdict": "refuse", "lens": "defect", "findings": findings})
    verdict = parse_verdict(text, lens="defect")
    assert len(verdict.findings) == 200 and verdict.findings[-1].evidence == 'q"{x}\\u00fc'


@pytest.mark.parametrize("pad", range(900, 980))
def test_window_edges_inside_literals_numbers_strings_and_escapes(pad: int) -> None:
    # Whatever token the first read window ends in, the verdict is still read whole.
    tail = ', "x": [true, false, null, -1.5e+10, "\\u00fc\\n", 12345678]}'
    text = '{"verdict": "pass", "lens": "defect", "pad": "' + "p" * pad + '"' + tail
    assert parse_verdict(text, lens="defect").verdict is SeatVerdict.PASS


@pytest.mark.parametrize(
    "text",
    [
        "{" * MAX_REPLY_BYTES,
        '{"a":' * (MAX_REPLY_BYTES // 5),
        '{"' * (MAX_REPLY_BYTES // 2),
        ('{"a": [' + "1," * 2000) * 100,
    ],
    ids=["braces", "nesting", "open-keys", "open-arrays"],
)
def test_replies_built_to_be_slow_to_read_are_malformed(text: str) -> None:
    # S-1: bounded work — these read in well under a second, not in minutes.
    with pytest.raises(MalformedVerdict):
        parse_verdict(text, lens="defect")


def test_a_verdict_after_many_small_objects_is_still_found() -> None:
    text = '{"x": 1} ' * 100_000 + reply(PASS)
    assert parse_verdict(text, lens="defect").verdict is SeatVerdict.PASS


def test_a_malformed_replys_tail_redacts_escaped_and_quoted_key_forms() -> None:
    # L-8 with one raw_tail: the verdict reader redacts a key as a server may echo it back.
    import urllib.parse

    key = 'sk-a/b "c" d'
    forms = [urllib.parse.quote(key, safe=""), json.dumps(key)[1:-1]]
    with pytest.raises(MalformedVerdict) as info:
        parse_verdict(
            f"no verdict; you sent {forms[0]} and {forms[1]}", lens="defect", secrets=[key]
        )
    assert all(form not in info.value.raw_tail for form in forms)
    assert info.value.raw_tail.count("[redacted]") == 2
