"""A limit worded as a rate the tax is never charged above: "the tax so charged shall in no case exceed 12 per
cent ...", "such tax shall not be charged at a rate exceeding 12 per cent ..." (older English texts, Indian
notifications), "en ningún caso podrá exceder del" (`cap` phrases). Before, the
paragraph was "a limit whose rate could not be read; source text incomplete": an abstention naming no fact
when the rate is printed. Sentences are our own."""

from __future__ import annotations

from decimal import Decimal

import pytest

import taxtreaty

EN = (
    "Article 11\nInterest\n"
    "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed "
    "in that other State.\n"
    "2. However, such interest may also be taxed in the Contracting State in which it arises, but if the beneficial "
    "owner of the interest is a resident of the other Contracting State, {cap} 12 per cent of the gross amount of "
    "the interest.\n"
)
ES = (
    "Artículo 11\nIntereses\n"
    "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
    "pueden someterse a imposición en ese otro Estado.\n"
    "2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que "
    "procedan, pero si el beneficiario efectivo de los intereses es residente del otro Estado Contratante, {cap} "
    "12 por ciento del importe bruto de los intereses.\n"
)
@pytest.mark.parametrize(("text", "cap"), [
    (EN, "the tax so charged shall in no case exceed"),
    (EN, "the tax so charged shall not in any case exceed"),
    (EN, "such tax shall not be charged at a rate exceeding"),
    (EN, "the tax shall not be levied at a rate exceeding"),
    (ES, "el impuesto así exigido en ningún caso podrá exceder del"),
])
def test_a_limit_never_exceeded_is_a_cap(text: str, cap: str) -> None:
    doc = taxtreaty.parse(text.format(cap=cap))
    decision = taxtreaty.decide(doc, {"income": "interest", "source": "IN", "residence": "SG",
                                      "beneficial_owner": True, "recipient": "company"}, parties=["IN", "SG"])
    assert (decision.status, decision.max_rate_pct) == ("determined", Decimal("12")), decision.to_dict()["reasons"]
