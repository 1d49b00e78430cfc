"""L-4: three rungs able to hold 120k tokens before the local end, ending on a local rung."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.fleets import fleet_from

from tribunal.errors import BadInput
from tribunal.jury.floor import floor_warnings

RUNGS = """\
rungs:
  - {id: a, family: fa, transport: command, command: [a]}
  - {id: b, family: fb, transport: command, command: [b]}
  - {id: c, family: fc, transport: command, command: [c], context_tokens: 124095}
  - {id: d, family: fd, transport: command, command: [d], context_tokens: 124096}
  - {id: l1, family: fl, transport: ollama, model: m1, context_tokens: 500000}
  - {id: l2, family: fl, transport: ollama, model: m2}
lenses:
  defect: {tier: t}
"""


def test_a_floor_that_holds_warns_nothing(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, RUNGS + "tiers:\n  t: [a, b, d, l1]\n")
    assert floor_warnings(fleet) == ()


def test_rungs_that_cannot_hold_120k_plus_answer_do_not_count(tmp_path: Path) -> None:
    # c holds 124095 < 120000 + 4096; local rungs at the end do not count either.
    fleet = fleet_from(tmp_path, RUNGS + "tiers:\n  t: [a, b, c, l1, l2]\n")
    assert floor_warnings(fleet) == (
        "tier 't' has 2 rung(s) able to hold a 120000-token artifact before its local end, "
        "fewer than 3 (the ladder's floor)",
    )


def test_a_ladder_must_end_on_a_local_rung(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, RUNGS + "tiers:\n  t: [l1, a, b, d]\n")
    expected = "tier 't' does not end on a local survival rung (the ladder's floor)"
    assert floor_warnings(fleet) == (expected,)


def test_fused_tiers_are_checked_on_their_primary_ladder(tmp_path: Path) -> None:
    text = RUNGS + "tiers:\n  t:\n    primary: [a, l1]\n    verifier: [b]\n"
    assert len(floor_warnings(fleet_from(tmp_path, text))) == 1


def test_strict_makes_the_floor_an_error_naming_the_tier(tmp_path: Path) -> None:
    fleet = fleet_from(tmp_path, RUNGS + "tiers:\n  t: [a, l1]\n")
    with pytest.raises(BadInput) as info:
        floor_warnings(fleet, strict=True)
    assert str(info.value).startswith("fleet.yaml:11: tiers.t: tier 't' has 1 rung(s)")
