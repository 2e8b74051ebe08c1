"""Red team, Portuguese: conventions of our own wording in the styles of the Brazilian Diário
Oficial da União, the Portuguese Diário da República and the PALOP gazettes (Boletim da
República), with gazette furniture, OCR damage (lost accents, "1O" for "10"), a page break with a
running header inside a sentence, hyphenation and a footnote. We wrote them, so we know what each
says; every assertion below is what the text says (or "unknown" where the text cannot be read).

Each bug found gets a test that failed before its fix (named after what the text says).
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet

HERE = Path(__file__).resolve().parent / "fixtures" / "redteam" / "pt"


@cache
def parsed(name: str) -> tuple[taxtreaty.Document, ProvisionSet]:
    doc = taxtreaty.parse_file(str(HERE / name))
    return doc, taxtreaty.provisions(doc)


def provisions(name: str) -> list[Provision]:
    return parsed(name)[1].provisions


def at(name: str, eid: str, kind: str) -> list[Provision]:
    return [p for p in provisions(name) if p.cite.eid == eid and p.kind == kind]


def one(name: str, eid: str, kind: str) -> Provision:
    found = at(name, eid, kind)
    assert len(found) == 1, [p.id for p in found]
    return found[0]


def decide(name: str, **scenario: Any) -> dict[str, Any]:
    doc, provision_set = parsed(name)
    facts = {"date": "2025-05-01", **scenario}
    return taxtreaty.decide((doc, provision_set), facts, in_force=(None, None)).to_dict()


FIXTURES = sorted(p.name for p in HERE.glob("*.txt"))


# -- every fixture: parties, and quotes that are the original's words -------------------------------

@pytest.mark.parametrize("name", FIXTURES)
def test_every_provision_quotes_the_original_at_its_span(name: str) -> None:
    doc, provision_set = parsed(name)
    assert provision_set.provisions
    for p in provision_set.provisions:
        start, end = p.cite.span
        assert p.cite.quote == doc.original[start:end], p.id


@pytest.mark.parametrize(("name", "parties"), [
    ("br_dou_ar.txt", ["BR", "AR"]), ("pt_dr_cl.txt", ["PT", "CL"]), ("mz_br_ocr.txt", ["MZ", "ES"]),
    ("ao_tl_mojibake.txt", ["TL", "AO"]), ("br_dou_antigo.txt", ["BR", "NL"]),
    ("pt_dr_protocolo.txt", ["PT", "CV"]),
])
def test_parties_are_read_from_the_title(name: str, parties: list[str]) -> None:
    assert parsed(name)[0].parties == parties


# -- Brazil (DOU): "ARTIGO 10", "não poderá exceder", "em todos os demais casos" --------------------

def test_br_dividend_list_rates_and_conditions() -> None:
    a = one("br_dou_ar.txt", "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("10")
    assert a.conditions["recipient"] == "company" and a.conditions["min_capital_pct"] == Decimal("25")
    assert a.conditions["holding_direct"] is True and "unread_condition" not in a.conditions
    b = one("br_dou_ar.txt", "art_10__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("15") and b.conditions.get("otherwise") is True


def test_br_em_todos_os_demais_casos_is_the_residual_rate() -> None:
    # before: "em todos os demais casos" was not a residual phrase, so the 10% item carried its own
    # words as an unread condition
    b = one("br_dou_ar.txt", "art_12__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("10") and b.conditions.get("otherwise") is True


def test_br_trademark_royalty_rate_is_not_applied_to_every_royalty() -> None:
    # "a) 15 por cento ... de marcas de indústria ou comércio; b) 10 por cento ... em todos os demais
    # casos": the trademark condition is not a condition key; the 15% item must not rule out the
    # residual 10% for every royalty (it answered "determined, 15%")
    a = one("br_dou_ar.txt", "art_12__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("15")
    assert a.conditions["unread_condition"]  # the trademark words (or the protocol's, which widens 12(2))
    decision = decide("br_dou_ar.txt", income="royalties", source="BR", residence="AR", beneficial_owner=True)
    assert decision["status"] == "indeterminate"
    assert decision["max_rate_pct"] is None
    candidates = {(c["eid"], c["max_rate_pct"]) for c in decision["candidates"]}
    assert ("art_12__para_2__point_a", "15") in candidates
    assert ("art_12__para_2__point_b", "10") in candidates


def test_br_dividends_company_holding_decides_10_per_cent() -> None:
    decision = decide("br_dou_ar.txt", income="dividends", source="BR", residence="AR", beneficial_owner=True,
                      recipient="company", capital_pct=30, held_months=24)
    assert decision["status"] == "determined"
    assert decision["max_rate_pct"] == "10" and decision["eid"] == "art_10__para_2__point_a"


def test_br_dividends_portfolio_holding_decides_15_per_cent() -> None:
    decision = decide("br_dou_ar.txt", income="dividends", source="BR", residence="AR", beneficial_owner=True,
                      recipient="company", capital_pct=5, held_months=24)
    assert decision["status"] == "determined"
    assert decision["max_rate_pct"] == "15" and decision["eid"] == "art_10__para_2__point_b"


def test_br_relief_credit_with_ordinary_limit_for_brazil() -> None:
    relief = one("br_dou_ar.txt", "art_22__para_1", "relief_method")
    assert relief.values == {"method": "credit", "limit": "ordinary"}
    assert relief.state == "BR"


def test_br_effect_from_january_after_entry_into_force_and_termination_by_30_june() -> None:
    effect = one("br_dou_ar.txt", "art_28__para_2__point_a", "date")
    assert effect.values == {"event": "effect", "from": "january_1_of_year_after_entry_into_force"}
    notice = one("br_dou_ar.txt", "art_29__para_nn_1", "date")
    assert notice.values["event"] == "termination_notice" and notice.values["by"] == "06-30"


# -- Portugal (DR): "Artigo 10.º", "n.º 2", "alínea a)", "%", "não excederá" -------------------------

def test_pt_dividend_rates_with_365_day_holding() -> None:
    a = one("pt_dr_cl.txt", "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("5")
    assert a.conditions["min_capital_pct"] == Decimal("20") and a.conditions["min_holding_days"] == 365
    b = one("pt_dr_cl.txt", "art_10__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("10") and b.conditions.get("otherwise") is True


def test_pt_alinea_switched_off_for_real_estate_companies_is_an_unread_condition() -> None:
    # 10.º n.º 4: "O disposto na alínea a) do n.º 2 não é aplicável quando a sociedade que paga os
    # dividendos for uma sociedade de investimento imobiliário" was not read at all: 5% applied to a
    # company holding in a real estate investment company
    a = one("pt_dr_cl.txt", "art_10__para_2__point_a", "withholding_cap")
    assert "sociedade de investimento imobiliário" in a.conditions["unread_condition"]
    b = one("pt_dr_cl.txt", "art_10__para_2__point_b", "withholding_cap")
    assert "unread_condition" not in b.conditions
    decision = decide("pt_dr_cl.txt", income="dividends", source="CL", residence="PT", beneficial_owner=True,
                      recipient="company", capital_pct=30, held_months=24)
    assert decision["status"] == "indeterminate" and decision["max_rate_pct"] is None
    assert ("art_10__para_2__point_b", "10") in {(c["eid"], c["max_rate_pct"]) for c in decision["candidates"]}


def test_pt_interest_exemptions_by_payer_and_recipient() -> None:
    a = one("pt_dr_cl.txt", "art_11__para_3__point_a", "exemption")
    assert a.conditions == {"payer_kinds": ["government", "local_authority"]}
    b = one("pt_dr_cl.txt", "art_11__para_3__point_b", "exemption")
    assert b.conditions == {"recipient_kinds": ["government", "local_authority", "central_bank"]}
    c = one("pt_dr_cl.txt", "art_11__para_3__point_c", "exemption")
    assert "prazo superior a três anos" in c.conditions["unread_condition"]
    decision = decide("pt_dr_cl.txt", income="interest", source="CL", residence="PT", beneficial_owner=True,
                      recipient="central_bank")
    assert decision["status"] == "determined" and decision["max_rate_pct"] == "0"


def test_pt_interest_of_bancos_e_companhias_de_seguros_is_a_bank_recipient() -> None:
    a = one("pt_dr_cl.txt", "art_11__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("5")
    assert a.conditions["recipient_kinds"] == ["bank"] and "unread_condition" not in a.conditions


def test_pt_government_service_exception_with_contudo_inside_the_verb() -> None:
    # "b) Os salários ... só podem, contudo, ser tributados no outro Estado Contratante se os serviços
    # forem prestados nesse Estado ...": read as "may be taxed" and the answer was "determined: only the
    # paying State may tax", whatever the services or the nationality
    b = one("pt_dr_cl.txt", "art_19__para_1__point_b", "allocation")
    assert b.allocation == "residence_only"
    a = one("pt_dr_cl.txt", "art_19__para_1__point_a", "allocation")
    assert a.allocation == "paying_state_only"
    decision = decide("pt_dr_cl.txt", income="government_service", source="CL", residence="PT", nationality="PT",
                      payer="government")
    assert decision["status"] == "indeterminate"
    assert {c["eid"] for c in decision["candidates"]} >= {"art_19__para_1__point_a", "art_19__para_1__point_b"}


def test_pt_relief_credit_for_each_state() -> None:
    assert one("pt_dr_cl.txt", "art_23__para_1__point_b", "relief_method").values == {"method": "credit", "limit": "ordinary"}
    # "poderão deduzir o imposto pago em Portugal do imposto chileno": Chile's credit was not read
    assert one("pt_dr_cl.txt", "art_23__para_2", "relief_method").values["method"] == "credit"


# -- Mozambique (BR), OCR damage, page break inside a sentence -------------------------------------

def test_mz_damaged_interest_rate_is_unknown_not_guessed() -> None:
    cap = one("mz_br_ocr.txt", "art_11__para_2", "withholding_cap")
    assert cap.status == "unknown" and cap.rate_pct is None and "1O por cento" in (cap.reason or "")


def test_mz_royalty_cap_broken_by_a_page_header_is_unknown_not_unlimited() -> None:
    # "o imposto assim estabelecido nao [Pág. 214  I SÉRIE — NÚMERO 38] excedera 10 por cento": the
    # cap was lost and the answer was "determined: source taxation unlimited"
    cap = one("mz_br_ocr.txt", "art_12__para_2", "withholding_cap")
    assert cap.status == "unknown" and cap.rate_pct is None
    assert "o imposto assim estabelecido" in cap.cite.quote
    decision = decide("mz_br_ocr.txt", income="royalties", source="MZ", residence="ES", beneficial_owner=True)
    assert decision["status"] != "determined"
    assert decision["source_taxation"] != "unlimited"


def test_mz_dividend_investment_condition_is_unread_and_rates_in_words_of_the_list() -> None:
    a = one("mz_br_ocr.txt", "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("0") and "1 000 000 de dólares" in a.conditions["unread_condition"]
    b = one("mz_br_ocr.txt", "art_10__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("8") and b.conditions["min_capital_pct"] == Decimal("25")
    c = one("mz_br_ocr.txt", "art_10__para_2__point_c", "withholding_cap")
    assert c.rate_pct == Decimal("12") and c.conditions.get("otherwise") is True


def test_mz_spanish_relief_by_deduction_is_read() -> None:
    # "deduzindo do imposto espanhol o imposto pago em Moçambique"
    assert one("mz_br_ocr.txt", "art_22__para_2", "relief_method").values["method"] == "credit"


def test_mz_entry_into_force_thirty_days_after_last_notification() -> None:
    dates = at("mz_br_ocr.txt", "art_27__para_nn_1", "date")
    values = [p.values for p in dates]
    assert {"event": "entry_into_force", "days_after": 30, "after": "last_notification"} in values
    assert {"event": "effect", "from": "january_1_of_year_after_entry_into_force"} in values


CV_ROYALTIES = """ACORDO ENTRE A REPÚBLICA DE CABO VERDE E A REPÚBLICA PORTUGUESA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 12.º
Royalties
1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.
2 — Todavia, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas se o beneficiário efetivo das royalties for residente do outro Estado Contratante, o imposto assim estabelecido não excederá:
a) 12 % do montante bruto das royalties pagas pela utilização de programas de computador;
b) 8 % do montante bruto das royalties em todos os demais casos.
"""


def test_cv_higher_item_before_the_residual_rate_is_unread_not_applied_to_every_royalty() -> None:
    # the same bug in other words: "12 % ... programas de computador; 8 % ... em todos os demais casos"
    doc = taxtreaty.parse(CV_ROYALTIES)
    caps = {p.cite.eid: p for p in taxtreaty.provisions(doc).provisions if p.kind == "withholding_cap"}
    a, b = caps["art_12__para_2__point_a"], caps["art_12__para_2__point_b"]
    assert (a.rate_pct, b.rate_pct) == (Decimal("12"), Decimal("8"))
    assert "programas de computador" in a.conditions["unread_condition"]
    assert b.conditions.get("otherwise") is True
    decision = taxtreaty.decide(doc, {"income": "royalties", "source": "CV", "residence": "PT",
                                      "beneficial_owner": True, "date": "2024-05-01"}).to_dict()
    assert decision["status"] == "indeterminate" and decision["max_rate_pct"] is None
    assert {("art_12__para_2__point_a", "12"), ("art_12__para_2__point_b", "8")} <= {
        (c["eid"], c["max_rate_pct"]) for c in decision["candidates"]}


# -- Timor-Leste / Angola (Jornal da República): ordinals in words, pre-1990 spelling, mojibake ----

def test_tl_royalty_rate_split_by_a_stray_blank_is_unknown_not_zero() -> None:
    # "não excederá 1 0 por cento": read as 0%, i.e. royalties exempt at source
    cap = one("ao_tl_mojibake.txt", "art_12__para_2", "withholding_cap")
    assert cap.status == "unknown" and cap.rate_pct is None and "1 0 por cento" in (cap.reason or "")
    decision = decide("ao_tl_mojibake.txt", income="royalties", source="AO", residence="TL", beneficial_owner=True)
    assert decision["status"] != "determined" and decision["max_rate_pct"] != "0"


def test_tl_split_figure_is_not_a_group_of_thousands() -> None:
    from taxtreaty.provisions import figures
    from taxtreaty.provisions.vocabulary import require_phrases
    ph = require_phrases("pt")
    assert figures.find_damaged_rates("não excederá 2 5 % do montante", ph)
    assert not figures.find_damaged_rates("mais de 1 000 000 de dólares e 15 % do montante", ph)
    assert not figures.find_damaged_rates("não excederá 15 por cento", ph)


def test_tl_mojibake_cap_and_exemption_are_read() -> None:
    cap = one("ao_tl_mojibake.txt", "art_11__para_2", "withholding_cap")
    assert cap.rate_pct == Decimal("10") and cap.conditions == {"beneficial_owner": True}
    assert "nÃ£o excederÃ¡" in cap.cite.quote  # quoted as printed
    exemption = one("ao_tl_mojibake.txt", "art_11__para_3", "exemption")
    assert exemption.conditions == {"payer_kinds": ["government", "local_authority"]}
    decision = decide("ao_tl_mojibake.txt", income="interest", source="AO", residence="TL", beneficial_owner=True,
                      payer="government")
    assert decision["status"] == "determined" and decision["max_rate_pct"] == "0"


def test_tl_dividends_ten_per_cent_in_words_and_the_pe_switch() -> None:
    cap = one("ao_tl_mojibake.txt", "art_10__para_2", "withholding_cap")
    assert cap.rate_pct == Decimal("10")
    switch = one("ao_tl_mojibake.txt", "art_10__para_3", "allocation")
    assert switch.conditions == {"pe_connected": True} and switch.values["refer_to"] == ["7"]


def test_tl_exemption_with_progression_and_angolan_credit() -> None:
    # "aplicar a taxa que seria aplicável se tais rendimentos não tivessem sido isentos" was not read
    tl = one("ao_tl_mojibake.txt", "art_23__para_1", "relief_method")
    assert tl.state == "TL" and tl.values == {"method": "exemption", "progression": True}
    ao = one("ao_tl_mojibake.txt", "art_23__para_2", "relief_method")
    assert ao.state == "AO" and ao.values == {"method": "credit", "limit": "ordinary"}


def test_tl_termination_notice_by_30_june_with_denuncia_la() -> None:
    values = [p.values for p in at("ao_tl_mojibake.txt", "art_29__para_nn_1", "date")]
    assert {"event": "termination_notice", "by": "06-30"} in values
    assert {"event": "termination_effect", "from": "january_1_of_year_after_notice"} in values


def test_tl_researchers_invitation_is_an_unread_condition() -> None:
    exemption = one("ao_tl_mojibake.txt", "art_20__para_1", "exemption")
    assert exemption.allocation == "exempt_in_host"
    assert "a convite de uma universidade" in exemption.conditions["unread_condition"]


# -- Brazil, older DOU style: no beneficial owner, "estabelecimento permanente", tax sparing --------

def test_br_old_interest_exemption_for_agencies_wholly_owned_by_a_government_is_unread() -> None:
    # "a qualquer agência (inclusive instituição financeira) de propriedade exclusiva daquele Governo":
    # read as "exempt when paid to any bank"
    exemption = one("br_dou_antigo.txt", "art_11__para_3", "exemption")
    assert "de propriedade exclusiva" in exemption.conditions["unread_condition"]


def test_br_old_pe_switch_and_business_profits_with_estabelecimento_permanente() -> None:
    switch = one("br_dou_antigo.txt", "art_10__para_3", "allocation")
    assert switch.conditions == {"pe_connected": True} and switch.values["refer_to"] == ["7"]
    doc = taxtreaty.parse(BR_ARTICLE_7)
    allocations = {(p.allocation, tuple(sorted(p.conditions.items()))) for p in taxtreaty.provisions(doc).provisions
                   if p.kind == "allocation"}
    assert ("source_may_tax", (("pe_connected", True),)) in allocations
    assert ("residence_only", ()) in allocations


BR_ARTICLE_7 = """CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL E A REPÚBLICA DO PERU

