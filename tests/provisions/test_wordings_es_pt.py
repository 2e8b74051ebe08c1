"""Provisions in the wordings the Argentine conventions print (and the same wordings in Portuguese):
allocations "solamente se someterán a imposición" / "solamente serán imponibles", the voting power
"del derecho a voto", and the kinds of royalty each item of a rate list names (several kinds, a part
of a kind, kinds left out), from short excerpts in the texts' own words."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.model import Provision

HEAD_ES = "CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y CANADÁ PARA EVITAR LA DOBLE IMPOSICIÓN\n\n"

ROYALTIES_ES = HEAD_ES + """Artículo 12
Regalías
1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, dichas regalías pueden someterse a imposición en el Estado Contratante del que procedan, pero si el perceptor de las regalías es el beneficiario efectivo, el impuesto así exigido no podrá exceder:
a) del 3 por ciento del importe bruto pagado por el uso o la concesión del uso de noticias;
b) del 5 por ciento del importe bruto pagado por el uso de derechos de autor sobre obras literarias, teatrales, musicales o artísticas (pero no están incluidas las regalías con respecto a las películas cinematográficas);
c) del 10 por ciento del importe bruto pagado por el uso de patentes, marcas de fábrica, diseños o modelos, planos, fórmulas o procedimientos secretos, o por el uso de equipos industriales o científicos, incluidos los pagos por la prestación de servicios de asistencia técnica; y
d) del 15 por ciento del importe bruto de las regalías en todos los demás casos.
"""

ALLOCATIONS_ES = HEAD_ES + """Artículo 8
Transporte marítimo y aéreo
1. Los beneficios obtenidos por una empresa de un Estado Contratante procedentes de la explotación de buques o aeronaves en el tráfico internacional, incluido el alquiler de contenedores y equipos conexos, sólo podrán someterse a imposición en ese Estado.

Artículo 18
Pensiones
1. Las pensiones pagadas a un residente de un Estado Contratante en razón de un empleo anterior solamente se someterán a imposición en ese Estado.

Artículo 21
Otras rentas
1. Las rentas de un residente de un Estado Contratante no mencionadas en los artículos precedentes solamente serán imponibles en ese Estado.
"""

DIVIDENDS_ES = HEAD_ES + """Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, dichos dividendos pueden también someterse a imposición en el Estado Contratante en que resida la sociedad que pague los dividendos, pero si el perceptor de los dividendos es el beneficiario efectivo, el impuesto así exigido no podrá exceder del:
a) 10 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea el control directa o indirectamente de no menos del 25 por ciento del derecho a voto en la sociedad que paga dichos dividendos;
b) 15 por ciento del importe bruto de los dividendos en todos los demás casos.
"""

ROYALTIES_PT = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA ARGENTINA PARA EVITAR A DUPLA TRIBUTAÇÃO

Artigo 12.º
Royalties
1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.
2 — Todavia, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas se o beneficiário efectivo das royalties for residente do outro Estado Contratante, o imposto assim estabelecido não excederá:
a) 3 % do montante bruto das royalties pagas pelo uso de notícias;
b) 10 % do montante bruto das royalties pagas pelo uso de patentes, marcas de fabrico ou de comércio, ou de equipamento industrial ou científico;
c) 15 % do montante bruto das royalties em todos os demais casos.
"""


def _provisions(text: str) -> list[Provision]:
    return taxtreaty.provisions(taxtreaty.parse(text)).provisions


def _one(text: str, eid: str, kind: str) -> Provision:
    (found,) = [p for p in _provisions(text) if p.cite.eid == eid and p.kind == kind]
    return found


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    return taxtreaty.decide(taxtreaty.parse(text), {"date": "2024-05-01", **facts}).to_dict()


def test_each_royalty_item_names_its_kinds() -> None:
    news = _one(ROYALTIES_ES, "art_12__para_2__point_a", "withholding_cap")
    assert news.conditions["income_subtype"] == "news" and "unread_condition" not in news.conditions
    copyright_ = _one(ROYALTIES_ES, "art_12__para_2__point_b", "withholding_cap")
    # literary, theatrical, musical or artistic works (no scientific ones): a part of "copyright"; films left out
    assert copyright_.conditions["income_subtype"] == "copyright_some"
    assert copyright_.conditions["income_subtype_excluded"] == ["films"]
    listed = _one(ROYALTIES_ES, "art_12__para_2__point_c", "withholding_cap")
    # "incluidos los pagos por ... asistencia técnica": included in the item, one of its kinds
    assert listed.conditions["income_subtype"] == ["patents", "trademarks", "equipment_some", "technical_services"]


