"""Conditions as facts, provisos as caveats (issue 12), on the real texts (../shared, read from
there) and on fixtures of our own with the same wordings in Portuguese and Spanish.

Every conditional wording is one of three: a fact the user can state (a share as a range, the
recipient's own taxation, the kind of recipient), a proviso the answer holds subject to
(`caveats`; `main_purpose: true` withdraws the benefit), or no condition at all (a review
undertaking, the mode of application settled by mutual agreement). `unread_condition` is never a
missing fact."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from conftest import FIXTURES, seed_path
from helpers import nl_document

import taxtreaty
from taxtreaty.rules.facts import fact_schema

DAY = {"date": "2024-05-01"}
COMPANY = {"beneficial_owner": True, "recipient": "company", "capital_pct": 30, "held_months": 30}


nl = nl_document  # a Dutch-collection convention, parsed once (tests/helpers.py)


@cache
def fixture(language: str) -> taxtreaty.Document:
    return taxtreaty.parse_file(str(FIXTURES / "rules" / f"provisos_{language}.txt"))


def ask(doc: taxtreaty.Document, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(doc, {**DAY, **facts}).to_dict()


def undated(doc: taxtreaty.Document, **facts: Any) -> dict[str, Any]:
    """What the text decides once it applies: NL-ET is printed by the collection as not yet in
    force ("Treedt in werking op een nader te bepalen tijdstip"), so a dated payment is not covered."""
    return taxtreaty.decide(doc, facts).to_dict()


def caveat_kinds(decision: dict[str, Any]) -> set[tuple[str, str]]:
    return {(c["kind"], c["eid"]) for c in decision["caveats"]}


# -- (3) no condition: a review undertaking, the mode of application --------------------------------

def test_nl_gr_review_undertaking_blocks_no_dividend_answer() -> None:
    decision = ask(nl("GR"), income="dividends", source="GR", residence="NL", **COMPANY)
    assert decision["status"] == "determined" and decision["max_rate_pct"] is not None
    assert not decision["unread"] and not decision["caveats"]


def test_nl_zw_this_paragraph_shall_not_affect_is_no_condition() -> None:
    decision = ask(nl("ZW"), income="dividends", source="ZW", residence="NL", beneficial_owner=True, recipient="individual")
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", "20", "art_10__para_2__point_b")
    assert not decision["unread"]


# -- (2) provisos: the answer stays determined and lists them -------------------------------------

@pytest.mark.parametrize("code", ["EE", "LV"])
def test_anti_abuse_proviso_is_a_caveat_and_main_purpose_withdraws_the_benefit(code: str) -> None:
    decision = ask(nl(code), income="dividends", source=code, residence="NL", **COMPANY)
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", "5", "art_10__para_2__point_a")
    (caveat,) = decision["caveats"]
    assert (caveat["kind"], caveat["eid"]) == ("main_purpose", "art_10__para_8")
    assert "primarily with the intention of securing this reduction" in caveat["quote"]
    bites = ask(nl(code), income="dividends", source=code, residence="NL", main_purpose=True, **COMPANY)
    assert (bites["status"], bites["max_rate_pct"], bites["eid"]) == ("determined", "15", "art_10__para_2__point_b")


def test_nl_et_as_long_as_the_netherlands_law_is_a_caveat() -> None:
    # protocol X(1): 10(2)(b) "shall apply as long as, under the provisions of its income tax laws the
    # Netherlands applies a full tax exemption to participation dividends"
    decision = undated(nl("ET"), income="dividends", source="NL", residence="ET", beneficial_owner=True, recipient="individual")
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", "15", "art_10__para_2__point_b")
    (caveat,) = decision["caveats"]
    assert caveat["kind"] == "domestic_law" and "as long as" in caveat["quote"] and caveat["eid"].startswith("protocol_")
    # 10(2)(c) for a qualifying company, subject to X(2) ("as long as ... the income of pension funds are exempt")
    company = undated(nl("ET"), income="dividends", source="ET", residence="NL", **COMPANY)
    assert (company["max_rate_pct"], company["eid"]) == ("5", "art_10__para_2__point_c__point_i")  # the item's own eId
    assert {c["kind"] for c in company["caveats"]} == {"domestic_law"}


# -- (1) facts: the recipient's own taxation, a share as a range, the kind of recipient ------------

@pytest.mark.parametrize("code", ["KR"])
def test_recipient_suffering_company_tax_is_a_fact_the_user_states(code: str) -> None:
    asked = ask(nl(code), income="dividends", source=code, residence="NL", **COMPANY)
    assert asked["status"] == "indeterminate" and "recipient_subject_to_tax" in asked["missing_facts"]
    question = next(q for q in asked["questions"] if q["fact"] == "recipient_subject_to_tax")
    assert question["question"] == fact_schema()["recipient_subject_to_tax"].question
    exempt_at_home = ask(nl(code), income="dividends", source=code, residence="NL", recipient_subject_to_tax=False, **COMPANY)
    taxed_at_home = ask(nl(code), income="dividends", source=code, residence="NL", recipient_subject_to_tax=True, **COMPANY)
    assert exempt_at_home["status"] == taxed_at_home["status"] == "determined"
    assert exempt_at_home["eid"] == "art_10__para_2__point_a" and taxed_at_home["eid"] == "art_10__para_2__point_b"
    # each answer leads where the question said
    leads = {a["values"][0]: a["leads_to"]["eid"] for a in question["answers"]}
    assert leads == {"false": "art_10__para_2__point_a", "true": "art_10__para_2__point_b"}


def test_nl_ug_less_than_50_per_cent_is_a_range_of_the_share() -> None:
    small = ask(nl("UG"), income="dividends", source="UG", residence="NL", **{**COMPANY, "capital_pct": 20})
    large = ask(nl("UG"), income="dividends", source="UG", residence="NL", **{**COMPANY, "capital_pct": 60})
    assert "under_capital_pct" not in str(small["unread"]) and not any("less than 50" in u["quote"] for u in small["unread"])
    # (protocol IX exempts pension funds, which a company may be: both may ask that, never the same answer)
    def outcome(d: dict[str, Any]) -> object:
        return d["eid"] if d["status"] == "determined" else {c["eid"] for c in d["candidates"]}
    assert outcome(small) != outcome(large)


@pytest.mark.parametrize("code", ["ZM", "KR"])
def test_wholly_owned_by_that_government_is_a_kind_of_recipient(code: str) -> None:
    owned = ask(nl(code), income="interest", source=code, residence="NL", beneficial_owner=True, recipient="government_owned")
    assert (owned["status"], owned["source_taxation"], owned["eid"]) == ("determined", "none", "art_11__para_3")
    private = ask(nl(code), income="interest", source=code, residence="NL", beneficial_owner=True, recipient="bank",
                  loan_kind="other", loan_term_years=3)
    assert private["source_taxation"] != "none"


def test_nl_cn_central_bank_is_one_of_its_institutions() -> None:
    decision = ask(nl("CN"), income="dividends", source="CN", residence="NL", beneficial_owner=True, recipient="central_bank")
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", "none", "art_10__para_3")


def test_nl_et_interest_paid_to_or_guaranteed_by_the_government() -> None:
    paid_to = undated(nl("ET"), income="interest", source="ET", residence="NL", beneficial_owner=True, recipient="government")
    assert (paid_to["status"], paid_to["source_taxation"]) == ("determined", "none")
    guaranteed = undated(nl("ET"), income="interest", source="ET", residence="NL", beneficial_owner=True, recipient="company",
                     loan_kind="government_guaranteed")
    assert (guaranteed["status"], guaranteed["source_taxation"]) == ("determined", "none")


def test_nl_jp_royalties_not_beneficially_owned_are_not_residence_only() -> None:
    decision = ask(nl("JP"), income="royalties", source="JP", residence="NL", beneficial_owner=False)
    assert decision["source_taxation"] != "none" and decision["max_rate_pct"] != "0"


def test_pt_tl_other_income_from_the_other_state_may_be_taxed_there() -> None:
    doc = taxtreaty.parse_file(str(seed_path("002")))
    decision = taxtreaty.decide(doc, {**DAY, "income": "other_income", "source": "TL", "residence": "PT"},
                                parties=["PT", "TL"]).to_dict()
    assert decision["source_taxation"] != "none"


# -- the same wordings in Portuguese and Spanish ---------------------------------------------------

@pytest.mark.parametrize("language", ["pt", "es"])
def test_fixture_anti_abuse_and_law_provisos_are_caveats(language: str) -> None:
    doc = fixture(language)
    qualifying = ask(doc, income="dividends", source="NL", residence=language.upper(), **COMPANY)
    assert (qualifying["status"], qualifying["max_rate_pct"]) == ("determined", "5")
    assert caveat_kinds(qualifying) == {("main_purpose", "art_10__para_3")}
    bites = ask(doc, income="dividends", source="NL", residence=language.upper(), main_purpose=True, **COMPANY)
    assert (bites["max_rate_pct"], bites["eid"]) == ("15", "art_10__para_2__point_b")
    assert {c["kind"] for c in bites["caveats"]} == {"domestic_law"}
    assert not qualifying["unread"] and not bites["unread"]  # the mode of application is no condition


@pytest.mark.parametrize("language", ["pt", "es"])
def test_fixture_share_below_50_per_cent_is_a_range(language: str) -> None:
    doc = fixture(language)
    above = ask(doc, income="dividends", source="NL", residence=language.upper(), **{**COMPANY, "capital_pct": 60})
    assert (above["status"], above["max_rate_pct"]) == ("determined", "15")


@pytest.mark.parametrize("language", ["pt", "es"])
def test_fixture_wholly_owned_institution_and_kind_of_royalty(language: str) -> None:
    doc = fixture(language)
    owned = ask(doc, income="interest", source="NL", residence=language.upper(), beneficial_owner=True, recipient="government_owned")
    assert (owned["status"], owned["source_taxation"]) == ("determined", "none")
    bank = ask(doc, income="interest", source="NL", residence=language.upper(), beneficial_owner=True, recipient="bank")
    assert bank["source_taxation"] != "none"  # a bank is not, as such, wholly owned by the government
    kind = ask(doc, income="royalties", source="NL", residence=language.upper(), beneficial_owner=True)
    assert (kind["status"], kind["missing_facts"]) == ("indeterminate", ["royalty_kind"])
    assert {(c["max_rate_pct"], tuple(c.get("values", ()))) for c in kind["candidates"]} >= {("5", ("equipment",))}


@pytest.mark.parametrize("language", ["pt", "es"])
def test_fixture_other_income_arising_in_the_other_state(language: str) -> None:
    decision = ask(fixture(language), income="other_income", source="NL", residence=language.upper())
    assert decision["source_taxation"] != "none"


# -- never a missing fact that no one can give -----------------------------------------------------

@pytest.mark.parametrize("code", ["BB", "CN", "EE", "ET", "GR", "IN", "IS", "JP", "KR", "LV", "PH", "RO", "UG", "VN", "ZM", "ZW"])
def test_no_decision_names_unread_condition_as_a_missing_fact(code: str) -> None:
    keys = set(fact_schema().keys)
    for income in ("dividends", "interest", "royalties", "other_income", "students"):
        for facts in ({}, {"beneficial_owner": True}, COMPANY):
            for source, residence in (("NL", code), (code, "NL")):
                decision = ask(nl(code), income=income, source=source, residence=residence, **facts)
                assert set(decision["missing_facts"]) <= keys, decision["missing_facts"]
                if decision["status"] == "indeterminate":
                    assert decision["missing_facts"] or decision["unread"] or decision["reasons"]


PROPERTY_VEHICLE = (
    "CONVENTION BETWEEN THE UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND AND THE REPUBLIC OF COLOMBIA\n\n"
    "Article 10\nDividends\n1. Dividends paid by a company which is a resident of a Contracting State to a resident of "
    "the other Contracting State may be taxed in that other State.\n2. However, dividends paid by a company which is a "
    "resident of a Contracting State may also be taxed in that State according to the laws of that State, but if the "
    "beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not "
    "exceed:\n(a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds "
    "directly at least 20 per cent of the capital of the company paying the dividends;\n(b) 15 per cent of the gross "
    "amount of the dividends where those dividends are paid out of income or gains derived directly or indirectly "
    "from immovable property by an investment vehicle which distributes most of this income annually and whose "
    "income or gains from such immovable property is exempted from tax;\n(c) 10 per cent of the gross amount of the "
    "dividends in all other cases.\n"
)


def test_dividends_of_a_property_investment_vehicle_are_a_fact_that_chooses_the_rate() -> None:
    # UK-style 10(2)(b): the rate for dividends "paid out of income or gains derived ... from immovable property
    # by an investment vehicle ..." was an unread condition that made every dividend answer indeterminate with
    # nothing a user could give; it is the fact paid_by_property_vehicle (never defaulted: it chooses the rate)
    doc = taxtreaty.parse(PROPERTY_VEHICLE)
    base = {"income": "dividends", "source": "CO", "residence": "GB", "beneficial_owner": True, "recipient": "individual"}
    asked = taxtreaty.decide(doc, base, parties=["GB", "CO"]).to_dict()
    assert asked["status"] == "indeterminate" and asked["missing_facts"] == ["paid_by_property_vehicle"]
    for given, rate in ((False, "10"), (True, "15")):
        decision = taxtreaty.decide(doc, {**base, "paid_by_property_vehicle": given}, parties=["GB", "CO"]).to_dict()
        assert (decision["status"], decision["max_rate_pct"]) == ("determined", rate), given
