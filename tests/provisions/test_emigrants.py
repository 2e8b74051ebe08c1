"""Provisions, a right kept on a former resident's gains (`provisions/emigrants.py`): the paragraph of the capital
gains article that keeps a State's right on an emigrant's shares ("The provisions of paragraph 2 shall not affect the
right ...", "no afectarán al derecho", "não prejudica o direito") and the protocol point that gives one State that
right notwithstanding the article ("Norway may ... levy tax on gains derived by an individual who has been a resident
of Norway ..."): a `source_may_tax` allocation setting aside the paragraph named, its conditions facts, the clause no
fact answers unread. Fixtures of our own in the shapes of NL-EE 13(5) and NL-KE protocol XVII(2)."""

from __future__ import annotations

import pytest
from conftest import CORPUS
from helpers import extract_text

import taxtreaty

TEXTS = {
    "en": """CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF ESTONIA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 1
Personal scope

This Convention shall apply to persons who are residents of one or both of the States.

Article 2
Capital gains

1. Gains derived by a resident of a Contracting State from the alienation of immovable property situated in the other Contracting State may be taxed in that other State.

2. Gains from the alienation of any property other than that referred to in paragraph 1 shall be taxable only in the Contracting State of which the alienator is a resident.

3. The provisions of paragraph 2 shall not affect the right of each Contracting State to tax, under its own legislation, gains from the alienation of shares in a company which is a resident of that State, derived by an individual who is a resident of the other Contracting State and has been a resident of the first-mentioned State at any time during the ten years preceding the alienation.

Article 3
Termination

This Convention shall remain in force until terminated by one of the States.

DONE at Oslo, this 2nd day of May 2001, in duplicate, in the English language.

PROTOCOL

At the moment of signing the Convention the undersigned have agreed upon the following provisions.

I

Ad Articles 2 and 3

1. It is understood that the Convention applies to gains only.

2. Notwithstanding the provisions of paragraph 2 of Article 2, Norway may, under its own law, levy tax on gains derived by an individual who has been a resident of Norway and has become a resident of Estonia from the alienation of shares in a company which is a resident of that State, provided that such individual holds a substantial interest in that company.
""",
    "es": """CONVENIO ENTRE EL REINO DE NORUEGA Y LA REPÚBLICA DE ESTONIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 1
Ámbito subjetivo

El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

Artículo 2
Ganancias de capital

1. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Las ganancias derivadas de la enajenación de cualquier otro bien distinto de los mencionados en el apartado 1 sólo pueden someterse a imposición en el Estado Contratante en que resida el transmitente.

3. Las disposiciones del apartado 2 no afectarán al derecho de cada Estado Contratante a gravar, conforme a su legislación, las ganancias derivadas de la enajenación de acciones de una sociedad que sea residente de ese Estado, obtenidas por una persona física residente del otro Estado Contratante que haya sido residente del primer Estado en cualquier momento durante los diez años anteriores a la enajenación.

Artículo 3
Denuncia

El presente Convenio permanecerá en vigor indefinidamente.

HECHO en Oslo el 2 de mayo de 2001, en dos ejemplares en lengua española.

PROTOCOLO

1. En relación con los artículos 2 y 3: Se entiende que el Convenio se aplica sólo a las ganancias.

2. No obstante lo dispuesto en el apartado 2 del artículo 2, Noruega podrá gravar, conforme a su legislación, las ganancias obtenidas por una persona física que haya sido residente de Noruega y pase a ser residente de Estonia, derivadas de la enajenación de acciones de una sociedad que sea residente de ese Estado, siempre que dicha persona posea una participación sustancial en esa sociedad.
""",
    "pt": """CONVENÇÃO ENTRE O REINO DA NORUEGA E A REPÚBLICA DA ESTÓNIA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 1.º
Pessoas visadas

A presente Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes.

Artigo 2.º
Mais-valias

1. Os ganhos que um residente de um Estado Contratante aufira da alienação de bens imóveis situados no outro Estado Contratante podem ser tributados nesse outro Estado.

2. Os ganhos provenientes da alienação de quaisquer outros bens diferentes dos mencionados no n.º 1 só podem ser tributados no Estado Contratante de que o alienante é residente.

3. O disposto no n.º 2 não prejudica o direito de cada Estado Contratante de tributar, de acordo com a sua legislação, os ganhos provenientes da alienação de ações de uma sociedade que seja residente desse Estado, obtidos por uma pessoa singular residente do outro Estado Contratante que tenha sido residente do primeiro Estado em qualquer momento durante os dez anos anteriores à alienação.

Artigo 3.º
Denúncia

A presente Convenção permanecerá em vigor indefinidamente.

Feito em Oslo, em 2 de maio de 2001, em dois exemplares, em língua portuguesa.

PROTOCOLO

1. Com referência aos artigos 2.º e 3.º: Entende-se que a Convenção se aplica apenas aos ganhos.

2. Não obstante o disposto no n.º 2 do artigo 2.º, a Noruega pode tributar, de acordo com a sua legislação, os ganhos obtidos por uma pessoa singular que tenha sido residente da Noruega e se tenha tornado residente da Estónia, provenientes da alienação de ações de uma sociedade que seja residente desse Estado, desde que essa pessoa detenha uma participação qualificada nessa sociedade.
""",
}

