"""B-1 `costs` in summary.json, from real juror servers on 127.0.0.1: per rung the usage of its
answered calls as the server reported it and its price from the L-1 `cost`; a count the server
did not report is null (so is the price built on it), never 0 or a guess."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from testing.convening import CITED, Jury, Ran, contract_file, convene, jury
from testing.hermetic import make_hermetic
from testing.jurors import reply, verdict
from testing.proof_projects import CALC_RIGHT, Change, change
from testing.seat_records import EIGHT

from tribunal.documents import first_schema_error
from tribunal.enums import Transport
from tribunal.jury.fleet import Rung
from tribunal.jury.seat.costs import CostBook, costs_document
from tribunal.jury.transports import Usage

# What every juror reply reports (tests/jurors.py): 11 prompt tokens, 7 completion tokens.
PROMPT, COMPLETION = 11, 7
PRICES = {"juror-a": (1.0, 2.0), "juror-b": (3.0, 15.0), "juror-c": (0.15, 0.6)}


@pytest.fixture(scope="module")
def subject(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Change]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        make_hermetic(monkeypatch, tmp_path_factory.mktemp("home"))
        yield change(tmp_path_factory.mktemp("costs") / "repo", {"calc.py": CALC_RIGHT})


@pytest.fixture
def court(tmp_path: Path) -> Iterator[Jury]:
    with jury(tmp_path) as live:
        text = live.fleet.read_text(encoding="utf-8")
        for rung, (prompt, completion) in PRICES.items():
            model = f"model: {rung[-1]}-1, timeout_s: 20"
            priced = f"{model}, cost: {{input_per_mtok: {prompt}, output_per_mtok: {completion}}}"
            text = text.replace(model, priced)
        live.fleet.write_text(text, encoding="utf-8")
        yield live


def run(subject: Change, court: Jury, tmp_path: Path) -> Ran:
    contract = contract_file(tmp_path / "contract.yaml", subject.red, command=None)
    ledger = ["--ledger", str(tmp_path / "ledger.json")]
    out = tmp_path / "out"
    return convene(subject.path, subject.base, contract, court.fleet, out, *ledger, "--no-proofs")


def calls(court: Jury, family: str) -> int:
    return len(court.servers[family].chat_requests())


def test_costs_sum_each_rungs_reported_usage_at_its_declared_prices(
    subject: Change, court: Jury, tmp_path: Path
) -> None:
    court.all_pass()
    ran = run(subject, court, tmp_path)
    assert ran.exit_code == 0, ran.stderr + ran.stdout
    summary = ran.summary
    assert first_schema_error(summary, "summary") is None
    b, c = calls(court, "vendor-b"), calls(court, "vendor-c")
    assert b > 0 and c > 0 and b + c >= len(EIGHT)
    usd_b = round(b * (PROMPT * 3.0 + COMPLETION * 15.0) / 1e6, 9)
    usd_c = round(c * (PROMPT * 0.15 + COMPLETION * 0.6) / 1e6, 9)
    # C-6: rungs in fleet order, then the total; the builder's rung was never asked.
    assert list(summary["costs"]) == ["juror-a", "juror-b", "juror-c", "total_usd"]
    assert summary["costs"] == {
        "juror-a": {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "usd": 0.0},
        "juror-b": {
            "calls": b,
            "prompt_tokens": b * PROMPT,
            "completion_tokens": b * COMPLETION,
            "usd": usd_b,
        },
        "juror-c": {
            "calls": c,
            "prompt_tokens": c * PROMPT,
            "completion_tokens": c * COMPLETION,
            "usd": usd_c,
        },
        "total_usd": round(usd_b + usd_c, 9),
    }


def test_a_server_that_reports_no_usage_leaves_its_counts_and_price_null(
    subject: Change, court: Jury, tmp_path: Path
) -> None:
    for lens in EIGHT:
        court.answer(lens, reply(verdict(lens, "pass", checked=CITED)), families=["vendor-b"])
        silent = reply(verdict(lens, "pass", checked=CITED), extra={"usage": None})
        court.answer(lens, silent, families=["vendor-c"])
    ran = run(subject, court, tmp_path)
    assert ran.exit_code == 0, ran.stderr + ran.stdout
    costs = ran.summary["costs"]
    assert first_schema_error(ran.summary, "summary") is None
    c = calls(court, "vendor-c")
    assert c > 0
    assert costs["juror-c"] == {
        "calls": c,
        "prompt_tokens": None,
        "completion_tokens": None,
        "usd": None,
    }
    assert costs["juror-b"]["prompt_tokens"] == calls(court, "vendor-b") * PROMPT
    assert costs["juror-b"]["usd"] is not None
    # A total over an unknown price is unknown, never the sum of the known part.
    assert costs["total_usd"] is None


def rung(name: str, cost: dict[str, float] | None) -> Rung:
    return Rung(id=name, family="vendor", transport=Transport.OPENAI, cost=cost)


def test_a_count_left_out_once_or_a_missing_price_makes_the_price_null() -> None:
    book = CostBook()
    book.record("partial", Usage(prompt_tokens=100, completion_tokens=10))
    book.record("partial", Usage(prompt_tokens=100))  # no completion count this time
    book.record("unpriced", Usage(prompt_tokens=1_000_000, completion_tokens=1_000_000))
    book.record("half", Usage(prompt_tokens=1_000_000, completion_tokens=1_000_000))
    book.record("priced", Usage(prompt_tokens=2_000_000, completion_tokens=500_000))
    prices = {"input_per_mtok": 0.15, "output_per_mtok": 0.6}
    rungs = [
        rung("priced", prices),
        rung("partial", prices),
        rung("unpriced", None),
        rung("half", {"input_per_mtok": 1.0}),
    ]
    costs = costs_document(rungs, book)
    assert costs["priced"] == {
        "calls": 1,
        "prompt_tokens": 2_000_000,
        "completion_tokens": 500_000,
        "usd": 0.6,
    }
    assert costs["partial"] == {
        "calls": 2,
        "prompt_tokens": 200,
        "completion_tokens": None,
        "usd": None,
    }
    assert costs["unpriced"]["usd"] is None and costs["half"]["usd"] is None
    assert costs["total_usd"] is None
    assert costs_document(rungs[:1], book)["total_usd"] == 0.6
