"""A dividends article whose copy lost its accented letters (dropped, or printed "?" or U+FFFD: text/accents.py)
gives the caps of the article as printed, each citing the damaged copy's own words. Our own sentences."""

from __future__ import annotations

import random

import pytest

import taxtreaty
from taxtreaty.checks.damage import ACCENT_MUTATIONS

ES = """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO DE SUECIA PARA EVITAR LA DOBLE IMPOSICIÓN

ARTÍCULO 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos y según la legislación de ese Estado, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 25 por ciento del capital de la sociedad que paga los dividendos;
b) 15 por ciento del importe bruto de los dividendos en todos los demás casos.
"""

PT = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DA ESTÓNIA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 10.º
Dividendos
1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.
2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos e de acordo com a legislação desse Estado, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não poderá exceder:
a) 5 % do montante bruto dos dividendos, se o seu beneficiário efectivo for uma sociedade que detenha directamente pelo menos 25 % do capital da sociedade que paga os dividendos;
b) 15 % do montante bruto dos dividendos, nos restantes casos.
"""

#: pt "não" with its "ã" dropped prints "no", a word of its own: left as printed, that copy is not one of these
CASES = [("es", d) for d in sorted(ACCENT_MUTATIONS)] + [
    ("pt", d) for d in sorted(ACCENT_MUTATIONS) if d != "drop_accented_letters"
]


def _caps(text: str) -> list[tuple[str, object, str]]:
    found = taxtreaty.provisions(taxtreaty.parse(text)).provisions
    return sorted((p.cite.eid, p.rate_pct, p.status) for p in found if p.kind == "withholding_cap")


@pytest.mark.parametrize(("language", "damage"), CASES)
def test_a_damaged_dividends_article_gives_the_caps_of_the_clean_one(language: str, damage: str) -> None:
    text = {"es": ES, "pt": PT}[language]
    damaged = ACCENT_MUTATIONS[damage](text, random.Random(0))
    assert damaged != text
    expected = _caps(text)
    assert {rate for _, rate, _ in expected} >= ({10, 15} if language == "es" else {5, 15})
    assert _caps(damaged) == expected
    doc = taxtreaty.parse(damaged)
    for provision in taxtreaty.provisions(doc).provisions:
        start, end = provision.cite.span
        assert provision.cite.quote == damaged[start:end]  # the quote is the copy's own characters
