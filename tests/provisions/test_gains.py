"""Provisions, capital gains (`provisions/gains.py`): the property each paragraph of the article is for, read
from its subject words; the tests a paragraph on shares sets (the share of their value from immovable property,
the alienator's participation), read from the words before or after the verb; the clauses no fact answers, kept
as words not read; and the paragraph that sets others aside ("shall not apply", "shall not affect the right")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from conftest import CORPUS
from helpers import extract_text

import taxtreaty

# an article 13 of the fictional States Norvalia and Estmark, in each language, written for these tests
GAINS = {
    "en": """CONVENTION BETWEEN NORVALIA AND ESTMARK

Article 13
Capital gains

1. Gains derived by a resident of a Contracting State from the alienation of immovable property situated in the other Contracting State may be taxed in that other State.

2. Gains from the alienation of movable property forming part of the business property of a permanent establishment which an enterprise of a Contracting State has in the other Contracting State may be taxed in that other State.

3. Gains from the alienation of ships or aircraft operated in international traffic shall be taxable only in the Contracting State in which the place of effective management of the enterprise is situated.

4. Gains derived by a resident of a Contracting State from the alienation of shares deriving more than 50 per cent of their value directly or indirectly from immovable property situated in the other Contracting State may be taxed in that other State.

5. Gains derived by a resident of a Contracting State from the alienation of shares of a company which is a resident of the other Contracting State may be taxed in that other State if the alienator had a participation of at least 25 per cent in the capital of that company.

6. The provisions of paragraphs 4 and 5 shall not apply to gains from the alienation of shares quoted on a recognised stock exchange.

7. Gains from the alienation of any property other than that referred to in paragraphs 1 to 5 shall be taxable only in the Contracting State of which the alienator is a resident.
""",
    "es": """CONVENIO ENTRE NORVALIA Y ESTMARK

ARTICULO 13
Ganancias de capital

1. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Las ganancias derivadas de la enajenación de bienes muebles que formen parte del activo de un establecimiento permanente que una empresa de un Estado Contratante tenga en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

3. Las ganancias derivadas de la enajenación de buques o aeronaves explotados en tráfico internacional sólo pueden someterse a imposición en el Estado Contratante donde esté situada la sede de dirección efectiva de la empresa.

4. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de acciones que obtengan más del 50 por ciento de su valor directa o indirectamente de bienes inmuebles situados en el otro Estado Contratante pueden someterse a imposición en ese otro Estado.

5. Las ganancias que un residente de un Estado Contratante obtenga de la enajenación de acciones de una sociedad residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado si el enajenante tuvo una participación de al menos el 25 por ciento en el capital de esa sociedad.

6. Las disposiciones de los apartados 4 y 5 no se aplicarán a las ganancias derivadas de la enajenación de acciones que se coticen en una bolsa de valores reconocida.

7. Las ganancias derivadas de la enajenación de cualquier otro bien distinto de los mencionados en los apartados 1 a 5 sólo pueden someterse a imposición en el Estado Contratante en que resida el enajenante.
""",
    "pt": """CONVENÇÃO ENTRE A NORVÁLIA E A ESTMÁRQUIA

ARTIGO 13
Mais-valias

1. Os ganhos que um residente de um Estado Contratante aufira da alienação de bens imóveis situados no outro Estado Contratante podem ser tributados nesse outro Estado.

2. Os ganhos provenientes da alienação de bens mobiliários que façam parte do ativo de um estabelecimento estável que uma empresa de um Estado Contratante tenha no outro Estado Contratante podem ser tributados nesse outro Estado.

3. Os ganhos provenientes da alienação de navios ou aeronaves explorados no tráfego internacional só podem ser tributados no Estado Contratante em que estiver situada a direção efetiva da empresa.

4. Os ganhos que um residente de um Estado Contratante aufira da alienação de ações que obtenham mais de 50 por cento do seu valor, direta ou indiretamente, de bens imóveis situados no outro Estado Contratante podem ser tributados nesse outro Estado.

