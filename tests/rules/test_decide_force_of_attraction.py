"""A limited force of attraction in the business-profits article (the UN Model's 7(1): "... but only so much of them
as is attributable to (a) that permanent establishment; (b) sales in that other State of goods or merchandise of the
same or similar kind as those sold through that permanent establishment; or (c) other business activities ..."; AR-CA
7(1) in Spanish): the source State's right is for the profits attributable to the permanent establishment
(`pe_connected`) and for those of such sales or activities (`similar_to_pe_activity`, a documented default false,
listed as an assumption). Before, the right named in a list was read with no condition and clashed with the
residence-only rule, naming no fact. The texts are our own."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "en": """CONVENTION BETWEEN CANADA AND THE ARGENTINE REPUBLIC

Article 7
Business profits

1. The profits of an enterprise of a Contracting State shall be taxable only in that State unless the enterprise carries on business in the other Contracting State through a permanent establishment situated therein. If the enterprise carries on business as aforesaid, the profits of the enterprise may be taxed in the other State but only so much of them as is attributable to:
(a) that permanent establishment;
(b) sales in that other State of goods or merchandise of the same or similar kind as those sold through that permanent establishment; or
(c) other business activities carried on in that other State of the same or similar kind as those effected through that permanent establishment.

2. Where profits include items of income which are dealt with separately in other Articles of this Convention, then the provisions of those Articles shall not be affected by the provisions of this Article.

Article 8
Shipping and air transport

1. Profits from the operation of ships or aircraft in international traffic shall be taxable only in the Contracting State in which the place of effective management of the enterprise is situated.
""",
    "es": """CONVENIO ENTRE CANADÁ Y LA REPÚBLICA ARGENTINA

Artículo 7
Beneficios empresariales

1. Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en ese Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un establecimiento permanente situado en él. Si la empresa realiza su actividad de dicha manera, los beneficios de la empresa pueden someterse a imposición en el otro Estado, pero sólo en la medida en que puedan atribuirse a:
a) ese establecimiento permanente;
b) las ventas en ese otro Estado de mercancías de tipo idéntico o similar al de las vendidas por ese establecimiento permanente; o
c) otras actividades empresariales realizadas en ese otro Estado de naturaleza idéntica o similar a las del citado establecimiento permanente.

2. Cuando los beneficios comprendan rentas reguladas separadamente en otros artículos de este Convenio, las disposiciones de aquéllos no quedarán afectadas por las del presente artículo.

Artículo 8
Navegación marítima y aérea

1. Los beneficios procedentes de la explotación de buques o aeronaves en tráfico internacional solamente pueden someterse a imposición en el Estado Contratante en que esté situada la sede de dirección efectiva de la empresa.
""",
    "pt": """CONVENÇÃO ENTRE O CANADÁ E A REPÚBLICA ARGENTINA

Artigo 7.º
Lucros das empresas

1. Os lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a empresa exerça a sua atividade no outro Estado Contratante por meio de um estabelecimento estável aí situado. Se a empresa exercer a sua atividade deste modo, os seus lucros podem ser tributados no outro Estado, mas unicamente na medida em que forem imputáveis:
a) a esse estabelecimento estável;
b) às vendas, nesse outro Estado, de mercadorias de natureza idêntica ou similar às vendidas por esse estabelecimento estável; ou
c) a outras atividades empresariais exercidas nesse outro Estado de natureza idêntica ou similar às desse estabelecimento estável.

2. Quando os lucros compreendam elementos do rendimento tratados separadamente noutros artigos desta Convenção, as respetivas disposições não serão afetadas pelas deste artigo.

Artigo 8.º
Navegação marítima e aérea

1. Os lucros provenientes da exploração de navios ou aeronaves no tráfego internacional só podem ser tributados no Estado Contratante em que estiver situada a direção efetiva da empresa.
""",
}


def _decide(language: str, **facts: object) -> dict:
    doc = taxtreaty.parse(TEXTS[language])
    scenario = {"income": "business_profits", "source": "AR", "residence": "CA", **facts}
    return taxtreaty.decide(doc, scenario, parties=["AR", "CA"]).to_dict()


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize(("facts", "expected"), [
    ({"pe_connected": True}, ("unlimited", "art_7__para_1")),
    ({"pe_connected": False, "similar_to_pe_activity": True}, ("unlimited", "art_7__para_1__point_b")),
    ({"pe_connected": False, "similar_to_pe_activity": False}, ("none", "art_7__para_1")),
])
def test_the_source_state_taxes_the_profits_the_establishment_attracts(language: str, facts: dict,
                                                                      expected: tuple) -> None:
    decision = _decide(language, **facts)
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", *expected)
    assert "similar_to_pe_activity" not in [a["fact"] for a in decision["assumptions"]]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_not_given_the_answer_names_the_fact_as_an_assumption(language: str) -> None:
    decision = _decide(language)
    assert (decision["status"], decision["source_taxation"]) == ("determined", "none")
    assert {"pe_connected", "similar_to_pe_activity"} <= {a["fact"] for a in decision["assumptions"]}
    provisions = taxtreaty.provisions(taxtreaty.parse(TEXTS[language]), parties=["AR", "CA"]).provisions
    assert sorted((p.cite.eid, p.conditions) for p in provisions if p.allocation == "source_may_tax") == [
        ("art_7__para_1", {"pe_connected": True}),
        ("art_7__para_1__point_b", {"similar_to_pe_activity": True}),
        ("art_7__para_1__point_c", {"similar_to_pe_activity": True}),
    ]
