"""Provisions, the caps reader (`readers/caps.py`): withholding rates and the lists they come in, in
figures and in words, in every language."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from helpers import (
    DIVIDENDS_LIST,
    EN,
    ES,
    PT,
    RULES,
    candidate_rates,
    caps_under,
    extract_fixture,
    extract_text,
    one,
)

import taxtreaty
from taxtreaty.provisions import figures
from taxtreaty.provisions.model import Provision

UK = "uk_style_kenya.txt"


UN = "un_india_malaysia.txt"


AU = "au_style_gazette.txt"


MU = "un_mauritius_ocr.txt"




def dividend_caps(**wording: str) -> tuple[Provision, Provision]:
    ps = taxtreaty.provisions(taxtreaty.parse(DIVIDENDS_LIST.format(**wording)))
    a, b = [p for p in ps.provisions if p.kind == "withholding_cap"]
    return a, b


BOE = "boe_espana_chile.txt"


DOF = "dof_mexico_colombia.txt"


CHILE = "chile_espana_inline.txt"


ECUADOR = "boe_espana_ecuador.txt"


AO_CAP_WORDINGS = """ACORDO ENTRE A REPÚBLICA DE ANGOLA E A REPÚBLICA PORTUGUESA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 11.º
Juros

1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Todavia, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o beneficiário efetivo dos juros for residente do outro Estado Contratante, o imposto assim estabelecido não pode ultrapassar 10 % do montante bruto dos juros.

Artigo 12.º
Royalties

1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.

