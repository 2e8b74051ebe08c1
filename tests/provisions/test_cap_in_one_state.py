"""A cap whose words place the tax in one State ("el impuesto así exigido en Colombia no podrá exceder del 15 por
ciento", "the tax so charged in Colombia", "o imposto assim estabelecido na Colômbia") is that State's as source:
its conditions (here unread words on profits not taxed at the company's level) keep open the dividends Colombia
taxes only. Before, the cap held both ways and the dividends paid from Spain, which it cannot touch, were open too,
on words about Colombian law; after, from Spain the article's 0 % is the answer, from Colombia the question stays.

Fixtures are short conventions of our own in the shape of such texts, in es, en and pt."""

from __future__ import annotations

from decimal import Decimal

import pytest

import taxtreaty

ES = """CONVENIO ENTRE LA REPÚBLICA DE COLOMBIA Y EL REINO DE ESPAÑA

ARTÍCULO 10
DIVIDENDOS

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:

a) 0 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 20 por ciento del capital de la sociedad que paga los dividendos;

b) 5 por ciento del importe bruto de los dividendos en todos los demás casos.

3. No obstante lo dispuesto en el apartado 2, cuando los dividendos se paguen con cargo a beneficios que, según la legislación colombiana, no hayan sido gravados en cabeza de la sociedad que los reparte, el impuesto así exigido en Colombia no podrá exceder del 15 por ciento del importe bruto de los dividendos.
"""
EN = """CONVENTION BETWEEN THE REPUBLIC OF COLOMBIA AND THE KINGDOM OF SPAIN

Article 10
Dividends

1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.

2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:

a) 0 per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 20 per cent of the capital of the company paying the dividends;

b) 5 per cent of the gross amount of the dividends in all other cases.

3. Notwithstanding the provisions of paragraph 2, where the dividends are paid out of profits which, under Colombian law, have not been taxed at the level of the company distributing them, the tax so charged in Colombia shall not exceed 15 per cent of the gross amount of the dividends.
"""
PT = """CONVENÇÃO ENTRE A REPÚBLICA DA COLÔMBIA E A REPÚBLICA PORTUGUESA

Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

a) 0 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directamente pelo menos 20 % do capital da sociedade que paga os dividendos;

b) 5 % do montante bruto dos dividendos, nos restantes casos.

3 — Não obstante o disposto no n.º 2, quando os dividendos forem pagos a partir de lucros que, nos termos da legislação colombiana, não tenham sido tributados ao nível da sociedade que os distribui, o imposto assim estabelecido na Colômbia não excederá 15 % do montante bruto dos dividendos.
"""
OTHER = {"es": "ES", "en": "ES", "pt": "PT"}


@pytest.mark.parametrize(("language", "text"), [("es", ES), ("en", EN), ("pt", PT)])
def test_a_cap_placed_in_one_state_holds_for_that_source_only(language, text):
    doc = taxtreaty.parse(text)
    facts = {"income": "dividends", "beneficial_owner": True, "recipient": "company", "capital_pct": 30}
    other = taxtreaty.decide(doc, {**facts, "source": OTHER[language], "residence": "CO"}).to_dict()
    assert (other["status"], Decimal(str(other["max_rate_pct"])), other["eid"]) == ("determined", 0, "art_10__para_2__point_a")
    colombia = taxtreaty.decide(doc, {**facts, "source": "CO", "residence": OTHER[language]}).to_dict()
    assert colombia["status"] == "indeterminate"
    assert any(u["eid"] == "art_10__para_3" for u in colombia["unread"])
