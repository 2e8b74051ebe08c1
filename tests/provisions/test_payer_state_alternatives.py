"""A qualifying holding measured one way for dividends paid by a company of one State and another way for those of
the other, as the Portuguese conventions with Peru and Japan write it ("a) 10% ..., se o beneficiário efetivo for
uma sociedade que (i) detenha, diretamente, pelo menos 10% do capital da sociedade que paga os dividendos quando
esta sociedade for residente de Portugal; ou (ii) controle, diretamente, pelo menos 10% dos direitos de voto ...
quando esta sociedade for residente do Peru"). Before, the State of the paying company was not read: a company
holding 20% of the capital but 5% of the votes of a Peruvian company got 10% from alternative (i), which holds for
Portuguese companies only; the answer is 15%. The same in Spanish and English, sentences of our own."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "pt": """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DO PERU

Artigo 10.º
Dividendos
1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2 — No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não deverá exceder:
a) 10% do montante bruto dos dividendos, se o beneficiário efetivo for uma sociedade que:
(i) detenha, diretamente, pelo menos 10% do capital da sociedade que paga os dividendos quando esta sociedade for residente de Portugal; ou
(ii) controle, diretamente, pelo menos 10% dos direitos de voto da sociedade que paga os dividendos quando esta sociedade for residente do Peru;
b) 15% do montante bruto dos dividendos, nos restantes casos.
""",
    "es": """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DEL PERÚ

Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que:
(i) posea directamente al menos el 10 por ciento del capital de la sociedad que paga los dividendos cuando dicha sociedad sea residente de España; o
(ii) controle directamente al menos el 10 por ciento de los derechos de voto de la sociedad que paga los dividendos cuando dicha sociedad sea residente del Perú;
b) 15 por ciento del importe bruto de los dividendos en todos los demás casos.
""",
    "en": """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND PERU

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:
(a) 10 per cent of the gross amount of the dividends if the beneficial owner is a company which:
(i) holds directly at least 10 per cent of the capital of the company paying the dividends where that company is a resident of Portugal; or
(ii) controls directly at least 10 per cent of the voting power of the company paying the dividends where that company is a resident of Peru;
(b) 15 per cent of the gross amount of the dividends in all other cases.
""",
}
FIRST = {"pt": "PT", "es": "ES", "en": "PT"}


@pytest.mark.parametrize("language", TEXTS)
@pytest.mark.parametrize(("source_is_first", "facts", "expected"), [
    (True, {"capital_pct": 20, "voting_pct": 5}, ("determined", "10")),
    (False, {"capital_pct": 20, "voting_pct": 5}, ("determined", "15")),
    (False, {"capital_pct": 5, "voting_pct": 20}, ("determined", "10")),
    (True, {"capital_pct": 5, "voting_pct": 20}, ("determined", "15")),
])
def test_each_alternative_holds_for_the_paying_companys_state_only(language, source_is_first, facts, expected):
    first, other = FIRST[language], "PE"
    source, residence = (first, other) if source_is_first else (other, first)
    scenario = {"income": "dividends", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", **facts}
    decision = taxtreaty.decide(taxtreaty.parse(TEXTS[language].encode()), scenario).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == expected


@pytest.mark.parametrize("language", TEXTS)
def test_the_measure_the_paying_state_uses_is_the_fact_asked(language):
    doc = taxtreaty.parse(TEXTS[language].encode())
    scenario = {"income": "dividends", "source": "PE", "residence": FIRST[language], "beneficial_owner": True,
                "recipient": "company", "capital_pct": 20}
    decision = taxtreaty.decide(doc, scenario).to_dict()
    assert (decision["status"], decision["missing_facts"]) == ("indeterminate", ["voting_pct"])
