"""P-9: an executor's report — its status, address, concerns (numbered from 1) and complexity."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.slices import REPORT

from tribunal.enums import ConcernKind, ExecutorStatus
from tribunal.errors import BadInput
from tribunal.evidence.slice.report import load_report


def test_a_report_loads_with_numbered_concerns(tmp_path: Path) -> None:
    path = tmp_path / "report.yaml"
    path.write_text(REPORT, encoding="utf-8")
    report = load_report(path, "report.yaml")
    assert report.status is ExecutorStatus.DONE_WITH_CONCERNS
    who = (report.address, report.executor, report.context)
    assert who == ("abc123", "vendor-a/builder-1", "plan-v2")
    assert report.complexity == 2
    assert [(c.number, c.kind, c.blocking) for c in report.concerns] == [
        (1, ConcernKind.OBSERVATION, False),
        (2, ConcernKind.CORRECTNESS, True),
    ]
    assert report.concern(2) is report.concerns[1] and report.concern(3) is None


def test_a_concern_keeps_its_fingerprint_across_whitespace_and_case(tmp_path: Path) -> None:
    path = tmp_path / "report.yaml"
    path.write_text(REPORT, encoding="utf-8")
    first = load_report(path, "report.yaml").concerns[1]
    respaced = REPORT.replace("a burst at the edge", "A  burst at\tthe edge")
    path.write_text(respaced, encoding="utf-8")
    again = load_report(path, "report.yaml").concerns[1]
    assert first.fingerprint == again.fingerprint
    path.write_text(REPORT.replace("kind: correctness", "kind: scope"), encoding="utf-8")
    assert load_report(path, "report.yaml").concerns[1].fingerprint != first.fingerprint


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (("status: DONE_WITH_CONCERNS", "status: FINISHED"), "status"),
        (("complexity: 2", "complexity: 0"), "complexity"),
        (("executor: vendor-a/builder-1\n", ""), "executor"),
        (("kind: observation", "kind: worry"), r"concerns\[0\]\.kind"),
    ],
)
def test_a_bad_report_is_bad_input_naming_the_field(
    tmp_path: Path, replace: tuple[str, str], message: str
) -> None:
    path = tmp_path / "report.yaml"
    path.write_text(REPORT.replace(*replace), encoding="utf-8")
    with pytest.raises(BadInput, match=message) as caught:
        load_report(path, "report.yaml")
    assert str(caught.value).startswith("report.yaml:")