2 — Todavia, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas o imposto assim estabelecido não será superior a 8 % do montante bruto das royalties.
"""


DAYS = "en_holding_days_nil.txt"


def test_uk_rates_of_the_dividend_list():
    (a,) = EN.at(UK, "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("5")
    assert a.conditions["min_capital_pct"] == Decimal("10") and a.conditions["capital_basis"] == "voting_power"
    assert a.conditions["recipient"] == "company" and a.conditions["beneficial_owner"] is True
    (c,) = EN.at(UK, "art_10__para_2__point_c", "withholding_cap")
    assert c.rate_pct == Decimal("10") and c.conditions == {"beneficial_owner": True, "otherwise": True}


def test_un_rates_in_words_per_centum():
    (div,) = EN.at(UN, "art_10__para_2", "withholding_cap")
    (intr,) = EN.at(UN, "art_11__para_2", "withholding_cap")
    assert (div.rate_pct, intr.rate_pct) == (Decimal("5"), Decimal("10"))


def test_un_royalties_and_fees_for_technical_services_share_one_cap():
    # bug: "royalties and fees for technical services ... shall not exceed ten per centum of the gross
    # amount of the royalties or fees for technical services" was limited to technical services, so a
    # plain royalty was left indeterminate
    (cap,) = EN.at(UN, "art_12__para_2", "withholding_cap")
    assert cap.rate_pct == Decimal("10") and "income_subtype" not in cap.conditions
    decision = EN.decide(UN, income="royalties", source="IN", residence="MY", beneficial_owner=True, recipient="company")
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "10")


def test_au_one_line_headings_and_rates():
    d = EN.doc(AU)
    assert sorted(d.parties) == ["AU", "MY"]
    assert [(a.eid, a.topic) for a in d.version("en").articles] == [
        ("art_10", "dividends"), ("art_11", "interest"), ("art_12", "royalties"), ("art_18", "pensions"),
        ("art_23", "elimination_double_taxation")]
    assert [p.rate_pct for p in EN.provisions(AU).provisions if p.kind == "withholding_cap"] == [
        Decimal("15"), Decimal("15"), Decimal("15"), Decimal("20")]


@pytest.mark.skip(reason="superseded: 'nil' is now read as 0% (test_mu_nil_is_a_zero_rate and the nil tests of tests/provisions/test_caps.py)")
def test_mu_a_nil_rate_item_is_never_read_as_no_limit():
    (a,) = EN.at(MU, "art_10__para_2__point_a", "withholding_cap")
    assert a.status == "unknown" and a.rate_pct is None
    assert a.conditions["min_capital_pct"] == Decimal("25") and a.conditions["min_holding_days"] == 365
    parent = EN.decide(MU, income="dividends", source="MU", residence="SG", beneficial_owner=True,
                       recipient="company", capital_pct=30, held_months=24)
    assert parent["status"] == "indeterminate"
    individual = EN.decide(MU, income="dividends", source="MU", residence="SG", beneficial_owner=True, recipient="individual")
    assert (individual["status"], individual["max_rate_pct"]) == ("determined", "10")


@pytest.mark.parametrize(("low", "high", "rates"), [
    ("7 1/2 per cent", "12½ per cent", (Decimal("7.5"), Decimal("12.5"))),
    ("7½%", "12 1/2 percent", (Decimal("7.5"), Decimal("12.5"))),
    ("2.5 per cent", "ten per centum", (Decimal("2.5"), Decimal("10"))),
])
def test_rates_with_fractions(low, high, rates):
    # bug: "7 1/2 per cent" was read as 2 per cent (the digit before "per cent"), "12½" not at all
    a, b = dividend_caps(low=low, high=high, holding="at least 25 per cent")
    assert (a.rate_pct, b.rate_pct) == rates


def test_mu_nil_is_a_zero_rate():
    (a,) = EN.at(MU, "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("0")


def test_br_dividend_list_rates_and_conditions() -> None:
    a = PT.one("br_dou_ar.txt", "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("10")
    assert a.conditions["recipient"] == "company" and a.conditions["min_capital_pct"] == Decimal("25")
    assert a.conditions["holding_direct"] is True and "unread_condition" not in a.conditions
    b = PT.one("br_dou_ar.txt", "art_10__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("15") and b.conditions.get("otherwise") is True


def test_br_em_todos_os_demais_casos_is_the_residual_rate() -> None:
    # before: "em todos os demais casos" was not a residual phrase, so the 10% item carried its own
    # words as an unread condition
    b = PT.one("br_dou_ar.txt", "art_12__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("10") and b.conditions.get("otherwise") is True


def test_br_old_royalty_trademark_item_and_residual_without_beneficial_owner() -> None:
    a = PT.one("br_dou_antigo.txt", "art_12__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("25") and a.conditions["income_subtype"] == "trademarks"
    b = PT.one("br_dou_antigo.txt", "art_12__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("15") and b.conditions == {"otherwise": True}


def test_ao_caps_worded_ultrapassar_and_superior_a_are_read() -> None:
    # before: "não pode ultrapassar" / "não será superior a" were no cap words (and, before the
    # charged-tax safety net, the source State's taxation was "unlimited")
    doc = taxtreaty.parse(AO_CAP_WORDINGS)
    caps = {p.cite.eid: p for p in taxtreaty.provisions(doc).provisions if p.kind == "withholding_cap"}
    assert caps["art_11__para_2"].status == "determined" and caps["art_11__para_2"].rate_pct == Decimal("10")
    assert caps["art_11__para_2"].conditions == {"beneficial_owner": True}
    assert caps["art_12__para_2"].status == "determined" and caps["art_12__para_2"].rate_pct == Decimal("8")
    assert caps["art_12__para_2"].conditions == {}


def test_boe_dividend_caps_in_por_100() -> None:
    _, ps = ES.parsed(BOE)
    low = ES.one(ps, "art_10__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("0")
    assert {k: v for k, v in low.conditions.items() if k != "unread_condition"} == {
        "beneficial_owner": True, "recipient": "partnership_excluded_company", "min_capital_pct": Decimal("20"),
        "capital_basis": "capital", "holding_direct": True,
    }
    high = ES.one(ps, "art_10__para_2__point_b", "withholding_cap")
    assert (high.rate_pct, high.conditions) == (Decimal("10"), {"beneficial_owner": True, "otherwise": True})
    assert ES.one(ps, "art_10__para_4", "allocation").values == {"refer_to": ["7"]}


def test_boe_royalty_list() -> None:
    _, ps = ES.parsed(BOE)
    equipment = ES.one(ps, "art_12__para_2__point_a", "withholding_cap")
    assert (equipment.rate_pct, equipment.conditions["income_subtype"]) == (Decimal("5"), "equipment_rental")
    rest = ES.one(ps, "art_12__para_2__point_b", "withholding_cap")
    assert (rest.rate_pct, rest.conditions.get("otherwise")) == (Decimal("10"), True)
    # the kind of royalty chooses the rate: asked, never assumed "general" (issue 12)
    general = ES.ask(BOE, income="royalties", source="CL", residence="ES", beneficial_owner=True)
    assert (general.status, general.missing_facts) == ("indeterminate", ["royalty_kind"])
    assert candidate_rates(general) == {"art_12__para_2__point_a": Decimal("5"), "art_12__para_2__point_b": Decimal("10")}
    for kind, rate in (("equipment", "5"), ("copyright", "10"), ("other", "10")):
        given = ES.ask(BOE, income="royalties", source="CL", residence="ES", beneficial_owner=True, royalty_kind=kind)
        assert (given.status, given.max_rate_pct) == ("determined", Decimal(rate)), kind


def test_dof_decimal_comma_rate_and_central_bank_by_name() -> None:
    _, ps = ES.parsed(DOF)
    low = ES.one(ps, "art_11__para_2__point_a", "withholding_cap")
    assert low.rate_pct == Decimal("4.9")
    # "siempre que el préstamo tenga un plazo de al menos tres años": the loan's term, a fact (issue 12)
    assert low.conditions["loan_term_min_years"] == Decimal("3") and "unread_condition" not in low.conditions
    # "el Banco de la República" is Colombia's central bank (was read as a commercial bank, unread)
    public = ES.one(ps, "art_11__para_3__point_a", "exemption")
    assert public.conditions == {
        "recipient_kinds": ["government", "local_authority", "central_bank"], "beneficial_owner": True}
    guaranteed = ES.one(ps, "art_11__para_3__point_b", "exemption")
    assert "Banco Nacional de Comercio Exterior" in guaranteed.conditions["unread_condition"]
    company = ES.ask(DOF, income="interest", source="CO", residence="MX", beneficial_owner=True, recipient="company")
    assert company.status == "indeterminate"
    assert candidate_rates(company)["art_11__para_2__point_b"] == Decimal("15")
    assert "art_11__para_3__point_a" not in candidate_rates(company)


def test_chile_decimal_comma_rate() -> None:
    _, ps = ES.parsed(CHILE)
    assert ES.one(ps, "art_11__para_2", "withholding_cap").rate_pct == Decimal("12.5")


def test_ecuador_words_with_bracketed_figure_are_one_rate() -> None:
    """Bug: "y del diez (10) por ciento del importe bruto de los dividendos en los demás casos" was not
    read as a rate: the 5% took the "demás casos" and an individual got "no cap applies" (determined)."""
    _, ps = ES.parsed(ECUADOR)
    caps = {p.rate_pct: p.conditions for p in ES.at(ps, "art_10__para_2", "withholding_cap")}
    assert caps == {
        Decimal("5"): {"beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"),
                       "capital_basis": "capital", "holding_direct": True, "min_holding_days": 365},
        Decimal("10"): {"beneficial_owner": True, "otherwise": True},
    }
    answer = ES.ask(ECUADOR, income="dividends", source="EC", residence="ES", beneficial_owner=True, recipient="individual")
    assert (answer.status, answer.source_taxation, answer.max_rate_pct) == ("determined", "limited", Decimal("10"))


@pytest.mark.parametrize(("words", "rate"), [
    ("del diez (10) por ciento", Decimal("10")), ("del diez por ciento (10 %)", Decimal("10")),
    ("del 5 por 100", Decimal("5")), ("del diez (15) por ciento", None),
])
def test_rate_words_and_bracketed_figures(words: str, rate: Decimal | None) -> None:
    text = ("Artículo 12\nCánones\n\n2. Sin embargo, el impuesto así exigido no podrá exceder "
            f"{words} del importe bruto de los cánones.\n")
    (cap,) = taxtreaty.provisions(taxtreaty.parse(text)).find(kind="withholding_cap")
    assert cap.rate_pct == rate
    assert cap.status == ("determined" if rate is not None else "unknown")


def test_nil_item_is_a_zero_rate_with_its_own_condition_kept() -> None:
    (a,) = RULES.at(DAYS, "art_11__para_2__point_a", "withholding_cap")
    assert (a.status, a.rate_pct) == ("determined", Decimal("0"))
    assert "loan approved by the Ministry of Finance" in a.conditions["unread_condition"]
    (b,) = RULES.at(DAYS, "art_11__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("10") and b.conditions.get("otherwise") is True


def test_zero_written_in_words_before_per_cent_is_still_a_rate() -> None:
    (a,) = RULES.at(DAYS, "art_12__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("0") and a.conditions["income_subtype"] == "copyright"


@pytest.mark.parametrize(("text", "rates"), [
    ("nil if the beneficial owner is a company", [Decimal(0)]),
    ("the tax so charged shall be nil", [Decimal(0)]),
    ("an anvil of 5 per cent", [Decimal(5)]),  # a word ending in 'nil' is no rate
    ("nilpotent", []),
])
def test_zero_rate_words_are_whole_words(text: str, rates: list[Decimal]) -> None:
    from taxtreaty.provisions.vocabulary import require_phrases
    assert [f.value for f in figures.find_rates(text, require_phrases("en"))] == rates


def test_english_rates_in_words_voting_power_and_lenders():
    ps, _ = extract_fixture("en_words.txt")
    a, b = caps_under(ps, "art_10__para_2")
    assert (a.rate_pct, a.cite.eid) == (Decimal("5"), "art_10__para_2__point_a")
    assert a.conditions == {
        "beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("20"),
        "capital_basis": "voting_power", "holding_direct": True,
    }
    assert a.cite.quote.startswith("five per cent of the gross amount")
    assert (b.rate_pct, b.conditions) == (Decimal("15"), {"beneficial_owner": True, "otherwise": True})

    bank, other = caps_under(ps, "art_11__para_2")
    assert bank.rate_pct == Decimal("4") and bank.conditions["recipient_kinds"] == ["bank", "insurance_company"]
    assert other.rate_pct == Decimal("12") and other.conditions.get("otherwise") is True
    exempt = [p for p in ps.provisions if p.kind == "exemption" and p.cite.eid == "art_11__para_3"]
    assert [p.conditions for p in exempt] == [{"recipient_kinds": ["government", "local_authority", "central_bank"]}]

    equipment, copyright_ = caps_under(ps, "art_12__para_2")
    assert (equipment.rate_pct, equipment.conditions["income_subtype"]) == (Decimal("2"), "equipment_rental")
    assert (copyright_.rate_pct, copyright_.conditions["income_subtype"]) == (Decimal("8"), "copyright")

    (fees,) = caps_under(ps, "art_13")
    assert fees.rate_pct == Decimal("7.5") and fees.conditions["income_subtype"] == "technical_services"

    pe = [p for p in ps.provisions if p.cite.eid == "art_10__para_3" and p.kind == "allocation"]
    assert [(p.conditions, p.values) for p in pe] == [({"pe_connected": True}, {"refer_to": ["7"]})]
    (limit,) = [p for p in ps.provisions if p.kind == "time_limit"]
    assert limit.values["years"] == 2
    dates = [p.values for p in ps.provisions if p.kind == "date"]
    assert {"event": "entry_into_force", "days_after": 30, "after": "last_notification"} in dates
    assert {"event": "effect", "from": "january_1_of_year_after_entry_into_force"} in dates


def test_portuguese_words_and_a_clause_across_page_furniture():
    ps, text = extract_fixture("pt_furniture.txt")
    a, b = caps_under(ps, "art_10__para_2")
    assert a.rate_pct == Decimal("5")
    assert a.conditions["min_capital_pct"] == Decimal("10") and a.conditions["min_holding_months"] == 12
    assert b.rate_pct == Decimal("15") and b.conditions == {"beneficial_owner": True, "otherwise": True}
    # the clause straddles a hyphenated page break with a date line and a page number in between:
    # the quote is the original slice, furniture included, so it can be found in the file
    assert "mon-" in b.cite.quote and "12 DE MARÇO DE 2003" in b.cite.quote and "tante bruto" in b.cite.quote
    assert text.count(b.cite.quote) == 1
    (interest,) = caps_under(ps, "art_11")
    assert interest.rate_pct == Decimal("10") and "dez por cento" in interest.cite.quote
    (exempt,) = [p for p in ps.provisions if p.kind == "exemption"]
    assert exempt.conditions == {"payer_kinds": ["government", "local_authority"]}
    relief = {p.state: p.values for p in ps.provisions if p.kind == "relief_method"}
    assert relief == {"PT": {"method": "credit"}, "EE": {"method": "exemption"}}


def test_spanish_words_voting_rights_and_date_windows():
    ps, _ = extract_fixture("es_dates.txt")
    a, b = caps_under(ps, "art_10__para_2")
    assert (a.rate_pct, a.conditions["capital_basis"], a.conditions["min_capital_pct"]) == (Decimal("5"), "voting_power", Decimal("20"))
    assert (b.rate_pct, b.conditions.get("otherwise")) == (Decimal("10"), True)
    until, from_ = caps_under(ps, "art_11__para_2")[0], caps_under(ps, "art_11__para_2")[1]
    assert (until.rate_pct, until.conditions["paid_until"]) == (Decimal("15"), dt.date(2004, 12, 31))
    assert (from_.rate_pct, from_.conditions["paid_from"]) == (Decimal("5"), dt.date(2005, 1, 1))
    assert "paid_from" not in until.conditions and "paid_until" not in from_.conditions
    pensions = [p for p in ps.provisions if p.topic == "pensions" and p.kind == "allocation"]
    assert [p.allocation for p in pensions] == ["residence_only"]


def test_cap_words_decide_the_income_when_a_heading_was_lost():
    text = (
        "Article 1O\nDividends\n\n1. Dividends paid to a resident of the other State may be taxed in that other State.\n\n"
        "2. However, such interest may also be taxed in the State in which it arises, but the tax so charged "
        "shall not exceed 12 per cent of the gross amount of the interest.\n"
    )
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    (cap,) = [p for p in ps.provisions if p.kind == "withholding_cap"]
    assert cap.topic == "interest" and cap.rate_pct == Decimal("12")
    assert any(w["code"] == "topic_from_words" for w in ps.warnings)


def test_rates_listed_inline_after_a_semicolon():
    text = (
        "Article 10\nDividends\n\n1. Dividends may be taxed in the other State.\n\n"
        "2. However, such dividends may also be taxed in the State of which the company paying the dividends is a "
        "resident, but if the beneficial owner of the dividends is a resident of the other State, the tax so charged "
        "shall not exceed 5 per cent of the gross amount of the dividends if the beneficial owner is a company which "
        "holds directly at least 10 per cent of the capital of the company paying the dividends; 15 per cent of the "
        "gross amount of the dividends in all other cases.\n"
    )
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    low, high = sorted(caps_under(ps, "art_10__para_2"), key=lambda p: p.rate_pct or 0)
    assert (low.rate_pct, low.conditions["min_capital_pct"]) == (Decimal("5"), Decimal("10"))
    assert high.rate_pct == Decimal("15") and high.conditions == {"beneficial_owner": True, "otherwise": True}
    assert high.cite.quote == "15 per cent of the gross amount of the dividends in all other cases."


def test_a_rate_printed_without_per_cent_before_its_base():
    # NL-KE 12(2) "shall not exceed 10 of the gross amount of the royalties": read as a limit with no
    # rate (unknown), and every royalty abstained
    ps = taxtreaty.provisions(taxtreaty.parse(
        "Convention between the Kingdom of the Netherlands and the Republic of Kenya\n\nArticle 12\nRoyalties\n\n"
        "1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be "
        "taxed in that other State.\n\n2. However, such royalties may also be taxed in the Contracting State in which "
        "they arise, but if the beneficial owner is a resident of the other Contracting State, the tax so charged "
        "shall not exceed 10 of the gross amount of the royalties.\n"))
    (cap,) = [p for p in ps.provisions if p.kind == "withholding_cap"]
    assert (cap.status, cap.rate_pct, cap.cite.eid) == ("determined", Decimal("10"), "art_12__para_2")



def test_interest_paid_to_a_bank_or_a_financial_institution_is_a_recipient_test():
    # NL-GR 11(2) (tests/cases/real): "provided that where such interest is paid to a bank or a financial
    # institution the tax so charged shall not exceed 8 per cent": who receives it, not a kind of loan (it was
    # read as income_subtype bank_loan, so a bank got 10%, then was asked whether the loan was a bank loan)
    text = (
        "CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE HELLENIC REPUBLIC\n\nArticle 11\nInterest\n\n"
        "1. Interest arising in one of the States and paid to a resident of the other State may be taxed in that other "
        "State.\n\n2. However, such interest may also be taxed in the State in which it arises and according to the "
        "laws of that State, but if the recipient is the beneficial owner of the interest the tax so charged shall not "
        "exceed 10 per cent of the gross amount of the interest, provided that where such interest is paid to a bank "
        "or a financial institution the tax so charged shall not exceed 8 per cent of the gross amount of the "
        "interest.\n")
    ps = extract_text(text)
    (bank,) = [p for p in ps.provisions if p.kind == "withholding_cap" and p.rate_pct == Decimal("8")]
    assert bank.conditions == {"beneficial_owner": True, "recipient_kinds": ["bank", "financial_institution"]}
    doc = taxtreaty.parse(text)
    for recipient, rate in (("bank", "8"), ("financial_institution", "8"), ("individual", "10")):
        decision = taxtreaty.decide(doc, {"income": "interest", "source": "GR", "residence": "NL",
                                          "beneficial_owner": True, "recipient": recipient}).to_dict()
        assert (decision["status"], decision["max_rate_pct"]) == ("determined", rate), recipient


def test_juros_pagos_a_um_banco_ou_instituicao_financeira_is_a_recipient_test():
    ps = extract_text(
        "CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DE CABO VERDE\n\nArtigo 11.º\nJuros\n\n1. Os juros "
        "provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados "
        "nesse outro Estado.\n\n2. No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que "
        "provêm, mas o imposto assim estabelecido não excederá:\n\na) 8 por cento do montante bruto dos juros pagos a "
        "um banco ou instituição financeira;\n\nb) 10 por cento do montante bruto dos juros, nos restantes casos.\n")
    (bank,) = [p for p in ps.provisions if p.kind == "withholding_cap" and p.rate_pct == Decimal("8")]
    assert bank.conditions.get("recipient_kinds") == ["bank", "financial_institution"]
    assert "income_subtype" not in bank.conditions


_ALTERNATIVES_BY_REFERENCE = """ARTICULO 12
Regalías

