"""Provisions, the caps reader: a list of rates whose first item runs on inside its introduction ("shall not
exceed (a) 15 per cent ... ; (b) 25 per cent ...": the structure holds "(b)" alone as a point). An item with a
rate of its own is a rate of the list, never an alternative of the introduction's one rate (before: the
introduction's 15% was given to every case, the individual's among them, with item (b)'s conditions)."""

from __future__ import annotations

from decimal import Decimal

import pytest

import taxtreaty

EN = """ARTICLE 10
DIVIDENDS
1. Dividends paid by a company which is a resident of one of the States to a resident of the other State may be taxed in that other State.
2. However, such dividends may also be taxed in the State of which the company paying the dividends is a resident and according to the laws of that State, but if the recipient is the beneficial owner of the dividends, the tax so charged shall not exceed (a) 15 per cent of the gross amount of the dividends if the beneficial owner is a company which owns at least 25 per cent of the shares of the company paying the dividends; (b) 25 per cent of the gross amount of the dividends in all other cases.
3. The term "dividends" as used in this Article means income from shares.
"""

ES = """Artículo 10. Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que pague los dividendos y según la legislación de este Estado, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 20 por ciento del capital de la sociedad que paga los dividendos; b) 15 por ciento del importe bruto de los dividendos en los demás casos.
3. El término "dividendos" significa los rendimientos de las acciones.
"""

PT = """Artigo 10.º Dividendos
1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2 — No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos e de acordo com a legislação desse Estado, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá a) 10 por cento do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directamente pelo menos 25 por cento do capital da sociedade que paga os dividendos; b) 15 por cento do montante bruto dos dividendos, nos restantes casos.
3 — O termo «dividendos» significa os rendimentos provenientes de acções.
"""


@pytest.mark.parametrize(("text", "facts", "rate"), [
    (EN, {"recipient": "individual"}, 25),
    (EN, {"recipient": "company", "capital_pct": 30}, 15),
    (ES, {"recipient": "individual"}, 15),
    (ES, {"recipient": "company", "capital_pct": 30}, 5),
    (PT, {"recipient": "individual"}, 15),
    (PT, {"recipient": "company", "capital_pct": 30}, 10),
])
def test_an_item_with_its_own_rate_is_a_rate_of_the_list(text: str, facts: dict, rate: int) -> None:
    doc = taxtreaty.parse(text)
    d = taxtreaty.decide(doc, {"income": "dividends", "source": "AA", "residence": "BB", "beneficial_owner": True,
                               **facts}).to_dict()
    assert d["status"] == "determined", d["reasons"]
    assert Decimal(str(d["max_rate_pct"])) == rate
