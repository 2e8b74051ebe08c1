"""A paragraph of the business-profits article for insurance and reinsurance profits ("los beneficios
... provenientes del desarrollo de la actividad aseguradora o de reaseguro ... serán imponibles en ese
otro Estado, ya sea que la empresa desarrolle su actividad ... a través de un establecimiento permanente
... o de otra manera ... tratándose de beneficios provenientes de operaciones de reaseguro, el impuesto
... no podrá exceder del 2,5 por ciento", AR-ES 7(5)) is for those profits only (fact `profits_kind`),
with or without a permanent establishment. Before, its 2.5 per cent cap was the answer for every
business profit attributable to a permanent establishment, confidently wrong. Texts of our own in
en/es/pt, in the wording of an Argentine convention."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "es": ("CONVENIO ENTRE LA REPUBLICA ARGENTINA Y EL REINO DE ESPAÑA\n\nArtículo 7\nBeneficios empresariales\n\n"
           "1. Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en este "
           "Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un "
           "establecimiento permanente situado en él. Si la empresa realiza su actividad de dicha manera, los "
           "beneficios de la empresa pueden someterse a imposición en el otro Estado, pero sólo en la medida en que "
           "puedan atribuirse a este establecimiento permanente.\n\n"
           "2. Asimismo, los beneficios obtenidos por una empresa de un Estado Contratante provenientes de la "
           "actividad aseguradora o de reaseguro, que cubran bienes situados en el otro Estado Contratante, serán "
           "imponibles en ese otro Estado, ya sea que la empresa desarrolle su actividad allí a través de un "
           "establecimiento permanente o de otra manera.\n\nEn este supuesto, tratándose de beneficios provenientes de "
           "operaciones de reaseguro, el impuesto exigible en ese otro Estado no podrá exceder del 2,5 por ciento del "
           "importe bruto de la prima.\n\nArtículo 8\nNavegación marítima y aérea\n\n1. Los beneficios "
           "procedentes de la explotación de buques o aeronaves en tráfico internacional sólo pueden someterse a "
           "imposición en el Estado Contratante en el que esté situada la sede de dirección efectiva de la empresa.\n"),
    "en": ("CONVENTION BETWEEN THE ARGENTINE REPUBLIC AND THE KINGDOM OF SPAIN\n\nArticle 7\nBusiness Profits\n\n"
           "1. The profits of an enterprise of a Contracting State shall be taxable only in that State unless the "
           "enterprise carries on business in the other Contracting State through a permanent establishment situated "
           "therein. If the enterprise carries on business as aforesaid, the profits of the enterprise may be taxed in "
           "the other State but only so much of them as is attributable to that permanent establishment.\n\n"
           "2. Profits derived by an enterprise of a Contracting State from insurance activities or reinsurance "
           "operations covering property situated in the other Contracting State may be taxed in that other State, "
           "whether the enterprise carries on business there through a permanent establishment or otherwise. "
           "In the case of profits from reinsurance operations, the tax so charged in that other State shall not "
           "exceed 2.5 per cent of the gross amount of the premium.\n\nArticle 8\nShipping and Air Transport\n\n1. Profits "
           "from the operation of ships or aircraft in international traffic shall be taxable only in the Contracting "
           "State in which the place of effective management of the enterprise is situated.\n"),
    "pt": ("CONVENÇÃO ENTRE A REPÚBLICA ARGENTINA E O REINO DE ESPANHA\n\nArtigo 7\nLucros das empresas\n\n"
           "1. Os lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a "
           "empresa exerça a sua atividade no outro Estado Contratante por meio de um estabelecimento estável aí "
           "situado. Se a empresa exercer a sua atividade deste modo, os seus lucros podem ser tributados no outro "
           "Estado, mas unicamente na medida em que forem imputáveis a esse estabelecimento estável.\n\n"
           "2. Os lucros obtidos por uma empresa de um Estado Contratante provenientes da atividade seguradora ou de "
           "operações de resseguro, que cubram bens situados no outro Estado Contratante, podem ser tributados nesse "
           "outro Estado, quer a empresa exerça aí a sua atividade através de um estabelecimento estável quer de "
           "outro modo.\n\nTratando-se de lucros provenientes de operações de resseguro, o imposto assim estabelecido "
           "nesse outro Estado não poderá exceder 2,5 por cento do montante bruto do prémio.\n\nArtigo 8\nNavegação marítima e aérea\n\n1. Os lucros "
           "provenientes da exploração de navios ou aeronaves no tráfego internacional só podem ser tributados no "
           "Estado Contratante em que estiver situada a direção efetiva da empresa.\n"),
}
BASE = {"income": "business_profits", "source": "AR", "residence": "ES", "date": "2024-01-01"}


def _decide(language: str, **facts: object) -> dict:
    return taxtreaty.decide(taxtreaty.parse(TEXTS[language]), {**BASE, **facts}, parties=["AR", "ES"]).to_dict()


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_the_reinsurance_cap_is_not_the_answer_for_every_profit_of_a_permanent_establishment(language: str) -> None:
    asked = _decide(language, pe_connected=True)
    assert asked["status"] == "indeterminate" and asked["missing_facts"] == ["profits_kind"]
    plain = _decide(language, pe_connected=True, profits_kind="other")
    assert (plain["status"], plain["source_taxation"], plain["eid"]) == ("determined", "unlimited", "art_7__para_1")
    none = _decide(language, pe_connected=False, profits_kind="other")
    assert (none["status"], none["source_taxation"]) == ("determined", "none")


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_insurance_profits_may_be_taxed_with_or_without_a_permanent_establishment(language: str) -> None:
    for pe in (True, False):
        reinsurance = _decide(language, pe_connected=pe, profits_kind="reinsurance")
        assert (reinsurance["status"], reinsurance["max_rate_pct"], reinsurance["eid"]) == \
            ("determined", "2.5", "art_7__para_2")
        insurance = _decide(language, pe_connected=pe, profits_kind="insurance")
        assert (insurance["status"], insurance["source_taxation"]) == ("determined", "unlimited")
