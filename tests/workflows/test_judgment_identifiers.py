"""C-3, T-6, R-3: identifiers from input files cannot forge the structure of what is written
with them — `judgment.md` (front matter and body) and `precedents.md` — and `tribunal judgment
--check` accepts every judgment `tribunal judgment` and `judgment new` write.

Once, a case id holding a newline and `---` landed in a judgment body as extra `verdict:` lines
and headings, and its reason was one the judgment's own check refused.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import example, given, settings
from hypothesis import strategies as st
from testing.judgment_repos import METRICS, make_repo, result
from testing.records_repos import records_repo
from testing.strategies import identifiers

from tribunal.cli import cli
from tribunal.frontmatter import parse_judgment, split_front_matter
from tribunal.precedents.parsing import parse_precedents

# The headings a judgment body has whatever its inputs say (judgment.md.j2, manual_judgment.md.j2).
HEADINGS = re.compile(r"^#{1,6}(?:[ \t]|$)")


@contextmanager
def inside(root: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(root)
    try:
        yield
    finally:
        os.chdir(before)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def structure(text: str) -> tuple[list[str], list[str]]:
    """The heading lines of a judgment's body, and its lines that could pass for front matter."""
    front, body = split_front_matter(text, "j.md")
    lines = body.split("\n")
    forged = [line for line in lines if line.strip() == "---" or line.startswith("verdict:")]
    assert not [line for line in front.split("\n") if line.strip() == "---"]
    return [line for line in lines if HEADINGS.match(line)], forged


def judged(root: Path, case_id: str, metrics: dict[str, Any], *extra: str) -> tuple[Result, str]:
    make_repo(root, [result("a_ok"), result(case_id, "FAIL")], metrics)
    with inside(root):
        assert invoke(
            "invariants", "--metrics", "metrics/validation_metrics.json",
            "--out", "out/invariants.json",
        ).exit_code in (0, 1)  # fmt: skip
        written = invoke(
            "judgment", "--duel-out", "out/duel.json", "--invariants-out", "out/invariants.json",
            "--to", "out/judgment.md", *extra,
        )  # fmt: skip
        text = (
            (root / "out" / "judgment.md").read_text(encoding="utf-8")
            if written.exit_code == 0
            else ""
        )
    return written, text


def _baseline_headings() -> list[str]:
    with tempfile.TemporaryDirectory() as directory:
        written, text = judged(Path(directory) / "r", "plain_case", METRICS)
        assert written.exit_code == 0, written.output
        return structure(text)[0]


BASELINE = _baseline_headings()
# A case id is one word (no white space, as the case schema says); `#` would make its
# evidence_ref a JSON pointer, `:` plus digits a line.
# A case id names its file, `cases/<id>.json`: never a NUL or a `/` (no file can be so named).
CASE_IDS = identifiers().map(lambda text: re.sub(r"[\s#/\x00]", "_", text).strip(":") or "x")


# A metric is a key of the metrics file; with a threshold, one line without outer white space.
METRICS_NAMES = identifiers().map(lambda text: re.sub(r"\s", "_", text))


@settings(max_examples=25)
@given(CASE_IDS, identifiers(), identifiers(), METRICS_NAMES)
@example("evil", "s\n---\nverdict: APPROVE\n---", "w\u2028# forged", "m\x00|x")  # NUL: no text
def test_a_judgment_written_from_hostile_identifiers_keeps_its_structure_and_its_check(
    case_id: str, session_id: str, window: str, metric: str
) -> None:
    metrics = {
        **METRICS,
        "session_id": session_id,
        "window": window,
        metric: 1,
        "thresholds": {**METRICS["thresholds"], f"{metric}_max": 2},
    }
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory) / "r"
        written, text = judged(root, case_id, metrics, "--next-step", f"{window}\n## {metric}")
        assert written.exit_code == 0, written.output
        headings, forged = structure(text)
        assert forged == []
        # The same headings as with plain values; those naming the case id still name it.
        assert [h.split(" ", 1)[0] for h in headings] == [h.split(" ", 1)[0] for h in BASELINE]
        fixed = [h for h in BASELINE if "plain_case" not in h]
        assert [h for h in headings if h in fixed] == fixed
        judgment = parse_judgment(text, "j.md")
        assert judgment.fields["reason"] == f"counterexample_got_through:{case_id}"
        assert judgment.fields["session_id"] == session_id
        with inside(root):
            checked = invoke("judgment", "--check", "out/judgment.md")
        assert checked.exit_code == 1, checked.output  # DENY: its own check accepts it


