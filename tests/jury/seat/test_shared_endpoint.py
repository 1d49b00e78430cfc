"""L-9: local rungs that share a server share one concurrency bound (the smaller
`max_concurrency`): a llama-cpp-python server holds one model at a time, and two rungs of it
asked at once thrash. Remote rungs keep their own bounds — against real local servers that
record the peak concurrency they saw."""

from __future__ import annotations

from pathlib import Path

from testing.juror_fleets import ENV, lens_route, server_rung, write_fleet
from testing.jurors import JurorServer, reply, slow, together, verdict

from tribunal.enums import SeatVerdict
from tribunal.jury.builder import resolve_builder
from tribunal.jury.envelope.build import Envelope
from tribunal.jury.fleet import Fleet
from tribunal.jury.seat.alone import sit_alone
from tribunal.jury.seat.dispatch import RungGates, SeatJob, dispatch_seats
from tribunal.jury.seat.walk import SeatContext, seat_prompt

ENVELOPE_TEXT = "### calc.py\n\n```\ndef sub(a, b):\n    return a - b\n```\n"
ENVELOPE = Envelope("repo", "base", "head", "0" * 64, (), (), ENVELOPE_TEXT)


def two_rung_fleet(tmp_path: Path, first: dict[str, object], second: dict[str, object]) -> Fleet:
    """The eight default lenses, four on the two tiers of `first`, four on those of `second`."""
    tiers = {
        "generalist": [first["id"]],
        "operator_safety": [first["id"]],
        "deep_state": [second["id"]],
        "fast_structural": [second["id"]],
    }
    return write_fleet(tmp_path, [first, second], tiers)


def sit_all(fleet: Fleet, environ: dict[str, str] = ENV) -> list[SeatVerdict]:
    routes = [lens_route(fleet, lens.id) for lens in fleet.lenses]
    jobs = [SeatJob(route, seat_prompt(route, ENVELOPE_TEXT)) for route in routes]
    context = SeatContext.for_fleet(fleet, environ=environ)
    return [r.verdict for r in dispatch_seats(jobs, context, rungs=fleet.rungs.values())]


def answer_slowly(server: JurorServer, fleet: Fleet) -> None:
    for lens in fleet.lenses:
        server.when(f'"lens": "{lens.id}"', slow(0.15, reply(verdict(lens.id))))


