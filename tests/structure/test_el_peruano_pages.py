"""Peru's El Peruano (Normas Legales) as a PDF extraction of a convention lays its pages out: the running title
with the date ("El Peruano / Viernes 20 de marzo de 2014"), the section ("NORMAS LEGALES", "CONVENIOS
INTERNACIONALES") and the six-digit page ("519262", "Jueves 20 de marzo de 2014 519261"). Before, a page break
inside the beneficial-owner clause ran on in it ("si el beneficiario efectivo 519262 El Peruano / ... NORMAS
LEGALES de los dividendos es un residente ..."), and every dividend decision abstained citing the furniture as
words it could not read. Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text.clean import furniture_rule

TEXT = """CONVENIO ENTRE LA REPÚBLICA DEL PERÚ Y LA CONFEDERACIÓN SUIZA PARA EVITAR LA DOBLE TRIBUTACIÓN

El Peruano
Jueves 20 de marzo de 2014 519261

CONVENIOS INTERNACIONALES
Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado
Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida
la sociedad que pague los dividendos, pero si el beneficiario efectivo

519262
El Peruano / Viernes 20 de marzo de 2014
NORMAS LEGALES

de los dividendos es un residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del
15 por ciento del importe bruto de los dividendos.
"""


def test_a_page_break_inside_a_clause_leaves_the_clause_whole():
    doc = taxtreaty.parse(TEXT.encode())
    (article,) = doc.version("es").articles
    assert article.paragraphs[1].text.endswith(
        "pero si el beneficiario efectivo de los dividendos es un residente del otro Estado Contratante, el impuesto "
        "así exigido no podrá exceder del 15 por ciento del importe bruto de los dividendos.")
    decision = taxtreaty.decide(doc, {"income": "dividends", "source": "PE", "residence": "CH",
                                      "beneficial_owner": True, "recipient": "individual"}).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "15")


@pytest.mark.parametrize(("line", "rule"), [
    ("El Peruano", "el_peruano_page"),
    ("El Peruano / Viernes 20 de marzo de 2014", "el_peruano_page"),
    ("10 NORMAS LEGALES Viernes 24 de agosto de 2018 / El Peruano", "el_peruano_page"),
    ("NORMAS LEGALES", "el_peruano_page"),
    ("CONVENIOS INTERNACIONALES", "el_peruano_page"),
    ("519262", "el_peruano_page"),
    ("Jueves 20 de marzo de 2014 519261", "el_peruano_page"),
    # a sentence that names the gazette stays
    ("publicado en el diario oficial El Peruano el 21 de febrero de 2014.", None),
    ("1234567", None),
])
def test_el_peruanos_running_pieces(line, rule):
    assert furniture_rule(line, "") == rule