1. Las regalías procedentes de un Estado Contratante pueden someterse a imposición en el otro Estado.

2. Dichas regalías también pueden someterse a imposición en el Estado del que procedan, pero el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de las regalías en los casos de pagos a los que se refiere:
i) el subapartado 3 (a); y
ii) los subapartados 3 (b) y (d);
b) 15 por ciento del importe bruto de las regalías en todos los demás casos, incluyendo todos los derechos de autor distintos de los incluidos en el subapartado 2 (a).

3. El término "regalías" significa los pagos por: a) el uso de un derecho de autor; b) el uso de un equipo; c) informaciones; d) asistencia.
"""


def test_an_alternative_read_as_nothing_is_an_unread_condition() -> None:
    # AR-AU 12(2)(a): the items of the 10% name the royalties by citing 12(3)'s sub-items; 3 (a) names a
    # copyright (provisions/item_refs.py), 3 (b) "un equipo" and 3 (d) "asistencia" no kind the engine reads,
    # so (ii) stays unread words: the 10% holds for those royalties only, never for "any royalty"
    from helpers import extract_text

    ps = extract_text(_ALTERNATIVES_BY_REFERENCE)
    tens = {p.cite.eid: p for p in ps.provisions if p.kind == "withholding_cap" and p.rate_pct == 10}
    assert tens["art_12__para_2__point_a__point_i"].conditions.get("income_subtype") == "copyright"
    assert "los subapartados 3 (b) y (d)" in tens["art_12__para_2__point_a__point_ii"].conditions["unread_condition"]


def test_a_rate_of_an_adjusted_amount_defined_as_a_share_of_the_gross():
    # NL-CN 12(2)(b): "10 per cent of the adjusted amount ... “the adjusted amount” means 60 per cent of the gross
    # amount of the royalties" is at most 6% of the gross; it was answered 10%
    text = ("AGREEMENT BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE PEOPLE'S REPUBLIC OF CHINA\n\nArticle 12\nRoyalties\n\n"
            "2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the "
            "beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall "
            "not exceed:\n\na) in the case of royalties for the use of any patent, 10 per cent of the gross amount of the "
            "royalties; and\n\nb) in the case of royalties for the use of industrial, commercial, or scientific equipment, "
            "10 per cent of the adjusted amount of the royalties. For the purpose of this sub-paragraph “the adjusted "
            "amount” means 60 per cent of the gross amount of the royalties.\n")
    cap = one(extract_text(text), "art_12__para_2__point_b", "withholding_cap")
    assert (cap.rate_pct, cap.values) == (Decimal("10"), {"base": "adjusted_amount", "base_pct": "60"})
    decision = taxtreaty.decide(taxtreaty.parse(text), {"income": "royalties", "source": "CN", "residence": "NL",
                                                        "beneficial_owner": True, "royalty_kind": "equipment"},
                                parties=["NL", "CN"])
    assert (decision.status, decision.max_rate_pct, decision.eid) == ("determined", Decimal("6"), "art_12__para_2__point_b")


SHIPPING_LESSER_OF = (
    "CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF THE PHILIPPINES\n\n"
    "Article 8\nShipping and Air Transport\n\n"
    "1. Profits derived by an enterprise of one of the States from the operation of ships in international traffic "
    "may be taxed in that State.\n\n"
    "2. However, such profits may also be taxed in the other State. The tax so charged shall not exceed the lesser "
    "of\n\na) the rate of *1½* per cent applied on the gross revenue derived from that other State, or\n\n"
    "b) the lowest rate of Philippine tax applied on such profits derived by an enterprise of a third State.\n")


def test_a_shipping_cap_behind_markdown_emphasis_and_its_unread_other_limb():
    # NL-PH 8(2): "*1½*" was no rate, and the shipping article's caps were not read: "unlimited" (wrong); the
    # lesser of 1½% and a rate of Philippine law is no one maximum: open, citing the limb it cannot read
    ps = extract_text(SHIPPING_LESSER_OF)
    assert one(ps, "art_8__para_2__point_a", "withholding_cap").rate_pct == Decimal("1.5")
    decision = taxtreaty.decide(taxtreaty.parse(SHIPPING_LESSER_OF), {"income": "shipping", "source": "PH",
                                                                     "residence": "NL"}, parties=["NL", "PH"])
    assert decision.status == "indeterminate" and decision.source_taxation != "unlimited"
    # the other limb is a candidate of no known rate, and its rate is the fact asked
    assert {str(c.max_rate_pct) for c in decision.candidates if c.source_taxation == "limited"} == {"1.5", "None"}
    assert decision.missing_facts == ["lesser_of_rate_pct"]
    for given, rate, eid in (("1", "1", "art_8__para_2__point_b"), ("2", "1.5", "art_8__para_2__point_a")):
        answered = taxtreaty.decide(taxtreaty.parse(SHIPPING_LESSER_OF), {"income": "shipping", "source": "PH", "residence": "NL",
                                                                         "lesser_of_rate_pct": given}, parties=["NL", "PH"])
        assert (answered.status, str(answered.max_rate_pct), answered.eid) == ("determined", rate, eid)
DIVIDENDS_OF_A_VERB = (
    "Convention between the Federal Republic of Germany and the Republic of Austria\n\nArticle 10\nDividends\n\n"
    "1. Dividends paid by a company that is a resident of a Contracting State to a resident of the other Contracting "
    "State may be taxed in that other State.\n\n"
    "2. Such dividends, however, may also be taxed in the Contracting State of which the company paying the dividends "
    "is a resident; if, however, the beneficial owner of the dividends is a resident of the other Contracting State, "
    "the tax {verb}:\n"
    "(a) 5 percent of the gross amount of the dividends if the beneficial owner is a company that holds directly at "
    "least 10 percent of the capital of the company paying the dividends;\n"
    "(b) 15 percent of the gross amount of the dividends in all other cases.\n"
)


@pytest.mark.parametrize(("verb", "rates"), [
    ("must not exceed", [Decimal(5), Decimal(15)]),
    ("cannot exceed", [Decimal(5), Decimal(15)]),
    # a verb no cap phrase reads: the rates of the gross amount are a limit not read, never no limit
    ("must remain under", [None]),
])
def test_a_limit_in_other_verbs_is_read_or_unknown_never_no_limit(verb: str, rates: list[Decimal | None]) -> None:
    text = DIVIDENDS_OF_A_VERB.format(verb=verb)
    ps = extract_text(text)
    caps = [p for p in ps.provisions if p.kind == "withholding_cap"]
    assert [p.rate_pct for p in caps] == rates
    individual = taxtreaty.decide(taxtreaty.parse(text), {"income": "dividends", "source": "DE", "residence": "AT",
                                                          "beneficial_owner": True, "recipient": "individual"}).to_dict()
    assert individual["status"] == ("determined" if rates[0] is not None else "indeterminate")
    assert individual["max_rate_pct"] == ("15" if rates[0] is not None else None)


_OLD_STYLE = """AGREEMENT BETWEEN THE GOVERNMENT OF IRELAND AND THE GOVERNMENT OF CANADA FOR THE AVOIDANCE OF DOUBLE TAXATION

