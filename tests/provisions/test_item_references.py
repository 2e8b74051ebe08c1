"""Items of a list of rates that name their royalties by citing another paragraph's items (AR-AU 12(2)(a) shape:
"ii) los subapartados 3 (b)(d)"), resolved in the article's own tree (provisions/item_refs.py); a kind the
definition names apart from the copyright ("h) ... películas cinematográficas") is not asked whether it is that
copyright; a news-agency point "si un residente de X es beneficiario efectivo de dichos pagos" is read. The texts
are our own, in the shape of the Argentine-Australian convention."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

HEAD = "ACUERDO ENTRE LA REPÚBLICA ARGENTINA Y AUSTRALIA PARA EVITAR LA DOBLE IMPOSICIÓN\n\n"
ROYALTIES = HEAD + """ARTICULO 12
Regalías

1. Las regalías procedentes de un Estado Contratante cuyo beneficiario efectivo es un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.

2. Dichas regalías también pueden someterse a imposición en el Estado Contratante del que procedan, pero el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de las regalías en los casos de pagos o créditos a los que se refiere:
i) el subapartado 3 (a), siempre que este subapartado 2 (a) se aplique sólo en relación a los derechos de autor sobre una obra literaria, dramática, musical u otro trabajo artístico;
ii) los subapartados 3 (b)(d); y
iii) el subapartado 3 (g) relacionado con cualquier pago o crédito mencionado en los subapartados 2 (a) (i) o (ii);
b) 10 por ciento del importe neto de las regalías en el caso de pagos o créditos a que se refiere el subapartado 3 (e); y
c) 15 por ciento del importe bruto de las regalías en todos los demás casos.

3. El término “regalías” empleado en el presente artículo significa los pagos o créditos que se originen por:
a) el uso de un derecho de autor, una patente, marca de fábrica u otro bien similar; o
b) el uso de un equipo industrial o científico; o
c) el suministro de informaciones o de conocimientos científicos, técnicos o industriales; o
d) el suministro de cualquier asistencia auxiliar y subsidiaria, que posibilite el uso de un bien mencionado en el subapartado (a); o
e) la prestación de cualquier asistencia técnica no incluida en el subapartado 3 (d); o
f) el uso de películas cinematográficas; o
g) la renuncia total o parcial al uso de cualquier bien mencionado en el presente apartado.

PROTOCOLO

