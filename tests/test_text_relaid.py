"""What re-laying a convention in another gazette's shape broke, each mechanism on a short excerpt
(the whole corpus re-laid: tests/test_relaid.py)."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text import clean
from taxtreaty.text.clean import furniture_rule


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        # BOE: the foot of every page
        ("cve: BOE-A-2013-7123", "boe_page_foot"),
        ("Verificable en https://www.boe.es", "boe_page_foot"),
        ("http://www.boe.es  BOLETÍN OFICIAL DEL ESTADO  D. L.: M-1/1958 - ISSN: 0212-033X", "boe_page_foot"),
        # Boletín Oficial (Argentina): the running line, its pieces in either order
        ("5012  Lunes 19 de noviembre de 1993  Primera Sección  BOLETIN OFICIAL Nº 27.769", "boletin_oficial_running_line"),
        ("BOLETIN OFICIAL Nº 27.769  Primera Sección  Lunes 19 de noviembre de 1993  5015", "boletin_oficial_running_line"),
        # Tractatenblad, the page before or after
        ("Tractatenblad 2013 Nr. 45  3749", "tractatenblad_running_line"),
        ("3748  Tractatenblad 2013 Nr. 45", "tractatenblad_running_line"),
        # Diário da República: the page number before the title on an even page
        ("4664  DIÁRIO DA REPÚBLICA — I SÉRIE-A  N.º 187 — 13 de Agosto de 1996", "gazette_title"),
        # a page number as a scanner misreads it
        ("l945", "page_number"), ("BOLETIN OFICIAL Nº 27.769  Primera Sección  Lunes 19 de noviembre de 1993  l945",
                                  "boletin_oficial_running_line"),
        # the treaty's own sentences stay
        ("publicado en el Boletín Oficial Nº 27.769 del 19 de noviembre de 1993, el presente Convenio", None),
        ("the Tractatenblad publishes the text of this Convention.", None),
        ("I", None), ("Il", None),
    ],
)
def test_gazette_furniture(line: str, rule: str | None) -> None:
    assert furniture_rule(line, "") == rule


def test_a_misread_page_number_before_a_running_title_is_furniture() -> None:
    text = ("1. Dividends paid by a company may be taxed in the other\n"
            "4l60  United Nations — Treaty Series • Nations Unies — Recueil des Traités  1995\n"
            "State.\n")
    assert clean(text).text == "1. Dividends paid by a company may be taxed in the other State."


def test_markdown_escapes_soft_hyphens_and_no_break_spaces() -> None:
    text = ("Article 10\n\n1\\. The divi\u00addends shall not exceed 10\u00a0per cent;\n\n"
            "a\\) of the bene\u00ad\nficial owner\n\n\\(b) 15 per cent\n")
    assert clean(text).text == ("Article 10\n1. The dividends shall not exceed 10 per cent;\n"
                                "a) of the beneficial owner\n(b) 15 per cent")


def test_a_cross_reference_wrapped_to_the_start_of_a_line_is_not_a_heading() -> None:
    text = ("Article 12\nRoyalties\n5. The term does not include income referred to in paragraph 1 of\n"
            "Article 14.\n6. The provisions of paragraphs 1 and 2 shall not apply.\n"
            "Article 13\nCapital gains\n1. Gains may be taxed.\n"
            "Article 14\nIndependent personal services\n1. Income shall be taxable only in that State.\n")
    cleaned = clean(text).text
    assert "paragraph 1 of Article 14.\n6." in cleaned
    article = taxtreaty.parse(text).versions[0]
    assert [(a.number, a.topic) for a in article.articles] == [
        ("12", "royalties"), ("13", "capital_gains"), ("14", "independent_services")]


def test_a_heading_after_a_sentence_that_ends_on_a_small_word_stays_with_its_title() -> None:
    # "Article 5 Permanent establishment" is a heading whatever the line before it ends with
    text = "Article 4\nResident\n1. A resident of a State is a person liable to tax in\nArticle 5 Permanent establishment\n"
    assert "\nArticle 5 Permanent establishment" in clean(text).text


def test_a_short_jump_is_a_cross_reference_when_the_expected_article_follows() -> None:
    # "Article 14." starts a line after a word a sentence may end on: the builder still reads it as a
    # reference, because article 13 comes next
    text = ("Article 12\nRoyalties\n1. Royalties do not include the fees dealt with hereafter\n"
            "Article 14.\n"
            "Article 13\nCapital gains\n1. Gains may be taxed.\n")
    numbers = [a.number for a in taxtreaty.parse(text).versions[0].articles]
    assert numbers == ["12", "13"]


def test_spanish_reference_and_title_words_wrapped_to_a_line_start() -> None:
    text = ("ARTICULO 28\nEntrada en vigor\n1. El presente Acuerdo se aplicará a partir del año siguiente a aquel en que el\n"
            "Acuerdo entre\nen vigor; y a las rentas a que se aplica lo dispuesto en el\nArtículo 8\n"
            "o el apartado 4 del Artículo 13.\nARTICULO 29\nTerminación\nEl presente Acuerdo permanecerá en vigor.\n")
    cleaned = clean(text).text
    assert "en que el Acuerdo entre en vigor; y a las rentas a que se aplica lo dispuesto en el Artículo 8 o el" in cleaned
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["28", "29"]


def test_signed_at_at_a_line_start_in_running_text_is_not_the_signature() -> None:
    text = ("Convention between the Kingdom of the Netherlands and the Kingdom of Denmark\n"
            "Article 1\nPersonal scope\n1. This Convention shall apply to persons who are residents.\n"
            "Article 2\nTermination\n1. The Convention between the two States,\nsigned at The Hague on 20 January, 1966, shall terminate.\n"
            "IN WITNESS whereof the undersigned have signed this Convention. DONE in  duplicate at Copenhagen this "
            "first day of July 1996.\n")
    assert taxtreaty.parse(text).signed.date == "1996-07-01"


def test_an_ordinal_number_is_not_a_small_word_before_a_heading() -> None:
    # "... são aplicáveis as disposições do artigo 7.º" ends on the article's number, not on the word "o"
    text = ("Artigo 10.º\nDividendos\n1 — Nesse caso, são aplicáveis as disposições do artigo 7.º\n"
            "Artigo 11.º\nJuros\n1 — Os juros podem ser tributados nesse outro Estado.\n")
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["10", "11"]


def test_a_title_shaped_end_of_a_sentence_wrapped_to_a_line_start_is_not_a_new_version() -> None:
    text = ("Article 17\nArtistes and athletes\n3. Income from activities exercised in the framework of a cultural\n"
            "Agreement between the two States.\nArticle 18\nPensions\n1. Pensions shall be taxable only in that State.\n")
    assert "a cultural Agreement between the two States." in clean(text).text
    assert [a.number for a in taxtreaty.parse(text).versions[0].articles] == ["17", "18"]


_CL_FOOT_WRAPPED = (
    "CVE 2291457 | Director: Nombre Apellido\n"
    "Sitio Web: www.diarioficial.cl | Mesa Central: +562 2486 3600\n"
    "Email: consultas@diarioficial.cl\n"
    "Este documento ha sido firmado electrónicamente de acuerdo con la ley\n"
    "N°19.799 e incluye  sello de tiempo y firma\n"
    "electrónica avanzada. Para verificar la autenticidad de una repres-\n"
    "entación impresa del mismo, ingrese este código\n"
    "en el sitio web www.diarioficial.cl\n"
)


def test_a_page_note_wrapped_at_another_width_is_furniture() -> None:
    # the Chilean Diario Oficial's foot as another extraction wraps it: every piece goes on the note where
    # the line before left it, so the point it cuts reads whole (was: "N°19.799 e incluye ..." kept as text
    # inside 10(2)(a), whose holding test was lost and "25 por ciento" read as a rate)
    text = ("(a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que "
            "controla directamente al menos el 25 por ciento\n" + _CL_FOOT_WRAPPED +
            "de las acciones con derecho a voto de la sociedad que paga dichos dividendos;\n")
    assert clean(text).text == ("(a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una "
                                "sociedad que controla directamente al menos el 25 por ciento de las acciones con "
                                "derecho a voto de la sociedad que paga dichos dividendos;")


def test_a_line_that_leaves_the_note_is_the_text_again() -> None:
    # a sentence of the treaty under the page's furniture that starts like the note but goes another way stays
    text = ("1. Los dividendos pueden someterse a imposición.\nCVE 2291457 | Director: Nombre Apellido\n"
            "Este documento ha sido firmado en dos ejemplares, en idioma español, igualmente auténticos.\n")
    assert "Este documento ha sido firmado en dos ejemplares" in clean(text).text
    # and a piece that does not go on where the note stopped is no piece of it
    text = ("1. Los dividendos pueden someterse a imposición.\nCVE 2291457 | Director: Nombre Apellido\n"
            "Este documento ha sido firmado electrónicamente de acuerdo con la ley\n"
            "sello de tiempo y firma del Estado que paga los dividendos.\n")
    assert "sello de tiempo y firma del Estado" in clean(text).text
