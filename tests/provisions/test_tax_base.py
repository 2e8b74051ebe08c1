"""A protocol point that sets the base of a rate ("en los casos de pagos por asistencia técnica, el impuesto ...
se determinará luego de deducir los gastos": AR-GB protocol 4(c) shape) is a note on the base (caveat kind
`tax_base`), never unread words that block the cap. The text is our own, in that shape."""

from __future__ import annotations

import pytest

import taxtreaty

ROYALTIES = {
    "es": """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO UNIDO

ARTICULO 12
REGALIAS

1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Sin embargo, dichas regalías pueden someterse a imposición en el Estado Contratante del que procedan, pero si el perceptor de las regalías es el beneficiario efectivo, el impuesto así exigido no podrá exceder:
a) del 10 por ciento del importe bruto pagado por el uso de una patente o marca de fábrica, e incluye los pagos por la prestación de asistencia técnica; y
b) del 15 por ciento del importe bruto de las regalías en todos los demás casos.

PROTOCOLO

1. Con respecto al Artículo 12:
a) en los casos de pagos por asistencia técnica, el impuesto a pagar conforme a lo establecido en el subapartado a) del apartado 2, se determinará luego de deducir los gastos directamente relacionados a la prestación de dicha asistencia.
""",
    "en": """CONVENTION BETWEEN THE ARGENTINE REPUBLIC AND THE UNITED KINGDOM

Article 12
Royalties

1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the recipient is the beneficial owner of the royalties the tax so charged shall not exceed:
(a) 10 per cent of the gross amount paid for the use of a patent or trade mark, including payments for technical assistance; and
(b) 15 per cent of the gross amount of the royalties in all other cases.

PROTOCOL

1. With reference to Article 12:
(a) in the case of payments for technical assistance, the tax charged under subparagraph (a) of paragraph 2 shall be computed after deducting the expenses directly related to the assistance.
""",
}


@pytest.mark.parametrize("language", sorted(ROYALTIES))
@pytest.mark.parametrize(("kind", "rate", "noted"), [("technical_services", "10", True), ("patents", "10", False),
                                                      ("other", "15", False)])
def test_the_base_point_is_a_note_not_a_condition(language: str, kind: str, rate: str, noted: bool) -> None:
    scenario = {"income": "royalties", "source": "AR", "residence": "GB", "beneficial_owner": True,
                "recipient": "company", "royalty_kind": kind}
    decision = taxtreaty.decide(taxtreaty.parse(ROYALTIES[language]), scenario, parties=["AR", "GB"]).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", rate)
    assert any(c["kind"] == "tax_base" for c in decision["caveats"]) is noted
