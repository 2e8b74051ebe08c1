"""An exception the extractor does not read as an allocation ("Notwithstanding the provisions of paragraph 2, a
Contracting State may ... levy tax on gains ..." in words no reader turns into one) leaves open only the answers that
rest on the paragraph it names (rules/allocate._gap_blocks): a gain another paragraph gives is decided. Fixtures of our
own in the shape of NL-BB/UG/ZA 13(5), NL-GH 13(6)."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

TEXTS = {
    "en": """CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF ESTONIA FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 1
Capital gains

1. Gains derived by a resident of a Contracting State from the alienation of immovable property situated in the other Contracting State may be taxed in that other State.

2. Gains from the alienation of any property other than that referred to in paragraph 1 shall be taxable only in the Contracting State of which the alienator is a resident.

3. Notwithstanding the provisions of paragraph 2, a Contracting State may, in accordance with its own laws, levy tax on gains derived by an individual from the alienation of shares in a company which is a resident of that State.

Article 2
Termination

This Convention shall remain in force until terminated by one of the States.
""",
    "es": """CONVENIO ENTRE EL REINO DE NORUEGA Y LA REPÚBLICA DE ESTONIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 1
Ganancias de capital

1. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Las ganancias derivadas de la enajenación de cualquier otro bien distinto de los mencionados en el apartado 1 sólo pueden someterse a imposición en el Estado Contratante en que resida el transmitente.

3. No obstante lo dispuesto en el apartado 2, un Estado Contratante podrá, conforme a su legislación, gravar las ganancias que una persona física obtenga de la enajenación de acciones de una sociedad residente de ese Estado.

Artículo 2
Denuncia

El presente Convenio permanecerá en vigor indefinidamente.
""",
    "pt": """CONVENÇÃO ENTRE O REINO DA NORUEGA E A REPÚBLICA DA ESTÓNIA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 1.º
Mais-valias

1. Os ganhos que um residente de um Estado Contratante aufira da alienação de bens imóveis situados no outro Estado Contratante podem ser tributados nesse outro Estado.

2. Os ganhos provenientes da alienação de quaisquer outros bens diferentes dos mencionados no n.º 1 só podem ser tributados no Estado Contratante de que o alienante é residente.

3. Não obstante o disposto no n.º 2, um Estado Contratante pode, de acordo com a sua legislação, tributar os ganhos que uma pessoa singular obtenha da alienação de ações de uma sociedade residente desse Estado.

Artigo 2.º
Denúncia

A presente Convenção permanecerá em vigor indefinidamente.
""",
}

# (property, status, source_taxation, eid)
CASES = [
    (
        "immovable",
        "determined",
        "unlimited",
        "art_1__para_1",
    ),  # before: indeterminate, "source text incomplete"
    ("shares", "indeterminate", None, None),  # paragraph 2's answer is what the unread exception sets aside
    ("other", "indeterminate", None, None),
]


def ask(language: str, **facts: Any) -> dict[str, Any]:
    scenario = {"income": "capital_gains", "source": "NO", "residence": "EE", **facts}
    return taxtreaty.decide(taxtreaty.parse(TEXTS[language]), scenario).to_dict()


@pytest.mark.parametrize("language", sorted(TEXTS))
@pytest.mark.parametrize(("prop", "status", "source", "eid"), CASES)
def test_an_unread_exception_leaves_open_only_the_paragraph_it_names(
    language: str, prop: str, status: str, source: str | None, eid: str | None
) -> None:
    d = ask(language, gain_property=prop)
    assert (d["status"], d["source_taxation"], d["eid"]) == (status, source, eid)
