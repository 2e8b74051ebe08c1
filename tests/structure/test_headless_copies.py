"""A copy of a convention that lost every article heading (a web page of the BOE's original text, a Lexis copy
of an Ecuadorian decree, whose headings sat in an element the copy dropped): the numbered paragraphs are
there, "1." starting again at each article, and an article of one paragraph stands alone between two
(structure/headless.py). Before, such a copy was refused ("no articles found"); now its articles are cut
where the numbering starts again, numbered in order, every number marked counted, and each answer says so.
Sentences of our own, in the shape such copies print."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.structure.parse import NoArticlesError

TITLE = "CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE FILIPINAS PARA EVITAR LA DOBLE IMPOSICIÓN\n"
PREAMBLE = "Los dos Gobiernos, deseando concluir un Convenio para evitar la doble imposición, han acordado lo siguiente:\n"
FIRST = "El presente Convenio se aplica a las personas residentes de uno o de ambos Estados contratantes.\n"
# articles 2 to 9, two numbered paragraphs each, then dividends, interest, royalties, an article of one
# unnumbered paragraph (directors), pensions
FILLER = "".join(f"1. Las disposiciones {k} del presente Convenio se aplican a los impuestos de cada Estado.\n"
                 f"2. Las autoridades competentes se comunicarán las modificaciones {k}.\n" for k in range(2, 10))
PAYMENTS = """1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que pague los dividendos, pero si el beneficiario efectivo es un residente del otro Estado, el impuesto así exigido no podrá exceder del:
a) 10 por 100 del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 25 por 100 del capital de la sociedad que paga los dividendos;
b) 15 por 100 del importe bruto de los dividendos en los demás casos.
Este apartado no afecta a la imposición de la sociedad respecto de los beneficios con cargo a los que se paguen los dividendos.
3. El término «dividendos» significa los rendimientos de las acciones.
1. Los intereses procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo es un residente del otro Estado, el impuesto así exigido no podrá exceder del 12 por 100 del importe bruto de los intereses.
1. Los cánones procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en este otro Estado.
2. Sin embargo, estos cánones pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo es un residente del otro Estado, el impuesto así exigido no podrá exceder del 18 por 100 del importe bruto de los cánones.
Las participaciones, dietas de asistencia y otras retribuciones similares que un residente de un Estado contratante obtenga como miembro de un consejo de administración de una sociedad residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
1. Las pensiones pagadas a un residente de un Estado contratante por razón de un empleo anterior sólo pueden someterse a imposición en ese Estado.
2. Las pensiones pagadas en virtud de la legislación de seguridad social sólo pueden someterse a imposición en ese Estado.
Hecho en Manila, el 14 de marzo de 1989, en dos ejemplares.
PROTOCOLO
1. En relación con el artículo 11, se entiende que los intereses pagados al Gobierno del otro Estado estarán exentos.
"""
COPY = TITLE + PREAMBLE + FIRST + FILLER + PAYMENTS
# the same with its chapters kept: the first article under a chapter's title, not under the preamble
CHAPTERED = TITLE + PREAMBLE + "CAPÍTULO I\nÁmbito de aplicación del Convenio\n" + FIRST + FILLER + PAYMENTS


def _decide(text: str, **facts: object) -> dict[str, object]:
    scenario = {"source": "ES", "residence": "PH", "beneficial_owner": True, "date": "2024-05-01", **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario).to_dict()


@pytest.mark.parametrize("text", [COPY, CHAPTERED])
def test_articles_cut_where_the_numbering_starts_again(text):
    doc = taxtreaty.parse(text)
    es = doc.version("es")
    assert [a.number for a in es.articles] == [str(k) for k in range(1, 15)]
    assert all(a.number_inferred for a in es.articles)
    topics = {a.number: a.topic for a in es.articles}
    assert (topics["10"], topics["11"], topics["12"], topics["13"]) == ("dividends", "interest", "royalties", "directors_fees")
    # the list's tail line is the article's, not an article of its own
    assert "Este apartado no afecta" in es.article("10").paragraph("2").text
    assert es.article("1").paragraphs[0].text.startswith("El presente Convenio se aplica a las personas")
    assert "article_headings_missing" in {w.code for w in doc.warnings}
    assert len(es.protocols) == 1


@pytest.mark.parametrize(("facts", "rate", "eid"), [
    ({"income": "dividends", "recipient": "individual"}, "15", "art_10__para_2__point_b"),
    ({"income": "dividends", "recipient": "company", "capital_pct": 40}, "10", "art_10__para_2__point_a"),
    ({"income": "interest", "recipient": "company"}, "12", "art_11__para_2"),
    ({"income": "interest", "recipient": "government"}, "0", "protocol_1__para_1"),
    ({"income": "royalties", "recipient": "company"}, "18", "art_12__para_2"),
])
def test_each_answer_says_the_article_numbers_are_counted(facts, rate, eid):
    decision = _decide(COPY, **facts)
    assert (decision["status"], str(decision["max_rate_pct"]), decision["eid"]) == ("determined", rate, eid)
    assert {"fact": "article numbers", "value": "counted"}.items() <= next(
        a for a in decision["assumptions"] if a["fact"] == "article numbers").items()


@pytest.mark.parametrize("text", [
    FIRST + FILLER + PAYMENTS,                                   # no convention's title: no convention
    TITLE + PREAMBLE + FIRST + PAYMENTS,                         # the numbering starts again too few times
])
def test_without_a_title_or_enough_articles_the_copy_is_still_refused(text):
    with pytest.raises(NoArticlesError):
        taxtreaty.parse(text)


def test_a_copy_with_its_headings_is_read_by_them():
    text = TITLE + PREAMBLE + "Artículo 1.\n" + FIRST + "Artículo 10.\nDividendos.\n" + PAYMENTS
    doc = taxtreaty.parse(text)
    assert [a.number for a in doc.version("es").articles][:2] == ["1", "10"]
    assert "article_headings_missing" not in {w.code for w in doc.warnings}


def test_the_mechanism_is_no_languages():
    # the same shape in English: the numbering, not the words, cuts the articles
    filler = "".join(f"1. The provisions {k} shall apply to the taxes of each State.\n"
                     f"2. The competent authorities shall notify each other of changes {k}.\n" for k in range(1, 10))
    text = ("CONVENTION BETWEEN THE KINGDOM OF SPAIN AND THE REPUBLIC OF THE PHILIPPINES FOR THE AVOIDANCE OF DOUBLE TAXATION\n"
            + filler + "1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
            "Contracting State may be taxed in that other State.\n2. However, such dividends may also be taxed in the "
            "Contracting State of which the company paying the dividends is a resident, but if the beneficial owner is a "
            "resident of the other Contracting State, the tax so charged shall not exceed 15 per cent of the gross amount "
            "of the dividends.\n")
    en = taxtreaty.parse(text).version("en")
    assert en.article("10").topic == "dividends"
