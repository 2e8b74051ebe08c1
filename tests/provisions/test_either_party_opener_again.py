"""Either party named with the condition's opener said again between the two roles: "if the interest is paid by,
or if the beneficial owner of the interest is, a Contracting State ...", "si son pagados por, o si el beneficiario
efectivo de los intereses es, un Estado Contratante ...", "se esses juros forem pagos por, ou se o beneficiário
efetivo desses juros for, um Estado Contratante ..." (Diário da República): the kinds are the payer's or the
recipient's, one residence-only rule for each (parties.either_party, readers/allocations). Fixtures of our own."""

from __future__ import annotations

import pytest

import taxtreaty

CAP = {
    "en": ("Convention between the Portuguese Republic and the Republic of Angola\n\nArticle 11\nInterest\n"
           "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
           "taxed in that other State.\n2. However, such interest may also be taxed in the Contracting State in which "
           "it arises and according to the laws of that State, but if the beneficial owner of the interest is a "
           "resident of the other Contracting State, the tax so charged shall not exceed 12 per cent of the gross "
           "amount of the interest.\n3. Notwithstanding the provisions of paragraphs 1 and 2, interest arising in a "
           "Contracting State shall be taxable only in the other Contracting State if the interest is paid by, or if "
           "the beneficial owner of the interest is, a Contracting State, a political subdivision or a local "
           "authority thereof or the Central Bank of a Contracting State.\n"),
    "es": ("Convenio entre el Reino de España y la República de Angola\n\nArtículo 11\nIntereses\n"
           "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
           "pueden someterse a imposición en ese otro Estado.\n2. Sin embargo, estos intereses pueden someterse "
           "también a imposición en el Estado Contratante del que procedan y según la legislación de ese Estado, pero "
           "si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el impuesto así "
           "exigido no podrá exceder del 12 por ciento del importe bruto de los intereses.\n3. No obstante lo "
           "dispuesto en los apartados 1 y 2, los intereses procedentes de un Estado Contratante solo pueden "
           "someterse a imposición en el otro Estado Contratante si son pagados por, o si el beneficiario efectivo "
           "de los intereses es, un Estado Contratante, una de sus subdivisiones políticas o entidades locales o el "
           "Banco Central de un Estado Contratante.\n"),
    "pt": ("Convenção entre a República Portuguesa e a República de Angola\n\nArtigo 11.º\nJuros\n"
           "1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante "
           "podem ser tributados nesse outro Estado.\n2 — No entanto, esses juros podem ser igualmente tributados no "
           "Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário "
           "efetivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não pode "
           "exceder 12 % do montante bruto dos juros.\n3 — Não obstante o disposto nos números 1 e 2, os juros "
           "provenientes de um Estado Contratante só podem ser tributados no outro Estado Contratante se esses juros "
           "forem pagos por, ou se o beneficiário efetivo desses juros for, um Estado Contratante, as suas "
           "subdivisões políticas ou autarquias locais, o Banco central de um Estado Contratante ou uma agência ou "
           "veículo totalmente detido pelas entidades precedentes.\n"),
}

CASES = [
    ({"payer": "government", "recipient": "company"}, ("0", "art_11__para_3")),
    ({"payer": "company", "recipient": "government"}, ("0", "art_11__para_3")),
    ({"payer": "company", "recipient": "central_bank"}, ("0", "art_11__para_3")),
    ({"payer": "company", "recipient": "company"}, ("12", "art_11__para_2")),
]


@pytest.mark.parametrize("language", sorted(CAP))
@pytest.mark.parametrize(("parties", "expected"), CASES)
def test_paid_by_or_if_owned_by_is_either_party(language, parties, expected):
    source = "ES" if language == "es" else "PT"
    scenario = {"income": "interest", "source": source, "residence": "AO", "beneficial_owner": True, **parties}
    decision = taxtreaty.decide(taxtreaty.parse(CAP[language].encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", *expected), decision


def test_an_agency_held_by_the_entities_before_it_is_government_owned():
    # "uma agência ou veículo totalmente detido pelas entidades precedentes": the public bodies just named own it
    scenario = {"income": "interest", "source": "PT", "residence": "AO", "beneficial_owner": True,
                "payer": "company", "recipient": "government_owned"}
    decision = taxtreaty.decide(taxtreaty.parse(CAP["pt"].encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"], decision["unread"]) == ("determined", "0", []), decision
