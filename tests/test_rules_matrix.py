"""The rate matrix (rules/matrix.py): decisions of the engine over canonical scenarios."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import seed_path

from taxtreaty.pipeline import load_store
from taxtreaty.rules import decide_compiled, load_treaty, scenario_from
from taxtreaty.rules.matrix import grouped, rate_matrix, to_csv_rows, treaty_cells
from taxtreaty.store import Store
from taxtreaty.store.synthetic import convention

pytest.importorskip("taxtreaty.provisions.extract", reason="the provisions extractor is not installed")
DAY = dt.date(2024, 5, 1)


def _cell(cells, source, income, variant):  # type: ignore[no-untyped-def]
    return next(c for c in cells if c.source == source and c.income == income and c.variant.startswith(variant))


def test_seed_000_cells_are_its_rates_in_both_directions() -> None:
    treaty = load_treaty(str(seed_path("000")), ["PT", "TL"])
    cells = treaty_cells(treaty, DAY)
    for source in ("PT", "TL"):
        portfolio = _cell(cells, source, "dividends", "portfolio")
        qualifying = _cell(cells, source, "dividends", "qualifying holding 25")
        assert (portfolio.max_rate_pct, portfolio.eid) == ("15", "art_10__para_2")
        assert (qualifying.max_rate_pct, qualifying.eid) == ("10", "art_10__para_3")
        assert qualifying.scenario["capital_pct"] == "25"
        # the fragment is cut off inside 11(3), which may list more exemptions: ask abstains, so does the cell
        interest = _cell(cells, source, "interest", "general")
        assert interest.status == "indeterminate" and "cut off" in interest.reasons[0] and interest.shown == "?"
        government = _cell(cells, source, "interest", "recipient: the government")
        assert (government.shown, government.eid) == ("0% (no source tax)", "art_11__para_3__point_b")


def test_every_cell_is_the_engines_decision_on_its_scenario() -> None:
    for seed, parties in (("000", ["PT", "TL"]), ("003", ["PT", "CV"]), ("004", ["PT", "MZ"])):
        treaty = load_treaty(str(seed_path(seed)), parties)
        for cell in treaty_cells(treaty, DAY):
            decision = decide_compiled(treaty, scenario_from(cell.scenario)).to_dict()
            assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == \
                (cell.status, cell.max_rate_pct, cell.eid), cell


def test_synthetic_conventions_give_their_generated_rates(tmp_path: Path) -> None:
    with Store.open(str(tmp_path / "s.sqlite")) as store:
        made = {}
        for seed in range(6):
            c = convention(seed, parties=("PT", "ES"))
            (tmp_path / f"s{seed}.txt").write_text(c.text, encoding="utf-8")
            made[seed] = c
        report = store.ingest([str(tmp_path)])
        by_path = {Path(item.path or "").stem: item.treaty for item in report.added}
        url = store.url
    cells = rate_matrix(load_store(url, lambda _m: None), as_of=DAY)
    for seed, c in made.items():
        mine = [cell for cell in cells if cell.treaty == by_path[f"s{seed}"]]
        assert Decimal(_cell(mine, "PT", "dividends", "portfolio").max_rate_pct) == c.rates["div_g"]
        qualifying = _cell(mine, "PT", "dividends", "qualifying holding")
        assert Decimal(qualifying.max_rate_pct) == c.rates["div_q"]
        assert Decimal(qualifying.scenario["capital_pct"]) == Decimal(str(c.rates["hold"]))
        assert Decimal(_cell(mine, "ES", "interest", "general").max_rate_pct) == c.rates["int"]
        assert Decimal(_cell(mine, "ES", "royalties", "general").max_rate_pct) == c.rates["roy"]
    assert rate_matrix(load_store(url, lambda _m: None), as_of=DAY, country="FR") == []


def test_exemptions_are_zero_and_rows_group_by_direction() -> None:
    treaty = load_treaty(str(seed_path("000")), ["PT", "TL"])
    cells = treaty_cells(treaty, DAY)
    pensions_like = [c for c in cells if c.source_taxation == "none"]
    assert all(c.shown == "0% (no source tax)" for c in pensions_like)
    rows = grouped(cells)
    assert [(r["source"], r["residence"]) for r in rows] == [("PT", "TL"), ("TL", "PT")]
    assert "dividends: portfolio" in rows[0]["cells"]
    header, lines = to_csv_rows(cells)
    assert header[:5] == ["treaty", "source", "residence", "income", "variant"] and len(lines) == len(cells)


@pytest.mark.parametrize(("missing", "shown"), [
    (["royalty_kind"], "? (depends on: What the royalty is paid for)"),
    (["capital_pct", "loan_kind"], "? (depends on: Share of the payer’s capital held (%); Kind of loan)"),
    ([], "?"),
])
def test_an_open_cell_names_what_it_depends_on_in_words(missing: list[str], shown: str) -> None:
    from taxtreaty.rules.matrix import Cell

    cell = Cell(treaty="t", source="PT", residence="CZ", income="royalties", variant="general", scenario={},
                status="indeterminate", source_taxation=None, max_rate_pct=None, eid=None, article=None,
                missing_facts=missing)
    assert cell.shown == shown
    assert cell.to_dict()["missing_facts"] == missing  # the keys stay for programs
