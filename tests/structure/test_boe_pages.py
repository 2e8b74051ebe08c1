"""The BOE (Boletín Oficial del Estado) as its pages print a convention and as a PDF extraction
lays them out: each article's title on the line under "Artículo 10." with its own full stop
("Dividendos."), and the running line of every page broken into its pieces ("BOLETÍN OFICIAL DEL
ESTADO", "Núm. 182", "Lunes 29 de julio de 2024", "Sec. I. Pág. 96710"), sometimes with the next
heading printed between them; the running lines of Mexico's DOF. Sentences of our own in that shape
(issue 11)."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text.clean import clean, furniture_rule

HEAD = "CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE PRUEBA\n\nArtículo 9.\nEmpresas asociadas.\n1. Un texto.\n"
BODY = "1. Los dividendos pagados por una sociedad pueden someterse a imposición en ese otro Estado.\n"


@pytest.mark.parametrize(("heading", "title"), [
    ("Artículo 10.\nDividendos.\n", "Dividendos"),            # the BOE: a stop after the number and the title
    ("Artículo 10.\n\nDividendos.\n", "Dividendos"),          # a blank line between them
    ("Artículo 10\nDividendos.\n", "Dividendos"),             # a usual title with its stop under a bare heading
    ("Artículo 10.\nCánones o regalías.\n", "Cánones o regalías"),
    ("Artículo 10.\nReglas especiales.\n", "Reglas especiales"),  # not a usual title, but a title in shape
    ("Artículo 10\nDividendos\n", "Dividendos"),
    ("Artículo 10. Dividendos.\n", "Dividendos"),            # the title on the heading's line, its stop too
    ("ARTICLE 10. DIVIDENDS.\n", "DIVIDENDS"),
    # an article's first sentence is not its title: it opens on an article ("Los"), or has commas
    ("Artículo 10.\nLos dividendos sólo pueden someterse a imposición.\n", None),
    ("Artículo 10.\nSin embargo, estos dividendos pueden someterse a imposición.\n", None),
])
def test_a_title_under_the_heading_with_its_full_stop(heading, title):
    doc = taxtreaty.parse((HEAD + heading + BODY).encode())
    article = doc.version("es").article("10")
    assert article.heading == title
    # the title is no paragraph of the article: its first paragraph is the numbered one
    assert article.paragraphs[0].eid == ("art_10__para_1" if title else "art_10__para_nn_1")


def test_a_one_sentence_article_is_not_its_own_title():
    text = (HEAD + "Artículo 10.\nEl presente Convenio no afecta a los privilegios fiscales.\n"
            "Artículo 11.\nIntereses.\n" + BODY)
    doc = taxtreaty.parse(text.encode())
    assert doc.version("es").article("10").heading is None
    assert doc.version("es").article("11").heading == "Intereses"


@pytest.mark.parametrize(("previous", "line", "rule"), [
    ("", "Sec. I. Pág. 35989", "boe_section_page"),
    ("", "Sec. III.  Pág. 1204", "boe_section_page"),
    ("", "Sec. II.A. Pág. 204", "boe_section_page"),
    ("BOLETÍN OFICIAL DEL ESTADO", "Núm. 76", "issue_number_alone"),
    ("Sec. I. Pág. 35989", "Núm. 76", "issue_number_alone"),
    # a line "Núm. 3" anywhere else is the text's
    ("2. Los dividendos pagados.", "Núm. 3", None),
    ("", "Sec. I. Pág.", None),
    # Mexico's Diario Oficial de la Federación: the section before the title on an even page, the issue line
    ("", "2 (Primera Sección) DIARIO OFICIAL Viernes 8 de marzo de 2013", "gazette_title"),
    ("", "Viernes 8 de marzo de 2013 DIARIO OFICIAL (Primera Sección) 3", "gazette_title"),
    ("", "Tomo DCCXIV No. 7 México, D.F., viernes 8 de marzo de 2013", "dof_front_line"),
    ("", "(Primera Sección) el Diario Oficial publicará el texto", None),
    # the Diario Oficial de la República de Chile
    ("", "DIARIO OFICIAL DE LA REPUBLICA DE CHILE", "gazette_title"),
    ("", "Núm. 44.109 | Miércoles 26 de Marzo de 2025 | Página 1 de 6", "series_line"),
    ("", "CVE 2624504", "diario_oficial_chile"),
    ("", "CVE 2624504 | Director: Nombre Apellido", "diario_oficial_chile"),
    ("", "I SECCIÓN LEYES, REGLAMENTOS, DECRETOS Y RESOLUCIONES DE ORDEN GENERAL", "diario_oficial_chile"),
])
def test_the_pieces_of_the_boe_running_line(previous, line, rule):
    assert furniture_rule(line, previous) == rule


def test_a_page_break_with_the_running_line_in_pieces_leaves_the_text_whole():
    page = "BOLETÍN OFICIAL DEL ESTADO\nNúm. 182\n\nLunes 29 de julio de 2024\n"
    text = (HEAD + "Artículo 10.\nDividendos.\n1. Los dividendos pagados por una sociedad pueden someterse a\n"
            + page + "Sec. I. Pág. 96709\nimposición en ese otro Estado.\n"
            # the next page opens on a heading, printed between the pieces of its running line
            + page + "Artículo 11.\n\nSec. I. Pág. 96710\n\nIntereses.\n1. Los intereses pueden someterse a imposición.\n")
    cleaned = clean(text).text
    assert "Núm." not in cleaned and "Pág." not in cleaned
    doc = taxtreaty.parse(text.encode())
    es = doc.version("es")
    assert es.article("10").paragraph("1").text.endswith("pueden someterse a imposición en ese otro Estado.")
    assert es.article("11").heading == "Intereses"


# a consolidated BOE text as a copy of its web page keeps it: "Subir" after every block, the page's own
# lines, and the note under an article an errata corrected (a line longer than most furniture)
CONSOLIDATED = """Está Vd. en
Legislación consolidada(información)Este texto consolidado es de carácter informativo y no tiene valor jurídico.
CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE PRUEBA
Publicado en:
«BOE» núm. 38, de 13/02/2008.
Referencia:
BOE-A-2008-2484
Texto consolidado: «Modificación publicada el 22/12/2021»
[Bloque 3: #a1]
Artículo 1. Personas comprendidas.
El presente Convenio se aplica a las personas residentes de uno o de ambos Estados contratantes.
Subir
Artículo 11. Intereses.
1. Los intereses procedentes de un Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.
Redactado conforme a la corrección de erratas publicada en BOE núm. 251, de 19 de octubre de 1992. Ref. BOE-A-1992-23269.
Subir
Artículo 12. Cánones.
1. Los cánones pueden someterse a imposición en ese otro Estado
Subir
"""


def test_a_consolidated_web_page_leaves_only_the_convention():
    es = taxtreaty.parse(CONSOLIDATED.encode()).version("es")
    assert [a.number for a in es.articles] == ["1", "11", "12"]
    texts = [p.text for a in es.articles for p in a.paragraphs]
    assert not any("Subir" in t or "Redactado" in t or "Bloque" in t for t in texts)
    assert es.article("11").paragraph("2").text.endswith("importe bruto de los intereses.")
    assert es.article("12").paragraph("1").text.endswith("en ese otro Estado")


# a web copy of the BOE (zahoribo.com), one gazette page a web page, each with the site's own head: the text's
# section line, its title again, the count of pages, the page selector and the site's notice, then the BOE page.
# Before, the title printed again on every page opened "another convention" and the file was refused.
WEB_HEAD = """I. Disposiciones generales. MINISTERIO DE ASUNTOS EXTERIORES. Tratados internacionales. (BOE-A-2020-1234)
Convenio entre el Reino de España y la República de Azerbaiyán para evitar la doble imposición, hecho en Bakú el 2 de mayo de 2014.
16 páginas totales
Página
Zahoribo únicamente muestra información pública que han sido publicada previamente por organismos oficiales de España.
Cualquier dato, sea personal o no, ya está disponible en internet y con acceso público antes de estar en Zahoribo. Si lo ves aquí primero es simple casualidad.
No ocultamos, cambiamos o tergiversamos la información, simplemente somos un altavoz organizado de los boletines oficiales de España.
BOLETÍN OFICIAL DEL ESTADO
Núm. 293

Viernes 6 de noviembre de 2020

Sec. I. Pág. {page}

"""
WEB_PAGES = (WEB_HEAD.format(page=96810) + """CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE AZERBAIYÁN PARA EVITAR LA
DOBLE IMPOSICIÓN
Artículo 10.

Dividendos.

1. Los dividendos pagados por una sociedad residente de un Estado contratante a un
residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado
contratante en que resida la sociedad que paga los dividendos y según la
""" + WEB_HEAD.format(page=96811) + """legislación de ese Estado, pero si el beneficiario efectivo de los dividendos es un
residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 10
por ciento del importe bruto de los dividendos.
cve: BOE-A-2020-1234
Verificable en https://www.boe.es
""")


def test_a_web_copys_page_head_is_furniture_and_the_pages_one_convention():
    doc = taxtreaty.parse(WEB_PAGES.encode())
    assert doc.parties == ["ES", "AZ"]
    paragraph = doc.version("es").article("10").paragraph("2").text
    assert " según la legislación de ese Estado, pero " in paragraph
    assert paragraph.endswith("del importe bruto de los dividendos.")
    assert not any(w in paragraph for w in ("Zahoribo", "páginas", "Disposiciones", "Bakú"))


def test_one_web_page_names_the_parties_in_its_page_title():
    # a page of the middle of the text: no title of the convention, only the site's title of the page
    page = WEB_HEAD.format(page=96811) + """Artículo 11.
Intereses.
1. Los intereses procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
"""
    doc = taxtreaty.parse(page.encode())
    assert doc.parties == ["ES", "AZ"]
    assert doc.version("es").article("11").paragraph("1").text.startswith("Los intereses procedentes")


@pytest.mark.parametrize(("previous", "line", "rule"), [
    ("", "17 páginas totales", "boe_web_page_count"),
    ("17 páginas totales", "Página", "boe_web_page_selector"),
    ("2. Los dividendos pagados.", "Página", None),          # a line "Página" anywhere else is the text's
])
def test_the_pieces_of_a_web_copys_page_head(previous, line, rule):
    assert furniture_rule(line, previous) == rule


def test_a_title_line_not_under_the_web_section_line_stays():
    # the BOE's own first page prints the text's title under its running line: it is the text's
    text = ("BOLETÍN OFICIAL DEL ESTADO\nNúm. 76\nSec. I. Pág. 35983\n"
            "Convenio entre el Reino de España y la República de Azerbaiyán para evitar la doble imposición, "
            "hecho en Bakú el 2 de mayo de 2014.\n")
    assert "hecho en Bakú" in clean(text).text


# the Boletín Oficial de las Cortes Generales, where the Spanish parliament prints a convention it is asked to
# authorise: its head and foot on every page (before, each piece stayed in the text, cutting the sentence)
@pytest.mark.parametrize(("previous", "line", "rule"), [
    ("", "BOLETÍN OFICIAL DE LAS CORTES GENERALES", "bocg_running_line"),
    ("", "SECCIÓN CORTES GENERALES", "bocg_running_line"),
    ("", "XII LEGISLATURA", "bocg_running_line"),
    ("", "Serie A: ACTIVIDADES PARLAMENTARIAS 4 de junio de 2019 Núm. 88 Pág. 1", "bocg_running_line"),
    ("", "Serie A Núm. 88 4 de junio de 2019 Pág. 7", "bocg_running_line"),
    ("", "cve: BOCG-12-CG-A-88", "bocg_running_line"),
    ("", "Serie A de los documentos que el Congreso publica.", None),    # a sentence naming a series
])
def test_the_pieces_of_the_cortes_bulletins_page(previous, line, rule):
    assert furniture_rule(line, previous) == rule


def test_a_cortes_page_break_leaves_the_sentence_whole():
    text = (HEAD + "Artículo 10.\nDividendos.\n1. Los dividendos pagados por una sociedad pueden someterse a\n"
            "cve: BOCG-12-CG-A-88\nBOLETÍN OFICIAL DE LAS CORTES GENERALES\nSECCIÓN CORTES GENERALES\n"
            "Serie A Núm. 88 4 de junio de 2019 Pág. 7\nimposición en ese otro Estado.\n")
    paragraph = taxtreaty.parse(text.encode()).version("es").article("10").paragraph("1").text
    assert paragraph.endswith("pueden someterse a imposición en ese otro Estado.")
