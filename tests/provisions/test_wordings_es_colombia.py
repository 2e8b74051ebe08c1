"""Colombian wordings: "entidades territoriales" (the Constitution's word for the departments, districts and
municipalities) are the local authorities of an interest exemption; before, its words were left unread and every
interest payment abstained on them, the company lender's 10 % cap too. Sentences of our own."""

from __future__ import annotations

import pytest

import taxtreaty

TEXT = """Artículo 11
Intereses
1. Los intereses procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.
3. No obstante las disposiciones del apartado 2, los intereses procedentes de un Estado contratante solo pueden someterse a imposición en el otro Estado contratante si el beneficiario efectivo de los intereses es ese otro Estado, una de sus entidades territoriales, o su banco central.
"""


@pytest.mark.parametrize(("recipient", "expected"), [
    ("company", ("determined", "limited", "10", "art_11__para_2")),
    ("local_authority", ("determined", "none", "0", "art_11__para_3")),
    ("central_bank", ("determined", "none", "0", "art_11__para_3")),
])
def test_territorial_entities_are_local_authorities(recipient, expected):
    scenario = {"income": "interest", "source": "CO", "residence": "PY", "beneficial_owner": True,
                "recipient": recipient, "payer": "company"}
    d = taxtreaty.decide(taxtreaty.parse(TEXT.encode()), scenario).to_dict()
    assert (d["status"], d["source_taxation"], d["max_rate_pct"], d["eid"]) == expected
    assert not d["unread"]