ARTIGO 7
Lucros das Empresas

1. Os lucros de uma empresa de um Estado Contratante só são tributáveis nesse Estado, a não ser que a empresa exerça sua atividade no outro Estado Contratante por meio de um estabelecimento permanente aí situado, caso em que esses lucros podem ser tributados no outro Estado, mas somente no tocante à parte dos lucros atribuível a esse estabelecimento permanente.
"""


def test_br_old_royalty_trademark_item_and_residual_without_beneficial_owner() -> None:
    a = one("br_dou_antigo.txt", "art_12__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("25") and "marcas" in a.conditions["unread_condition"]
    b = one("br_dou_antigo.txt", "art_12__para_2__point_b", "withholding_cap")
    assert b.rate_pct == Decimal("15") and b.conditions == {"otherwise": True}


def test_br_old_branch_profits_tax_is_never_applied_as_a_dividend_rate() -> None:
    # 10(4): "esse imposto não poderá exceder 10 por cento do montante bruto dos lucros do
    # estabelecimento permanente" taxes a branch's profits; never 10% on dividends
    decision = decide("br_dou_antigo.txt", income="dividends", source="NL", residence="BR")
    assert decision["max_rate_pct"] != "10"
    assert decision["eid"] != "art_10__para_4"


@pytest.mark.xfail(reason="the branch-profits tax cap in the dividends article (10(4)) is read as a dividends cap "
                   "and marked unread, so plain dividends are indeterminate where the text says 15%", strict=True)
def test_br_old_dividends_are_fifteen_per_cent_beside_a_branch_profits_tax() -> None:
    decision = decide("br_dou_antigo.txt", income="dividends", source="NL", residence="BR")
    assert decision["status"] == "determined" and decision["max_rate_pct"] == "15"


def test_br_old_tax_sparing_is_no_credit_method_of_the_other_state() -> None:
    # 23(2) "o imposto holandês ... será sempre considerado como tendo sido pago às alíquotas de 25 por
    # cento" was read as a credit method naming no State, so a Dutch resident got "relief: credit"
    # citing Brazil's tax-sparing clause (the Dutch method is not in this text)
    sparing = one("br_dou_antigo.txt", "art_23__para_2", "relief_method")
    assert sparing.status == "unknown" and sparing.values == {"deemed_paid": True}
    assert "tax sparing" in (sparing.reason or "")
    dutch = decide("br_dou_antigo.txt", income="interest", source="BR", residence="NL", recipient="individual")
    assert dutch["status"] == "determined" and dutch["max_rate_pct"] == "15"
    assert dutch["relief"]["method"] == "unknown"
    brazilian = decide("br_dou_antigo.txt", income="interest", source="NL", residence="BR", recipient="individual")
    assert brazilian["relief"]["method"] == "credit" and brazilian["relief"]["eid"] == "art_23__para_1"


@pytest.mark.xfail(reason="tax sparing: the rates deemed paid (25% interest and royalties, 20% dividends) are not in "
                   "the data, and a credit computed with --residence-tax uses the tax actually paid", strict=True)
def test_br_old_tax_sparing_deemed_rate_is_read() -> None:
    sparing = one("br_dou_antigo.txt", "art_23__para_2", "relief_method")
    assert sparing.values.get("deemed_paid_pct") is not None


def test_pt_365_day_holding_is_met_by_24_months() -> None:
    decision = decide("pt_dr_cl.txt", income="dividends", source="CL", residence="PT", beneficial_owner=True,
                      recipient="company", capital_pct=30, held_months=24)
    assert "min_holding_days" not in decision["missing_facts"]



# -- Portugal (DR, 1999): a protocol whose "Ad artigo" points the parser keeps in one paragraph ------

def test_pt_protocol_points_in_one_paragraph_each_qualify_their_rate() -> None:
    # "Ad artigo 10.º ... a taxa prevista na alínea a) do n.º 2 do artigo 10.º será de 0 %" and "Ad
    # artigo 11.º As disposições do n.º 2 do artigo 11.º não se aplicam aos juros pagos ao Banco de
    # Portugal ...": neither was read, and the answers were 10% determined for both
    dividends = one("pt_dr_protocolo.txt", "art_10__para_2__point_a", "withholding_cap")
    assert "será de 0 %" in dividends.conditions["unread_condition"]
    assert "Banco de Portugal" not in dividends.conditions["unread_condition"]
    interest = one("pt_dr_protocolo.txt", "art_11__para_2", "withholding_cap")
    assert "Banco de Portugal" in interest.conditions["unread_condition"]
    assert "unread_condition" not in one("pt_dr_protocolo.txt", "art_12__para_2", "withholding_cap").conditions
    for income in ("dividends", "interest"):
        decision = decide("pt_dr_protocolo.txt", income=income, source="CV", residence="PT", beneficial_owner=True,
                          recipient="company", capital_pct=30, held_months=30, date="2005-01-01")
        assert decision["status"] == "indeterminate" and decision["max_rate_pct"] is None, income
    royalties = decide("pt_dr_protocolo.txt", income="royalties", source="CV", residence="PT", beneficial_owner=True,
                       date="2005-01-01")
    assert royalties["status"] == "determined" and royalties["max_rate_pct"] == "10"


def test_pt_effect_from_a_printed_first_of_january() -> None:
    # "produzirão efeitos a partir de 1 de Janeiro de 2001": the year was dropped, and a payment of
    # 2000 was answered as if the convention applied
    effect = one("pt_dr_protocolo.txt", "art_28__para_2", "date")
    assert effect.values["effect_from"] == "2001-01-01"
    before = decide("pt_dr_protocolo.txt", income="royalties", source="CV", residence="PT", beneficial_owner=True,
                    date="2000-06-01")
    assert before["status"] == "not_covered"


def test_pt_dividend_holding_of_two_years_without_partnerships() -> None:
    a = one("pt_dr_protocolo.txt", "art_10__para_2__point_a", "withholding_cap")
    assert a.rate_pct == Decimal("10") and a.conditions["recipient"] == "partnership_excluded_company"
    assert a.conditions["min_capital_pct"] == Decimal("25") and a.conditions["min_holding_months"] == 24


def test_pt_employment_183_days_in_any_twelve_months() -> None:
    threshold = one("pt_dr_protocolo.txt", "art_15__para_2__point_a", "threshold")
    assert threshold.values == {"days": 183, "period_months": 12}
    assert one("pt_dr_protocolo.txt", "art_15__para_2", "allocation").allocation == "residence_only"


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


def test_ao_caps_worded_ultrapassar_and_superior_a_are_read() -> None:
    # before: "não pode ultrapassar" / "não será superior a" were no cap words (and, before the
    # charged-tax safety net, the source State's taxation was "unlimited")
    doc = taxtreaty.parse(AO_CAP_WORDINGS)
    caps = {p.cite.eid: p for p in taxtreaty.provisions(doc).provisions if p.kind == "withholding_cap"}
    assert caps["art_11__para_2"].status == "determined" and caps["art_11__para_2"].rate_pct == Decimal("10")
    assert caps["art_11__para_2"].conditions == {"beneficial_owner": True}
    assert caps["art_12__para_2"].status == "determined" and caps["art_12__para_2"].rate_pct == Decimal("8")
    assert caps["art_12__para_2"].conditions == {}


def test_br_bank_loan_rate_with_a_minimum_term_keeps_the_term_unread() -> None:
    # 11(4) "12 por cento ... dos juros pagos em razão de empréstimos concedidos por um banco, com prazo
    # mínimo de cinco anos, ...": the five-year term was dropped from the rate's conditions
    cap = one("br_dou_ar.txt", "art_11__para_4", "withholding_cap")
    assert cap.rate_pct == Decimal("12") and cap.conditions["recipient_kinds"] == ["bank"]
    assert "prazo mínimo de cinco anos" in cap.conditions["unread_condition"]
