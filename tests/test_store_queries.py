"""Compare and rate table over the seeds and synthetic conventions, on both backends."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
import test_store_support as support
from conftest import SEEDS, seed_path

from taxtreaty.store import Store
from taxtreaty.store.rates import COLUMNS, ref_of, to_csv
from taxtreaty.store.synthetic import convention
from taxtreaty.text import InputError

pytest.importorskip("taxtreaty.provisions.extract", reason="the provisions extractor is not installed")

store = support.store
store_url = support.store_url


def _caps(side) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return sorted((f.value, f.conditions) for f in side.figures if f.kind == "withholding_cap")


def test_compare_000_and_003_on_dividends(store: Store) -> None:
    report = store.ingest([str(seed_path("000")), str(seed_path("003"))])
    a, b = (item.treaty or "" for item in report.added)
    result = store.compare(a, b, topic="dividends")
    [row] = result.topics
    assert row.topic == "dividends" and row.a.article == "10" and row.b.article == "10"
    assert (row.a.language, row.b.language) == ("en", "es")
    caps_a, caps_b = _caps(row.a), _caps(row.b)
    assert [v for v, _ in caps_a] == ["10%", "15%"] and [v for v, _ in caps_b] == ["10%", "15%"]
    # same figures, different conditions: 000 reduces the rate for a 25% company holding from 1997,
    # 003 for every beneficial owner from 1 January 1997
    qualifying_a = next(c for v, c in caps_a if v == "10%")
    assert "holding ≥ 25% of capital" in qualifying_a and "paid after 1996-12-31" in qualifying_a
    later_b = next(c for v, c in caps_b if v == "10%")
    assert "paid from 1997-01-01" in later_b and "holding" not in later_b
    assert any(d == "same rates (10% / 15%) on different conditions" for d in row.differences)
    assert row.diff is None  # English against Spanish: no word diff
    # every figure cites its paragraph with the exact words
    assert all(f.eid.startswith("art_10__para_") and f.quote for f in row.a.figures + row.b.figures)


def test_compare_aligns_by_topic_and_diffs_same_language_texts(store: Store, tmp_path: Path) -> None:
    # two English conventions numbered differently (one has an extra article) with other rates
    drawn = [(seed, convention(seed, language="en")) for seed in range(60)]
    s1, c1 = drawn[0]
    s2, c2 = next((seed, c) for seed, c in drawn
                  if c.numbers["Dividends"] != c1.numbers["Dividends"] and c.rates["div_g"] != c1.rates["div_g"])
    for seed, c in ((s1, c1), (s2, c2)):
        (tmp_path / f"c{seed}.txt").write_text(c.text, encoding="utf-8")
    report = store.ingest([str(tmp_path)])
    a, b = (item.treaty or "" for item in report.added)
    result = store.compare(a, b)
    dividends = next(t for t in result.topics if t.topic == "dividends")
    assert dividends.a.article == c1.numbers["Dividends"] and dividends.b.article == c2.numbers["Dividends"]
    assert dividends.a.article != dividends.b.article
    assert dividends.diff is not None
    assert f"[-{c1.rates['div_g']}-] {{+{c2.rates['div_g']}+}}" in dividends.diff
    assert any(d.startswith("rates: ") for d in dividends.differences)
    persons = next(t for t in result.topics if t.topic == "persons_covered")
    assert persons.same and persons.differences == []
    with pytest.raises(InputError, match="unknown topic"):
        store.compare(a, b, topic="dividend")
    with pytest.raises(InputError, match="two different treaties"):
        store.compare(a, a)


def test_rate_table_over_the_seeds(store: Store) -> None:
    store.ingest([str(SEEDS)])
    rows = {r.treaty[:3]: r for r in store.rates()}
    assert set(rows) == {"000", "001", "003", "004", "PT-"}
    r000 = rows["000"].cells
    assert (r000["dividends_general"].value, r000["dividends_qualifying"].value) == ("15%", "10%")
    assert r000["dividends_qualifying"].threshold_pct == "25"
    assert r000["dividends_general"].cites[0].ref == "Art. 10(2)"
    assert r000["dividends_qualifying"].cites[0].ref == "Art. 10(3)"
    assert r000["interest"].value == "10%" and r000["interest"].cites[0].eid == "art_11__para_2"
    assert r000["royalties"].value == "?" and "not in the stored text" in (r000["royalties"].reason or "")
    assert rows["001"].cells["dividends_general"].value == "10%"
    assert rows["004"].cells["dividends_general"].value == "15%"
    # 003: 15% until 1996, 10% from 1997: the current general rate is 10%, with its date condition
    general_003 = rows["003"].cells["dividends_general"]
    assert general_003.value == "10%" and "paid from 1997-01-01" in (general_003.conditions or "")
    # Timor-Leste: article 10(2) announces the rates, the list items are lost -> unknown, with the reason
    timor = rows["PT-"].cells
    assert timor["dividends_general"].value == "?" and timor["dividends_qualifying"].value == "?"
    assert "missing" in (timor["dividends_general"].reason or "")
    assert timor["dividends_general"].cites[0].eid == "art_10__para_2"
    assert timor["interest"].value == "10%" and timor["royalties"].value == "10%"
    # every known cell quotes its source words
    for row in rows.values():
        for column in COLUMNS:
            cell = row.cells[column]
            assert (cell.value == "?" and cell.reason) or (cell.cites and all(c.quote for c in cell.cites))


def test_rate_table_on_synthetic_conventions_and_country_filter(store: Store, tmp_path: Path) -> None:
    made = {}
    for seed in range(6):
        c = convention(seed, parties=("PT", "ES") if seed % 2 else None)
        (tmp_path / f"s{seed}.txt").write_text(c.text, encoding="utf-8")
        made[seed] = c
    report = store.ingest([str(tmp_path)])
    by_path = {Path(item.path or "").stem: item.treaty for item in report.added}
    table = {r.treaty: r for r in store.rates()}
    for seed, c in made.items():
        cells = table[by_path[f"s{seed}"]].cells
        assert cells["dividends_general"].rate_pct == str(c.rates["div_g"])
        assert Decimal(cells["dividends_qualifying"].rate_pct or "-1") == c.rates["div_q"]
        assert cells["dividends_qualifying"].threshold_pct == str(c.rates["hold"])
        assert cells["interest"].rate_pct == str(c.rates["int"])
        assert cells["royalties"].rate_pct == str(c.rates["roy"])
    pt_only = store.rates(country="pt")
    assert {r.treaty for r in pt_only} >= {by_path["s1"], by_path["s3"], by_path["s5"]}
    assert all("PT" in r.parties for r in pt_only)
    with pytest.raises(InputError, match="--country"):
        store.rates(country="Portugal")


def test_rate_table_csv_and_json_shapes(store: Store) -> None:
    store.ingest([str(seed_path("000")), str(seed_path("002"))])
    rows = store.rates()
    parsed = list(csv.DictReader(io.StringIO(to_csv(rows))))
    first = next(r for r in parsed if r["treaty"].startswith("000"))
    assert first["dividends_general"] == "15%" and first["dividends_qualifying_threshold_pct"] == "25"
    assert "Art. 10(2) [en] art_10__para_2" in first["dividends_general_cite"]
    timor = next(r for r in parsed if r["treaty"].startswith("PT-TL"))
    assert timor["dividends_general"] == "?" and "missing" in timor["dividends_general_note"]
    as_json = json.loads(json.dumps([r.model_dump(mode="json") for r in rows]))
    assert as_json[0]["cells"]["dividends_general"]["cites"][0]["language"] == "en"


@pytest.mark.parametrize(("eid", "ref"), [
    ("art_10__para_2__point_a", "Art. 10(2)(a)"),
    ("art_1__para_nn_1", "Art. 1(1)"),
    ("art_23", "Art. 23"),
])
def test_citation_refs(eid: str, ref: str) -> None:
    assert ref_of(eid) == ref
