"""A protocol point that sends the income of profit-sharing bonds to the dividend article ("in case one of the States
subjects the income from profit sharing bonds to a tax on dividends, article 10 is applicable to such income arising in
that State": NL-DK VI; "in the case of the Netherlands, the term “dividends” includes income from profit-sharing
bonds": NL-RO VI): interest on such bonds (`interest_profit_sharing: true`) takes the dividend article's rules; ordinary
interest keeps the interest article, the fact a documented default listed as an assumption. The texts are our own."""

from __future__ import annotations

import pytest

import taxtreaty

_ARTICLES = {
    "en": """CONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE KINGDOM OF DENMARK

Article 10
Dividends

1. Dividends paid by a company which is a resident of one of the States to a resident of the other State may be taxed in that other State.

2. However, such dividends may also be taxed in the State of which the company paying the dividends is a resident and according to the laws of that State, but if the recipient is the beneficial owner of the dividends the tax so charged shall not exceed 12 per cent of the gross amount of the dividends.

Article 11
Interest

1. Interest arising in one of the States and paid to a resident of the other State shall be taxable only in that other State if such resident is the beneficial owner of the interest.

PROTOCOL

IV. Ad Articles 10 and 11

{point}
""",
    "es": """CONVENIO ENTRE EL REINO DE LOS PAÍSES BAJOS Y EL REINO DE DINAMARCA

Artículo 10
Dividendos

1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos y según la legislación de ese Estado, pero si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de los dividendos.

Artículo 11
Intereses

1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante solamente pueden someterse a imposición en ese otro Estado si dicho residente es el beneficiario efectivo de los intereses.

PROTOCOLO

1. Con referencia a los artículos 10 y 11:
{point}
""",
    "pt": """CONVENÇÃO ENTRE O REINO DOS PAÍSES BAIXOS E O REINO DA DINAMARCA

Artigo 10.º
Dividendos

1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2. Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos e de acordo com a legislação desse Estado, mas se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá 12 por cento do montante bruto dos dividendos.

Artigo 11.º
Juros

1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante só podem ser tributados nesse outro Estado se esse residente for o beneficiário efetivo dos juros.

PROTOCOLO

1. Ad artigos 10.º e 11.º
{point}
""",
}

#: (language, the point's sentence, the State it is scoped to, whether it turns on a State's law)
POINTS = [
    ("en", "Notwithstanding Article 11, where a State subjects the income from profit sharing bonds to a tax on dividends, "
           "Article 10 is applicable to such income arising in that State.", None, True),
    ("en", "It is understood that in the case of the Netherlands, the term \"dividends\" includes income from "
           "participating loans.", "NL", False),
    ("es", "No obstante lo dispuesto en el artículo 11, las rentas de obligaciones con participación en beneficios "
           "procedentes de un Estado se considerarán dividendos cuando ese Estado las someta a imposición como tales.",
     None, False),
    ("es", "En el caso de los Países Bajos, las rentas de préstamos participativos serán tratados como dividendos.",
     "NL", False),
    ("pt", "Não obstante o disposto no artigo 11.º, os rendimentos de obrigações participantes provenientes de um Estado "
           "são considerados dividendos, sendo-lhes aplicável o artigo 10.º.", None, False),
    ("pt", "No caso dos Países Baixos, os rendimentos de empréstimos participativos são tratados como dividendos.",
     "NL", False),
]

_BASE = {"income": "interest", "beneficial_owner": True, "recipient": "individual"}


def _decide(language: str, point: str, **facts: object) -> dict:
    doc = taxtreaty.parse(_ARTICLES[language].format(point=point))
    scenario = {"source": "NL", "residence": "DK", **_BASE, **facts}
    return taxtreaty.decide(doc, scenario, parties=["NL", "DK"]).to_dict()


@pytest.mark.parametrize(("language", "point", "scoped", "law"), POINTS)
def test_profit_sharing_interest_takes_the_dividend_rate(language: str, point: str, scoped: str | None,
                                                        law: bool) -> None:
    decision = _decide(language, point, interest_profit_sharing=True)
    assert (decision["status"], decision["max_rate_pct"], decision["article_applied"]) == ("determined", "12", "10")
    assert decision["eid"] == "art_10__para_2"
    assert ("domestic_law" in [c["kind"] for c in decision["caveats"]]) is law


@pytest.mark.parametrize(("language", "point", "scoped", "law"), POINTS)
def test_ordinary_interest_keeps_its_article_with_the_assumption(language: str, point: str, scoped: str | None,
                                                                 law: bool) -> None:
    decision = _decide(language, point)
    assert (decision["status"], decision["source_taxation"], decision["article_applied"]) == ("determined", "none", "11")
    assert "interest_profit_sharing" in [a["fact"] for a in decision["assumptions"]]
    assert "profit_participation" not in [c["kind"] for c in decision["caveats"]]
    said = _decide(language, point, interest_profit_sharing=False)
    assert (said["source_taxation"], said["article_applied"]) == ("none", "11")
    assert "interest_profit_sharing" not in [a["fact"] for a in said["assumptions"]]


@pytest.mark.parametrize(("language", "point", "scoped", "law"), [p for p in POINTS if p[2]])
def test_a_point_for_one_state_leaves_the_other_states_interest(language: str, point: str, scoped: str | None,
                                                                law: bool) -> None:
    decision = _decide(language, point, source="DK", residence="NL", interest_profit_sharing=True)
    assert (decision["source_taxation"], decision["article_applied"]) == ("none", "11")
    assert "interest_profit_sharing" not in [a["fact"] for a in _decide(language, point, source="DK",
                                                                         residence="NL")["assumptions"]]


@pytest.mark.parametrize(("language", "point"), [
    # the source State's own law on such income, not the dividend article: no switch (a caveat)
    ("es", "Los intereses de préstamos participativos procedentes de los Países Bajos serán gravados con los impuestos "
           "que disponga la legislación de ese Estado."),
    # dividends named, but no profit-sharing debt-claim: no switch
    ("en", "It is understood that the term \"dividends\" includes income from jouissance shares."),
])
def test_other_points_switch_nothing(language: str, point: str) -> None:
    decision = _decide(language, point, interest_profit_sharing=True)
    assert decision["article_applied"] == "11"
