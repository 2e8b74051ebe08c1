"""Compare and rate table over the seeds and synthetic conventions, on both backends."""

from __future__ import annotations

from pathlib import Path

import pytest
import test_store_support as support
from conftest import seed_path

from taxtreaty.store import Store
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
    assert "the recipient holds at least 25% of the paying company's capital" in qualifying_a
    assert "the income is paid after 1996-12-31" in qualifying_a
    later_b = next(c for v, c in caps_b if v == "10%")
    assert "the income is paid on or after 1997-01-01" in later_b and "holds" not in later_b
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


