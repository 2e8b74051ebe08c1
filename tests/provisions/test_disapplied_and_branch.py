"""Paragraphs of a payment article that are no rate and no exemption of their own, in Spanish, English
and Portuguese: a branch tax on a permanent establishment's earnings ("un impuesto adicional ... no
exceda del 10 por ciento"), and the items of a paragraph that switches the rates off ("La reducción o
exención ... no se aplicará si el beneficiario efectivo: a) está exento de impuesto ..."); and the
Spanish payer "el que paga los intereses es el propio Estado ... u Organismo de derecho público del
mismo". Short texts in the conventions' own words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers import caps_under, extract_text

HEAD = {
    "es": "CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y CANADÁ PARA EVITAR LA DOBLE IMPOSICIÓN\n\n",
    "en": "CONVENTION BETWEEN THE ARGENTINE REPUBLIC AND CANADA FOR THE AVOIDANCE OF DOUBLE TAXATION\n\n",
    "pt": "CONVENÇÃO ENTRE A REPÚBLICA ARGENTINA E O CANADÁ PARA EVITAR A DUPLA TRIBUTAÇÃO\n\n",
}

BRANCH = {
    "es": """Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, estos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos, pero si el perceptor de los dividendos es el beneficiario efectivo, el impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los dividendos.
3. Nada en este Convenio impedirá que un Estado Contratante pueda aplicar sobre las ganancias de una sociedad atribuibles a un establecimiento permanente en este Estado, un impuesto adicional al impuesto que hubiera sido aplicable, siempre que ese impuesto adicional aplicado de este modo no exceda del 10 por ciento del monto de esas ganancias.
""",
    "en": """Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the recipient is the beneficial owner of the dividends the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.
3. Nothing in this Convention shall be construed as preventing a Contracting State from imposing on the earnings of a company attributable to permanent establishments in that State, a tax in addition to the tax which would be chargeable on the earnings of a company which is a national of that State, provided that any additional tax so imposed shall not exceed 10 per cent of the amount of such earnings.
""",
    "pt": """Artigo 10
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2. Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 15 por cento do montante bruto dos dividendos.
3. Nenhuma disposição desta Convenção impede um Estado Contratante de aplicar sobre os lucros de uma sociedade imputáveis a um estabelecimento estável nesse Estado um imposto adicional ao imposto aplicável, desde que esse imposto adicional não exceda 10 por cento do montante desses lucros.
""",
}


@pytest.mark.parametrize("language", sorted(BRANCH))
def test_a_branch_tax_is_no_rate_of_dividends(language: str) -> None:
    ps = extract_text(HEAD[language] + BRANCH[language])
    branch = caps_under(ps, "art_10__para_3")
    assert branch and all(p.conditions.get("income_subtype") == "branch_profits" for p in branch)
    (dividends,) = caps_under(ps, "art_10__para_2")
    assert dividends.rate_pct == Decimal(15) and "unread_condition" not in dividends.conditions


SWITCHED_OFF = """Artículo 11
Intereses
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado Contratante del que procedan, pero si el perceptor de los intereses es el beneficiario efectivo, el impuesto así exigido no puede exceder del 12 por ciento del importe bruto de esos intereses.
3. No obstante lo dispuesto en el apartado 2, los intereses originados en un Estado Contratante estarán exentos de impuesto en ese Estado si el que paga los intereses es el propio Estado, una subdivisión política, una autoridad local u Organismo de derecho público del mismo.
4. La reducción o exención de impuesto prevista en los apartados 2 y 3 del presente Artículo no se aplicará si el beneficiario efectivo del interés:
a) está exento de impuesto sobre dicha renta en el Estado Contratante en el cual es residente; y
b) vende el holding en el cual dicho interés es obtenido dentro de los tres meses de la fecha en que lo adquirió.
"""


def test_items_that_switch_the_rates_off_exempt_no_one() -> None:
    ps = extract_text(HEAD["es"] + SWITCHED_OFF)
    exemptions = [p for p in ps.provisions if p.kind == "exemption" and p.topic == "interest"]
    assert [p.cite.eid for p in exemptions] == ["art_11__para_3"]
    (public,) = exemptions
    assert set(public.conditions["payer_kinds"]) >= {"government", "local_authority", "government_owned"}
    # the payer's words are all read; what stays open is the paragraph that switches the exemption off
    assert public.conditions["unread_condition"].startswith("La reducción o exención")
