"""Decisions on conventions as Portugal's and Brazil's gazettes print them: the entry into force the promulgating
decree states, and the institutions a protocol point counts among the recipients of an exemption worded as an
allocation ("só são tributáveis nesse outro Estado"). Texts are our own, in those gazettes' shapes."""

from __future__ import annotations

import datetime as dt

import pytest

import taxtreaty
from taxtreaty.rules import decide
from taxtreaty.rules.dates import stated_entry

DECREE = """DECRETO Nº 10.000, DE 2 DE ABRIL DE 2019

Promulga a Convenção entre a República Federativa do Brasil e a República de Singapura para Eliminar a Dupla Tributação.

Considerando que a Convenção entrou em vigor para a República Federativa do Brasil, no plano jurídico externo, em {day}, nos termos do Artigo 27;

DECRETA:

Art. 1º Fica promulgada a Convenção, anexa a este Decreto.

Art. 2º Este Decreto entra em vigor na data de sua publicação.

"""

CONVENTION = """CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL E A REPÚBLICA DE SINGAPURA

Artigo 10
Dividendos

1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2. Todavia, esses dividendos podem também ser tributados no Estado Contratante em que reside a sociedade que os paga, mas, se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim exigido não poderá exceder 15 por cento do montante bruto dos dividendos.

Artigo 11
Juros

1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2. Todavia, esses juros podem também ser tributados no Estado Contratante de que provêm, mas, se o beneficiário efetivo dos juros for um residente do outro Estado Contratante, o imposto assim exigido não poderá exceder 15 por cento do montante bruto dos juros.

3. Não obstante as disposições dos parágrafos 1 e 2, os juros provenientes de um Estado Contratante e pagos ao Governo do outro Estado Contratante ou ao seu Banco Central só são tributáveis nesse outro Estado.

Artigo 25
Entrada em Vigor

1. A Convenção entrará em vigor na data de recebimento da última das notificações e suas disposições produzirão efeitos, no tocante aos tributos retidos na fonte, em relação às importâncias pagas a partir do primeiro dia de janeiro do ano civil imediatamente seguinte àquele em que a Convenção entrar em vigor.

Feito em Brasília, em 7 de maio de 2018.

PROTOCOLO

1. Com referência ao Artigo 11, parágrafo 3

Fica entendido que o Banco Nacional de Desenvolvimento Econômico e Social, no caso do Brasil, e a Monetary Authority of Singapore, no caso de Singapura, consideram-se incluídos na expressão "Governo".
"""


def _doc(text: str) -> taxtreaty.Document:
    return taxtreaty.parse(text)


@pytest.mark.parametrize(("head", "expected"), [
    ("Considerando que a Convenção entrou em vigor em 5 de outubro de 2001, nos termos do parágrafo 2 de seu Artigo 28;",
     dt.date(2001, 10, 5)),
    ("Considerando que a Convenção e o seu Protocolo entraram em vigor para a República Federativa do Brasil, no plano "
     "jurídico externo, em 15 de fevereiro de 2024;", dt.date(2024, 2, 15)),
    ("Por ordem superior se torna público que a Convenção entrou em vigor em 1 de março de 2016.", dt.date(2016, 3, 1)),
    ("Notice is hereby given that the Convention entered into force on 4 June 2019.", dt.date(2019, 6, 4)),
    ("Se hace público que el Convenio entró en vigor el 16 de marzo de 2021.", dt.date(2021, 3, 16)),
    # a future entry into force, the decree's own, or two different dates say nothing of this convention's
    ("A Convenção entrará em vigor em 1 de janeiro de 2020.", None),
    ("Este Decreto entra em vigor na data de sua publicação, 3 de abril de 2019.", None),
    ("O Protocolo entrou em vigor em 1 de maio de 2010 e a Convenção entrou em vigor em 2 de junho de 1999.", None),
])
def test_entry_into_force_stated_before_the_convention(head, expected):
    assert stated_entry(head) == expected


def test_promulgating_decree_dates_the_convention_effect():
    doc = _doc(DECREE.format(day="15 de fevereiro de 2019") + CONVENTION)
    facts = {"income": "dividends", "source": "BR", "residence": "SG", "beneficial_owner": True, "recipient": "individual"}
    assert decide(doc, {**facts, "date": "2019-06-01"}).to_dict()["status"] == "not_covered"
    after = decide(doc, {**facts, "date": "2020-02-01"}).to_dict()
    assert after["status"] == "determined" and str(after["max_rate_pct"]) == "15"


def test_entry_into_force_only_from_the_words_before_the_first_article():
    # the final clause's "entrar em vigor" and a date after the articles are not a stated entry into force
    doc = _doc(CONVENTION + "\nA Convenção entrou em vigor em 3 de março de 2019.\n")
    decision = decide(doc, {"income": "dividends", "source": "BR", "residence": "SG", "beneficial_owner": True,
                            "recipient": "individual", "date": "2019-06-01"}).to_dict()
    assert decision["status"] != "not_covered"


@pytest.mark.parametrize(("name", "source", "residence", "rate"), [
    ("Banco Nacional de Desenvolvimento Econômico e Social", "SG", "BR", "0"),
    ("Monetary Authority of Singapore", "BR", "SG", "0"),
])
def test_protocol_names_before_the_words_that_include_them_in_the_government(name, source, residence, rate):
    doc = _doc(DECREE.format(day="15 de fevereiro de 2019") + CONVENTION)
    decision = decide(doc, {"income": "interest", "source": source, "residence": residence, "beneficial_owner": True,
                            "recipient": "named_institution", "recipient_name": name, "payer": "company",
                            "date": "2021-01-01"}).to_dict()
    assert decision["status"] == "determined"
    assert str(decision["max_rate_pct"]) == rate
