"""Provisions, wordings of the Brazilian conventions as the Planalto and Diário Oficial da União copies print them,
old and new: "ao menos pelo período de 365 dias que preceda o dia do pagamento", "a sociedade pagadora dos
dividendos", "se a pessoa que os receber for o beneficiário efetivo", "o imposto assim incidente não poderá
exceder 15% (quinze por cento)". Before, each was left as unread words: the qualifying rate and the older
conventions' only dividend cap abstained on them, naming no fact a user could give. Sentences of our own."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers import extract_text, only

import taxtreaty
from taxtreaty.provisions.unread import uncovered_words
from taxtreaty.provisions.vocabulary import fold_same_length, phrases


@pytest.mark.parametrize("condition", [
    "se o beneficiário efetivo for uma sociedade que detenha diretamente pelo menos 20 por cento do capital da "
    "sociedade pagadora dos dividendos, ao menos pelo período de 365 dias que preceda o dia do pagamento dos dividendos",
    "se a pessoa que os receber for o beneficiário efetivo dos juros",
])
def test_brazilian_wordings_of_a_read_condition(condition):
    assert uncovered_words(fold_same_length(condition), phrases("pt")) == []


NEW = """ARTIGO 10
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante poderão ser tributados nesse outro Estado.
2. Todavia, esses dividendos poderão também ser tributados no Estado Contratante em que residir a sociedade que os pagar e de acordo com a legislação desse Estado, mas, se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim exigido não excederá:
a) 5 por cento do montante bruto dos dividendos, se o beneficiário efetivo for uma sociedade que detenha diretamente pelo menos 20 por cento do capital da sociedade pagadora dos dividendos, ao menos pelo período de 365 dias que preceda o dia do pagamento dos dividendos;
b) 15 por cento do montante bruto dos dividendos em todos os demais casos.
"""
OLD = """ARTIGO 10
Dividendos
1. Os dividendos pagos por uma sociedade residente em um Estado Contratante a um residente no outro Estado Contratante são tributáveis nesse outro Estado.
2. Todavia, esses dividendos podem também ser tributados no Estado Contratante onde reside a sociedade que os paga, e nos termos da lei desse Estado; mas, se a pessoa que os receber for o beneficiário efetivo dos dividendos, o imposto assim incidente não poderá exceder 12% (doze por cento) do montante bruto dos dividendos.
"""


def test_the_qualifying_holding_and_its_period_are_read():
    cap = only(extract_text(NEW), "art_10__para_2__point_a", "withholding_cap")
    assert cap.rate_pct == Decimal("5") and cap.conditions["min_capital_pct"] == Decimal("20")
    assert cap.conditions["min_holding_days"] == 365 and "unread_condition" not in cap.conditions


@pytest.mark.parametrize(("facts", "expected"), [
    ({"capital_pct": 30, "held_days": 400}, ("determined", "5", [])),
    ({"capital_pct": 30, "held_days": 100}, ("determined", "15", [])),
    ({"capital_pct": 30}, ("indeterminate", None, ["held_days"])),
])
def test_the_qualifying_rate_turns_on_facts_a_user_gives(facts, expected):
    scenario = {"income": "dividends", "source": "BR", "residence": "AE", "beneficial_owner": True,
                "recipient": "company", **facts}
    decision = taxtreaty.decide(taxtreaty.parse(NEW.encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["missing_facts"]) == expected


@pytest.mark.parametrize(("beneficial_owner", "expected"), [(True, ("determined", "12")), (False, ("determined", None))])
def test_the_tax_so_levied_of_an_older_convention_is_its_cap(beneficial_owner, expected):
    cap = only(extract_text(OLD), "art_10__para_2", "withholding_cap")
    assert cap.rate_pct == Decimal("12") and "unread_condition" not in cap.conditions
    scenario = {"income": "dividends", "source": "BR", "residence": "NL", "beneficial_owner": beneficial_owner,
                "recipient": "company"}
    decision = taxtreaty.decide(taxtreaty.parse(OLD.encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == expected


@pytest.mark.parametrize(("text", "allocation"), [
    # "só serão tributáveis": the future of "só são tributáveis"
    ("ARTIGO 18\nPensões\n1. As pensões e outras remunerações similares pagas a um residente de um Estado Contratante "
     "em decorrência de emprego anterior só serão tributáveis nesse Estado.\n", "residence_only"),
    # "poderão também ser tributados", "podem ser também tributados": the source State too
    ("ARTIGO 21\nOutros Rendimentos\n2. Não obstante o disposto no parágrafo 1, os rendimentos de um residente de um "
     "Estado Contratante não tratados nos Artigos precedentes e provenientes do outro Estado Contratante poderão também "
     "ser tributados nesse outro Estado.\n", "source_may_tax"),
    ("ARTIGO 22\nOutros Rendimentos\nOs rendimentos de um residente de um Estado Contratante não expressamente "
     "mencionados nos Artigos precedentes podem ser também tributados no Estado Contratante de que provêm.\n",
     "source_may_tax"),
])
def test_the_decrees_future_and_also_forms_of_an_allocation_are_read(text, allocation):
    ps = extract_text(text)
    assert {p.allocation for p in ps.provisions if p.kind == "allocation"} == {allocation}


EQUIPMENT_LOANS = """ARTIGO 11
Juros
1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante poderão ser tributados nesse outro Estado.
2. Todavia, esses juros poderão também ser tributados no Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas, se o beneficiário efetivo dos juros for residente do outro Estado Contratante, o imposto assim exigido não poderá exceder 15 por cento do montante bruto dos juros.
3. Não obstante o disposto no parágrafo 2, o imposto não poderá exceder 10 por cento do montante bruto dos juros pagos em decorrência de empréstimos concedidos por um banco, por um período mínimo de oito anos, {purpose} equipamentos agrícolas.
"""


@pytest.mark.parametrize("purpose", ["para financiar a compra de", "com o objetivo de financiar a aquisição de",
                                     "para o financiamento da compra de"])
def test_a_bank_loan_limited_by_what_it_finances_is_not_every_bank_loan(purpose):
    # the lower rate is for loans that finance the purchase of equipment, a condition no fact tells: before, any
    # bank loan of eight years got 10 % (the purpose left out, determined)
    text = EQUIPMENT_LOANS.format(purpose=purpose)
    scenario = {"income": "interest", "source": "BR", "residence": "PT", "beneficial_owner": True, "payer": "company",
                "recipient": "company", "loan_kind": "bank_loan", "loan_term_years": 9}
    decision = taxtreaty.decide(taxtreaty.parse(text.encode()), scenario).to_dict()
    assert decision["status"] == "indeterminate", decision
    assert [u["eid"] for u in decision["unread"]] == ["art_11__para_3"]


def test_the_same_purpose_in_spanish_is_unread_too():
    text = EQUIPMENT_LOANS.format(purpose="para financiar a compra de")
    es = ("Artículo 11\nIntereses\n2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado "
          "Contratante del que procedan, pero si el beneficiario efectivo es residente del otro Estado Contratante, el "
          "impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los intereses.\n3. No obstante "
          "lo dispuesto en el apartado 2, el impuesto no podrá exceder del 10 por ciento del importe bruto de los "
          "intereses pagados por préstamos concedidos por un banco, por un período mínimo de ocho años, con el fin de "
          "financiar la adquisición de equipos agrícolas.\n")
    scenario = {"income": "interest", "source": "BR", "residence": "ES", "beneficial_owner": True, "payer": "company",
                "recipient": "company", "loan_kind": "bank_loan", "loan_term_years": 9}
    for source in (text, es):
        decision = taxtreaty.decide(taxtreaty.parse(source.encode()), scenario).to_dict()
        assert decision["status"] == "indeterminate" and decision["unread"], decision
