"""Scenario validation: exactly the keys of issue 4, clear one-line errors, exact money."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from taxtreaty.rules import SCENARIO_KEYS, ScenarioError, scenario_from
from taxtreaty.rules.relief import attributable_tax, exemption_with_progression, ordinary_credit
from taxtreaty.text import InputError

BASE = {"income": "dividends", "source": "tl", "residence": "PT"}


def test_keys_are_those_of_the_fact_schema():
    from importlib import resources

    import yaml

    raw = yaml.safe_load(resources.files("taxtreaty.data").joinpath("rules", "facts.yaml").read_text("utf-8"))
    assert tuple(raw["facts"]) == SCENARIO_KEYS
    # the keys of issue 4 are all still there, in their order
    original = ("income", "source", "residence", "date", "amount", "beneficial_owner", "recipient", "capital_pct",
                "held_months", "pe_connected", "payer", "days_present", "employer_resident", "nationality")
    assert [k for k in SCENARIO_KEYS if k in original] == list(original)


def test_every_fact_has_a_question_and_a_label():
    from taxtreaty.rules.facts import fact_schema

    for fact in fact_schema().facts.values():
        assert fact.question.endswith("?"), fact.key
        assert fact.label and fact.help, fact.key
        if fact.type == "bool":
            assert fact.describe(True) != fact.describe(False), fact.key
    assert fact_schema().describe("recipient", "bank") == "the recipient is a bank"


def test_every_provision_kind_allocation_and_topic_has_words():
    from typing import get_args

    from taxtreaty.provisions.model import Allocation, ProvisionKind
    from taxtreaty.rules import labels
    from taxtreaty.vocab import topic_keys

    assert all(labels.has("provision_kinds", kind) for kind in get_args(ProvisionKind))
    assert all(labels.has("allocations", allocation) for allocation in get_args(Allocation))
    assert labels.topic("capital_gains") == "Capital gains"
    assert all(labels.has("topics", key) for key in topic_keys())


@pytest.mark.parametrize(("key", "value", "message"), [
    ("date", "20240501", "YYYY-MM-DD"),
    ("date", "2024-W18", "YYYY-MM-DD"),
    ("amount", "NaN", "between"),
    ("amount", "1e400", "between"),
    ("amount", "9" * 100_000, "at most"),
    ("capital_pct", "1" * 50, "at most"),
    ("invested_currency", "dollars", "ISO 4217"),
    ("recipient_name", "x" * 500, "at most"),
    ("royalty_kind", "music", "must be one of"),
])
def test_bad_values_are_one_line_errors(key, value, message):
    with pytest.raises(ScenarioError, match=message) as caught:
        scenario_from({**BASE, key: value})
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 600


def test_new_facts_are_typed():
    s = scenario_from({**BASE, "voting_pct": "25", "held_days": 400, "invested_amount": "10000000",
                       "invested_currency": "usd", "recipient": "pension fund", "loan_kind": "bank-loan",
                       "loan_term_years": 8, "royalty_kind": "equipment", "payer_listed": "no",
                       "recipient_subject_to_tax": True, "main_purpose": False})
    assert (s.voting_pct, s.held_days, s.invested_currency) == (Decimal(25), 400, "USD")
    assert (s.recipient, s.loan_kind, s.royalty_kind, s.payer_listed) == ("pension_fund", "bank_loan", "equipment", False)
    with pytest.raises(ScenarioError, match="invested_currency"):
        scenario_from({**BASE, "invested_amount": "5"})


def test_reads_and_normalises_values():
    s = scenario_from({**BASE, "date": "2024-05-01", "amount": "1000.5", "beneficial_owner": "yes",
                       "recipient": "Company", "capital_pct": "30,5", "held_months": "26", "pe_connected": False,
                       "payer": "local-authority", "nationality": "pt"})
    assert (s.source, s.residence, s.date) == ("TL", "PT", dt.date(2024, 5, 1))
    assert s.amount_minor == 100050
    assert (s.beneficial_owner, s.recipient, s.capital_pct, s.held_months) == (True, "company", Decimal("30.5"), 26)
    assert (s.pe_connected, s.payer, s.nationality) == (False, "local_authority", "PT")
    assert s.topic == "dividends"
    assert scenario_from(s) is s
    assert s.to_dict()["amount"] == "1000.50"


@pytest.mark.parametrize("unknown", [None, "", "unknown", "?"])
def test_unknown_spellings_are_none(unknown):
    assert scenario_from({**BASE, "beneficial_owner": unknown, "held_months": unknown}).held_months is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"income": "dividend"}, "income must be one of"),
        ({"income": None}, "income is required"),
        ({"source": "Portugal"}, "source must be an ISO 3166"),
        ({"residence": None}, "residence is required"),
        ({"source": "PT"}, "the same State"),
        ({"date": "01/05/2024"}, "date must be a date"),
        ({"date": "2024-02-30"}, "date must be a date"),
        ({"amount": "-1"}, "amount must be between 0 and"),
        ({"amount": "10.001"}, "more than two decimals"),
        ({"amount": "ten"}, "amount must be a number"),
        ({"beneficial_owner": "maybe"}, "beneficial_owner must be yes, no or unknown"),
        ({"recipient": "trust"}, "recipient must be one of"),
        ({"capital_pct": "101"}, "capital_pct must be between 0 and 100"),
        ({"held_months": "2.5"}, "held_months must be a whole number"),
        ({"held_months": True}, "held_months must be a number"),
        ({"days_present": "-3"}, "days_present must be between"),
        ({"payer": "bank"}, "payer must be one of"),
        ({"employer_resident": "Spain"}, "employer_resident must be an ISO"),
    ],
)
def test_bad_scenarios_give_one_line_errors(change, message):
    with pytest.raises(ScenarioError) as info:
        scenario_from({**BASE, **change})
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, InputError)


def test_not_a_mapping():
    with pytest.raises(ScenarioError, match="expected a JSON object"):
        scenario_from(["dividends"])  # type: ignore[arg-type]


@pytest.mark.parametrize(("foreign", "residence", "credit", "capped"), [(10000, 28000, 10000, False), (10000, 6000, 6000, True),
                                                                       (0, 500, 0, False)])
def test_ordinary_credit(foreign, residence, credit, capped):
    result = ordinary_credit(foreign, residence, {"eid": "art_24__para_1"})
    assert (result.credit_minor, result.capped) == (credit, capped)
    assert result.to_dict()["eid"] == "art_24__para_1"


def test_attributable_tax_is_proportional_and_rounded_down():
    assert attributable_tax(90000, 1000, 3000) == 30000
    assert attributable_tax(100, 1, 3) == 33
    with pytest.raises(InputError):
        attributable_tax(100, 5, 3)


def test_exemption_with_progression_uses_the_rate_of_the_whole_income():
    def schedule(income: int) -> int:  # 10% up to 10,000.00, 30% above
        return income // 10 if income <= 1_000_000 else 100_000 + (income - 1_000_000) * 3 // 10

    result = exemption_with_progression(1_000_000, 1_000_000, schedule)
    assert result["without_progression"] == 100_000
    assert result["tax"] == 200_000  # 20% average on the whole, applied to the taxable half
    assert result["rate_pct"] == "20.0000"


def test_money_must_be_whole_minor_units():
    with pytest.raises(InputError):
        ordinary_credit(10.5, 3)  # type: ignore[arg-type]
