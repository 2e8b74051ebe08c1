"""Agreements between a State and a territory (Hong Kong, Macau, Taiwan) say "Parte Contratante", "Parte
Contratante", "Contracting Party" where conventions say "Estado Contratante": "se o beneficiário efectivo dos juros
for um residente da outra Parte Contratante" is the beneficial-owner condition, read; before, "parte" was left as an
unread word and every interest, dividend and royalty payment abstained naming no fact a user could give. Sentences
of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "pt": """Artigo 11.º
Juros
1 — Os juros provenientes de uma Parte Contratante e pagos a um residente da outra Parte Contratante podem ser tributados nessa outra Parte.
2 — No entanto, esses juros podem ser igualmente tributados na Parte Contratante de que provêm e de acordo com a legislação dessa Parte, mas se o beneficiário efectivo dos juros for um residente da outra Parte Contratante, o imposto assim estabelecido não excederá 10 % do montante bruto dos juros.
""",
    "es": """Artículo 11
Intereses
1. Los intereses procedentes de una Parte Contratante y pagados a un residente de la otra Parte Contratante pueden someterse a imposición en esa otra Parte.
2. Sin embargo, dichos intereses pueden someterse también a imposición en la Parte Contratante de la que procedan, pero si el beneficiario efectivo de los intereses es residente de la otra Parte Contratante, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.
""",
    "en": """Article 11
Interest
1. Interest arising in a Contracting Party and paid to a resident of the other Contracting Party may be taxed in that other Party.
2. However, such interest may also be taxed in the Contracting Party in which it arises, but if the beneficial owner of the interest is a resident of the other Contracting Party, the tax so charged shall not exceed 10 per cent of the gross amount of the interest.
""",
}


@pytest.mark.parametrize("language", TEXTS)
@pytest.mark.parametrize(("beneficial_owner", "expected"), [(True, ("determined", "10", "limited")),
                                                            (False, ("determined", None, "unlimited"))])
def test_a_contracting_party_is_read_as_a_contracting_state(language, beneficial_owner, expected):
    scenario = {"income": "interest", "source": "PT", "residence": "HK", "beneficial_owner": beneficial_owner,
                "recipient": "company", "payer": "company"}
    d = taxtreaty.decide(taxtreaty.parse(TEXTS[language].encode()), scenario).to_dict()
    assert (d["status"], d["max_rate_pct"], d["source_taxation"]) == expected
    assert not d["unread"]
