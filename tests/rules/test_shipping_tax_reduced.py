"""India-style shipping: "Such profits may also be taxed in the Contracting State in which they arise, but the tax
so charged shall be reduced by an amount equal to 50 per cent thereof." Before, the source right was read as a
plain unlimited one and the reduction was lost (too wide, said as if certain). Now the answer carries a
`tax_reduced` caveat with the words that reduce the tax, in en/es/pt. Texts of our own."""

from __future__ import annotations

import pytest

import taxtreaty

TEXTS = {
    "en": ("CONVENTION BETWEEN THE REPUBLIC OF INDIA AND THE KINGDOM OF DENMARK\n\nArticle 7\nBusiness profits\n\n"
           "1. The profits of an enterprise of a Contracting State shall be taxable only in that State unless the "
           "enterprise carries on business in the other Contracting State through a permanent establishment situated "
           "therein.\n\nArticle 8\nShipping\n\n1. Profits derived by an enterprise of a Contracting State from the "
           "operation of ships in international traffic may be taxed in that State.\n\n2. Such profits may also be "
           "taxed in the Contracting State in which they arise, but the tax so charged shall be {reduced}.\n"),
    "es": ("CONVENIO ENTRE LA REPÚBLICA DE LA INDIA Y EL REINO DE ESPAÑA\n\nArtículo 7\nBeneficios empresariales\n\n"
           "1. Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en ese "
           "Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un "
           "establecimiento permanente situado en él.\n\nArtículo 8\nNavegación marítima\n\n1. Los beneficios obtenidos "
           "por una empresa de un Estado Contratante de la explotación de buques en tráfico internacional pueden "
           "someterse a imposición en ese Estado.\n\n2. Dichos beneficios pueden someterse también a imposición en el "
           "Estado Contratante del que procedan, pero el impuesto así exigido {reduced}.\n"),
    "pt": ("CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DA ÍNDIA\n\nArtigo 7.º\nLucros das empresas\n\n1 — Os "
           "lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a "
           "empresa exerça a sua actividade no outro Estado Contratante por meio de um estabelecimento estável aí "
           "situado.\n\nArtigo 8.º\nNavegação marítima\n\n1 — Os lucros obtidos por uma empresa de um Estado "
           "Contratante da exploração de navios no tráfego internacional podem ser tributados nesse Estado.\n\n2 — "
           "Esses lucros podem também ser tributados no Estado Contratante de que provêm, mas o imposto assim "
           "estabelecido {reduced}.\n"),
}
REDUCED = {"en": "reduced by an amount equal to 50 per cent thereof",
           "es": "se reducirá en un importe igual al 50 por ciento del mismo",
           "pt": "será reduzido num montante igual a 50 por cento do mesmo"}
#: the same paragraph with a plain cap instead: no reduction to state
CAPPED = {"en": "not exceed 4 per cent of the gross amount",
          "es": "no podrá exceder del 4 por ciento del importe bruto",
          "pt": "não poderá exceder 4 por cento do montante bruto"}
PARTIES = {"en": ("IN", "DK"), "es": ("IN", "ES"), "pt": ("IN", "PT")}


def _decide(language: str, words: str) -> dict:
    source, residence = PARTIES[language]
    document = taxtreaty.parse(TEXTS[language].format(reduced=words))
    return taxtreaty.decide(document, {"income": "shipping", "source": source, "residence": residence,
                                       "recipient": "company"}).to_dict()


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_source_tax_reduced_by_half_is_said(language: str) -> None:
    decision = _decide(language, REDUCED[language])
    assert decision["article_applied"] == "8"
    kinds = {(c["kind"], c["eid"]) for c in decision["caveats"]}
    assert ("tax_reduced", "art_8__para_2") in kinds
    assert "50" in next(c["quote"] for c in decision["caveats"] if c["kind"] == "tax_reduced")


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_no_reduction_no_caveat(language: str) -> None:
    decision = _decide(language, CAPPED[language])
    assert all(c["kind"] != "tax_reduced" for c in decision["caveats"])


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_the_enterprise_state_may_tax_and_the_answer_cites_the_source_right(language: str) -> None:
    # "Profits derived by an enterprise of a Contracting State ... may be taxed in that State": the enterprise's
    # own State (it was read as a source right, and the answer cited it); the source State's right is paragraph 2
    document = taxtreaty.parse(TEXTS[language].format(reduced=REDUCED[language]))
    found = {(p.cite.eid, p.allocation) for p in taxtreaty.provisions(document).provisions if p.kind == "allocation"}
    assert ("art_8__para_1", "residence_may_tax") in found and ("art_8__para_1", "source_may_tax") not in found
    decision = _decide(language, REDUCED[language])
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", "unlimited", "art_8__para_2")


def test_that_state_of_domestic_carriage_is_not_the_enterprise_state() -> None:
    # AR-CA 8(2): "that State" after "en localidades de un Estado Contratante" is the State of the carriage
    text = TEXTS["es"].replace(
        "2. Dichos beneficios pueden someterse también a imposición en el Estado Contratante del que procedan, pero el "
        "impuesto así exigido {reduced}.",
        "2. No obstante las disposiciones del apartado 1, los beneficios obtenidos por la explotación de buques "
        "utilizados principalmente para transportar pasajeros de manera exclusiva en localidades de un Estado "
        "Contratante, pueden someterse a imposición en ese Estado.")
    found = {(p.cite.eid, p.allocation) for p in taxtreaty.provisions(taxtreaty.parse(text)).provisions if p.kind == "allocation"}
    assert ("art_8__para_2", "source_may_tax") in found and ("art_8__para_1", "residence_may_tax") in found
