"""The ladder walk of one seat (L-3, L-5, L-6, L-10) against real local juror servers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from testing.juror_fleets import (
    ENV,
    ENVELOPE,
    KEY,
    PROMPT,
    lens_route,
    server_rung,
    sit,
    write_fleet,
)
from testing.jurors import (
    JurorServer,
    context_exceeded,
    length,
    reply,
    status,
    together,
    verdict,
)

from tribunal.documents import first_schema_error
from tribunal.enums import SeatVerdict
from tribunal.jury.fleet import Fleet
from tribunal.jury.seat.walk import SeatContext, walk_seat

Servers = tuple[JurorServer, JurorServer, JurorServer]
CHECKED = [{"claim": "clamps", "location": "calc.py:2", "evidence": "max(a - b, 0)"}]


@pytest.fixture
def servers() -> Iterator[Servers]:
    with (
        JurorServer("openai") as first,
        JurorServer("anthropic") as second,
        JurorServer("ollama") as third,
    ):
        yield first, second, third


def ladder(tmp_path: Path, servers: Servers, **fields: object) -> Fleet:
    rungs = [server_rung(f"r{i}", f"vendor-{i}", s, **fields) for i, s in enumerate(servers)]
    return write_fleet(tmp_path, rungs, {"generalist": [r["id"] for r in rungs]})


def test_rejected_rungs_then_a_verdict_stops_the_walk(tmp_path: Path, servers: Servers) -> None:
    first, second, third = servers
    first.script(reply(verdict("telemetry")))
    second.script(status(503))
    third.script(reply(verdict("defect", checked=CHECKED)))
    record = sit(ladder(tmp_path, servers))
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["verdict"], data["rung"], data["family"]) == ("pass", "r2", "vendor-2")
    assert [(r["rung"], r["reason"]) for r in data["rejected_rungs"]] == [
        ("r0", "wrong_lens"),
        ("r1", "not_answered"),
    ]
    assert data["rejected_rungs"][0]["answered_lens"] == "telemetry"
    assert '"telemetry"' in data["rejected_rungs"][0]["raw_tail"]
    assert data["low_information"] is False  # V-4: the checked citation holds in the envelope
    assert data["checked"][0]["citation"] == "verified"


def test_malformed_refuses_at_once_with_no_retry(tmp_path: Path, servers: Servers) -> None:
    first, second, third = servers
    first.script(reply("I would pass this."))
    second.always(reply(verdict("defect")))
    record = sit(ladder(tmp_path, servers))
    assert (record.verdict, record.rung, record.reason) == (SeatVerdict.REFUSE, "r0", "malformed")
    assert record.findings[0].claim == "malformed verdict from r0"
    assert len(first.chat_requests()) == 1  # one shot
    assert second.chat_requests() == [] and third.chat_requests() == []


def test_exhausted_ladder_holds_with_no_rung(tmp_path: Path, servers: Servers) -> None:
    first, second, third = servers
    first.script(length())
    second.script(context_exceeded())
    third.script(status(429))
    record = sit(ladder(tmp_path, servers))
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["verdict"], data["rung"], data["family"]) == ("hold", None, None)
    assert [r["reason"] for r in data["rejected_rungs"]] == [
        "truncated",
        "capacity",
        "not_answered",
    ]


def test_capacity_is_checked_again_at_the_hop(tmp_path: Path, servers: Servers) -> None:
    first, second, _ = servers
    second.script(reply(verdict("defect")))
    rungs = [
        server_rung("small", "vendor-a", first, context_tokens=600, max_output_tokens=100),
        server_rung("big", "vendor-b", second),
    ]
    fleet = write_fleet(tmp_path, rungs, {"generalist": ["small", "big"]})
    prompt = PROMPT + "x" * 2000  # ~1000 tokens: routing (no estimate) let `small` through
    record = sit(fleet, prompt=prompt)
    assert record.rung == "big"
    assert [(r.rung, r.reason) for r in record.rejected_rungs] == [("small", "capacity")]
    assert first.chat_requests() == []  # skipped before the call


def test_unset_key_is_no_credentials_and_the_walk_goes_on(tmp_path: Path, servers: Servers) -> None:
    first, second, _ = servers
    second.script(reply(verdict("defect")))
    rungs = [
        server_rung("keyless", "vendor-a", first, api_key_env="MISSING_KEY"),
        server_rung("keyed", "vendor-b", second),
    ]
    fleet = write_fleet(tmp_path, rungs, {"generalist": ["keyless", "keyed"]})
    record = sit(fleet)
    assert record.rung == "keyed"
    assert [(r.rung, r.reason) for r in record.rejected_rungs] == [("keyless", "no_credentials")]
    assert first.requests == []


def test_shorthand_rung_sends_the_providers_key(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        server.script(reply(verdict("defect")))
        fleet = write_fleet(
            tmp_path, [{"use": "openai/juror-1"}], {"generalist": ["openai/juror-1"]}
        )
        environ = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": server.endpoint}
        route = lens_route(fleet, env=environ)
        record = walk_seat(route, PROMPT, SeatContext.for_fleet(fleet, environ=environ))
        assert record.verdict is SeatVerdict.PASS
        assert server.chat_requests()[0].headers["Authorization"] == f"Bearer {KEY}"


def fused(tmp_path: Path, primary: JurorServer, verifier: JurorServer, spare: JurorServer) -> Fleet:
    rungs = [
        server_rung("local", "qwen", primary),
        server_rung("cloud", "vendor-v", verifier),
        server_rung("spare", "vendor-w", spare),
    ]
    tiers = {"fast_structural": {"primary": ["local"], "verifier": ["cloud", "spare"]}}
    return write_fleet(tmp_path, rungs, tiers, {"boundary_condition": {}})


def test_fused_seat_passes_only_when_both_pass(tmp_path: Path, servers: Servers) -> None:
    primary, verifier, spare = servers
    primary.script(reply(verdict("boundary_condition", checked=CHECKED)))
    verifier.script(reply(verdict("boundary_condition")))
    record = sit(fused(tmp_path, primary, verifier, spare), lens="boundary_condition")
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["verdict"], data["rung"], data["verified"]) == ("pass", "local", True)
    assert data["verifier"] == {"rung": "cloud", "family": "vendor-v", "verdict": "pass"}
    assert spare.chat_requests() == []


def test_fused_verifier_refusal_refuses_and_keeps_both(tmp_path: Path, servers: Servers) -> None:
    primary, verifier, spare = servers
    primary.script(reply(verdict("boundary_condition", checked=CHECKED)))
    finding = {"severity": "major", "claim": "no bound", "location": "calc.py:2"}
    verifier.script(reply(verdict("boundary_condition", "refuse", findings=[finding])))
    record = sit(fused(tmp_path, primary, verifier, spare), lens="boundary_condition")
    assert record.verdict is SeatVerdict.REFUSE
    assert [f.claim for f in record.findings] == ["[verifier:cloud] no bound"]
    assert record.checked[0].claim == "clamps"  # the primary's verdict is kept too
    assert record.verifier is not None and record.verifier.verdict is SeatVerdict.REFUSE


def test_fused_primary_refusal_refuses(tmp_path: Path, servers: Servers) -> None:
    primary, verifier, spare = servers
    primary.script(reply("not a verdict"))
    verifier.script(reply(verdict("boundary_condition")))
    record = sit(fused(tmp_path, primary, verifier, spare), lens="boundary_condition")
    assert (record.verdict, record.reason) == (SeatVerdict.REFUSE, "malformed")


def test_fused_without_an_answering_verifier_is_unverified(
    tmp_path: Path, servers: Servers
) -> None:
    primary, verifier, spare = servers
    primary.script(reply(verdict("boundary_condition", checked=CHECKED)))
    verifier.script(status(500))
    spare.script(reply(verdict("other_lens")))
    record = sit(fused(tmp_path, primary, verifier, spare), lens="boundary_condition")
    data = record.to_dict()
    assert first_schema_error(data, "seat_record") is None
    assert (data["verdict"], data["verified"]) == ("hold", False)  # L-5: never a pass
    assert "UNVERIFIED" in data["note"]
    assert [(r["rung"], r["reason"]) for r in data["rejected_rungs"]] == [
        ("cloud", "not_answered"),
        ("spare", "wrong_lens"),
    ]
    assert all(r["detail"].startswith("verifier") for r in data["rejected_rungs"])


def test_fused_verifier_never_shares_the_primarys_family(tmp_path: Path, servers: Servers) -> None:
    primary, verifier, spare = servers
    primary.script(reply(verdict("boundary_condition")))
    spare.script(reply(verdict("boundary_condition")))
    rungs = [
        server_rung("local", "qwen", primary),
        server_rung("local-2", "qwen", verifier),
        server_rung("spare", "vendor-w", spare),
    ]
    tiers = {"fast_structural": {"primary": ["local"], "verifier": ["local-2", "spare"]}}
    fleet = write_fleet(tmp_path, rungs, tiers, {"boundary_condition": {}})
    record = sit(fleet, lens="boundary_condition")
    assert (record.verdict, record.verified) == (SeatVerdict.PASS, True)
    assert record.verifier is not None and record.verifier.rung == "spare"
    assert ("local-2", "primary_family") in [(r.rung, r.reason) for r in record.rejected_rungs]
    assert verifier.chat_requests() == []


def test_solo_same_family_verifier_is_marked(tmp_path: Path, servers: Servers) -> None:
    primary, verifier, _ = servers
    primary.script(reply(verdict("boundary_condition")))
    verifier.script(reply(verdict("boundary_condition")))
    rungs = [server_rung("local", "qwen", primary), server_rung("local-2", "qwen", verifier)]
    tiers = {"fast_structural": {"primary": ["local"], "verifier": ["local-2"]}}
    fleet = write_fleet(tmp_path, rungs, tiers, {"boundary_condition": {}})
    route = lens_route(fleet, "boundary_condition", solo=True)
    record = walk_seat(route, PROMPT, SeatContext.for_fleet(fleet, environ=ENV))
    assert (record.verdict, record.verified) == (SeatVerdict.PASS, "same-family")


def test_replay_fleet_seat_is_labelled_recorded() -> None:
    from testing import REPO

    from tribunal.jury.fleet import load_fleet

    fleet = load_fleet(REPO / "examples" / "fleet" / "replay.yaml")
    record = sit(fleet, envelope=ENVELOPE)
    assert (record.verdict, record.recorded) == (SeatVerdict.PASS, True)
    assert record.low_information is True  # a pass that names nothing it checked is bare


def test_a_seat_prefix_keys_the_request_and_the_lens_stays_the_verdicts(tmp_path: Path) -> None:
    # P-12: a vetting seat asks a replay fleet as `vet/<lens>`; without a prefix (the blind
    # court's seats) the key is the lens id alone.
    answers = {
        "vet/defect": verdict("defect", checked=CHECKED),
        "defect": verdict("defect", "refuse"),
    }
    (tmp_path / "answers.yaml").write_text(yaml.safe_dump(answers), encoding="utf-8")
    rung = {"id": "rec", "family": "vendor-r", "transport": "replay", "answers": "answers.yaml"}
    fleet = write_fleet(tmp_path, [rung], {"generalist": ["rec"]})
    route = lens_route(fleet)
    context = SeatContext.for_fleet(fleet, environ=ENV, envelope_files=ENVELOPE)
    prefixed = walk_seat(route, PROMPT, replace(context, seat_prefix="vet/"))
    assert (prefixed.lens, prefixed.verdict) == ("defect", SeatVerdict.PASS)
    assert walk_seat(route, PROMPT, context).verdict is SeatVerdict.REFUSE


def test_a_harness_that_writes_is_annulled_and_the_walk_goes_on(tmp_path: Path) -> None:
    from testing.gitrepo import GitRepo

    from tribunal.jury.transports import Checkout

    repo = GitRepo(tmp_path / "repo")
    repo.commit("base", {"calc.py": "x = 1\n"})
    head = repo.git("rev-parse", "HEAD").strip()
    writer = (
        "import pathlib, sys; sys.stdin.read(); pathlib.Path('calc.py').write_text('y')\n"
        'print(\'{"verdict": "pass", "lens": "defect", "findings": []}\')'
    )
    with JurorServer("openai") as server:
        server.script(reply(verdict("defect", "refuse", findings=[{"severity": "minor",
                                                                     "claim": "c"}])))  # fmt: skip
        rungs = [
            {"id": "harness", "family": "vendor-h", "transport": "command",
             "command": [sys.executable, "-c", writer]},
            server_rung("cloud", "vendor-a", server),
        ]  # fmt: skip
        fleet = write_fleet(tmp_path, rungs, {"generalist": ["harness", "cloud"]})
        context = SeatContext.for_fleet(fleet, environ=ENV)
        context = replace(context, checkout=Checkout(repo.path, head))
        record = walk_seat(lens_route(fleet), PROMPT, context)
    assert (record.verdict, record.rung) == (SeatVerdict.REFUSE, "cloud")
    assert [(r.rung, r.reason) for r in record.rejected_rungs] == [("harness", "annulled")]
    assert (repo.path / "calc.py").read_text() == "x = 1\n"  # the repository is untouched


def test_fused_primary_and_verifier_are_asked_at_the_same_time(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        # Both replies wait until two requests are in: asked one after the other, both fail.
        server.always(together(2, reply(verdict("boundary_condition"))))
        rungs = [server_rung("local", "qwen", server), server_rung("cloud", "vendor-v", server)]
        tiers = {"fast_structural": {"primary": ["local"], "verifier": ["cloud"]}}
        fleet = write_fleet(tmp_path, rungs, tiers, {"boundary_condition": {}})
        record = sit(fleet, lens="boundary_condition")
    assert (record.verdict, record.verified) == (SeatVerdict.PASS, True)
    assert server.peak_in_flight == 2