#: the conditions of the paragraph that keeps the right (article 2(3)), in every language
KEPT = {
    "gain_property": ["shares"],
    "recipient": "individual",
    "former_resident": True,
    "former_resident_within_years": 10,
    "company_in_source": True,
}
#: the words of the protocol point that no fact answers, by language
POINT_UNREAD = {
    "en": "provided that such individual holds a substantial interest in that company",
    "es": "siempre que dicha persona posea una participación sustancial en esa sociedad",
    "pt": "desde que essa pessoa detenha uma participação qualificada nessa sociedade",
}


def _rights(language: str) -> list[taxtreaty.Provision]:
    return [
        p
        for p in extract_text(TEXTS[language]).provisions
        if p.topic == "capital_gains"
        and p.kind == "allocation"
        and p.allocation == "source_may_tax"
        and p.conditions.get("gain_property") == ["shares"]
    ]


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_the_paragraph_keeping_the_right_is_an_allocation_setting_aside_the_one_it_names(
    language: str,
) -> None:
    (kept,) = [p for p in _rights(language) if p.cite.eid == "art_2__para_3"]
    assert kept.conditions == KEPT
    assert kept.overrides == ["art_2__para_2"]
    # the residual paragraph it sets aside keeps no unread words of it: the rules try the kept right first
    (residual,) = [p for p in extract_text(TEXTS[language]).provisions if p.cite.eid == "art_2__para_2"]
    assert "unread_condition" not in residual.conditions


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_protocol_point_naming_the_article_gives_the_state_it_names_the_right(language: str) -> None:
    (point,) = [p for p in _rights(language) if p.cite.eid.startswith("protocol_")]
    assert point.overrides == ["art_2__para_2"]
    assert point.conditions == {
        "source_state": "NO",
        "gain_property": ["shares"],
        "recipient": "individual",
        "former_resident": True,
        "company_in_source": True,
        "unread_condition": POINT_UNREAD[language],
    }


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # a length of residence, not a period counted back from the alienation: its words stay unread
        (
            "3. The provisions of paragraph 2 shall not affect the right of a Contracting State to tax gains from the alienation "
            "of shares derived by an individual who is a resident of the other Contracting State and was a resident of the "
            "first-mentioned State for a period of five years or more.",
            {
                "gain_property": ["shares"],
                "recipient": "individual",
                "former_resident": True,
                "unread_condition": "was a resident of the first-mentioned State for a period of five years",
            },
        ),
        # no former resident named: not this right (the paragraph's words stay a condition of the one it names)
        (
            "3. The provisions of paragraph 2 shall not affect the right of a Contracting State to tax gains from the alienation "
            "of shares quoted on a stock exchange.",
            None,
        ),
    ],
)
def test_what_the_kept_right_reads(sentence: str, expected: dict | None) -> None:
    head, _, _ = TEXTS["en"].partition("3. The provisions of paragraph 2")
    _, _, tail = TEXTS["en"].partition("preceding the alienation.")
    found = [p for p in extract_text(head + sentence + tail).provisions if p.cite.eid == "art_2__para_3"]
    if expected is None:
        assert not found
        (residual,) = [
            p for p in extract_text(head + sentence + tail).provisions if p.cite.eid == "art_2__para_2"
        ]
        assert residual.conditions["unread_condition"].startswith("The provisions of paragraph 2")
    else:
        (p,) = found
        assert p.conditions == expected


