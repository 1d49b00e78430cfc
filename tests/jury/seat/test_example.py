"""E-5, V-4: a seat's prompt shows its envelope's example citation, and the seat's own check
never counts a citation of it — the threading from the envelope to the checker, end to end."""

from __future__ import annotations

from pathlib import Path

from testing.gitrepo import GitRepo
from testing.juror_fleets import ENV, server_rung, write_fleet
from testing.jurors import JurorServer, reply, verdict

from tribunal.enums import CitationReason, CitationStatus, SeatVerdict
from tribunal.jury.builder import resolve_builder
from tribunal.jury.envelope.build import build_envelope
from tribunal.jury.envelope.contract import load_contract
from tribunal.jury.envelope.text import ExampleCitation
from tribunal.jury.seat.alone import sit_alone


def test_a_seat_shows_the_example_and_never_counts_it(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit("base", {"calc.py": "def sub(a, b):\n    return a - b\n"})
    repo.git("tag", "base")
    test = "from calc import sub\n\n\ndef test_sub():\n    assert sub(1, 2) == 0\n"
    fix = "def sub(a, b):\n    return max(a - b, 0)\n"
    repo.commit("clamp", {"calc.py": fix, "tests/test_calc.py": test})
    contract = tmp_path / "contract.yaml"
    contract.write_text("intent: Clamp at zero.\ncriteria:\n  - sub(1, 2) == 0\n", "utf-8")
    envelope = build_envelope(repo.path, "base", load_contract(contract))
    assert envelope.example == ExampleCitation("tests/test_calc.py", 1, "from calc import sub")
    answer = verdict(
        "defect",
        checked=[
            {"location": "tests/test_calc.py:1", "evidence": "from calc import sub", "claim": "x"},
            {"location": "path:line", "evidence": "max(a - b, 0)", "claim": "the form"},
            {"location": "calc.py, line 2", "evidence": "2 | return max(a - b, 0)", "claim": "ok"},
        ],
    )
    with JurorServer("openai") as server:
        server.always(reply(answer))
        fleet = write_fleet(
            tmp_path,
            [server_rung("r0", "vendor-a", server), server_rung("b", "vendor-z", server)],
            {"generalist": ["r0"]},
        )
        lens = next(item for item in fleet.lenses if item.id == "defect")
        record = sit_alone(fleet, resolve_builder(fleet, "vendor-z"), lens, envelope, environ=ENV)
        prompt = server.chat_requests()[0].prompt
    assert '"location": "tests/test_calc.py:1", "evidence": "from calc import sub"' in prompt
    assert [(c.citation, c.citation_reason) for c in record.checked] == [
        (CitationStatus.UNLOCATED, CitationReason.EXAMPLE_COPIED),
        (CitationStatus.UNLOCATED, CitationReason.PLACEHOLDER),
        (CitationStatus.VERIFIED, None),
    ]
    assert (record.verdict, record.low_information) == (SeatVerdict.PASS, False)
    shown = record.to_dict()["checked"]
    assert [entry.get("citation_reason") for entry in shown] == [
        "example_copied",
        "placeholder",
        None,
    ]
