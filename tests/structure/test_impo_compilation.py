"""Uruguay's IMPO as its Texto Ordenado (TODGI 2023) prints a convention (issue 11): the whole convention held in
one article of the compilation ("Artículo 25-T2-S.I-C.XXV", above the preamble: not an article of the convention,
which it read as a first version of one article), the headings "Artículo 10 - Dividendos", and under every article
the note naming the approving law and the MLI's ("Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°.",
"Ley 19.814 de 18 de setiembre de 2019, artículo 1° (artículo 6.1", "IML).") and the link "Referencias al
artículo", which ran on in the article's last paragraph. Sentences of our own in that shape."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text.clean import furniture_rule

TEXT = """TÍTULO 2 - DERECHO TRIBUTARIO INTERNACIONAL
SECCIÓN I - CONVENIOS PARA EVITAR LA DOBLE IMPOSICIÓN
Capítulo XXV - CONVENIO ENTRE LA REPÚBLICA ORIENTAL DEL URUGUAY Y LA REPÚBLICA DE COLOMBIA PARA EVITAR LA DOBLE IMPOSICIÓN

Artículo 25-T2-S.I-C.XXV

   La República Oriental del Uruguay y la República de Colombia,
   Han acordado lo siguiente:

   Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°.
   Ley 19.814 de 18 de setiembre de 2019, artículo 1° (artículo 6.1
   IML).

   Artículo 1 - Personas comprendidas
   El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes.

   Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°.

Referencias al artículo

   Artículo 2 - Impuestos comprendidos
1. El presente Convenio se aplica a los impuestos sobre la renta.
2. Los impuestos actuales son el IRAE y el impuesto sobre la renta.

   Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°.
"""


def test_the_compilations_article_and_notes_are_no_part_of_the_convention():
    doc = taxtreaty.parse(TEXT.encode())
    assert [v.language for v in doc.versions] == ["es"]
    version = doc.version("es")
    assert [(a.number, a.heading) for a in version.articles] == [
        ("1", "Personas comprendidas"), ("2", "Impuestos comprendidos")]
    texts = [p.text for a in version.articles for p in a.paragraphs]
    assert texts[0] == "El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes."
    assert texts[-1] == "Los impuestos actuales son el IRAE y el impuesto sobre la renta."


@pytest.mark.parametrize(("line", "previous"), [
    ("Artículo 25-T2-S.I-C.XXV", ""),
    ("Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°.", ""),
    ("Ley 19.814 de 18 de setiembre de 2019, artículo 1° (artículo 6.1", "Fuente: Ley N° 19.501 de 7 de julio de 2017, artículo 1°."),
    ("IML).", "Ley 19.814 de 18 de setiembre de 2019, artículo 1° (artículo 6.1"),
    ("Referencias al artículo", ""),
])
def test_the_lines_of_the_compilation_are_furniture(line, previous):
    assert furniture_rule(line, previous) is not None


@pytest.mark.parametrize("line", [
    "Artículo 25",  # an article of a convention
    "Ley 19.814 de 18 de setiembre de 2019, artículo 1°",  # a law's line alone, not under a note
])
def test_lines_that_look_alike_stay(line):
    assert furniture_rule(line) is None