def test_local_rungs_on_one_server_share_the_smaller_bound(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        fleet = two_rung_fleet(
            tmp_path,
            server_rung("qwen", "qwen", server, local=True, max_concurrency=2),
            server_rung("smol", "hf", server, local=True, max_concurrency=3),
        )
        answer_slowly(server, fleet)
        verdicts = sit_all(fleet)
        models = {request.body["model"] for request in server.chat_requests()}
    assert verdicts == [SeatVerdict.PASS] * 8
    assert models == {"qwen-model", "smol-model"}
    assert server.peak_in_flight == 2  # not 2 + 3: one card, one bound


def test_local_rungs_on_different_servers_keep_their_own_bounds(tmp_path: Path) -> None:
    with JurorServer("openai") as one, JurorServer("openai") as other:
        fleet = two_rung_fleet(
            tmp_path,
            server_rung("qwen", "qwen", one, local=True, max_concurrency=2),
            server_rung("smol", "hf", other, local=True, max_concurrency=2),
        )
        for lens in fleet.lenses:
            # Each server answers only once two requests wait there at the same time.
            for server in (one, other):
                server.when(f'"lens": "{lens.id}"', together(2, reply(verdict(lens.id))))
        assert sit_all(fleet) == [SeatVerdict.PASS] * 8
    assert one.peak_in_flight == other.peak_in_flight == 2


def test_remote_rungs_on_one_gateway_keep_their_own_bounds(tmp_path: Path) -> None:
    with JurorServer("openai") as gateway:
        fleet = two_rung_fleet(
            tmp_path,
            server_rung("vendor-a-model", "vendor-a", gateway, max_concurrency=1),
            server_rung("vendor-b-model", "vendor-b", gateway, max_concurrency=1),
        )
        for lens in fleet.lenses:
            # Only two requests in flight at once get a reply: a shared bound of 1 gets 500s.
            gateway.when(f'"lens": "{lens.id}"', together(2, reply(verdict(lens.id))))
        assert sit_all(fleet) == [SeatVerdict.PASS] * 8
    assert gateway.peak_in_flight == 2


def test_ollama_rungs_without_an_endpoint_share_ollama_host(tmp_path: Path) -> None:
    """Two local Ollama rungs naming no endpoint both call OLLAMA_HOST: one server, one bound."""
    with JurorServer("ollama") as server:
        first = server_rung("qwen", "qwen", server, max_concurrency=3)
        second = server_rung("smol", "hf", server, max_concurrency=3)
        for rung in (first, second):
            del rung["endpoint"]  # ollama rungs are local by default
        fleet = two_rung_fleet(tmp_path, first, second)
        environ = {**ENV, "OLLAMA_HOST": server.url.removeprefix("http://")}
        context = SeatContext.for_fleet(fleet, environ=environ)
        assert context.server_of(fleet.rungs["qwen"]) == context.server_of(fleet.rungs["smol"])
        gates = RungGates(fleet.rungs.values(), context.server_of)
        assert gates.admit(fleet.rungs["qwen"]) is gates.admit(fleet.rungs["smol"])
        answer_slowly(server, fleet)
        assert sit_all(fleet, environ) == [SeatVerdict.PASS] * 8
    assert server.peak_in_flight == 3


def test_server_of_names_scheme_host_and_port(tmp_path: Path) -> None:
    rungs = [
        {"id": "a", "family": "f", "transport": "openai", "model": "m", "local": True,
         "endpoint": "http://LOCALHOST:8089/v1"},
        {"id": "b", "family": "g", "transport": "openai", "model": "m", "local": True,
         "endpoint": "http://localhost:8089/other"},
        {"id": "c", "family": "h", "transport": "openai", "model": "m", "local": True,
         "endpoint": "https://localhost/v1"},
        {"id": "d", "family": "i", "transport": "command", "command": ["true"], "local": True},
    ]  # fmt: skip
    fleet = write_fleet(tmp_path, rungs, {"generalist": ["a", "b", "c", "d"]})
    context = SeatContext.for_fleet(fleet, environ={})
    servers = [context.server_of(fleet.rungs[rung_id]) for rung_id in "abcd"]
    assert servers == [
        "http://localhost:8089",
        "http://localhost:8089",
        "https://localhost:443",
        None,
    ]
    gates = RungGates(fleet.rungs.values(), context.server_of)
    a, b, c, d = (gates.admit(fleet.rungs[rung_id]) for rung_id in "abcd")
    assert a is b and a is not c and d is not a


def test_a_fused_seat_on_its_own_takes_turns_on_one_local_server(tmp_path: Path) -> None:
    """L-5 asks primary and verifier at once; on one local card they take turns (L-9)."""
    with JurorServer("openai") as server:
        server.always(slow(0.15, reply(verdict("boundary_condition"))))
        rungs = [
            server_rung("qwen", "qwen", server, local=True, max_concurrency=1),
            server_rung("smol", "hf", server, local=True, max_concurrency=1),
            server_rung("builder", "vendor-z", server),
        ]
        tiers = {"fast_structural": {"primary": ["qwen"], "verifier": ["smol"]}}
        fleet = write_fleet(tmp_path, rungs, tiers, {"boundary_condition": {}})
        lens = next(lens for lens in fleet.lenses if lens.id == "boundary_condition")
        record = sit_alone(fleet, resolve_builder(fleet, "vendor-z"), lens, ENVELOPE, environ=ENV)
    assert record.verdict is SeatVerdict.PASS and record.verifier is not None
    assert len(server.chat_requests()) == 2
    assert server.peak_in_flight == 1