# the real texts (../shared/corpus): NL-EE 13(5) and NL-KE protocol XVII(2), XVIII(2)
REAL = [
    (
        "nl/NL-EE_convention_EN.txt",
        "art_13__para_5",
        {
            "gain_property": ["shares"],
            "recipient": "individual",
            "former_resident": True,
            "former_resident_within_years": 5,
            "company_in_source": True,
        },
    ),
    (
        "nl/NL-KE_convention_EN.txt",
        "protocol_1__para_2__point_xvii",
        {
            "source_state": "NL",
            "gain_property": ["shares"],
            "recipient": "individual",
            "former_resident": True,
            "company_in_source": True,
            "unread_condition": "provided that such individual has a qualified shareholding in that company",
        },
    ),
]


@pytest.mark.parametrize(("name", "eid", "conditions"), REAL)
def test_real_texts(name: str, eid: str, conditions: dict) -> None:
    doc = taxtreaty.parse_file(CORPUS / name)
    (p,) = [
        p
        for p in taxtreaty.provisions(doc).provisions
        if p.topic == "capital_gains" and p.kind == "allocation" and p.cite.eid == eid
    ]
    assert p.allocation == "source_may_tax" and p.conditions == conditions


def test_a_protocol_point_setting_the_article_aside_in_other_words_keeps_them_unread() -> None:
    # NL-KE XVIII(2): "Notwithstanding paragraphs 1, 2 and 3 of Article 10 and paragraph 4 of Article 13, the Netherlands
    # may apply the following provisions relating to the prevention of tax avoidance: ..."
    doc = taxtreaty.parse_file(CORPUS / "nl/NL-KE_convention_EN.txt")
    (p,) = [
        p
        for p in taxtreaty.provisions(doc).provisions
        if p.topic == "capital_gains" and p.cite.eid == "protocol_1__para_3__point_xviii"
    ]
    assert p.allocation == "source_may_tax" and p.overrides == ["art_13__para_4"]
    assert p.conditions["source_state"] == "NL"
    assert p.conditions["unread_condition"].startswith("Notwithstanding paragraphs 1, 2 and 3 of Article 10")


@pytest.mark.parametrize(
    ("language", "plain", "bracketed"),
    [
        ("en", "The provisions of paragraph 2 shall", "The provisions of paragraph (2) shall"),
        ("es", "Las disposiciones del apartado 2 no", "Las disposiciones del apartado (2) no"),
        ("pt", "O disposto no n.º 2 não", "O disposto no n.º (2) não"),
    ],
)
def test_the_paragraph_it_sets_aside_may_be_named_in_brackets(
    language: str, plain: str, bracketed: str
) -> None:
    # NL-SE 13(5): "The provisions of paragraph (4) shall not affect the right ..."
    assert plain in TEXTS[language]
    found = extract_text(TEXTS[language].replace(plain, bracketed)).provisions
    (kept,) = [p for p in found if p.cite.eid == "art_2__para_3" and p.kind == "allocation"]
    assert kept.overrides == ["art_2__para_2"] and kept.conditions == KEPT