@pytest.mark.parametrize(("kind", "status", "rate"), [
    ("news", "determined", "3"),
    ("trademarks", "determined", "10"),
    ("patents", "determined", "10"),
    ("technical_services", "determined", "10"),
    ("films", "determined", "15"),  # left out of b), in none of a)-c): "en todos los demás casos"
    ("equipment", "indeterminate", None),  # industrial or scientific equipment only, not commercial
    ("copyright", "indeterminate", None),  # literary ... or artistic works, not scientific ones
])
def test_the_kind_of_royalty_chooses_the_item(kind: str, status: str, rate: str | None) -> None:
    decision = _decide(ROYALTIES_ES, income="royalties", source="AR", residence="CA", beneficial_owner=True,
                       recipient="company", royalty_kind=kind)
    assert decision["status"] == status
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate


def test_the_kind_of_royalty_is_asked_when_not_given() -> None:
    decision = _decide(ROYALTIES_ES, income="royalties", source="AR", residence="CA", beneficial_owner=True,
                       recipient="company")
    assert (decision["status"], decision["missing_facts"]) == ("indeterminate", ["royalty_kind"])


def test_portuguese_royalty_items_name_their_kinds() -> None:
    assert _one(ROYALTIES_PT, "art_12__para_2__point_a", "withholding_cap").conditions["income_subtype"] == "news"
    assert _one(ROYALTIES_PT, "art_12__para_2__point_b", "withholding_cap").conditions["income_subtype"] == [
        "patents", "trademarks", "equipment_some"]
    decision = _decide(ROYALTIES_PT, income="royalties", source="AR", residence="PT", beneficial_owner=True,
                       recipient="company", royalty_kind="trademarks")
    assert (decision["status"], str(decision["max_rate_pct"])) == ("determined", "10")


@pytest.mark.parametrize(("eid", "income"), [
    ("art_8__para_1", "shipping"), ("art_18__para_1", "pensions"), ("art_21__para_1", "other_income")])
def test_solamente_se_someteran_and_seran_imponibles_are_residence_only(eid: str, income: str) -> None:
    (allocation,) = [p for p in _provisions(ALLOCATIONS_ES) if p.cite.eid == eid and p.kind == "allocation"]
    assert allocation.allocation == "residence_only"
    # "incluido el alquiler de contenedores y equipos conexos": included in the rule, not a kind it is limited to
    assert "income_subtype" not in allocation.conditions
    decision = _decide(ALLOCATIONS_ES, income=income, source="AR", residence="CA", recipient="company")
    assert (decision["status"], decision["source_taxation"]) == ("determined", "none")


def test_derecho_a_voto_is_voting_power() -> None:
    a = _one(DIVIDENDS_ES, "art_10__para_2__point_a", "withholding_cap")
    assert a.conditions == {"beneficial_owner": True, "recipient": "company", "min_capital_pct": Decimal("25"),
                            "capital_basis": "voting_power", "holding_direct": False}
    qualifying = _decide(DIVIDENDS_ES, income="dividends", source="AR", residence="CA", beneficial_owner=True,
                         recipient="company", voting_pct=30)
    assert str(qualifying["max_rate_pct"]) == "10"
    unknown = _decide(DIVIDENDS_ES, income="dividends", source="AR", residence="CA", beneficial_owner=True,
                      recipient="company", capital_pct=30)
    assert unknown["missing_facts"] == ["voting_pct"]


def test_a_credit_sale_of_equipment_is_a_loan_kind_not_a_royalty_kind() -> None:
    text = HEAD_ES + (
        "Artículo 11\nIntereses\n1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro "
        "Estado Contratante pueden someterse a imposición en este otro Estado.\n2. No obstante, los intereses estarán "
        "exentos de impuesto en el Estado del que procedan si se pagan en relación con ventas de equipos industriales, "
        "comerciales o científicos.\n")
    (exemption,) = [p for p in _provisions(text) if p.kind == "exemption"]
    assert exemption.conditions["income_subtype"] == "credit_sale"


