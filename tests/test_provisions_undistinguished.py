"""Two rates for one income with nothing read that tells them apart: the lower one is never
applied as if it held for every payment (its words become its `unread_condition`).

Synthetic conventions of our own wording, one per language: a list of royalty rates whose first
item is chosen by a kind of payment the vocabulary does not know (news, films and tapes,
agricultural know-how), next to a residual rate. A control list whose items are told apart by a
holding stays determined.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.model import Provision

ES = """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE CHILE PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden también someterse a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos, pero si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 20 por ciento del capital de la sociedad que paga los dividendos;
b) 15 por ciento del importe bruto de los dividendos en los demás casos.

Artículo 12
Regalías
1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichas regalías pueden también someterse a imposición en el Estado Contratante del que procedan, pero si el beneficiario efectivo de las regalías es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 3 por ciento del importe bruto pagado por el uso de noticias;
b) 10 por ciento del importe bruto de las regalías en los demás casos.
"""

PT = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DE ANGOLA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 12.º
Royalties
1. As royalties produzidas num Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.
2. Todavia, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas se o beneficiário efectivo das royalties for residente do outro Estado Contratante, o imposto assim estabelecido não excederá:
a) 4 por cento do montante bruto das royalties pagas pela utilização de filmes e fitas de gravação;
b) 10 por cento do montante bruto das royalties nos restantes casos.
"""

EN = """AGREEMENT BETWEEN THE REPUBLIC OF KENYA AND THE REPUBLIC OF MAURITIUS FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 12
Royalties
1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall not exceed:
(a) 2 per cent of the gross amount of royalties paid for agricultural know-how;
(b) 10 per cent of the gross amount of the royalties in all other cases.
"""


def _caps(text: str, article: str) -> list[Provision]:
    doc = taxtreaty.parse(text)
    provisions = taxtreaty.provisions(doc).provisions
    found = [p for p in provisions if p.kind == "withholding_cap" and p.cite.eid.startswith(f"art_{article}__")]
    return sorted(found, key=lambda p: p.cite.eid)


@pytest.mark.parametrize(("text", "low_rate", "words"), [
    (ES, "3", "pagado por el uso de noticias"),
    (PT, "4", "utilização de filmes e fitas de gravação"),
    (EN, "2", "paid for agricultural know-how"),
])
def test_a_lower_rate_with_no_condition_read_keeps_its_words_as_unread(text: str, low_rate: str, words: str) -> None:
    low, residual = _caps(text, "12")
    assert low.rate_pct == Decimal(low_rate) and low.cite.eid.endswith("__point_a")
    assert words in low.conditions["unread_condition"]
    assert low.conditions["unread_condition"] == low.cite.quote
    assert residual.rate_pct == Decimal("10") and residual.conditions.get("otherwise") is True
    assert "unread_condition" not in residual.conditions


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), {"date": "2024-05-01", **facts}).to_dict()


@pytest.mark.parametrize(("text", "source", "residence"), [(ES, "CL", "ES"), (PT, "AO", "PT"), (EN, "KE", "MU")])
def test_the_engine_does_not_pick_the_unexplained_lower_rate(text: str, source: str, residence: str) -> None:
    answer = _decide(text, income="royalties", source=source, residence=residence, beneficial_owner=True)
    assert answer["status"] == "indeterminate"
    assert answer.get("max_rate_pct") is None


def test_rates_told_apart_by_a_holding_stay_determined() -> None:
    five, fifteen = _caps(ES, "10")
    assert "unread_condition" not in five.conditions and "unread_condition" not in fifteen.conditions
    company = _decide(ES, income="dividends", source="CL", residence="ES", beneficial_owner=True,
                      recipient="company", capital_pct=25, held_months=30)
    assert (company["status"], str(company["max_rate_pct"])) == ("determined", "5")
    person = _decide(ES, income="dividends", source="CL", residence="ES", beneficial_owner=True,
                     recipient="individual")
    assert (person["status"], str(person["max_rate_pct"])) == ("determined", "15")
