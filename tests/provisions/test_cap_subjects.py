"""Provisions, the caps reader: the subject of a cap before its verb ("charged_tax") in the wordings
other collections print: India's "the rate of tax shall not exceed fifteen per centum", "the tax
imposed shall not exceed", Latin America's "la tasa del impuesto no podrá exceder"."""

from __future__ import annotations

from decimal import Decimal

import pytest

import taxtreaty

EN_ART = """ARTICLE 10
DIVIDENDS
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident and according to the laws of that State, but if the beneficial owner of the dividends is a resident of the other Contracting State, {subject} shall not exceed fifteen per centum of the gross amount of the dividends.
"""

ES_ART = """Artículo 10. Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos podrán someterse también a imposición en el Estado contratante en que resida la sociedad que pague los dividendos y según la legislación de este Estado; pero, si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, {subject} no podrá exceder del 15 por 100 del importe bruto de los dividendos.
"""


@pytest.mark.parametrize("text,subject", [
    (EN_ART, "the rate of tax"),
    (ES_ART, "la tasa del impuesto"), (ES_ART, "el impuesto exigido"),
])
def test_cap_subject_wordings_give_the_rate(text: str, subject: str) -> None:
    doc = taxtreaty.parse(text.format(subject=subject))
    d = taxtreaty.decide(doc, {"income": "dividends", "source": "IN", "residence": "ZZ",
                               "beneficial_owner": True}).to_dict()
    assert d["status"] == "determined", d["reasons"]
    assert Decimal(str(d["max_rate_pct"])) == 15
    assert d["eid"] == "art_10__para_2"
    assert not d["unread"]
