"""Decisions on holding periods: days against months, and the ledger's answers for them."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import pytest
from helpers import ES, PT, RULES

from taxtreaty.rules.compile import compile_treaty
from taxtreaty.rules.ledger import LedgerEvaluator, TreatyBook

ECUADOR = "boe_espana_ecuador.txt"


PARTIES = ("NO", "EE")  # Norvalia (first State) and Estmark: fictional, named by the test


DAYS = "en_holding_days_nil.txt"


PARENT = {"income": "dividends", "beneficial_owner": True, "recipient": "company", "capital_pct": 30}


DIAS = "pt_periodo_dias.txt"


def test_pt_365_day_holding_is_met_by_24_months() -> None:
    decision = PT.decide("pt_dr_cl.txt", income="dividends", source="CL", residence="PT", beneficial_owner=True,
                         recipient="company", capital_pct=30, held_months=24)
    assert "min_holding_days" not in decision["missing_facts"]


def test_open_holding_period_in_days() -> None:
    answer = ES.ask(ECUADOR, income="dividends", source="EC", residence="ES", beneficial_owner=True, recipient="company",
                    capital_pct=Decimal("30"), held_months=24)
    assert (answer.status, answer.max_rate_pct) == ("determined", Decimal("5"))


@pytest.mark.parametrize(("months", "status", "rate", "eid"), [
    (24, "determined", "0", "art_10__para_2__point_a"),   # 24 x 28 = 672 >= 365
    (14, "determined", "0", "art_10__para_2__point_a"),   # 14 x 28 = 392 >= 365: certainly met
    (13, "indeterminate", None, None),                     # 364 to 402 days: ask
    (11, "indeterminate", None, None),                     # 308 to 371 days: ask
    (10, "determined", "15", "art_10__para_2__point_b"),  # fewer than 11 x 31 = 341 days: certainly not met
])
def test_days_against_months_is_met_not_met_or_asked(months: int, status: str, rate: str | None, eid: str | None) -> None:
    decision = RULES.decide(DAYS, held_months=months, **PARENT)
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == (status, rate, eid)
    if status == "indeterminate":
        assert "held_days" in decision["missing_facts"]  # the months leave it open: the days settle it
        settled = RULES.decide(DAYS, held_months=months, held_days=366, **PARENT)
        assert (settled["status"], settled["max_rate_pct"]) == ("determined", "0")
        short = RULES.decide(DAYS, held_months=months, held_days=364, **PARENT)
        assert (short["status"], short["max_rate_pct"]) == ("determined", "15")


def test_days_without_the_months_asks_for_them() -> None:
    decision = RULES.decide(DAYS, **PARENT)
    assert decision["status"] == "indeterminate" and "held_days" in decision["missing_facts"]


def test_ledger_gives_the_same_answers_for_days() -> None:
    doc, ps = RULES.parsed(DAYS)
    book = TreatyBook([compile_treaty(doc, ps, parties=PARTIES, in_force=None, name=DAYS)])
    months = [24, 14, 13, 12, 11, 10, 0]
    ledger = pd.DataFrame({
        "income": "dividends", "source": "NO", "residence": "EE", "date": "2025-05-01", "amount": "100",
        "beneficial_owner": "yes", "recipient": "company", "capital_pct": "30", "held_months": [str(m) for m in months],
    })
    result, bad = LedgerEvaluator(book).evaluate(ledger)
    assert not bad
    for row, m in enumerate(months):
        single = RULES.decide(DAYS, held_months=m, **PARENT)
        assert result.loc[row, "status"] == single["status"], m
        got = result.loc[row, "max_rate_pct"]
        assert (None if pd.isna(got) or got in ("", None) else str(got)) == single["max_rate_pct"], m


@pytest.mark.parametrize(("months", "status", "rate"), [(14, "determined", "5"), (12, "indeterminate", None),
                                                        (6, "determined", "15")])
def test_pt_days_period_with_the_day_of_payment(months: int, status: str, rate: str | None) -> None:
    (a,) = RULES.at(DIAS, "art_10__para_2__point_a", "withholding_cap")
    assert a.conditions["min_holding_days"] == 365 and "unread_condition" not in a.conditions
    decision = RULES.decide(DIAS, income="dividends", beneficial_owner=True, recipient="company", capital_pct=30,
                            held_months=months)
    assert (decision["status"], decision["max_rate_pct"]) == (status, rate)
