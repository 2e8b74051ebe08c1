"""A protocol point that holds for one Contracting State only ("en el caso de Argentina", "in the case of
Brazil", "no caso do Brasil") qualifies the rate as that State charges it at source; the same rate charged by
the other State keeps the article's words alone (before, a registration requirement of Argentina's law was a
caveat on Canada's tax too, and a condition for Argentina only made both directions indeterminate). Texts are
short conventions of our own in the wordings of the Argentine Boletín Oficial and of English and Portuguese
protocols."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

ARTICLE = {
    "es": ("Convenio entre la República Argentina y Canadá\n\nArtículo 12\nRegalías\n\n"
           "1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante "
           "pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, dichas regalías pueden someterse también a imposición en el Estado Contratante del que "
           "procedan y de acuerdo con la legislación de ese Estado, pero si el beneficiario efectivo es un residente "
           "del otro Estado Contratante, el impuesto así exigido no podrá exceder del 10 por ciento del importe "
           "bruto de las regalías.\n\nPROTOCOLO\n\n1. Con relación al artículo 12:\n\n"),
    "en": ("Convention between the Kingdom of the Netherlands and the Federative Republic of Brazil\n\n"
           "Article 12\nRoyalties\n\n1. Royalties arising in a Contracting State and paid to a resident of the other "
           "Contracting State may be taxed in that other State.\n\n2. However, such royalties may also be taxed in the "
           "Contracting State in which they arise and according to the laws of that State, but if the recipient is the "
           "beneficial owner of the royalties the tax so charged shall not exceed 10 per cent of the gross amount of "
           "the royalties.\n\nPROTOCOL\n\n1. With reference to Article 12:\n\n"),
    "pt": ("Convenção entre a República Portuguesa e a República Federativa do Brasil\n\nArtigo 12.º\nRoyalties\n\n"
           "1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
           "podem ser tributadas nesse outro Estado.\n\n2 — Todavia, essas royalties podem ser igualmente tributadas no "
           "Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efectivo "
           "das royalties for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá "
           "10 % do montante bruto das royalties.\n\nPROTOCOLO\n\n1. Relativamente ao artigo 12.º:\n\n"),
}
REGISTRATION = {
    "es": "a) la limitación de la imposición en la fuente prevista en el apartado 2 procederá, en el caso de Argentina, "
          "siempre que se cumplan los requisitos de registro previstos en su legislación interna;\n",
    "en": "a) the limitation of the tax at source provided in paragraph 2 shall apply, in the case of Brazil, provided "
          "that the registration requirements of its domestic law are met;\n",
    "pt": "a) a limitação do imposto na fonte prevista no n.º 2 aplica-se, no caso do Brasil, desde que sejam cumpridos "
          "os requisitos de registo previstos na sua legislação interna;\n",
}
PARTIES = {"es": ["AR", "CA"], "en": ["NL", "BR"], "pt": ["PT", "BR"]}
NAMED = {"es": "AR", "en": "BR", "pt": "BR"}


def _decide(text: str, language: str, source: str) -> dict[str, Any]:
    parties = PARTIES[language]
    residence = next(p for p in parties if p != source)
    facts = {"income": "royalties", "source": source, "residence": residence, "beneficial_owner": True,
             "recipient": "company", "royalty_kind": "patents"}
    return taxtreaty.decide(taxtreaty.parse(text), facts, parties=parties).to_dict()


@pytest.mark.parametrize("language", ["es", "en", "pt"])
def test_a_proviso_for_one_state_is_on_that_states_tax_only(language: str) -> None:
    text = ARTICLE[language] + REGISTRATION[language]
    named = NAMED[language]
    other = next(p for p in PARTIES[language] if p != named)
    there = _decide(text, language, named)
    assert (there["status"], there["max_rate_pct"]) == ("determined", "10")
    assert [c["kind"] for c in there["caveats"]] == ["domestic_law"]
    here = _decide(text, language, other)
    assert (here["status"], here["max_rate_pct"]) == ("determined", "10")
    assert here["caveats"] == []


def test_a_condition_for_one_state_leaves_the_other_states_rate_as_it_is() -> None:
    text = ARTICLE["es"] + ("a) la limitación de la imposición en la fuente prevista en el apartado 2 procederá, en el "
                            "caso de Argentina, siempre que el contrato haya sido aprobado por la autoridad de aplicación;\n")
    there = _decide(text, "es", "AR")
    assert there["status"] == "indeterminate" and there["unread"]
    here = _decide(text, "es", "CA")
    assert (here["status"], here["max_rate_pct"], here["unread"]) == ("determined", "10", [])


def test_a_point_on_the_residents_of_the_state_it_names_is_not_scoped_to_its_tax() -> None:
    # "the company which is a resident of the Netherlands": that State's residents, whichever State pays
    from taxtreaty.provisions import one_state
    from taxtreaty.provisions.vocabulary import phrases

    words = ("In the case of the Netherlands, sub-paragraph a of paragraph 2 shall not apply if the company which is a "
             "resident of the Netherlands suffers Netherlands company tax on the dividends.")
    assert one_state.scoped_state(words, phrases("en"), ["NL", "KR"]) is None
    assert one_state.scoped_state(REGISTRATION["en"], phrases("en"), ["NL", "BR"]) == "BR"


PROFITS = {
    "es": "Artículo 7\nBeneficios empresariales\n\n1. Los beneficios de una empresa de un Estado Contratante solamente "
          "pueden someterse a imposición en ese Estado, a no ser que la empresa realice su actividad en el otro Estado "
          "Contratante por medio de un establecimiento permanente situado en él.\n\n",
    "en": "Article 7\nBusiness profits\n\n1. The profits of an enterprise of a Contracting State shall be taxable only in "
          "that State unless the enterprise carries on business in the other Contracting State through a permanent "
          "establishment situated therein.\n\n",
    "pt": "Artigo 7.º\nLucros das empresas\n\n1 — Os lucros de uma empresa de um Estado Contratante só podem ser tributados "
          "nesse Estado, a não ser que a empresa exerça a sua actividade no outro Estado Contratante por meio de um "
          "estabelecimento estável aí situado.\n\n",
}
NEWS = {
    "es": "b) en el caso de Argentina, las regalías incluyen asimismo cualquier pago percibido con motivo de la "
          "transmisión de noticias por parte de una agencia internacional de noticias.\n",
    "en": "b) in the case of Brazil, royalties also include any payment received for the transmission of news by an "
          "international news agency.\n",
    "pt": "b) no caso do Brasil, as royalties incluem também qualquer pagamento recebido pela transmissão de notícias "
          "por uma agência internacional de notícias.\n",
}


@pytest.mark.parametrize("language", ["es", "en", "pt"])
def test_a_kind_a_point_adds_to_the_definition_for_one_state_is_not_a_royalty_of_the_other(language: str) -> None:
    head, _, rest = ARTICLE[language].partition("\n\n")
    text = head + "\n\n" + PROFITS[language] + rest + REGISTRATION[language] + NEWS[language]
    named = NAMED[language]
    other = next(p for p in PARTIES[language] if p != named)
    parties = PARTIES[language]
    doc = taxtreaty.parse(text)
    facts = {"income": "royalties", "beneficial_owner": True, "recipient": "company", "royalty_kind": "news"}
    there = taxtreaty.decide(doc, {**facts, "source": named, "residence": other}, parties=parties).to_dict()
    assert (there["status"], there["max_rate_pct"]) == ("determined", "10")  # a royalty where the point holds
    here = taxtreaty.decide(doc, {**facts, "source": other, "residence": named, "pe_connected": False},
                            parties=parties).to_dict()
    assert here["max_rate_pct"] != "10" and here["article_applied"] == "7"
    assert any(t["eid"].startswith("protocol") for t in here["trace"])
    # another kind of royalty paid from the other State keeps the article's rate
    patents = taxtreaty.decide(doc, {**facts, "royalty_kind": "patents", "source": other, "residence": named},
                               parties=parties).to_dict()
    assert (patents["status"], patents["max_rate_pct"]) == ("determined", "10")


def test_the_limitations_said_subject_to_one_states_requirements_are_a_proviso_there() -> None:
    # "las limitaciones ... están, en el caso de Argentina, sujetas a los requisitos de registración": the words
    # that make the rates subject to Argentina's law, on Argentina's tax only
    text = ARTICLE["es"] + ("a) las limitaciones a la imposición en la fuente establecidas en el apartado 2 están, en el "
                            "caso de Argentina, sujetas a los requisitos de registración dispuestos por su legislación "
                            "interna;\n")
    assert [c["kind"] for c in _decide(text, "es", "AR")["caveats"]] == ["domestic_law"]
    assert _decide(text, "es", "CA")["caveats"] == []


def test_words_after_a_list_for_the_royalties_arising_in_one_state_qualify_that_states_rate() -> None:
    text = ("Convenio entre la República Argentina y la República Federal de Alemania\n\nArtículo 12\nRegalías\n\n"
            "1. Las regalías originadas en un Estado Contratante y pagadas a un residente del otro Estado Contratante "
            "pueden someterse a imposición en ese otro Estado.\n\n"
            "2. Sin embargo, tales regalías pueden someterse a imposición en el Estado Contratante en el cual se "
            "originan, pero la alícuota no deberá exceder el 15 por ciento del importe bruto de las regalías "
            "originadas:\na) por el uso de derechos de autor sobre obras literarias;\nb) por el uso de patentes o "
            "marcas de fábrica.\nEn tanto la transferencia de tecnología esté sujeta a aprobación, de acuerdo con la "
            "ley argentina, la limitación de la tasa para las regalías comprendidas en el inciso b) será únicamente "
            "aplicable, en el caso de regalías originadas en la República Argentina, si el contrato está aprobado por "
            "las autoridades argentinas.\n")
    parties = ["AR", "DE"]
    doc = taxtreaty.parse(text)
    facts = {"income": "royalties", "beneficial_owner": True, "recipient": "company", "royalty_kind": "patents"}
    there = taxtreaty.decide(doc, {**facts, "source": "AR", "residence": "DE"}, parties=parties).to_dict()
    assert there["max_rate_pct"] == "15" and [c["kind"] for c in there["caveats"]] == ["domestic_law"]
    here = taxtreaty.decide(doc, {**facts, "source": "DE", "residence": "AR"}, parties=parties).to_dict()
    assert (here["status"], here["max_rate_pct"], here["caveats"]) == ("determined", "15", [])
