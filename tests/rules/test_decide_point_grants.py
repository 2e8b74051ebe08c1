"""A protocol point that grants the source State a right the article denies, with a cap on it: "No obstante lo
dispuesto en el apartado 1 del artículo 12, los cánones pueden someterse también a imposición en el Estado
contratante del que procedan, pero el impuesto así exigido no excederá del 5 por ciento ...", after an article
that gives the royalties to the residence State alone. Before, the cap was read but the point's grant was not:
the article's "sólo pueden someterse a imposición en ese otro Estado" stood and the answer was a confident 0 %.
After: the point's grant sets the article's rule aside, the cap is the answer (5 %, citing the point).

Fixtures are short conventions of our own in the shape of such texts, in es, en and pt."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest

import taxtreaty

ES = (
    "Convenio entre el Reino de España y la República de Armenia\n\n"
    "Artículo 12. Cánones.\n\n"
    "1. Los cánones procedentes de un Estado contratante y cuyo beneficiario efectivo sea un residente del otro "
    "Estado contratante sólo pueden someterse a imposición en ese otro Estado.\n\n"
    "Artículo 13. Ganancias de capital.\n\n"
    "1. Las ganancias derivadas de la enajenación de cualquier bien sólo pueden someterse a imposición en el "
    "Estado contratante en que resida el transmitente.\n\n"
    "PROTOCOLO\n\nEn el momento de la firma del Convenio, los signatarios han convenido lo siguiente:\n\n"
    "II. En relación con el artículo 12.\n\n"
    "No obstante lo dispuesto en el apartado 1 del artículo 12, los cánones pueden someterse también a imposición "
    "en el Estado contratante del que procedan, pero el impuesto así exigido no excederá del {rate} por ciento "
    "del importe bruto de los cánones.\n"
)
EN = (
    "Convention between the Kingdom of Spain and the Republic of Armenia\n\n"
    "Article 12\nRoyalties\n\n"
    "1. Royalties arising in a Contracting State and beneficially owned by a resident of the other Contracting "
    "State shall be taxable only in that other State.\n\n"
    "Article 13\nCapital gains\n\n"
    "1. Gains from the alienation of any property shall be taxable only in the Contracting State of which the "
    "alienator is a resident.\n\n"
    "PROTOCOL\n\nAt the moment of signing the Convention, the undersigned have agreed as follows:\n\n"
    "II. Ad Article 12.\n\n"
    "Notwithstanding the provisions of paragraph 1 of Article 12, royalties may also be taxed in the Contracting "
    "State in which they arise, but the tax so charged shall not exceed {rate} per cent of the gross amount of "
    "the royalties.\n"
)
PT = (
    "Convenção entre a República Portuguesa e a República da Arménia\n\n"
    "Artigo 12.º\nRoyalties\n\n"
    "1 — As royalties provenientes de um Estado Contratante e cujo beneficiário efectivo seja um residente do "
    "outro Estado Contratante só podem ser tributadas nesse outro Estado.\n\n"
    "Artigo 13.º\nMais-valias\n\n"
    "1 — Os ganhos provenientes da alienação de quaisquer bens só podem ser tributados no Estado Contratante de "
    "que o alienante é residente.\n\n"
    "PROTOCOLO\n\nNo momento da assinatura da Convenção, os signatários acordaram o seguinte:\n\n"
    "2. Ad artigo 12.º\n\n"
    "Não obstante o disposto no n.º 1 do artigo 12.º, as royalties podem ser igualmente tributadas no Estado "
    "Contratante de que provêm, mas o imposto assim estabelecido não excederá {rate} % do montante bruto das "
    "royalties.\n"
)


#: the State the royalties come from: a party of each fixture
SOURCE = {"es": "ES", "en": "ES", "pt": "PT"}


@cache
def _doc(language: str, rate: int) -> taxtreaty.Document:
    return taxtreaty.parse({"es": ES, "en": EN, "pt": PT}[language].format(rate=rate))


@pytest.mark.parametrize("language", ["es", "en", "pt"])
@pytest.mark.parametrize("rate", [5, 8])
def test_a_point_granting_the_source_a_capped_right_sets_the_residence_rule_aside(language: str, rate: int) -> None:
    d = taxtreaty.decide(_doc(language, rate), {"income": "royalties", "source": SOURCE[language], "residence": "AM",
                                                "beneficial_owner": True, "recipient": "company"}).to_dict()
    assert (d["status"], d["article_applied"]) == ("determined", "12")
    assert Decimal(str(d["max_rate_pct"])) == rate
    assert d["eid"].startswith("protocol_")


@pytest.mark.parametrize("language", ["es", "en", "pt"])
def test_the_article_the_point_does_not_name_keeps_its_rule(language: str) -> None:
    d = taxtreaty.decide(_doc(language, 5), {"income": "capital_gains", "source": SOURCE[language], "residence": "AM",
                                             "gain_property": "other"}).to_dict()
    assert (d["status"], str(d["max_rate_pct"]), d["eid"]) == ("determined", "0", "art_13__para_1")
