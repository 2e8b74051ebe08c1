"""Structure: a lettered list printed on one line after a colon that carries a dash, or a dash standing for it
(Indian notifications: "shall not exceed :- (a) 15 per cent ...; (b) 25 per cent ..."): its "(a)" is an item,
not words of the introduction."""

from __future__ import annotations

import pytest

import taxtreaty

EN = """ARTICLE 10
DIVIDENDS
1. Dividends paid by a company which is a resident of one of the States to a resident of the other State may be taxed in that other State.
2. However, such dividends may also be taxed in the State of which the company paying the dividends is a resident, but the tax so charged shall not exceed{opener} (a) 10 per cent of the gross amount of the dividends if the recipient is a company which owns at least 10 per cent of the shares; (b) 20 per cent of the gross amount of the dividends in all other cases.
3. The term "dividends" means income from shares.
"""

ES = """Artículo 10. Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado en que resida la sociedad que pague los dividendos, pero el impuesto así exigido no podrá exceder de{opener} a) el 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad; b) el 15 por ciento del importe bruto de los dividendos en los demás casos.
3. El término "dividendos" significa los rendimientos de las acciones.
"""

PT = """Artigo 10.º Dividendos
1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2 — No entanto, esses dividendos podem ser igualmente tributados no Estado de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá{opener} a) 10 por cento do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade; b) 15 por cento do montante bruto dos dividendos, nos restantes casos.
3 — O termo «dividendos» significa os rendimentos provenientes de acções.
"""


@pytest.mark.parametrize("text", [EN, ES, PT])
@pytest.mark.parametrize("opener", [" :-", ":-", " :—", " : -", " —", ":"])
def test_a_list_after_a_dashed_colon_opens_at_its_first_item(text: str, opener: str) -> None:
    doc = taxtreaty.parse(text.format(opener=opener))
    paragraph = doc.versions[0].article("10").paragraph("2")
    assert [p.eid.rsplit("_", 1)[-1] for p in paragraph.points] == ["a", "b"]
    assert paragraph.intro is not None and "10 per cent" not in paragraph.intro and "por c" not in paragraph.intro
