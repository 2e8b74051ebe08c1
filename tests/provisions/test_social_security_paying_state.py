"""A pension paid under a State's social security legislation "taxable only in that State", with no resident named
before the verb: "that State" is the State whose system pays, never the residence (readers/allocations, en/es/pt).
Before: read residence-only, so a social security pension from the source State was exempt there (wrong, determined).
Fixtures of our own in the shape of the Diário da República's, the BOE's and the English conventions' 18(2)."""

from __future__ import annotations

import pytest

import taxtreaty

ARTICLE = {
    "en": ("Convention between the Portuguese Republic and the Republic of Angola\n\nArticle 18\nPensions\n"
           "1. Subject to the provisions of paragraph 2 of Article 19, pensions and other similar remuneration paid to "
           "a resident of a Contracting State in consideration of past employment shall be taxable only in that State.\n"
           "2. Notwithstanding the provisions of paragraph 1, pensions and other similar payments made under the "
           "social security legislation of a Contracting State shall be taxable only in that State.\n", "PT"),
    "es": ("Convenio entre el Reino de España y la República de Angola\n\nArtículo 18\nPensiones\n"
           "1. Sin perjuicio de lo dispuesto en el apartado 2 del artículo 19, las pensiones y demás remuneraciones "
           "análogas pagadas a un residente de un Estado Contratante por razón de un empleo anterior solo pueden "
           "someterse a imposición en ese Estado.\n2. No obstante lo dispuesto en el apartado 1, las pensiones y otras "
           "prestaciones pagadas en virtud de la legislación de seguridad social de un Estado Contratante solo pueden "
           "someterse a imposición en ese Estado.\n", "ES"),
    "pt": ("Convenção entre a República Portuguesa e a República de Angola\n\nArtigo 18.º\nPensões\n"
           "1 — Com ressalva do disposto no n.º 2 do artigo 19.º, as pensões e remunerações similares pagas a um "
           "residente de um Estado Contratante em consequência de um emprego anterior só podem ser tributadas nesse "
           "Estado.\n2 — Não obstante o disposto no n.º 1, as pensões e outras remunerações similares pagas em execução "
           "da legislação de segurança social de um Estado Contratante só podem ser tributadas nesse Estado.\n", "PT"),
}


@pytest.mark.parametrize("language", sorted(ARTICLE))
@pytest.mark.parametrize(("payer", "expected"), [("government", ("unlimited", "art_18__para_2")),
                                                 ("company", ("none", "art_18__para_1"))])
def test_a_social_security_pension_is_taxed_by_the_paying_state(language, payer, expected):
    text, source = ARTICLE[language]
    scenario = {"income": "pensions", "source": source, "residence": "AO", "payer": payer}
    decision = taxtreaty.decide(taxtreaty.parse(text.encode()), scenario).to_dict()
    assert (decision["status"], decision["source_taxation"], decision["eid"]) == ("determined", *expected), decision
