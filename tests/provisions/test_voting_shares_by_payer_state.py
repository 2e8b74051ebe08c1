"""A qualifying holding counted in voting shares ("participações com direito de voto", "participaciones con derecho a
voto", "voting shares") for a company of one State and in capital for the other, after a holding period said once for
both ("que tenha detido, directamente, durante um período de 12 meses ... alternativamente: (i) ... (ii) ..."), as the
Portuguese convention with Japan prints it. Before, "participações com direito de voto" was left as unread words: every
dividend from the first State abstained on them (no fact a user could give). Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty

_PT = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O JAPÃO

Artigo 10.º
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2. No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas, se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não pode exceder:
a) 5% do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade (com excepção das partnerships) que tenha detido, directamente, durante um período de 12 meses imediatamente anterior à data da determinação do direito aos dividendos, alternativamente:

(i) pelo menos 10% das participações com direito de voto na sociedade que paga os dividendos, quando esta sociedade seja residente do Japão; ou

(ii) pelo menos 10% do capital da sociedade que paga os dividendos, quando esta sociedade seja residente de Portugal; ou

b) 10% do montante bruto dos dividendos, nos restantes casos.
"""
_ES = """CONVENIO ENTRE EL REINO DE ESPAÑA Y EL JAPÓN

Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos, si el beneficiario efectivo es una sociedad que haya poseído directamente, durante un período de 12 meses anterior a la fecha en que se determine el derecho a los dividendos:
(i) al menos el 10 por ciento de las participaciones con derecho a voto de la sociedad que paga los dividendos, cuando dicha sociedad sea residente del Japón; o
(ii) al menos el 10 por ciento del capital de la sociedad que paga los dividendos, cuando dicha sociedad sea residente de España;
b) 10 por ciento del importe bruto de los dividendos en todos los demás casos.
"""
TEXTS = {"pt": (_PT, "PT"), "es": (_ES, "ES")}


def _decide(language: str, source_is_japan: bool, **facts):
    text, first = TEXTS[language]
    source, residence = ("JP", first) if source_is_japan else (first, "JP")
    scenario = {"income": "dividends", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", **facts}
    return taxtreaty.decide(taxtreaty.parse(text.encode()), scenario).to_dict()


@pytest.mark.parametrize("language", TEXTS)
@pytest.mark.parametrize(("source_is_japan", "facts", "expected"), [
    (True, {"voting_pct": 20, "held_months": 24}, ("determined", "5", [])),
    (True, {"voting_pct": 5, "capital_pct": 20, "held_months": 24}, ("determined", "10", [])),
    (True, {"capital_pct": 20, "held_months": 24}, ("indeterminate", None, ["voting_pct"])),
    (True, {"voting_pct": 20, "held_months": 6}, ("determined", "10", [])),
    (False, {"capital_pct": 20, "held_months": 24}, ("determined", "5", [])),
    (False, {"voting_pct": 20, "held_months": 24}, ("indeterminate", None, ["capital_pct"])),
    (False, {"capital_pct": 20}, ("indeterminate", None, ["held_months"])),
])
def test_voting_shares_are_read_for_the_paying_companys_state(language, source_is_japan, facts, expected):
    decision = _decide(language, source_is_japan, **facts)
    assert (decision["status"], decision["max_rate_pct"], decision["missing_facts"]) == expected
    assert not decision["unread"]