5. Os ganhos que um residente de um Estado Contratante aufira da alienação de ações de uma sociedade residente do outro Estado Contratante podem ser tributados nesse outro Estado se o alienante tiver detido uma participação de pelo menos 25 por cento no capital dessa sociedade.

6. O disposto nos n.os 4 e 5 não é aplicável aos ganhos provenientes da alienação de ações cotadas numa bolsa de valores reconhecida.

7. Os ganhos provenientes da alienação de quaisquer outros bens diferentes dos mencionados nos números 1 a 5 só podem ser tributados no Estado Contratante de que o alienante é residente.
""",
}

#: paragraph -> (allocation, the conditions read, whether words of it stay unread)
EXPECTED = {
    "art_13__para_1": ("source_may_tax", {"gain_property": ["immovable"]}, False),
    "art_13__para_2": ("source_may_tax", {"gain_property": ["pe_property"]}, False),
    "art_13__para_3": ("effective_management_only", {"gain_property": ["ships_aircraft"]}, False),
    "art_13__para_4": ("source_may_tax", {"gain_property": ["shares"], "over_immovable_value_pct": Decimal(50)}, True),
    "art_13__para_5": ("source_may_tax", {"gain_property": ["shares"], "min_capital_pct": Decimal(25)}, True),
    "art_13__para_7": ("residence_only", {}, False),
}


def _allocations(ps: taxtreaty.ProvisionSet) -> dict[str, taxtreaty.Provision]:
    return {p.cite.eid: p for p in ps.provisions if p.topic == "capital_gains" and p.kind == "allocation"}


@pytest.mark.parametrize("language", sorted(GAINS))
@pytest.mark.parametrize(("eid", "expected"), sorted(EXPECTED.items()))
def test_each_paragraph_is_for_the_property_its_subject_names(language: str, eid: str, expected: tuple) -> None:
    allocation, conditions, unread = expected
    found = _allocations(extract_text(GAINS[language]))
    assert set(found) == set(EXPECTED), language  # the paragraph that sets 4 and 5 aside is no allocation
    p = found[eid]
    assert p.allocation == allocation and p.status == "determined"
    assert {k: v for k, v in p.conditions.items() if k != "unread_condition"} == conditions
    # paragraph 6 ("shall not apply", "no se aplicarán", "não é aplicável") is a condition of 4 and 5, never dropped
    assert ("unread_condition" in p.conditions) is unread
    if unread:
        assert p.conditions["unread_condition"].startswith(("The provisions of paragraphs 4 and 5", "Las disposiciones",
                                                            "O disposto"))


@pytest.mark.parametrize(("language", "sentence", "unread"), [
    # a clause after the verb that no fact answers is a condition of its own, never an unconditional right
    ("en", "4. Gains from the alienation of shares may be taxed in the other Contracting State if the alienation "
           "takes place to a resident of that other State.", "if the alienation takes place to a resident of that other State"),
    ("es", "4. Las ganancias derivadas de la enajenación de acciones pueden someterse a imposición en el otro Estado "
           "Contratante cuando la enajenación se realice a favor de un residente de ese Estado.",
     "cuando la enajenación se realice a favor de un residente de ese Estado"),
    ("pt", "4. Os ganhos provenientes da alienação de ações podem ser tributados no outro Estado Contratante quando a "
           "alienação for feita a um residente desse Estado.", "quando a alienação for feita a um residente desse Estado"),
    # "principally": a share of value no figure gives
    ("en", "4. Gains from the alienation of shares the value of which is derived principally from immovable property "
           "situated in the other Contracting State may be taxed in that other State.",
     "Gains from the alienation of shares the value of which is derived principally from immovable property situated in "
     "the other Contracting State"),
    # a share read with more asked beside it: the whole clause stays unread
    ("en", "4. Gains from the alienation of shares may be taxed in the other Contracting State if the alienation is part "
           "of a reorganization, and the buyer owns at least 10 per cent of the capital of the other.",
     "if the alienation is part of a reorganization, and the buyer owns at least 10 per cent of the capital of the other"),
])
def test_a_clause_no_fact_answers_stays_unread(language: str, sentence: str, unread: str) -> None:
    head = {"en": "CONVENTION BETWEEN NORVALIA AND ESTMARK\n\nArticle 13\nCapital gains\n\n",
            "es": "CONVENIO ENTRE NORVALIA Y ESTMARK\n\nARTICULO 13\nGanancias de capital\n\n",
            "pt": "CONVENÇÃO ENTRE A NORVÁLIA E A ESTMÁRQUIA\n\nARTIGO 13\nMais-valias\n\n"}[language]
    (p,) = _allocations(extract_text(head + sentence + "\n")).values()
    assert p.conditions["gain_property"] == ["shares"]
    assert p.conditions["unread_condition"] == unread
    assert not any(k.endswith("_pct") for k in p.conditions)


# the real texts (../shared/corpus): what each paragraph of article 13 is read as
REAL = [
    ("nl/NL-CN_convention_EN.txt", "art_13__para_2", {"gain_property": ["pe_property"]}),  # "available to a resident"
    # "if the recipient of the gain, at any time during the twelve month period preceding such alienation, had a
    # participation ... of at least 25 per cent": the period counted back is the test's
    ("nl/NL-CN_convention_EN.txt", "art_13__para_5", {"gain_property": ["shares"], "min_capital_pct": Decimal(25),
                                                      "lookback_months": 12}),
    ("nl/NL-KE_convention_EN.txt", "art_13__para_4", {}),
    ("es/AR-DE_convenio_ES.txt", "art_13__para_3", {"gain_property": ["shares"]}),
    ("es/AR-DE_convenio_ES.txt", "art_13__para_4", {"gain_property": ["ships_aircraft"]}),  # "buques, aeronaves y automotores"
    ("es/AR-ES_convenio_ES.txt", "art_13__para_5", {}),  # "no incluidas en los apartados precedentes"
]


@pytest.mark.parametrize(("name", "eid", "conditions"), REAL)
def test_real_texts(name: str, eid: str, conditions: dict) -> None:
    doc = taxtreaty.parse_file(CORPUS / name)
    (p,) = [p for p in _allocations(taxtreaty.provisions(doc)).values() if p.cite.eid == eid][:1]
    assert {k: v for k, v in p.conditions.items() if k != "unread_condition"} == conditions


def test_an_exception_sentence_of_a_paragraph_is_for_its_property_and_its_words_stay_unread() -> None:
    # AR-DE 13(2): "Sin embargo, las ganancias originadas en la enajenación de bienes muebles mencionados en el
    # apartado 3 del artículo 22, sólo pueden ..." after the permanent establishment's rule
    doc = taxtreaty.parse_file(CORPUS / "es/AR-DE_convenio_ES.txt")
    found = [p for p in taxtreaty.provisions(doc).provisions if p.topic == "capital_gains" and p.cite.eid == "art_13__para_2"]
    exception = next(p for p in found if p.allocation == "residence_only")
    assert exception.conditions["gain_property"] == ["pe_property"]
    assert exception.conditions["unread_condition"].startswith("Sin embargo, las ganancias originadas")


_HEADS = {"en": "CONVENTION BETWEEN NORVALIA AND ESTMARK\n\nArticle 13\nCapital gains\n\n",
          "es": "CONVENIO ENTRE NORVALIA Y ESTMARK\n\nARTICULO 13\nGanancias de capital\n\n",
          "pt": "CONVENÇÃO ENTRE A NORVÁLIA E A ESTMÁRQUIA\n\nARTIGO 13\nMais-valias\n\n"}
_25 = {"gain_property": ["shares"], "min_capital_pct": Decimal(25)}


@pytest.mark.parametrize(("language", "sentence", "conditions"), [
    # a test met at any time in a period counted back from the alienation: the period is the test's (lookback_months)
    ("en", "4. Gains from the alienation of shares of a company may be taxed in the other Contracting State if the "
           "alienator, at any time during the 12 months preceding the alienation, owned at least 25 per cent of the "
           "capital of that company.", _25 | {"lookback_months": 12}),
    ("en", "4. Gains from the alienation of shares of a company may be taxed in the other Contracting State if the "
           "alienator owned at least 25 per cent of its capital at any time during the 12-month period preceding the "
           "alienation.", _25 | {"lookback_months": 12}),
    ("es", "4. Las ganancias derivadas de la enajenación de acciones de una sociedad pueden someterse a imposición en el "
           "otro Estado Contratante si el transmitente ha poseído, en cualquier momento durante los doce meses "
           "anteriores a la enajenación, al menos el 25 por ciento del capital de esa sociedad.", _25 | {"lookback_months": 12}),
    ("pt", "4. Os ganhos provenientes da alienação de ações de uma sociedade podem ser tributados no outro Estado "
           "Contratante se o alienante tiver detido, em qualquer momento durante os 12 meses anteriores à alienação, "
           "pelo menos 25 por cento do capital dessa sociedade.", _25 | {"lookback_months": 12}),
    # the period between the value of the shares and the share of it immovable property gives
    ("es", "4. Las ganancias derivadas de la enajenación de acciones cuyo valor, en cualquier momento durante los 365 días "
           "anteriores a la enajenación, proceda en más de un 50 por ciento de bienes inmuebles situados en el otro "
           "Estado Contratante pueden someterse a imposición en ese otro Estado.",
     {"gain_property": ["shares"], "over_immovable_value_pct": Decimal(50), "lookback_days": 365}),
    ("en", "4. Gains from the alienation of shares deriving, at any time during the 3 years preceding the alienation, "
           "more than 50 per cent of their value from immovable property situated in the other Contracting State may "
           "be taxed in that other State.",
     {"gain_property": ["shares"], "over_immovable_value_pct": Decimal(50), "lookback_months": 36}),
    # a participation held throughout the period ("during", no "at any time"): a holding period (held_months)
    ("es", "4. Las ganancias derivadas de la enajenación de acciones de una sociedad pueden someterse a imposición en el "
           "otro Estado Contratante si el transmitente ha poseído, durante los 12 meses anteriores a la enajenación, al "
           "menos el 25 por ciento del capital de esa sociedad.", _25 | {"min_holding_months": 12}),
    ("pt", "4. Os ganhos provenientes da alienação de ações de uma sociedade podem ser tributados no outro Estado "
           "Contratante se o alienante tiver detido, durante os 12 meses anteriores à alienação, pelo menos 25 por "
           "cento do capital dessa sociedade.", _25 | {"min_holding_months": 12}),
])
def test_the_period_a_test_on_shares_counts_back_from_the_alienation(language: str, sentence: str, conditions: dict) -> None:
    (p,) = _allocations(extract_text(_HEADS[language] + sentence + "\n")).values()
    assert {k: v for k, v in p.conditions.items() if k != "holding_direct"} == conditions


def test_the_look_back_period_is_named_in_the_test_the_user_answers() -> None:
    text = _HEADS["en"] + ("4. Gains from the alienation of shares of a company may be taxed in the other Contracting "
                           "State if the alienator, at any time during the 12 months preceding the alienation, owned at "
                           "least 25 per cent of the capital of that company.\n")
    scenario = {"income": "capital_gains", "source": "NO", "residence": "DK", "date": "2024-05-01", "gain_property": "shares"}
    d = taxtreaty.decide(taxtreaty.parse(text), scenario).to_dict()
    assert d["missing_facts"] == ["participation_pct"]
    assert "at its highest at any time during the 12 months before the alienation" in " ".join(d["reasons"])
