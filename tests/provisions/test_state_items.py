"""Lists of rates per State ("a) En Australia: i) ... ii) ...; b) En Argentina: ..."), a holding test
of any person (not a company only), Australian franked dividends as a fact (never an exemption), a
list closed by an item's wrap-up ("siempre que ...") and a first paragraph that limits the article to
beneficial owners, in Spanish, English and Portuguese: short texts in the conventions' own words."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers import caps_under, extract_text

from taxtreaty.pipeline import compile_text, decide
from taxtreaty.provisions.states import state_heading
from taxtreaty.provisions.vocabulary import require_phrases

DIVIDENDS = {
    "es": """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y AUSTRALIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante, cuyo beneficiario efectivo es un residente del otro Estado Contratante, pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos dividendos también pueden someterse a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos, pero el impuesto así exigido no podrá exceder:
a) En Australia:
i) el 10 por ciento del importe bruto de los dividendos, en la medida que éstos se encuentren exentos (franked), si dichos dividendos son pagados a una persona que posea directamente no menos del 10 por ciento del derecho a voto en la sociedad que paga dichos dividendos; y
ii) el 15 por ciento del importe bruto de los dividendos en todos los demás casos; y
b) En Argentina:
i) el 10 por ciento del importe bruto de los dividendos si son pagados a una persona que posea directamente no menos del 25 por ciento del capital de la sociedad que paga dichos dividendos; y
ii) el 15 por ciento del importe bruto de los dividendos en todos los demás casos;
siempre que, en el caso que se modifique la legislación vigente, los Estados Contratantes se consultarán mutuamente.
""",
    "en": """AGREEMENT BETWEEN AUSTRALIA AND THE ARGENTINE REPUBLIC FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State, being dividends beneficially owned by a resident of the other Contracting State, may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed:
(a) in the case of Australia:
(i) 10 per cent of the gross amount of the dividends, to the extent to which the dividends have been fully franked, if they are paid to a person who holds directly at least 10 per cent of the voting power in the company paying the dividends; and
(ii) 15 per cent of the gross amount of the dividends in all other cases; and
(b) in the case of Argentina:
(i) 10 per cent of the gross amount of the dividends if they are paid to a person who holds directly at least 25 per cent of the capital of the company paying the dividends; and
(ii) 15 per cent of the gross amount of the dividends in all other cases;
provided that the competent authorities shall consult each other if the law in force in either State is changed.
""",
    "pt": """ACORDO ENTRE A AUSTRÁLIA E A REPÚBLICA ARGENTINA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 10
Dividendos
1. Os dividendos pagos por uma sociedade residente de um Estado Contratante, cujo beneficiário efectivo seja um residente do outro Estado Contratante, podem ser tributados nesse outro Estado.
2. Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:
a) No caso da Austrália:
i) 10 por cento do montante bruto dos dividendos, na medida em que estejam franqueados, se forem pagos a uma pessoa que detenha directamente pelo menos 10 por cento dos direitos de voto na sociedade que paga os dividendos; e
ii) 15 por cento do montante bruto dos dividendos, nos restantes casos; e
b) No caso da Argentina:
i) 10 por cento do montante bruto dos dividendos, se forem pagos a uma pessoa que detenha directamente pelo menos 25 por cento do capital da sociedade que paga os dividendos; e
ii) 15 por cento do montante bruto dos dividendos, nos restantes casos;
desde que as autoridades competentes se consultem se a legislação de um dos Estados for alterada.
""",
}

HEADINGS = [
    ("es", "en australia:", "AU"),
    ("es", "en el caso de la república argentina:", "AR"),
    ("en", "in the case of the netherlands:", "NL"),
    ("en", "in australia, the tax shall not exceed", None),  # a sentence, not an item naming a State
    ("en", "in the case of a company:", None),
    ("pt", "no caso de portugal:", "PT"),
]


@pytest.mark.parametrize(("language", "words", "expected"), HEADINGS)
def test_an_item_naming_only_a_state_gives_the_source_state(language: str, words: str, expected: str | None) -> None:
    from taxtreaty import vocab

    assert state_heading(vocab.fold(words), require_phrases(language), []) == expected


@pytest.mark.parametrize("language", sorted(DIVIDENDS))
def test_rates_per_state_item(language: str) -> None:
    ps = extract_text(DIVIDENDS[language])
    caps = {(p.conditions.get("source_state"), p.rate_pct, p.status) for p in caps_under(ps, "art_10__para_2")}
    # every cap is read, each for the State its item names; no "list items missing" gap
    assert caps == {("AU", Decimal(10), "determined"), ("AU", Decimal(15), "determined"),
                    ("AR", Decimal(10), "determined"), ("AR", Decimal(15), "determined")}
    au_ten = next(p for p in caps_under(ps, "art_10__para_2") if p.conditions.get("source_state") == "AU" and p.rate_pct == 10)
    assert au_ten.conditions.get("dividends_franked") is True
    assert "recipient" not in au_ten.conditions  # "a una persona que posea": any person holding the share
    assert au_ten.conditions.get("beneficial_owner") is True  # from the first paragraph
    assert not [p for p in ps.provisions if p.kind == "exemption" and p.topic == "dividends"]


def _decide(language: str, **scenario: object) -> dict:
    treaty = compile_text(DIVIDENDS[language], parties=["AR", "AU"])
    return decide(treaty, {"income": "dividends", "date": "2024-05-01", **scenario}).to_dict()


@pytest.mark.parametrize("language", sorted(DIVIDENDS))
def test_decisions_per_state_item(language: str) -> None:
    individual = _decide(language, source="AR", residence="AU", beneficial_owner=True, recipient="individual", capital_pct=30)
    assert (individual["status"], individual["max_rate_pct"]) == ("determined", "10")
    franking = _decide(language, source="AU", residence="AR", beneficial_owner=True, recipient="company", voting_pct=20)
    assert franking["status"] == "indeterminate" and franking["missing_facts"] == ["dividends_franked"]
    franked = _decide(language, source="AU", residence="AR", beneficial_owner=True, recipient="company", voting_pct=20,
                      dividends_franked=True)
    assert (franked["status"], franked["max_rate_pct"]) == ("determined", "10")
    owner = _decide(language, source="AR", residence="AU", recipient="individual", capital_pct=2)
    assert owner["status"] == "indeterminate" and "beneficial_owner" in owner["missing_facts"]