1. Con respecto al Artículo 12:
a) en el caso de Argentina, las regalías incluyen asimismo cualquier pago percibido por la transmisión de noticias por una agencia internacional de noticias pero si un residente de Australia es beneficiario efectivo de dichos pagos el impuesto así exigido no podrá exceder del 3 por ciento del importe bruto de los mismos.
"""
SCENARIO = {"income": "royalties", "source": "AU", "residence": "AR", "beneficial_owner": True, "recipient": "company"}


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), {**SCENARIO, **facts}, parties=["AR", "AU"]).to_dict()


def _caps(text: str) -> dict[str, dict[str, Any]]:
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    return {p.cite.eid: p.conditions for p in ps.provisions if p.kind == "withholding_cap"}


def test_cited_items_give_their_kinds_and_leave_no_unread_words() -> None:
    caps = _caps(ROYALTIES)
    assert caps["art_12__para_2__point_a__point_i"]["income_subtype"] == "copyright_some"
    # "3 (b)(d)": the run b, c, d (a list of two would print its joiner)
    assert caps["art_12__para_2__point_a__point_ii"]["income_subtype"] == ["equipment_some", "know_how_part",
                                                                          "technical_services_part"]
    # "3 (g) relacionado con ... 2 (a) (i) o (ii)": bounded by its sister items
    assert set(caps["art_12__para_2__point_a__point_iii"]["income_subtype"]) == {
        "copyright_some", "equipment_some", "know_how_part", "technical_services_part"}
    assert caps["art_12__para_2__point_b"]["income_subtype"] == "technical_services"
    assert not any("unread_condition" in c for eid, c in caps.items() if eid.startswith("art_12"))


@pytest.mark.parametrize(("kind", "status", "rate", "eid"), [
    ("patents", "determined", "15", "art_12__para_2__point_c"),
    ("trademarks", "determined", "15", "art_12__para_2__point_c"),
    ("other", "determined", "15", "art_12__para_2__point_c"),
    # films are an item of their own in the definition: not the copyright of 2(a)(i)
    ("films", "determined", "15", "art_12__para_2__point_c"),
    ("technical_services", "determined", "10", "art_12__para_2__point_b"),
    # copyright of a scientific work is at 15 %, of a literary one at 10 %: the kind does not choose
    ("copyright", "indeterminate", None, None),
    # industrial or scientific equipment at 10 %, commercial equipment in all other cases
    ("equipment", "indeterminate", None, None),
    ("know_how", "indeterminate", None, None),
    # software is named nowhere: it may be the copyright of 2(a)(i)
    ("software", "indeterminate", None, None),
])
def test_each_kind_of_the_definition_gets_its_rate(kind: str, status: str, rate: str | None, eid: str | None) -> None:
    decision = _decide(ROYALTIES, royalty_kind=kind)
    assert (decision["status"], decision["max_rate_pct"]) == (status, rate)
    if eid is not None:
        assert decision["eid"] == eid


def test_a_royalty_of_no_kind_given_asks_for_it() -> None:
    decision = _decide(ROYALTIES)
    assert decision["status"] == "indeterminate"
    assert "royalty_kind" in decision["missing_facts"]


def test_the_news_point_caps_argentine_news_payments_to_australians() -> None:
    decision = _decide(ROYALTIES, source="AR", residence="AU", royalty_kind="news")
    assert (decision["status"], decision["max_rate_pct"], decision["eid"]) == ("determined", "3", "protocol_1__para_1")


def test_a_reference_that_does_not_resolve_stays_unread() -> None:
    # there is no item 3 (k): the words stay unread, and no rate of the list is given for a patent
    text = ROYALTIES.replace("ii) los subapartados 3 (b)(d); y", "ii) los subapartados 3 (b)(k); y")
    caps = _caps(text)
    assert caps["art_12__para_2__point_a__point_ii"]["unread_condition"].startswith("los subapartados 3 (b)(k)")
    assert _decide(text, royalty_kind="patents")["status"] == "indeterminate"


def test_a_cited_item_that_names_no_kind_stays_unread() -> None:
    text = ROYALTIES.replace("ii) los subapartados 3 (b)(d); y", "ii) el subapartado 3 (g); y")
    caps = _caps(text)
    assert "unread_condition" in caps["art_12__para_2__point_a__point_ii"]
    assert _decide(text, royalty_kind="patents")["status"] == "indeterminate"


def test_other_words_beside_the_reference_stay_unread() -> None:
    text = ROYALTIES.replace("ii) los subapartados 3 (b)(d); y",
                             "ii) los subapartados 3 (b)(d), cuando el pagador sea una sociedad cotizada; y")
    caps = _caps(text)
    assert "unread_condition" in caps["art_12__para_2__point_a__point_ii"]


ROYALTIES_EN = """AGREEMENT BETWEEN AUSTRALIA AND THE ARGENTINE REPUBLIC

Article 12
Royalties

1. Royalties arising in a Contracting State and beneficially owned by a resident of the other Contracting State may be taxed in that other State.

2. However, those royalties may also be taxed in the Contracting State in which they arise, but the tax so charged shall not exceed:
(a) 10 per cent of the gross amount of the royalties in the case of payments or credits referred to in:
(i) subparagraphs 3(b) to (c);
(b) 15 per cent of the gross amount of the royalties in all other cases.

3. The term "royalties" in this Article means payments or credits to the extent to which they are made as consideration for:
(a) the use of, or the right to use, any patent or trade mark; or
(b) the use of, or the right to use, any industrial or scientific equipment; or
(c) the supply of technical assistance.
"""


def test_an_english_run_of_items() -> None:
    caps = _caps(ROYALTIES_EN)
    assert caps["art_12__para_2__point_a__point_i"]["income_subtype"] == ["equipment_some", "technical_services"]
    decision = taxtreaty.decide(taxtreaty.parse(ROYALTIES_EN), {**SCENARIO, "royalty_kind": "patents"},
                                parties=["AR", "AU"]).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "15")
