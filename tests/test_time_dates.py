"""Dates of effect (issue 14): relative dates resolved from the entry into force, the signature as a
lower bound, the collection's status lines, and dates that are not this convention's."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from taxtreaty.rules import load_treaty, scenario_from
from taxtreaty.rules.dates import GivenDates
from taxtreaty.rules.engine import decide_compiled

SHARED = Path(__file__).parent.parent.parent / "shared"
PT_TL = SHARED / "seeds" / "002_3f31dfc178380bd2.txt"
NL_SE = SHARED / "corpus" / "nl" / "NL-SE_convention_EN.txt"
NL_CN = SHARED / "corpus" / "nl" / "NL-CN_convention_EN.txt"
FIX = Path(__file__).parent / "fixtures" / "time"


def _decide(path: Path, dates: GivenDates | None = None, **facts):  # type: ignore[no-untyped-def]
    return decide_compiled(load_treaty(str(path), None, None, dates), scenario_from(facts)).to_dict()


INTEREST_TL = {"income": "interest", "source": "TL", "residence": "PT", "beneficial_owner": True}


def test_no_convention_applies_before_its_signature() -> None:
    d = _decide(PT_TL, **INTEREST_TL, date="2005-06-01")
    assert d["status"] == "not_covered"
    assert "2011-09-27" in d["reasons"][0] and "2005" not in d["reasons"][0]
    assert d["version"]["dates"]["not_before"] == "2012-01-01"  # 30 days after notification, then 1 January after


def test_relative_dates_left_open_are_an_assumption_that_says_so() -> None:
    d = _decide(PT_TL, **INTEREST_TL, date="2013-06-01")
    assert d["status"] == "determined"
    why = next(a["why"] for a in d["assumptions"] if a["fact"] == "in_force")
    assert "entry into force" in why and "--in-force" in why


@pytest.mark.parametrize(("date", "status"), [("2013-06-01", "not_covered"), ("2014-01-01", "determined")])
def test_entry_into_force_given_applies_article_31(date: str, status: str) -> None:
    d = _decide(PT_TL, GivenDates(entry_into_force=dt.date(2013, 5, 1)), **INTEREST_TL, date=date)
    assert d["status"] == status
    assert d["version"]["dates"]["entry_into_force"] == "2013-05-01"
    assert d["version"]["dates"]["entry_into_force_from"] == "given by the user"


def test_the_old_conventions_signature_is_not_an_entry_into_force() -> None:
    facts = {"income": "interest", "source": "SE", "residence": "NL", "beneficial_owner": True}
    early = _decide(NL_SE, **facts, date="1975-06-01")
    assert early["status"] == "not_covered"
    assert "1991-06-18" in early["reasons"][0]
    assert "entry_into_force" not in early["version"]["dates"]
    assert _decide(NL_SE, **facts, date="1995-06-01")["status"] == "determined"


def test_the_collections_status_line_gives_the_entry_into_force() -> None:
    facts = {"income": "interest", "source": "CN", "residence": "NL", "beneficial_owner": True, "recipient": "company"}
    before = _decide(NL_CN, **facts, date="2014-12-31")
    after = _decide(NL_CN, **facts, date="2015-01-01")
    assert before["status"] == "not_covered" and after["status"] != "not_covered"
    assert after["version"]["dates"]["entry_into_force"] == "2014-08-31"
    assert after["version"]["dates"]["entry_into_force_from"] == "the collection's status line"
    assert after["version"]["dates"]["effect_from"] == "2015-01-01"


def test_a_printed_date_of_effect_decides_without_an_entry_into_force() -> None:
    facts = {"income": "interest", "source": "PE", "residence": "ES", "beneficial_owner": True}
    assert _decide(FIX / "es_base.txt", **facts, date="2003-12-31")["status"] == "not_covered"
    assert _decide(FIX / "es_base.txt", **facts, date="2004-01-01")["max_rate_pct"] == "15"


def test_the_fixture_convention_with_its_entry_into_force() -> None:
    facts = {"income": "dividends", "source": "GH", "residence": "CL", "beneficial_owner": True, "recipient": "individual"}
    given = GivenDates(entry_into_force=dt.date(2002, 2, 10))
    assert _decide(FIX / "en_base.txt", given, **facts, date="2002-12-31")["status"] == "not_covered"
    assert _decide(FIX / "en_base.txt", given, **facts, date="2003-01-01")["max_rate_pct"] == "15"


def test_a_ledger_folder_attaches_the_protocol_and_decides_each_row_on_its_version(tmp_path: Path) -> None:
    import pandas as pd

    from taxtreaty.pipeline import load_book
    from taxtreaty.rules.ledger import LedgerEvaluator
    from taxtreaty.rules.ledger_io import run_local

    for name in ("en_base.txt", "en_protocol.txt"):
        (tmp_path / name).write_bytes((FIX / name).read_bytes())
    (tmp_path / "treaties.yaml").write_text("en_protocol.txt: {entry_into_force: 2011-06-01}\n", encoding="utf-8")
    rows = pd.DataFrame({"income": ["dividends"] * 3, "source": ["GH"] * 3, "residence": ["CL"] * 3,
                         "beneficial_owner": ["yes"] * 3, "recipient": ["individual"] * 3,
                         "date": ["2011-12-31", "2012-01-01", "1999-01-01"]})
    ledger = tmp_path / "payments.csv"
    rows.to_csv(ledger, index=False)
    out = tmp_path / "out.csv"
    run_local(str(ledger), LedgerEvaluator(load_book(str(tmp_path), lambda _m: None)), str(out))
    result = pd.read_csv(out, dtype=str)
    assert list(result["status"]) == ["determined", "determined", "not_covered"]
    assert list(result["max_rate_pct"].fillna("")) == ["15", "10", ""]
