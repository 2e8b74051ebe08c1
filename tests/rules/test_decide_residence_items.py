"""A residence-only rule of the interest article whose cases are items of an item ("c) the interest is
beneficially owned by a resident of that other Contracting State that is either: (i) a bank; (ii) an insurance
company; (iii) a securities company; or (iv) any other enterprise, provided that ..."): each sub-item is one
case, under its item's words (NL-JP 11(3)(c); a bank got the 10% of 11(2)). Fixtures of our own, en/es/pt."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

import pytest

import taxtreaty

HEAD = {
    "en": ("Convention between the Kingdom of the Netherlands and Japan\n\nArticle 11\nInterest\n\n"
           "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
           "taxed in that other Contracting State.\n\n"
           "2. However, such interest may also be taxed in the Contracting State in which it arises, but if the "
           "beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall "
           "not exceed 10 per cent of the gross amount of the interest.\n\n"
           "3. Notwithstanding the provisions of paragraph 2, interest arising in a Contracting State shall be "
           "taxable only in the other Contracting State if:\n"
           "a) the interest is beneficially owned by the Government of that other Contracting State;\n"
           "b) the interest is beneficially owned by a resident of that other Contracting State that is either:\n"
           "(i) a bank;\n(ii) a securities company; or\n"
           "(iii) any other enterprise, provided that the enterprise derives more than half of its liabilities "
           "from taking deposits at interest.\n", ("JP", "NL")),
    "es": ("Convenio entre el Reino de España y Japón\n\nArtículo 11\nIntereses\n\n"
           "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado "
           "Contratante pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que "
           "procedan, pero si el beneficiario efectivo es residente del otro Estado Contratante, el impuesto así "
           "exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.\n\n"
           "3. No obstante lo dispuesto en el apartado 2, los intereses procedentes de un Estado Contratante sólo "
           "pueden someterse a imposición en el otro Estado Contratante si:\n"
           "a) el beneficiario efectivo es el Gobierno de ese otro Estado Contratante;\n"
           "b) el beneficiario efectivo es un residente de ese otro Estado Contratante que sea:\n"
           "(i) un banco;\n(ii) una sociedad de valores; o\n"
           "(iii) cualquier otra empresa, siempre que obtenga más de la mitad de sus pasivos de la captación de "
           "depósitos.\n", ("JP", "ES")),
    "pt": ("Convenção entre a República Portuguesa e o Japão\n\nArtigo 11.º\nJuros\n\n"
           "1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante "
           "podem ser tributados nesse outro Estado.\n\n"
           "2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas, se "
           "o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim "
           "estabelecido não excederá 10 % do montante bruto dos juros.\n\n"
           "3 — Não obstante o disposto no n.º 2, os juros provenientes de um Estado Contratante só podem ser "
           "tributados no outro Estado Contratante se:\n"
           "a) o beneficiário efectivo for o Governo desse outro Estado Contratante;\n"
           "b) o beneficiário efectivo for um residente desse outro Estado Contratante que seja:\n"
           "(i) um banco;\n(ii) uma sociedade de valores mobiliários; ou\n"
           "(iii) qualquer outra empresa, desde que obtenha mais de metade do seu passivo da captação de "
           "depósitos.\n", ("JP", "PT")),
}


@cache
def parsed(text: str) -> taxtreaty.Document:
    return taxtreaty.parse(text)


def ask(language: str, **facts: Any) -> taxtreaty.Decision:
    text, (source, residence) = HEAD[language]
    return taxtreaty.decide(parsed(text), {"income": "interest", "source": source, "residence": residence,
                                           "beneficial_owner": True, **facts})


@pytest.mark.parametrize("language", sorted(HEAD))
def test_each_item_of_an_item_of_a_residence_only_rule_is_one_of_its_cases(language: str) -> None:
    bank = ask(language, recipient="bank")
    assert (bank.status, bank.source_taxation, bank.eid) == ("determined", "none", "art_11__para_3__point_b__point_i")
    securities = ask(language, recipient="financial_institution")
    assert (securities.status, securities.source_taxation) == ("determined", "none"), securities.to_dict()
    # an individual is none of the kinds: the 10% of paragraph 2
    individual = ask(language, recipient="individual")
    assert (individual.status, individual.max_rate_pct) == ("determined", Decimal("10")), individual.to_dict()
    # a company may be a bank or a financial institution (rules/scenario.yaml): asked, never assumed either way
    company = ask(language, recipient="company")
    assert company.status == "indeterminate" and company.missing_facts, company.to_dict()