FINAL_ES = HEAD_ES + """Artículo 23
Métodos para evitar la doble imposición
1. Cuando un residente de Canadá obtenga rentas que pueden someterse a imposición en Argentina, Canadá deducirá del impuesto que perciba sobre las rentas de este residente un importe igual al impuesto pagado en Argentina. Sin embargo, dicho crédito no excederá la parte del impuesto correspondiente a esas rentas.
2. Cuando un residente de Argentina obtenga rentas que, de acuerdo con las disposiciones del presente Convenio, pueden someterse a imposición en Canadá, Argentina no las someterá a imposición.
3. En el caso de un residente de la República Argentina se excluirá de la base sobre la cual se grava el impuesto argentino cualquier renta que puede ser gravada en Canadá. No obstante la República Argentina conserva el derecho de incluir en la determinación de la alícuota aplicable las rentas así excluidas.

Artículo 28
Entrada en vigor
1. El Convenio entrará en vigor a partir del intercambio de los instrumentos de ratificación, y sus disposiciones se aplicarán:
I - Con respecto a los impuestos retenidos en la fuente, sobre cualquier pago realizado a partir del primer día de enero, inclusive del año calendario inmediato siguiente a aquel en que el Convenio entre en vigor;
II - Con respecto a los otros impuestos, en el ejercicio fiscal que comience a partir del primer día de enero, inclusive, del año calendario inmediato siguiente a aquel en que el Convenio entre en vigor.

Artículo 29
Denuncia
El presente Convenio permanecerá en vigor hasta que se denuncie por uno de los Estados Contratantes. Cualquiera de ellos podrá denunciarlo por vía diplomática, comunicándolo al menos con seis (6) meses de antelación a la terminación de cada año calendario.
"""

EFFECT_ES = HEAD_ES + """Artículo 28
Entrada en vigor
1. El Convenio entrará en vigor a partir del intercambio de los instrumentos de ratificación, y sus disposiciones se aplicarán:
a) En relación con los impuestos en la fuente sobre cantidades pagadas a no residentes, a partir del día primero del mes de enero siguiente a la fecha en que el Convenio entre en vigor; y
b) En relación con los demás impuestos, a los ejercicios fiscales que comiencen a partir del día primero del mes de enero siguiente a la fecha en que el Convenio entre en vigor.

Artículo 30
Terminación
El presente Convenio continuará en vigor indefinidamente, pero cualquiera de los Estados Contratantes, antes del 30 de junio de cualquier año calendario que comience después de transcurrido un período de cinco años a partir de su entrada en vigor, podrá enviar al otro Estado Contratante, por vía diplomática, una notificación escrita de terminación y, en ese caso, el presente Convenio dejará de ser efectivo.
"""


def _values(text: str, kind: str, eid_prefix: str) -> list[dict[str, Any]]:
    return [p.values for p in _provisions(text) if p.kind == kind and p.cite.eid.startswith(eid_prefix)]


def test_relief_wordings_no_las_sometera_and_se_excluira_de_la_base_are_exemptions() -> None:
    relief = {p.cite.eid: p.values for p in _provisions(FINAL_ES) if p.kind == "relief_method"}
    assert relief["art_23__para_1"] == {"method": "credit", "limit": "ordinary"}
    assert relief["art_23__para_2"] == {"method": "exemption"}
    assert relief["art_23__para_3"] == {"method": "exemption", "progression": True}


def test_effect_from_the_first_of_january_following_entry_into_force() -> None:
    # items a) / b) set apart as points, and items I - / II - left in the paragraph the ":" announces them in
    for text in (EFFECT_ES, FINAL_ES):
        effects = [v for v in _values(text, "date", "art_28") if v.get("event") == "effect"]
        assert effects and all(v["from"] == "january_1_of_year_after_entry_into_force" for v in effects), effects


def test_termination_notice_wordings() -> None:
    (six,) = [v for v in _values(FINAL_ES, "date", "art_29") if v.get("event") == "termination_notice"]
    assert six == {"event": "termination_notice", "months_before_year_end": 6}
    (june,) = [v for v in _values(EFFECT_ES, "date", "art_30") if v.get("event") == "termination_notice"]
    assert june == {"event": "termination_notice", "by": "06-30", "years_after_entry_into_force": 5}


