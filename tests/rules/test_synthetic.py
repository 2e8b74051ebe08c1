"""The engine on a synthetic Portuguese fragment unlike the seeds: a list of rates in points
a)/b) with a residual "nos restantes casos" cap, a 5%/10%/12-month participation test, a named
central-bank exemption, a royalties article cut off inside its list of rates, and dates of
effect given by the user. Provisions come from the real extractor."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import FIXTURES

import taxtreaty
from taxtreaty.rules import decide, load_treaty

SYNTHETIC = FIXTURES / "rules" / "synthetic_pt.txt"
COMPANY = {"income": "dividends", "source": "BR", "residence": "PT", "beneficial_owner": True,
           "recipient": "company", "capital_pct": 10, "held_months": 12, "date": "2002-01-01"}


@pytest.fixture(scope="module")
def treaty():
    return load_treaty(taxtreaty.parse_file(str(SYNTHETIC)), ["PT", "BR"], (dt.date(2001, 1, 1), None))


@pytest.mark.parametrize(
    ("change", "status", "rate", "eid"),
    [
        ({}, "determined", "5", "art_10__para_2__point_a"),
        ({"capital_pct": "9.5"}, "determined", "15", "art_10__para_2__point_b"),
        ({"held_months": 11}, "determined", "15", "art_10__para_2__point_b"),
        ({"recipient": "individual"}, "determined", "15", "art_10__para_2__point_b"),
        ({"capital_pct": 100, "held_months": 240}, "determined", "5", "art_10__para_2__point_a"),
    ],
)
def test_participation_test_and_residual_cap(treaty, change, status, rate, eid):
    decision = decide(treaty, {**COMPANY, **change})
    assert (decision.status, decision.max_rate_pct, decision.eid) == (status, Decimal(rate), eid)


def test_unknown_holding_names_the_fact_and_both_candidates(treaty):
    decision = decide(treaty, {**COMPANY, "held_months": None})
    assert decision.status == "indeterminate"
    assert decision.missing_facts == ["held_months"]
    assert sorted(c.max_rate_pct for c in decision.candidates) == [Decimal(5), Decimal(15)]


def test_unknown_share_is_never_defaulted(treaty):
    decision = decide(treaty, {**COMPANY, "capital_pct": None})
    assert decision.status == "indeterminate"
    assert decision.missing_facts == ["capital_pct"]


def test_before_the_dates_of_effect_is_not_covered(treaty):
    decision = decide(treaty, {**COMPANY, "date": "2000-12-31"})
    assert decision.status == "not_covered"
    assert "2001-01-01" in decision.reasons[0]
    assert decide(treaty, {**COMPANY, "date": "2001-01-01"}).status == "determined"


def test_unknown_payment_date_with_known_dates_of_effect_names_the_date(treaty):
    decision = decide(treaty, {**COMPANY, "date": None})
    assert decision.status == "indeterminate"
    assert decision.missing_facts == ["date"]


def test_central_bank_exemption(treaty):
    decision = decide(treaty, {"income": "interest", "source": "BR", "residence": "PT", "recipient": "central_bank",
                               "date": "2002-01-01", "amount": "500"})
    assert decision.status == "determined"
    assert decision.source_taxation == "none"
    assert decision.withholding_minor == 0
    assert decision.eid == "art_11__para_3"


def test_interest_cap_and_withholding_rounded_down(treaty):
    decision = decide(treaty, {"income": "interest", "source": "BR", "residence": "PT", "recipient": "company",
                               "beneficial_owner": True, "date": "2002-01-01", "amount": "0.99"})
    assert decision.max_rate_pct == Decimal(12)
    assert decision.withholding_minor == 11  # 12% of 99 cents is 11.88 cents: never above the cap


def test_interest_with_unknown_recipient_could_be_exempt(treaty):
    decision = decide(treaty, {"income": "interest", "source": "BR", "residence": "PT", "beneficial_owner": True,
                               "date": "2002-01-01"})
    assert decision.status == "indeterminate"
    assert decision.missing_facts == ["recipient"]
    assert {c.source_taxation for c in decision.candidates} == {"limited", "none"}


def test_royalties_cut_inside_the_list_of_rates_is_indeterminate(treaty):
    decision = decide(treaty, {"income": "royalties", "source": "BR", "residence": "PT", "beneficial_owner": True,
                               "date": "2002-01-01"})
    assert decision.status == "indeterminate"
    assert decision.max_rate_pct is None
    assert any("cut off" in r and "source text incomplete" in r for r in decision.reasons)


def test_pe_connected_dividends_go_to_article_7(treaty):
    decision = decide(treaty, {**COMPANY, "pe_connected": True})
    assert (decision.status, decision.article_applied, decision.source_taxation) == ("determined", "7", "unlimited")
