"""The Diario Oficial de la República de Chile as a PDF extraction lays out its pages (issue 11): the foot of
every page ("CVE 2291457 | Director: ...", "Sitio Web: www.diarioficial.cl", "| Mesa Central: ...", "Dirección:
Dr. Torres Boonen ...", the electronic-signature note wrapped on three lines) and the running title of the next
("DIARIO OFICIAL DE LA REPUBLICA DE CHILE", "Núm. 43.512 | Martes 14 de Marzo de 2023 | Página 4 de 9"),
printed in the middle of a sentence, are no part of the article. Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text.clean import furniture_rule

FOOT = """CVE 2291457 | Director: Juan Jorge Lazo Rodríguez
Sitio Web: www.diarioficial.cl
| Mesa Central: +562 2486 3600 Email: consultas@diarioficial.cl
Dirección: Dr. Torres Boonen N°511, Providencia, Santiago, Chile.
Este documento ha sido firmado electrónicamente de acuerdo con la ley N°19.799 e incluye sello de tiempo y firma
electrónica avanzada. Para verificar la autenticidad de una representación impresa del mismo, ingrese este código
en el sitio web www.diarioficial.cl
DIARIO OFICIAL DE LA REPUBLICA DE CHILE
Núm. 43.512 | Martes 14 de Marzo de 2023 | Página 4 de 9
"""
TEXT = """CONVENIO ENTRE LA REPÚBLICA DE CHILE Y LA REPÚBLICA ORIENTAL DEL URUGUAY

Artículo 16
ARTISTAS Y DEPORTISTAS
1. Las rentas que un residente de un Estado Contratante obtenga en calidad de artista del espectáculo
{foot}o deportista pueden someterse a imposición en ese otro Estado.
Artículo 17
PENSIONES
1. Las pensiones pagadas a un residente de un Estado Contratante sólo pueden someterse a imposición en ese Estado.
"""


def test_the_foot_and_the_next_running_title_leave_the_sentence_whole():
    doc = taxtreaty.parse(TEXT.format(foot=FOOT).encode())
    paragraph = doc.version("es").article("16").paragraphs[0]
    assert " ".join(paragraph.text.split()) == (
        "Las rentas que un residente de un Estado Contratante obtenga en calidad de artista del espectáculo "
        "o deportista pueden someterse a imposición en ese otro Estado.")
    assert [a.number for a in doc.version("es").articles] == ["16", "17"]


@pytest.mark.parametrize("line", [line for line in FOOT.splitlines() if line])
def test_every_line_of_the_foot_is_furniture(line):
    assert furniture_rule(line.strip()) is not None


@pytest.mark.parametrize("line", [
    "Dirección de la empresa en el otro Estado.",  # a sentence, not the gazette's address
    "el sitio web de la autoridad competente",
])
def test_sentences_that_look_alike_stay(line):
    assert furniture_rule(line) is None


def test_the_wrapped_title_goes_only_under_the_gazettes_own():
    assert furniture_rule("DE LA REPUBLICA DE CHILE", "DIARIO OFICIAL") is not None
    # a convention title wrapped before the State's name keeps it
    assert furniture_rule("DE LA REPÚBLICA DE CHILE", "CONVENIO ENTRE EL GOBIERNO") is None
