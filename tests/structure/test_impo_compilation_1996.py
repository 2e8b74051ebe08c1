"""Uruguay's IMPO as its Texto Ordenado 1996 (TODGI 1996) prints a convention: each article of the convention is
an article of the compilation of its own, one page each ("Artículo 224-T2": article 224 of Title 2), its title on
the next line closed by ".-" ("Dividendos.-") or run in before the text ("Empresas asociadas.- Cuando"), the
compilation's header on top of every page and its notes under some ("(*)Notas:", "Ver en esta norma, artículo:
...", "Ayuda"). Before, every heading was read as titled "T2" (topics from the body: the relief article as capital
gains, the PE article as business profits), the header of each page ran on in the article above it, and the
compilation's article holding the protocol was read as a cross-reference. The numbers stay the compilation's:
its cross-references use them ("las disposiciones del artículo 221º de este Título"). Sentences of our own."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text.clean import furniture_rule

PAGE = """APROBADO POR DECRETO Nº 338/996

Promulgación: 28/08/1996
Publicación: 16/09/1996
Aprobado/a por: Decreto Nº 338/996 de 28/08/1996.
{extra}
TITULO 2 - DERECHO TRIBUTARIO INTERNACIONAL
CAPITULO 49 - CONVENIO ENTRE EL GOBIERNO DE LA REPUBLICA ORIENTAL DEL URUGUAY Y EL GOBIERNO DE LA REPUBLICA DE POLONIA PARA EVITAR LA DOBLE IMPOSICION

Artículo {n}-T2

   {body}
"""
BODIES = {
    223: """Empresas asociadas.- Cuando
   a) una empresa de un Estado Contratante participe en el capital de una empresa del otro Estado Contratante,
los beneficios podrán incluirse en los beneficios de esta empresa.(*)

(*)Notas:
Ver en esta norma, artículo: 238 - Título 2.
Ayuda""",
    224: """Dividendos.-
   1. Los dividendos pagados por una sociedad domiciliada en un Estado Contratante a una persona domiciliada en
el otro Estado Contratante podrán ser gravados en ese otro Estado.
   2. Sin embargo, estos dividendos también podrán ser gravados en el Estado Contratante en que se domicilie la
sociedad que paga los dividendos, pero el impuesto así exigido no excederá del 15% del importe bruto de los dividendos.""",
    225: """Métodos para evitar la doble imposición.-
   1. El Estado mencionado en primer lugar deducirá del impuesto sobre la renta un importe igual al impuesto pagado en el otro Estado.""",
    226: """Protocolo.-
   1) Respecto al artículo 224º.- Queda entendido que el parágrafo 2 del artículo 224º se aplica a los dividendos de acciones.""",
}
EXTRA = ["\n \nReforma Tributaria -Ley Nº 18.083- (vigencia)\n",
         "\nDocumento actualizado durante su vigencia\n\nVer vigencia:\n      T.O. 2023 (DGI) de 04/04/2024 (aprueba T.O. 2023),\n"
         "      Ley Nº 18.083 de 27/12/2006 artículo 113 (Ley de Reforma \nTributaria).\n"]
TEXT = "".join(PAGE.format(extra=EXTRA[n % 2], n=n, body=body) for n, body in BODIES.items())


def test_each_compilation_article_is_an_article_with_its_title_and_the_pages_header_is_furniture():
    doc = taxtreaty.parse(TEXT.encode())
    assert doc.parties == ["UY", "PL"]
    version = doc.version("es")
    assert [(a.number, a.heading, a.topic) for a in version.articles] == [
        ("223", "Empresas asociadas", "associated_enterprises"), ("224", "Dividendos", "dividends"),
        ("225", "Métodos para evitar la doble imposición", "elimination_double_taxation")]
    texts = {a.number: " ".join(p.text for p in a.paragraphs) for a in version.articles}
    # the note's call "(*)" goes with the note
    assert texts["223"].startswith("Cuando\na) una empresa")
    assert texts["223"].endswith("en los beneficios de esta empresa.")
    assert texts["224"].endswith("no excederá del 15% del importe bruto de los dividendos.")
    assert texts["225"].endswith("un importe igual al impuesto pagado en el otro Estado.")
    # the compilation's article 226 holds the protocol: no article of the convention
    assert len(version.protocols) == 1 and "226" not in texts


@pytest.mark.parametrize(("line", "previous", "rule"), [
    ("APROBADO POR DECRETO Nº 338/996", "", "impo_compilation_header"),
    ("Promulgación: 28/08/1996", "", "impo_compilation_header"),
    ("Publicación: No fue publicado", "", "impo_compilation_header"),
    ("Reforma Tributaria -Ley Nº 18.083- (vigencia)", "", "impo_compilation_header"),
    ("Ver en esta norma, artículos: 79 - BIS Título 4 y 2 - Título 7", "", "impo_compilation_header"),
    ("(*)Notas:", "", "impo_compilation_header"),
    ("Ley Nº 18.083 de 27/12/2006 artículo 113 (Ley de Reforma", "", "impo_compilation_header"),
    ("Tributaria).", "Ley Nº 18.083 de 27/12/2006 artículo 113 (Ley de Reforma", "impo_compilation_header_more"),
    # a sentence that merely names a law or the word alone in a sentence stays
    ("Tributaria).", "de la Ley de Reforma", None),
    ("Ayuda a las empresas de un Estado Contratante", "", None),
    ("Publicación de las informaciones", "", None),
])
def test_the_compilations_header_lines(line: str, previous: str, rule: str | None):
    assert furniture_rule(line, previous) == rule


def test_a_compilation_mark_is_not_read_in_a_plain_heading_with_a_dashed_title():
    doc = taxtreaty.parse("Artículo 10 - Dividendos\n1. Los dividendos pagados pueden someterse a imposición.\n"
                          "Artículo 11 - Intereses\n1. Los intereses pueden someterse a imposición.\n".encode())
    assert [(a.number, a.heading) for a in doc.version("es").articles] == [("10", "Dividendos"), ("11", "Intereses")]
