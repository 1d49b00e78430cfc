"""R-6: `tribunal records check` over tracked files, every problem as file:line: message."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from testing.records_repos import JUDGMENT, PRECEDENTS, commit_all, records_repo, write

from tribunal.cli import cli


def run_check(repo: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(cli, ["records", "check", *args])
    return result.exit_code, result.stdout, result.stderr


def test_clean_repository_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    code, out, _ = run_check(repo, monkeypatch)
    assert (code, out) == (
        0,
        "records check: 1 judgment(s), 1 precedents file(s) (1 precedent(s)): no problems\n",
    )


def test_every_problem_is_reported_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    bad_refs = (
        JUDGMENT.replace("metrics/m.json#/silent_p0_ratio", "metrics/m.json#/nope")
        .replace("specs/s.yaml:2", "specs/s.yaml:9")
        .replace("PREC-001", "PREC-404")
    )
    write(repo, "judgments/refs.judgment.md", bad_refs)
    write(repo, "judgments/escape.judgment.md", JUDGMENT.replace("specs/s.yaml:2", "../x.json"))
    write(repo, "judgments/abs.judgment.md", JUDGMENT.replace("specs/s.yaml:2", "/etc/hosts"))
    write(
        repo, "judgments/judgment.md", "---\nverdict: MAYBE\nreason: clean\nevidence_ref: a\n---\n"
    )
    write(repo, "notes/sniffed.md", "---\nverdict: DENY\n---\n")  # a judgment by its front matter
    write(repo, "docs/precedents.md", PRECEDENTS + PRECEDENTS.replace("# Precedents\n", ""))
    commit_all(repo, "bad records")
    code, out, err = run_check(repo, monkeypatch)
    assert code == 1
    assert out.splitlines() == [
        "docs/precedents.md:13: duplicate precedent ID PREC-001 (lines 3, 13); "
        "run `tribunal precedent renumber PREC-001`",
        "judgments/abs.judgment.md:6: evidence_ref: /etc/hosts: absolute path; "
        "evidence_ref must be relative to the repository",
        "judgments/escape.judgment.md:6: evidence_ref: ../x.json: escapes the repository",
        "judgments/judgment.md:2: verdict: 'MAYBE' is not one of ['APPROVE', 'DENY', 'DEFERRED']",
        "judgments/refs.judgment.md:5: evidence_ref: metrics/m.json#/nope: "
        "pointer does not resolve at 'nope'",
        "judgments/refs.judgment.md:6: evidence_ref: specs/s.yaml:9: line 9 does not exist "
        "(2 lines)",
        "judgments/refs.judgment.md:8: linked_precedents: PREC-404 is in no precedents.md",
        "notes/sniffed.md:1: 'reason' is required",
    ]
    assert err.endswith(": 8 problem(s)\n")


def test_malformed_precedents_file_is_a_problem_not_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "precedents.md", PRECEDENTS.replace("verdict: DENY", "verdict: MAYBE\ncolour: x"))
    commit_all(repo, "broken")
    code, out, _ = run_check(repo, monkeypatch)
    assert code == 1
    assert out.splitlines() == [
        # The judgment's link no longer resolves: the entry is not valid.
        "judgments/2026-01-rate.judgment.md:8: linked_precedents: PREC-001 is in no precedents.md",
        "precedents.md:7: verdict: 'MAYBE' is not one of ['APPROVE', 'DENY', 'DEFERRED']",
        "precedents.md:8: unknown field 'colour'",
    ]


def test_only_tracked_files_and_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    broken = "---\nverdict: MAYBE\n---\n"
    write(repo, "ignored/judgment.md", broken)
    write(repo, "excluded/judgment.md", broken)
    write(repo, ".tribunalignore", "# fixtures\nignored/\n")
    commit_all(repo, "more")
    write(repo, "untracked/judgment.md", broken)  # not tracked: not checked
    code, out, _ = run_check(repo, monkeypatch, "--exclude", "excluded/**")
    assert code == 0, out
    code, out, _ = run_check(repo, monkeypatch)
    assert code == 1 and out.startswith("excluded/judgment.md:1: 'reason' is required")


def test_path_limits_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    write(repo, "other/judgment.md", "---\nverdict: MAYBE\n---\n")
    commit_all(repo, "more")
    code, out, _ = run_check(repo, monkeypatch, "judgments")
    assert code == 0
    assert (
        out == "records check: 1 judgment(s), 0 precedents file(s) (0 precedent(s)): no problems\n"
    )


def test_run_dir_judgment_resolves_from_its_own_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    run = repo / "runs" / "r1"
    write(repo, "runs/r1/.tribunal-stamp", "run\n")
    write(repo, "runs/r1/verdict_defect.json", '{"verdict": "pass"}\n')
    judgment = (
        "---\nverdict: APPROVE\nreason: clean\nevidence_ref: verdict_defect.json#/verdict\n---\n"
    )
    write(repo, "runs/r1/judgment.md", judgment)
    write(repo, "loose/judgment.md", judgment)  # not in a run dir: resolves from the root
    commit_all(repo, "runs")
    code, out, _ = run_check(repo, monkeypatch)
    assert run.is_dir()
    assert (code, out.splitlines()) == (
        1,
        ["loose/judgment.md:4: evidence_ref: verdict_defect.json#/verdict: no such file"],
    )


def test_outside_git_every_file_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "plain"
    write(plain, "metrics/m.json", '{"silent_p0_ratio": 0.2}\n')
    write(plain, "specs/s.yaml", "spec_id: x\nthen: y\n")
    write(plain, "j/judgment.md", JUDGMENT)
    write(plain, "precedents.md", PRECEDENTS)
    code, out, _ = run_check(plain, monkeypatch)
    assert (code, out) == (
        0,
        "records check: 1 judgment(s), 1 precedents file(s) (1 precedent(s)): no problems\n",
    )


def test_missing_path_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = records_repo(tmp_path / "r")
    code, _, err = run_check(repo, monkeypatch, "nowhere")
    assert code == 2 and "does not exist" in err


def test_configured_precedents_file_is_checked_and_cited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = records_repo(tmp_path / "r")
    (repo / "precedents.md").rename(repo / "decisions.md")
    write(repo, "tribunal.toml", 'precedents = "decisions.md"\n')
    commit_all(repo, "renamed")
    code, out, _ = run_check(repo, monkeypatch)
    assert (code, out) == (
        0,
        "records check: 1 judgment(s), 1 precedents file(s) (1 precedent(s)): no problems\n",
    )
    code, out, _ = run_check(repo, monkeypatch, "--precedents", "nowhere.md")
    assert code == 1 and "PREC-001 is in no precedents.md" in out


def test_a_next_check_when_that_does_not_compile_is_a_problem_on_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-2, R-6: `next_check.when` is a T-2 expression, compiled when the check reads it."""
    repo = records_repo(tmp_path / "r")
    conditioned = PRECEDENTS.replace(
        'next_check: "burst_window_sec rises above 60"',
        "next_check:\n  text: burst rises\n  when: burst.window_sec > 60",
    )
    write(repo, "precedents.md", conditioned)
    commit_all(repo, "bad condition")
    code, out, _ = run_check(repo, monkeypatch)
    assert code == 1
    assert out.splitlines() == [
        "precedents.md:12: next_check.when: attribute access is not allowed in expression "
        "'burst.window_sec > 60'",
    ]
    write(repo, "precedents.md", conditioned.replace("burst.window_sec", "burst_window_sec"))
    commit_all(repo, "fixed condition")
    assert run_check(repo, monkeypatch)[0] == 0


