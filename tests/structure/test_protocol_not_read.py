"""A text whose opening words name a protocol ("Promulga a Convenção ... e o seu Protocolo", "Convenio ... y su
Protocolo", "the Convention ... and the Protocol thereto") of which no protocol is read (a copy that lost it, a
heading no reader knows) is said to be so: a warning of the parse, and on every answer an assumption that it
rests on the articles alone (a lost protocol point may set a rate or an exemption: the answer would be wrong
with no word of it)."""

from __future__ import annotations

import pytest

import taxtreaty

ARTICLE = {
    "pt": "ARTIGO 1\nPessoas Visadas\n\nA presente Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.\n",
    "es": "ARTÍCULO 1\nPersonas comprendidas\n\nEl presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.\n",
    "en": "Article 1\nPersons covered\n\nThis Convention shall apply to persons who are residents of one or both of the Contracting States.\n",
}
OPENING = {
    "pt": "DECRETO Nº 1.000, DE 2 DE MAIO DE 2024\n\nPromulga a Convenção entre a República Federativa do Brasil e o "
          "Reino da Tailândia e o seu Protocolo, firmados em Bangkok.\n\nCONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL "
          "E O REINO DA TAILÂNDIA\n\n",
    "es": "Convenio entre el Reino de España y la República de Chile y su Protocolo, hecho en Madrid.\n\nCONVENIO ENTRE "
          "EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE\n\n",
    "en": "The Convention between the Kingdom of the Netherlands and the Republic of Kenya and the Protocol thereto are "
          "published below.\n\nCONVENTION BETWEEN THE KINGDOM OF THE NETHERLANDS AND THE REPUBLIC OF KENYA\n\n",
}
PROTOCOL = {
    "pt": "\nPROTOCOLO\n\n1. Com referência ao Artigo 1\n\nFica entendido que a Convenção se aplica também às sociedades.\n",
    "es": "\nPROTOCOLO\n\n1. En relación con el Artículo 1\n\nSe entiende que el Convenio se aplica también a las sociedades.\n",
    "en": "\nPROTOCOL\n\n1. Ad Article 1\n\nIt is understood that the Convention also applies to companies.\n",
}


def _warnings(text: str) -> list[str]:
    return [w.message for w in taxtreaty.parse(text).warnings if w.code == "protocol_not_read"]


@pytest.mark.parametrize("language", sorted(ARTICLE))
def test_a_protocol_named_but_not_read_is_said(language: str) -> None:
    (message,) = _warnings(OPENING[language] + ARTICLE[language])
    assert "no protocol was read" in message and "rotocol" in message.split("”")[0]


@pytest.mark.parametrize("language", sorted(ARTICLE))
def test_no_word_when_the_protocol_is_read_or_not_named(language: str) -> None:
    assert _warnings(OPENING[language] + ARTICLE[language] + PROTOCOL[language]) == []
    title_only = OPENING[language].split("\n\n")[-2] + "\n\n"
    assert _warnings(title_only + ARTICLE[language]) == []


def test_every_answer_says_it_rests_on_the_articles_alone() -> None:
    text = (OPENING["en"] + ARTICLE["en"] + "\nArticle 11\nInterest\n\n1. Interest arising in a Contracting State and "
            "paid to a resident of the other Contracting State may be taxed in that other State.\n\n2. However, such "
            "interest may also be taxed in the Contracting State in which it arises, but the tax so charged shall not "
            "exceed 10 per cent of the gross amount of the interest.\n")
    decision = taxtreaty.decide(taxtreaty.parse(text), {"income": "interest", "source": "KE", "residence": "NL",
                                                        "beneficial_owner": True, "recipient": "company"})
    assert decision.max_rate_pct == 10
    assert [a["value"] for a in decision.assumptions if a["fact"] == "protocol"] == ["not read"]
