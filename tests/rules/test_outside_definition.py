"""Technical-service fees under a royalties article whose definition does not name them are no royalties:
the business-profits article decides (no source tax without a permanent establishment). Before, the fee
matched no cap and took the article's uncapped source right, confidently wrong (NL-KR, NL-CN 12(3)).
Where the article or a protocol point on it speaks of technical services, the article is left as it is;
a royalty whose kind is not given is never asked about it. Texts of our own in en/es/pt."""

from __future__ import annotations

import pytest

import taxtreaty

ARTICLES = {
    "en": ("AGREEMENT BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF KOREA\n\nArticle 7\nBusiness profits\n\n"
           "1. The profits of an enterprise of a Contracting State shall be taxable only in that State unless the "
           "enterprise carries on business in the other Contracting State through a permanent establishment situated "
           "therein.\n\nArticle 12\nRoyalties\n\n1. Royalties arising in a Contracting State and paid to a resident of the "
           "other Contracting State may be taxed in that other State.\n\n2. However, such royalties may also be taxed in "
           "the Contracting State in which they arise, but the tax so charged shall not exceed 10 per cent of the gross "
           "amount of the royalties.\n\n3. The term “royalties” as used in this Article means payments of any kind "
           "received as a consideration for the use of, or the right to use, any copyright of literary, artistic or "
           "scientific work, any patent, trade mark, design or model, plan, secret formula or process, or for "
           "information concerning industrial, commercial or scientific experience.{extra}\n"),
    "es": ("CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE COREA\n\nArtículo 7\nBeneficios empresariales\n\n"
           "1. Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en ese "
           "Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un "
           "establecimiento permanente situado en él.\n\nArtículo 12\nCánones\n\n1. Los cánones procedentes de un Estado "
           "Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro "
           "Estado.\n\n2. Sin embargo, estos cánones pueden someterse también a imposición en el Estado Contratante del "
           "que procedan, pero el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los "
           "cánones.\n\n3. El término “cánones” empleado en este artículo significa las cantidades de cualquier clase "
           "pagadas por el uso, o la concesión de uso, de derechos de autor sobre obras literarias, artísticas o "
           "científicas, de patentes, marcas de fábrica o de comercio, dibujos o modelos, planos, fórmulas o "
           "procedimientos secretos, o por informaciones relativas a experiencias industriales, comerciales o "
           "científicas.{extra}\n"),
    "pt": ("CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DA COREIA\n\nArtigo 7.º\nLucros das empresas\n\n"
           "1 — Os lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a "
           "empresa exerça a sua actividade no outro Estado Contratante por meio de um estabelecimento estável aí "
           "situado.\n\nArtigo 12.º\nRoyalties\n\n1 — As royalties provenientes de um Estado Contratante e pagas a um "
           "residente do outro Estado Contratante podem ser tributadas nesse outro Estado.\n\n2 — No entanto, essas "
           "royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas o imposto assim "
           "estabelecido não excederá 10 por cento do montante bruto das royalties.\n\n3 — O termo «royalties», usado "
           "neste artigo, significa as retribuições de qualquer natureza atribuídas pelo uso ou pela concessão do uso "
           "de um direito de autor sobre uma obra literária, artística ou científica, de uma patente, de uma marca de "
           "fabrico ou de comércio, de um desenho ou de um modelo, de um plano, de uma fórmula ou de um processo "
           "secretos, ou por informações respeitantes a uma experiência adquirida no sector industrial, comercial ou "
           "científico.{extra}\n"),
}
#: a definition that names technical assistance, as some conventions' do
NAMED = {"en": " The term also includes payments for technical assistance.",
         "es": " El término comprende también los pagos por asistencia técnica.",
         "pt": " O termo inclui também as retribuições por assistência técnica."}
PARTIES = {"en": ("KR", "NL"), "es": ("KR", "ES"), "pt": ("KR", "PT")}