INTEREST_ES = """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y LA REPÚBLICA FEDERAL DE ALEMANIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 11
Intereses
1. Los intereses originados en un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. No obstante, tales intereses pueden someterse a imposición en el Estado Contratante en el que se originan, pero el impuesto resultante no deberá exceder el:
a) diez por ciento del importe bruto de tales intereses si los mismos se pagan en virtud de créditos originados en la venta de equipos industriales, o se originan en cualquier clase de préstamos concedidos por un banco;
b) quince por ciento del importe bruto de tales intereses en los demás casos.
3. No obstante las disposiciones del apartado 2, los intereses originados en:
a) la República Argentina y pagados al Gobierno Alemán o al Banco Federal de Alemania estarán exentos del impuesto argentino;
b) la República Federal de Alemania y pagados al Gobierno Argentino o al Banco Central de la República Argentina estarán exentos del impuesto alemán.
4. Los intereses procedentes de un Estado Contratante estarán exentos de impuestos en dicho Estado si:
a) el deudor de los intereses es ese Estado o una de sus subdivisiones políticas o administrativas, o una de sus colectividades locales; o
b) los intereses son pagados a una institución u organismo (comprendidas las instituciones financieras) pertenecientes en su totalidad al otro Estado Contratante.
"""


def test_a_bank_that_grants_the_loan_is_the_kind_of_loan_not_the_recipient() -> None:
    a = _one(INTEREST_ES, "art_11__para_2__point_a", "withholding_cap")
    assert a.conditions == {"income_subtype": ["credit_sale", "bank_loan"]}
    # (without paragraph 4, whose entities wholly owned by the State a bank may be)
    loan = _decide(INTEREST_ES.split("4. Los intereses")[0], income="interest", source="AR", residence="DE", recipient="bank", payer="company",
                   loan_kind="bank_loan")
    assert (str(loan["max_rate_pct"]), loan["eid"]) == ("10", "art_11__para_2__point_a")


def test_items_of_arising_in_name_the_source_state_and_a_federal_bank_is_the_central_bank() -> None:
    a = _one(INTEREST_ES, "art_11__para_3__point_a", "exemption")
    b = _one(INTEREST_ES, "art_11__para_3__point_b", "exemption")
    assert (a.conditions["source_state"], b.conditions["source_state"]) == ("AR", "DE")
    # "al Banco Federal de Alemania" is that State's central bank, never any bank
    assert set(a.conditions["recipient_kinds"]) == {"government", "central_bank"}
    to_bank = _decide(INTEREST_ES, income="interest", source="AR", residence="DE", recipient="central_bank",
                      payer="company")
    assert (to_bank["source_taxation"], to_bank["eid"]) == ("none", "art_11__para_3__point_a")


def test_the_state_as_debtor_and_entities_it_wholly_owns() -> None:
    a = _one(INTEREST_ES, "art_11__para_4__point_a", "exemption")
    assert a.conditions == {"payer_kinds": ["government", "local_authority"]}
    b = _one(INTEREST_ES, "art_11__para_4__point_b", "exemption")
    assert b.conditions["recipient_kinds"] == ["government_owned"] and "unread_condition" not in b.conditions


RESERVES_ES = """CONVENIO ENTRE LA REPÚBLICA ARGENTINA Y AUSTRALIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 11
Intereses
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, dichos intereses pueden también someterse a imposición en el Estado Contratante del que procedan, pero el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de esos intereses.
3. No obstante las disposiciones del apartado 2, los intereses obtenidos por la inversión de activos de la reserva oficial efectuada en un Estado Contratante por el gobierno del otro Estado Contratante, una institución monetaria gubernamental o un banco que desempeñe funciones de banco central en ese otro Estado, estarán exentos de imposición en el Estado mencionado en primer término.
"""


def test_only_interest_from_investing_official_reserve_assets_is_exempt() -> None:
    exemption = _one(RESERVES_ES, "art_11__para_3", "exemption")
    assert exemption.conditions["recipient_kinds"] == ["government", "central_bank"]
    assert "reserva oficial" in exemption.conditions["unread_condition"]
    # a central bank's interest is not exempt whatever it is paid on: never 0 % for certain
    central = _decide(RESERVES_ES, income="interest", source="AR", residence="AU", recipient="central_bank")
    assert central["status"] == "indeterminate"
    company = _decide(RESERVES_ES, income="interest", source="AR", residence="AU", recipient="company", payer="company")
    assert (company["status"], str(company["max_rate_pct"])) == ("determined", "12")