@pytest.mark.parametrize(
    ("ignore", "args", "message"),
    [
        (
            "# fixtures\nignored/\nb\\\n",
            (),
            "tribunal: error: .tribunalignore:3: 'b\\\\' is not a valid gitignore pattern\n",
        ),
        (
            "ignored/\n",
            ("--exclude", "ok/**", "--exclude", "a\\"),
            "tribunal: error: --exclude: 'a\\\\' is not a valid gitignore pattern\n",
        ),
    ],
)
def test_a_bad_ignore_pattern_is_bad_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ignore: str,
    args: tuple[str, ...],
    message: str,
) -> None:
    """C-3: a pattern pathspec cannot compile names its file and line (or the option); exit 2,
    not an internal error."""
    repo = records_repo(tmp_path / "r")
    write(repo, ".tribunalignore", ignore)
    code, out, err = run_check(repo, monkeypatch, *args)
    assert (code, out, err) == (2, "", message)


def test_entry_like_text_outside_an_entry_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-2, R-6: a PREC heading at another level and a bare yaml mapping holding case_id are
    problems naming their lines, not prose that passes with "no problems"."""
    repo = records_repo(tmp_path / "r")
    block = PRECEDENTS.split("```yaml\n")[1].replace("PREC-001", "PREC-004")
    stray = "```yaml\ncase_id: PREC-005\nverdict: DENY\nevidence_ref: nope.json\nowner: x\n```\n"
    write(repo, "precedents.md", f"{PRECEDENTS}\n### PREC-004\n\n```yaml\n{block}\n{stray}")
    commit_all(repo, "entry-like")
    code, out, _ = run_check(repo, monkeypatch)
    assert code == 1
    assert [line.split(";")[0] for line in out.splitlines()] == [
        "precedents.md:13: heading: PREC-004 is a level-3 heading",
        "precedents.md:24: a fenced yaml block holding case_id outside an entry",
    ]