def _decide(language: str, extra: str = "", **facts: object) -> dict:
    source, residence = PARTIES[language]
    document = taxtreaty.parse(ARTICLES[language].format(extra=extra))
    scenario = {"income": "royalties", "source": source, "residence": residence, "beneficial_owner": True,
                "recipient": "company", **facts}
    return taxtreaty.decide(document, scenario).to_dict()


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_technical_services_outside_the_definition_are_profits(language: str) -> None:
    decision = _decide(language, royalty_kind="technical_services", pe_connected=False)
    assert (decision["status"], decision["source_taxation"], decision["article_applied"]) == ("determined", "none", "7")


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_definition_naming_technical_assistance_keeps_the_cap(language: str) -> None:
    decision = _decide(language, NAMED[language], royalty_kind="technical_services", pe_connected=False)
    assert (decision["status"], decision["max_rate_pct"], decision["article_applied"]) == ("determined", "10", "12")


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_royalty_of_a_kind_not_given_keeps_the_cap_and_asks_nothing_of_it(language: str) -> None:
    decision = _decide(language)
    assert (decision["status"], decision["max_rate_pct"], decision["article_applied"]) == ("determined", "10", "12")
    patents = _decide(language, royalty_kind="patents")
    assert (patents["status"], patents["max_rate_pct"]) == ("determined", "10")


#: a protocol to the article, each with one point
PROTOCOL = {"en": "\nPROTOCOL\n\nAd Article 12\n\n{point}\n",
            "es": "\nPROTOCOLO\n\n1. Con relación al artículo 12:\n\n{point}\n",
            "pt": "\nPROTOCOLO\n\n1. Relativamente ao artigo 12.º:\n\n{point}\n"}
#: a point that narrows the definition: a technical word names what is NOT a royalty (NL-KR's protocol VI)
NARROWING = {
    "en": "With respect to paragraph 3 of Article 12, payments received as a consideration for studies or surveys of a "
          "scientific, geological or technical nature shall not be considered as payments for “information "
          "concerning industrial, commercial or scientific experience”.",
    "es": "Con respecto al apartado 3 del artículo 12, las cantidades pagadas por estudios o prospecciones de "
          "naturaleza científica, geológica o técnica no se considerarán pagos por “informaciones relativas a "
          "experiencias industriales, comerciales o científicas”.",
    "pt": "Relativamente ao n.º 3 do artigo 12.º, as retribuições pagas por estudos ou levantamentos de natureza "
          "científica, geológica ou técnica não serão consideradas retribuições por «informações respeitantes a uma "
          "experiência adquirida no sector industrial, comercial ou científico».",
}
#: a point that widens it: technical services are deemed royalties
WIDENING = {
    "en": "Payments received as a consideration for technical services shall be deemed to be royalties.",
    "es": "Las cantidades pagadas por servicios técnicos se considerarán cánones.",
    "pt": "As retribuições pagas por serviços técnicos serão consideradas royalties.",
}
#: a point that narrows and widens again in one sentence: not clear, the article stays as it is
NARROWING_UNLESS = {
    "en": "Payments for technical services shall not be considered as royalties unless they are paid for "
          "information concerning scientific experience.",
    "es": "Los pagos por servicios técnicos no se considerarán cánones a menos que se paguen por informaciones "
          "relativas a experiencias científicas.",
    "pt": "Os pagamentos por serviços técnicos não serão considerados royalties a menos que sejam pagos por "
          "informações respeitantes a uma experiência científica.",
}


def _with_point(language: str, point: str) -> str:
    return PROTOCOL[language].format(point=point)


@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_point_that_only_narrows_the_definition_keeps_the_fees_outside(language: str) -> None:
    decision = _decide(language, _with_point(language, NARROWING[language]), royalty_kind="technical_services",
                       pe_connected=False)
    assert (decision["status"], decision["source_taxation"], decision["article_applied"]) == ("determined", "none", "7")


@pytest.mark.parametrize("points", [WIDENING, NARROWING_UNLESS], ids=["widening", "narrowing-unless"])
@pytest.mark.parametrize("language", ["en", "es", "pt"])
def test_a_point_that_widens_the_definition_or_is_unclear_leaves_the_article(language: str, points: dict) -> None:
    decision = _decide(language, _with_point(language, points[language]), royalty_kind="technical_services",
                       pe_connected=False)
    assert decision["article_applied"] == "12"
    assert decision["source_taxation"] != "none"
