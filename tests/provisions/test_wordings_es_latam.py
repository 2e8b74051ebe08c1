"""Wordings of Latin American conventions (Chile's Diario Oficial, issue 11), from short sentences of our own
in their shape: the Chilean clause that keeps the Impuesto Adicional out of the dividend rates ("Las
disposiciones del párrafo 2 no limitarán la aplicación del Impuesto Adicional a pagar en Chile ...") switches
the rates off for dividends paid by a Chilean company only, never for those the other State taxes (they were
all indeterminate); the other-income article's second paragraph "pueden someterse también a imposición en ese
otro Estado" is the source State's right (it was an exception not read); "bonos o valores que son regular y
sustancialmente transados" names the kind of debt-claim; the promulgating decree's "entraron en vigencia con
fecha ..." is the entry into force."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

HEAD = ("CONVENIO ENTRE LA REPÚBLICA DE CHILE Y LA REPÚBLICA ORIENTAL DEL URUGUAY PARA ELIMINAR LA DOBLE "
        "IMPOSICIÓN\n\n")
DIVIDENDS = HEAD + """Artículo 10
DIVIDENDOS
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
(a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que controla directamente al menos el 20 por ciento de las acciones con derecho a voto de la sociedad que paga dichos dividendos;
(b) 10 por ciento del importe bruto de los dividendos en todos los demás casos.
3. Las disposiciones del párrafo 2 no limitarán la aplicación del Impuesto Adicional a pagar en Chile en la medida que el Impuesto de Primera Categoría sea deducible contra el Impuesto Adicional.
"""
DIVIDENDS_EN = """CONVENTION BETWEEN THE REPUBLIC OF CHILE AND THE KINGDOM OF SPAIN

Article 10
DIVIDENDS
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the dividends.
3. The provisions of paragraph 2 shall not limit the application of the Additional Tax payable in Chile provided that the First Category Tax is creditable against the Additional Tax.
"""
OTHER_INCOME = HEAD + """Artículo 20
OTRAS RENTAS
1. Las rentas de un residente de un Estado Contratante, cualquiera que fuese su procedencia, no mencionadas en los artículos anteriores del presente Convenio, sólo pueden someterse a imposición en ese Estado.
2. No obstante lo dispuesto en el párrafo 1, las rentas de un residente de un Estado Contratante no mencionadas en los artículos anteriores y procedentes del otro Estado Contratante pueden someterse también a imposición en ese otro Estado.
"""
INTEREST = HEAD + """Artículo 11
INTERESES
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
(a) 4 por ciento del importe bruto de los intereses provenientes de bonos o valores que son regular y sustancialmente transados en una bolsa de valores reconocida;
(b) 15 por ciento del importe bruto de los intereses en todos los demás casos.
"""
DECREE = """PROMULGA EL CONVENIO ENTRE LA REPÚBLICA DE CHILE Y LA REPÚBLICA ORIENTAL DEL URUGUAY PARA ELIMINAR LA DOBLE IMPOSICIÓN
Núm. 41.- Santiago, 2 de febrero de 2023.
Considerando:
Que, de acuerdo con lo dispuesto en el párrafo 1 del artículo 27 del referido Convenio, los Estados Contratantes se notificaron el cumplimiento de sus procedimientos internos y, en consecuencia, el Convenio entraron en vigencia con fecha 20 de enero de 2023.
Decreto:
Artículo único: Promúlgase el Convenio; cúmplase y publíquese copia autorizada de su texto en el Diario Oficial.
""" + DIVIDENDS + """Artículo 27
ENTRADA EN VIGOR
1. El Convenio entrará en vigor en la fecha de recepción de la última notificación.
2. Las disposiciones del Convenio se aplicarán, en relación con los impuestos sobre la renta que se retengan en la fuente, respecto de las cantidades pagadas a partir del primer día de enero del año calendario inmediatamente siguiente a aquel en que el Convenio entre en vigor.
"""


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    scenario = {"income": "dividends", "beneficial_owner": True, "recipient": "individual", **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario).to_dict()


@pytest.mark.parametrize("text", [DIVIDENDS, DIVIDENDS_EN], ids=["es", "en"])
def test_a_clause_keeping_one_states_own_tax_switches_the_rates_off_there_only(text):
    other = "UY" if text is DIVIDENDS else "ES"
    # the dividends the other State taxes keep their cap
    from_other = _decide(text, source=other, residence="CL")
    assert (from_other["status"], str(from_other["max_rate_pct"])) == ("determined", "10")
    # the dividends a Chilean company pays: the Additional Tax's words are cited, never a cap applied
    from_chile = _decide(text, source="CL", residence=other)
    assert from_chile["status"] == "indeterminate" and from_chile["max_rate_pct"] is None
    assert any("Impuesto Adicional" in r or "Additional Tax" in r for r in from_chile["reasons"])


def test_a_switch_naming_no_state_still_reaches_both_directions():
    text = DIVIDENDS.replace("a pagar en Chile ", "")
    for source, residence in (("CL", "UY"), ("UY", "CL")):
        assert _decide(text, source=source, residence=residence)["status"] == "indeterminate"


def test_other_income_the_source_state_may_also_tax():
    decision = _decide(OTHER_INCOME, income="other_income", source="CL", residence="UY")
    assert (decision["status"], decision["source_taxation"]) == ("determined", "unlimited")


def test_traded_bonds_are_a_kind_of_debt_claim_with_their_condition_unread():
    ps = taxtreaty.provisions(taxtreaty.parse(INTEREST))
    (low,) = [p for p in ps.provisions if p.cite.eid == "art_11__para_2__point_a" and p.kind == "withholding_cap"]
    assert low.conditions["income_subtype"] == "bonds"
    assert "bolsa de valores reconocida" in low.conditions["unread_condition"]
    other = _decide(INTEREST, income="interest", source="CL", residence="UY", payer="company", loan_kind="other")
    assert (other["status"], str(other["max_rate_pct"])) == ("determined", "15")


def test_the_decree_states_the_entry_into_force():
    # in force on 20 January 2023, so the rates apply to dividends paid from 1 January 2024
    before = _decide(DECREE, source="UY", residence="CL", date="2023-06-01")
    assert before["status"] == "not_covered"
    after = _decide(DECREE, source="UY", residence="CL", date="2024-01-01")
    assert (after["status"], str(after["max_rate_pct"])) == ("determined", "10")


PENSION_FUND = {
    "es": HEAD + """Artículo 10
DIVIDENDOS
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no excederá del 10 por ciento del importe bruto de los dividendos.
3. No obstante lo dispuesto en el párrafo 2, los dividendos pagados por una sociedad residente de un Estado Contratante a un fondo de pensiones residente del otro Estado Contratante sólo pueden someterse a imposición en ese otro Estado.
""",
    "en": """CONVENTION BETWEEN THE REPUBLIC OF CHILE AND THE ORIENTAL REPUBLIC OF URUGUAY

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the dividends.
3. Notwithstanding the provisions of paragraph 2, dividends paid by a company which is a resident of a Contracting State to a pension fund which is a resident of the other Contracting State shall be taxable only in that other State.
""",
}


@pytest.mark.parametrize("language", ["es", "en"])
def test_a_kind_the_payment_goes_to_after_the_payers_words_is_the_recipient(language):
    # "pagados por una sociedad residente ... a un fondo de pensiones": the fund receives; it was read as the payer's
    # kind, so every dividend asked whether the payer was a pension fund
    ps = taxtreaty.provisions(taxtreaty.parse(PENSION_FUND[language]))
    (rule,) = [p for p in ps.provisions if p.cite.eid == "art_10__para_3"]
    assert rule.conditions.get("recipient_kinds") == ["pension_fund"] and "payer_kinds" not in rule.conditions
    fund = _decide(PENSION_FUND[language], source="CL", residence="UY", recipient="pension_fund")
    assert (fund["status"], fund["source_taxation"]) == ("determined", "none")
    person = _decide(PENSION_FUND[language], source="CL", residence="UY")
    assert (person["status"], str(person["max_rate_pct"])) == ("determined", "10")
