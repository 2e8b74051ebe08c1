"""Amending instruments in the store (issue 14): linked to their base by parties and date, waiting
while the base is missing (applied to nothing), moved to it when it arrives; --in-force stored."""

from __future__ import annotations

from pathlib import Path

from taxtreaty.pipeline import load_store
from taxtreaty.rules import scenario_from
from taxtreaty.rules.engine import decide_compiled
from taxtreaty.store import Store
from taxtreaty.store.schema import InstrumentRow

FIX = Path(__file__).parent / "fixtures" / "time"
DIVIDENDS = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}


def _rate(db: str, treaty: str, date: str) -> str | None:
    compiled = load_store(db, lambda _m: None, treaty)[0]
    return decide_compiled(compiled, scenario_from({**DIVIDENDS, "date": date})).to_dict()["max_rate_pct"]


def _rows(store: Store) -> list[tuple[str, str, str]]:
    from sqlalchemy import select

    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(select(InstrumentRow.kind, InstrumentRow.treaty_id, InstrumentRow.status))]


def test_protocol_waits_for_its_base_then_applies(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    with Store.open(db, create=True) as store:
        report = store.ingest([str(FIX / "en_protocol.txt")], in_force="2011-06-01")
        assert report.ok and any("waiting for its base" in (w.reason or "") for w in report.warnings)
        waiting = report.added[0].treaty
        assert _rows(store) == [("amending_protocol", waiting, "waiting")]
        assert load_store(db, lambda _m: None) == []  # applied to nothing, decided as nothing
        store.ingest([str(FIX / "en_base.txt")])
        treaties = [t.id for t in store.list_treaties()]
        assert treaties == ["CL-GH-2001"]  # the holder of the waiting protocol is gone
        assert sorted(_rows(store)) == [("amending_protocol", "CL-GH-2001", "applied"), ("convention", "CL-GH-2001", "")]
    assert _rate(db, "CL-GH-2001", "2011-12-31") == "15"
    assert _rate(db, "CL-GH-2001", "2012-01-01") == "10"


def test_protocol_of_another_convention_is_not_applied(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    with Store.open(db, create=True) as store:
        store.ingest([str(FIX / "es_base.txt")])
        store.ingest([str(FIX / "en_protocol.txt")])
        assert ("amending_protocol", "ES-PE-2003", "applied") not in _rows(store)
    facts = {"income": "interest", "source": "PE", "residence": "ES", "beneficial_owner": True, "date": "2015-06-01"}
    compiled = load_store(db, lambda _m: None, "ES-PE-2003")[0]
    assert compiled.timeline is None
    assert decide_compiled(compiled, scenario_from(facts)).to_dict()["max_rate_pct"] == "15"


def test_explicit_treaty_links_a_protocol(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    with Store.open(db, create=True) as store:
        store.ingest([str(FIX / "es_base.txt")])
        store.ingest([str(FIX / "es_protocol.txt")], treaty="ES-PE-2003")
        assert ("amending_protocol", "ES-PE-2003", "applied") in _rows(store)
    facts = {"income": "interest", "source": "PE", "residence": "ES", "beneficial_owner": True}
    compiled = load_store(db, lambda _m: None, "ES-PE-2003")[0]
    assert decide_compiled(compiled, scenario_from({**facts, "date": "2011-06-01"})).max_rate_pct == 15
    assert decide_compiled(compiled, scenario_from({**facts, "date": "2012-06-01"})).max_rate_pct == 10