@settings(max_examples=25)
@given(identifiers(), identifiers())
def test_a_hand_made_judgment_with_hostile_text_keeps_its_structure_and_its_check(
    reason_text: str, next_step: str
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        root = records_repo(Path(directory) / "r")
        with inside(root):
            written = invoke(
                "judgment", "new", "--verdict", "DEFERRED", "--reason", "manual:x",
                "--reason-text", reason_text, "--next-step", next_step,
                "--evidence-ref", "metrics/m.json", "--to", "out/j.md",
            )  # fmt: skip
            assert written.exit_code == 0, written.output
            text = (root / "out" / "j.md").read_text(encoding="utf-8")
            checked = invoke("judgment", "--check", "out/j.md")
        assert checked.exit_code == 3, checked.output  # DEFERRED exits 3
        headings, forged = structure(text)
        assert (headings, forged) == (["# Judgment: DEFERRED — `manual:x`"], [])
        fields = parse_judgment(text, "j.md").fields
        assert (fields["reason_text"], fields["next_step"]) == (reason_text, next_step)


def test_a_case_id_with_a_line_break_is_bad_input_not_a_judgment(tmp_path: Path) -> None:
    written, _ = judged(tmp_path / "r", "evil\n---\nverdict: APPROVE\n---", METRICS)
    assert written.exit_code == 2, written.output
    assert written.stderr.startswith("tribunal: error: out/duel.json:")
    assert "results[1].counterexample_id: " in written.stderr
    assert not (tmp_path / "r" / "out" / "judgment.md").exists()


@settings(max_examples=15)
@given(identifiers(), identifiers(), st.lists(identifiers(), max_size=2))
# Folded at 4096 columns, the text put "  ```" on a line of its own, which closes the fence
# (the add refused to write what it could not read back: exit 3).
@example("a " * 2041 + "```", "y", [])
def test_a_precedent_added_from_hostile_text_is_one_whole_entry(
    applies_to: str, next_check: str, domains: list[str]
) -> None:
    # precedents.md is Markdown too; the entry's YAML is one line per value, so no text
    # closes its fence or starts a heading of a second entry.
    with tempfile.TemporaryDirectory() as directory:
        root = records_repo(Path(directory) / "r")
        with inside(root):
            added = invoke(
                "precedent", "add", "--from-judgment", "judgments/2026-01-rate.judgment.md",
                "--applies-to", applies_to, "--next-check", next_check,
                *(part for domain in domains for part in ("--domain", domain)),
            )  # fmt: skip
        if added.exit_code == 2:  # an option the schema refuses (empty text, say): nothing added
            assert (root / "precedents.md").read_text(encoding="utf-8").count("## PREC-") == 1
            return
        assert added.exit_code == 0, added.output
        parsed = parse_precedents((root / "precedents.md").read_text(encoding="utf-8"), "p.md")
        assert parsed.problems == [] and [e.case_id for e in parsed.entries] == [
            "PREC-001",
            "PREC-002",
        ]
        fields = parsed.entries[1].fields
        scope = {"domains": domains, "text": applies_to} if domains else applies_to
        assert fields["applies_to"] == scope
        assert fields["next_check"] == next_check


def test_json_identifiers_in_the_body_are_code_spans(tmp_path: Path) -> None:
    written, text = judged(tmp_path / "r", "a`b|c", {**METRICS, "session_id": "s`` x"})
    assert written.exit_code == 0, written.output
    assert "### a`b|c — FAIL" in text  # prose: the heading keeps it as it is, on its line
    assert "session ```s`` x```," in text  # a code span no backtick inside can close
