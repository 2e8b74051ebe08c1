"""A protocol point, headed by one article, that puts a kind of royalty among the items of one subparagraph of
that article ("Se entenderá que las cantidades pagadas por el uso ... de programas de ordenador están incluidas
entre los conceptos a los que se aplica lo dispuesto por el apartado 2 c)": AR-ES protocol 4(d) shape): a cap of
that item's rate for the kind, cited by the point, which sets aside the other items of the list for it (the
copyright item whose works may hold software, the "in all other cases" rate). The texts are our own."""

from __future__ import annotations

import pytest

import taxtreaty

ROYALTIES = {
    "es": """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y EL REINO DE ESPAÑA

Artículo 12
CANONES O REGALIAS

1. Los cánones o regalías procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.

2. Sin embargo, dichos cánones o regalías pueden someterse a imposición en el Estado Contratante del que procedan, pero si el perceptor de los cánones o regalías es el beneficiario efectivo, el impuesto así exigido no podrá exceder:
a) del 5 por ciento del importe bruto pagado por el uso de derechos de autor sobre obras literarias, teatrales, musicales o artísticas;
b) del 10 por ciento del importe bruto pagado por el uso de patentes, diseños y modelos, planos, fórmulas o procedimientos secretos;
c) del 15 por ciento del importe bruto de los cánones o regalías en los demás casos.

PROTOCOLO

1. Con referencia al artículo 12:
a) Se entenderá que las cantidades pagadas por el uso o la concesión del uso de programas de ordenador están incluidas entre los conceptos a los que se aplica lo dispuesto por el apartado 2 b).
""",
    "en": """CONVENTION BETWEEN THE ARGENTINE REPUBLIC AND THE KINGDOM OF SPAIN

Article 12
Royalties

1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the recipient is the beneficial owner of the royalties the tax so charged shall not exceed:
(a) 5 per cent of the gross amount paid for the use of any copyright of literary, dramatic, musical or artistic work;
(b) 10 per cent of the gross amount paid for the use of any patent, design or model, plan, secret formula or process;
(c) 15 per cent of the gross amount of the royalties in all other cases.

PROTOCOL

1. With reference to Article 12:
(a) It is understood that payments for the use of computer software are included among the payments to which the provisions of paragraph 2(b) apply.
""",
}


@pytest.mark.parametrize("language", sorted(ROYALTIES))
@pytest.mark.parametrize(("kind", "rate", "eid"), [("software", "10", "protocol_1__para_1"),
                                                   ("patents", "10", "art_12__para_2__point_b"),
                                                   ("trademarks", "15", "art_12__para_2__point_c")])
def test_the_point_puts_the_kind_in_the_item_it_names(language: str, kind: str, rate: str, eid: str) -> None:
    scenario = {"income": "royalties", "source": "ES", "residence": "AR", "beneficial_owner": True,
                "recipient": "company", "royalty_kind": kind}
    decision = taxtreaty.decide(taxtreaty.parse(ROYALTIES[language]), scenario, parties=["AR", "ES"]).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", rate)
    assert decision["eid"].startswith(eid)


def test_without_the_point_software_may_be_copyright() -> None:
    text = ROYALTIES["es"].split("PROTOCOLO")[0]
    scenario = {"income": "royalties", "source": "ES", "residence": "AR", "beneficial_owner": True,
                "recipient": "company", "royalty_kind": "software"}
    decision = taxtreaty.decide(taxtreaty.parse(text), scenario, parties=["AR", "ES"]).to_dict()
    assert decision["status"] == "indeterminate"
