"""L-9: seats dispatched concurrently, bounded per rung, each recorded as it finishes."""

from __future__ import annotations

from pathlib import Path

import pytest
from testing.juror_fleets import ENV, lens_route, server_rung, write_fleet
from testing.jurors import JurorServer, reply, slow, together, verdict

from tribunal.enums import SeatVerdict
from tribunal.jury.fleet import Fleet
from tribunal.jury.lenses import Lens
from tribunal.jury.seat.dispatch import SeatJob, dispatch_seats
from tribunal.jury.seat.record import SeatRecord
from tribunal.jury.seat.walk import SeatContext, seat_prompt

ENVELOPE_TEXT = "### calc.py\n\n```\ndef sub(a, b):\n    return a - b\n```\n"


def lens_fleet(tmp_path: Path, server: JurorServer, count: int, concurrency: int) -> Fleet:
    rungs = [server_rung("shared", "vendor-a", server, max_concurrency=concurrency)]
    lenses = {f"l{i}": {"tier": "generalist", "question": f"Question {i}?"} for i in range(count)}
    return write_fleet(tmp_path, rungs, {"generalist": ["shared"]}, lenses)


def jobs_of(fleet: Fleet) -> list[SeatJob]:
    """The seats of the lenses the fleet file names (the other default lenses do not sit)."""
    routes = [lens_route(fleet, lens.id) for lens in declared(fleet)]
    return [SeatJob(route, seat_prompt(route, ENVELOPE_TEXT)) for route in routes]


def declared(fleet: Fleet) -> list[Lens]:
    named = fleet.document.data["lenses"]
    return [lens for lens in fleet.lenses if lens.id in named]


def test_eight_seats_are_asked_at_the_same_time(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        fleet = lens_fleet(tmp_path, server, 8, concurrency=8)
        for lens in declared(fleet):
            # Each reply waits until all eight requests are in: a serial loop gets only 500s.
            server.when(f'"lens": "{lens.id}"', together(8, reply(verdict(lens.id))))
        finished: list[SeatRecord] = []
        context = SeatContext.for_fleet(fleet, environ=ENV)
        records = dispatch_seats(
            jobs_of(fleet), context, rungs=fleet.rungs.values(), on_seat=finished.append
        )
    assert [record.lens for record in records] == [f"l{i}" for i in range(8)]
    assert all(record.verdict is SeatVerdict.PASS for record in records)
    assert sorted(record.lens for record in finished) == [f"l{i}" for i in range(8)]
    assert server.peak_in_flight == 8


def test_a_rung_is_never_asked_beyond_its_max_concurrency(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        fleet = lens_fleet(tmp_path, server, 4, concurrency=1)
        for lens in declared(fleet):
            server.when(f'"lens": "{lens.id}"', slow(0.05, reply(verdict(lens.id))))
        context = SeatContext.for_fleet(fleet, environ=ENV)
        records = dispatch_seats(jobs_of(fleet), context, rungs=fleet.rungs.values())
    assert all(record.verdict is SeatVerdict.PASS for record in records)
    assert len(server.chat_requests()) == 4
    assert server.peak_in_flight == 1  # a local card: one call at a time, across seats


def test_a_crashing_seat_holds_for_its_lens_and_keeps_the_others(tmp_path: Path) -> None:
    with JurorServer("openai") as server:
        server.when('"lens": "defect"', reply(verdict("defect")))
        rungs = [
            server_rung("cloud", "vendor-a", server),
            # A harness rung needs a checkout; none is given: that seat raises.
            {"id": "harness", "family": "vendor-c", "transport": "command", "command": ["true"]},
        ]
        tiers = {"generalist": ["cloud"], "deep_state": ["harness"]}
        lenses = {"defect": {}, "reversibility": {}}
        fleet = write_fleet(tmp_path, rungs, tiers, lenses)
        finished: list[SeatRecord] = []
        context = SeatContext.for_fleet(fleet, environ=ENV)
        records = dispatch_seats(
            jobs_of(fleet), context, rungs=fleet.rungs.values(), on_seat=finished.append
        )
    defect, reversibility = records
    assert defect.verdict is SeatVerdict.PASS
    assert (reversibility.verdict, reversibility.rung) == (SeatVerdict.HOLD, None)
    assert reversibility.note is not None and "crashed" in reversibility.note
    assert "BadInput" in reversibility.note
    assert len(finished) == 2


def test_each_ollama_model_used_is_unloaded_once_after_every_seat(tmp_path: Path) -> None:
    # L-7: no call unloads a model during the sitting; the last holder releases it after.
    with JurorServer("ollama") as server, JurorServer("openai") as cloud:
        rungs = [
            server_rung("local", "qwen", server, max_concurrency=1),
            server_rung("unused-local", "qwen-b", server),
            server_rung("cloud", "vendor-a", cloud),
        ]
        lenses = {f"l{i}": {"tier": "generalist", "question": f"Question {i}?"} for i in range(3)}
        lenses["other"] = {"tier": "deep_state", "question": "Other?"}
        tiers = {"generalist": ["local", "unused-local"], "deep_state": ["cloud"]}
        fleet = write_fleet(tmp_path, rungs, tiers, lenses)
        for lens in declared(fleet):
            server.when(f'"lens": "{lens.id}"', slow(0.05, reply(verdict(lens.id))))
            cloud.when(f'"lens": "{lens.id}"', reply(verdict(lens.id)))
        context = SeatContext.for_fleet(fleet, environ=ENV)
        records = dispatch_seats(jobs_of(fleet), context, rungs=fleet.rungs.values())
    assert all(record.verdict is SeatVerdict.PASS for record in records)
    paths = [received.path for received in server.requests]
    chats = [received for received in server.requests if received.path == "/api/chat"]
    assert len(chats) == 3 and all(chat.body["keep_alive"] == -1 for chat in chats)
    assert paths.count("/api/generate") == 1  # once, and only for the rung that was used
    assert paths[-1] == "/api/generate"  # after every seat's chat request
    assert server.requests[-1].body == {"model": "local-model", "keep_alive": 0}


def test_an_on_seat_error_is_raised_after_every_other_record_is_delivered(
    tmp_path: Path,
) -> None:
    # B-5: a failed write of one verdict never discards the verdicts of the other seats.
    with JurorServer("openai") as server:
        fleet = lens_fleet(tmp_path, server, 4, concurrency=4)
        for lens in declared(fleet):
            server.when(f'"lens": "{lens.id}"', reply(verdict(lens.id)))
        delivered: list[str] = []

        def on_seat(record: SeatRecord) -> None:
            delivered.append(record.lens)
            if len(delivered) == 1:
                raise OSError("disk full")

        context = SeatContext.for_fleet(fleet, environ=ENV)
        with pytest.raises(OSError, match="disk full"):
            dispatch_seats(jobs_of(fleet), context, rungs=fleet.rungs.values(), on_seat=on_seat)
    assert sorted(delivered) == [f"l{i}" for i in range(4)]
