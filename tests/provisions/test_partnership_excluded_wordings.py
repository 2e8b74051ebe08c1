"""A company "other than a partnership" as Portuguese and Spanish texts word it without an article ("uma sociedade
(com excepção de sociedades de pessoas)", "com exceção de sociedades de pessoas", "(con excepción de sociedades de
personas)"): the lower dividend rate excludes partnerships and is read, never left as unread words (it was: every
qualifying dividend abstained naming no fact a user could give). Sentences of our own."""

from __future__ import annotations

import pytest

import taxtreaty

_PT = """Artigo 10.º
Dividendos
1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2 — No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não poderá exceder:
a) 5 por cento do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade {excluded} que detenha directamente pelo menos 25 por cento do capital da sociedade que paga os dividendos;
b) 15 por cento do montante bruto dos dividendos, nos restantes casos.
"""
_ES = """Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad {excluded} que posea directamente al menos el 25 por ciento del capital de la sociedad que paga los dividendos;
b) 15 por ciento del importe bruto de los dividendos en los demás casos.
"""


@pytest.mark.parametrize(("text", "excluded"), [
    (_PT, "(com excepção de sociedades de pessoas)"),
    (_PT, ", com exceção de sociedades de pessoas,"),
    (_PT, "(exceto sociedades de pessoas)"),
    (_ES, "(con excepción de sociedades de personas)"),
    (_ES, "(excepto sociedades de personas)"),
])
@pytest.mark.parametrize(("recipient", "expected"), [("company", "5"), ("partnership", "15")])
def test_a_company_other_than_a_partnership(text, excluded, recipient, expected):
    document = taxtreaty.parse(text.format(excluded=excluded))
    scenario = {"income": "dividends", "source": "PT", "residence": "ES", "beneficial_owner": True,
                "recipient": recipient, "capital_pct": 30}
    decision = taxtreaty.decide(document, scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", expected)
    assert not decision["unread"]
