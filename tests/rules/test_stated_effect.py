"""The first day of application an official collection prints above a convention under its own label (SUNAT's
"Aplicable desde : 1 de Enero de 2015", beside "Entrada en vigencia : 19 de Febrero de 2014"): never the entry
into force; with no entry into force known, the dates of effect relative to it are that day. A header and a
convention of our own words in SUNAT's shape."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.rules.dates import _first_article_offset, _last_article_end, stated_effect, stated_entry

HEADER = """"CONVENIO ENTRE LA REPÚBLICA DEL PERÚ Y LA CONFEDERACIÓN SUIZA PARA EVITAR LA DOBLE IMPOSICIÓN EN MATERIA DE IMPUESTOS SOBRE LA RENTA"
Del Convenio:
Fecha de Suscripción : 21 de Septiembre de 2012
Fecha de Aprobación : 10 de Diciembre de 2013
: (Resolución Legislativa Nº 30151)
{entry}Aplicable desde : 1 de Enero de 2015

"""
ENTRY = "Entrada en vigencia : 10 de Marzo de 2014\n"
ARTICLES = """CONVENIO ENTRE LA REPÚBLICA DEL PERÚ Y LA CONFEDERACIÓN SUIZA PARA EVITAR LA DOBLE IMPOSICIÓN EN MATERIA DE IMPUESTOS SOBRE LA RENTA

Artículo 10
DIVIDENDOS
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del 15 por ciento del importe bruto de los dividendos.

Artículo 29
ENTRADA EN VIGOR
1. El presente Convenio entrará en vigor en la fecha de recepción de la última notificación, y sus disposiciones surtirán efecto respecto de las rentas obtenidas a partir del primer día de enero del año calendario siguiente a aquel en que el Convenio entre en vigor.

Hecho en Lima, el 21 de septiembre de 2012, en dos originales en idioma español.
"""
CASE = {"income": "dividends", "source": "PE", "residence": "CH", "beneficial_owner": True, "recipient": "individual"}


@pytest.mark.parametrize(("entry", "in_force", "applies"), [
    (ENTRY, "2014-03-10", "2015-01-01"),
    ("Entrada en vigencia :\n", None, "2015-01-01"),  # the entry's date left blank: the next label's is no entry
    ("", None, "2015-01-01"),
])
def test_the_first_day_of_application_is_no_entry_into_force(entry: str, in_force: str | None, applies: str) -> None:
    doc = taxtreaty.parse((HEADER.format(entry=entry) + ARTICLES).encode())
    found = stated_entry(doc.original, _first_article_offset(doc), _last_article_end(doc))
    assert (found.isoformat() if found else None) == in_force
    effect = stated_effect(doc.original, _first_article_offset(doc))
    assert effect is not None and effect.isoformat() == applies


@pytest.mark.parametrize("entry", [ENTRY, ""])
@pytest.mark.parametrize(("date", "status"), [("2014-06-01", "not_covered"), ("2015-02-01", "determined")])
def test_a_payment_before_the_first_day_of_application_is_not_covered(entry: str, date: str, status: str) -> None:
    # with the entry into force (10 March 2014) the text's clause gives 1 January 2015; without it, SUNAT's label does
    doc = taxtreaty.parse((HEADER.format(entry=entry) + ARTICLES).encode())
    decision = taxtreaty.decide(doc, {**CASE, "date": date}).to_dict()
    assert decision["status"] == status
    assert "in_force" not in [a["fact"] for a in decision.get("assumptions", [])]


def test_a_first_day_the_texts_clause_contradicts_is_said() -> None:
    # the collection prints 1 January 2016; the text, from its entry into force in 2014, gives 1 January 2015
    text = HEADER.format(entry=ENTRY).replace("Aplicable desde : 1 de Enero de 2015", "Aplicable desde : 1 de Enero de 2016")
    doc = taxtreaty.parse((text + ARTICLES).encode())
    decision = taxtreaty.decide(doc, {**CASE, "date": "2015-06-01"}).to_dict()
    assert "2016-01-01" in str(decision)


def test_the_words_inside_a_sentence_are_no_label() -> None:
    head = "El régimen es aplicable desde: 1 de enero de 2015, según la ley.\n"
    assert stated_effect(head) is None