Have agreed as follows:

Article I.

1. The taxes which are subject to this Agreement are the income taxes of Canada and the income tax of Ireland.

Article II.

1. In this Agreement the term "tax" means Irish tax or Canadian tax, as the context requires.

Article III.

1. An Irish enterprise shall not be subject to Canadian tax in respect of its industrial or commercial profits unless it is engaged in trade or business in Canada through a permanent establishment situated therein.

Article VI.

1. Dividends paid by a company resident in Canada to a resident of Ireland shall be exempt from any Canadian tax in excess of 15 per cent of the gross amount of such dividends.

Article VII.

1. Interest derived from sources within Ireland by a resident of Canada shall be exempt from Irish tax.

Done in duplicate at Ottawa this 28th day of October, 1954.
"""


def test_an_exemption_from_tax_in_excess_of_a_rate_is_a_cap() -> None:
    """Old conventions say a cap as an exemption: "shall be exempt from any Canadian tax in excess of 15 per cent of
    the gross amount" (the Irish Finance Act 1955's schedule); it was read as an exemption (0 %), confidently."""
    ps = taxtreaty.provisions(taxtreaty.parse(_OLD_STYLE))
    dividends = [(p.kind, p.rate_pct) for p in ps.provisions if p.topic == "dividends" and p.kind in ("withholding_cap", "exemption")]
    assert dividends == [("withholding_cap", Decimal("15"))]
    # a plain exemption stays one
    assert [p.kind for p in ps.provisions if p.cite.eid == "art_7__para_1"] == ["exemption"]
