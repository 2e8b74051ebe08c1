"""Wordings of older Spanish-language conventions (the 1990s texts Uruguay's Texto Ordenado 1996 compiles), from
short sentences of our own in their shape: the residence State's share written with the domicile ("pagados ... a
una persona domiciliada en el otro Estado Contratante podrán ser gravados en ese otro Estado") was read as the
source State's right; "no podrán ser gravadas en este último Estado" was read as a shared right, not an
exemption. A protocol point headed "Respecto al artículo 224º.-" ("con respecto del Artículo 12", as the
Peruvian texts write it) qualifies the rate it names."""

from __future__ import annotations

import pytest

import taxtreaty

HEAD = "CONVENIO ENTRE LA REPUBLICA ORIENTAL DEL URUGUAY Y LA REPUBLICA DE POLONIA\n\n"
DIVIDENDS = HEAD + """Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad domiciliada en un Estado Contratante a {to} en el otro Estado Contratante podrán ser gravados en ese otro Estado.
2. Sin embargo, estos dividendos también podrán ser gravados en el Estado Contratante en que se domicilie la sociedad que paga los dividendos, pero el impuesto así exigido no excederá del:
a) 5% del importe bruto de los dividendos si el beneficiario es una sociedad que posea directamente por lo menos el 25% del capital de la sociedad que paga los dividendos;
b) 15% del importe bruto de los dividendos en todos los demás casos.
"""
PROTOCOL = """
PROTOCOLO
1) {lead} artículo 10.- Queda entendido que la tasa del 5% prevista en la letra a) del párrafo 2 del artículo 10 no se aplicará cuando los dividendos se paguen a una sociedad que no esté sometida a imposición sobre dichos dividendos en el Estado en que esté domiciliada.
"""
STUDENTS = HEAD + """Artículo 20
Estudiantes
1. Las cantidades que reciba para cubrir sus gastos de manutención un estudiante que se encuentre en el otro Estado Contratante con el único fin de proseguir sus estudios no podrán ser gravadas en este último Estado.
"""


def _allocations(text: str, eid: str) -> list[str]:
    return [p.allocation for p in taxtreaty.provisions(taxtreaty.parse(text)).provisions if p.cite.eid == eid and p.kind == "allocation"]


@pytest.mark.parametrize("to", ["una persona domiciliada", "un domiciliado", "una persona residente"])
def test_the_payment_to_a_person_domiciled_in_the_other_state_is_its_share_not_the_sources(to):
    text = DIVIDENDS.format(to=to)
    assert _allocations(text, "art_10__para_1") == []
    assert _allocations(text, "art_10__para_2") == ["source_may_tax"]


def test_may_not_be_taxed_in_the_host_state_is_an_exemption():
    ps = taxtreaty.provisions(taxtreaty.parse(STUDENTS)).provisions
    assert [(p.kind, p.cite.eid) for p in ps] == [("exemption", "art_20__para_1")]


@pytest.mark.parametrize("lead", ["Respecto al", "Con respecto del", "Respecto del"])
def test_a_protocol_point_headed_respecto_al_articulo_qualifies_the_rate(lead):
    doc = taxtreaty.parse(DIVIDENDS.format(to="una persona domiciliada") + PROTOCOL.format(lead=lead))
    scenario = {"income": "dividends", "source": "PL", "residence": "UY", "recipient": "company", "capital_pct": 30}
    undecided = taxtreaty.decide(doc, scenario).to_dict()
    assert undecided["status"] == "indeterminate" and undecided["missing_facts"] == ["recipient_subject_to_tax"]
    untaxed = taxtreaty.decide(doc, {**scenario, "recipient_subject_to_tax": False}).to_dict()
    assert (untaxed["status"], untaxed["max_rate_pct"]) == ("determined", "15")
