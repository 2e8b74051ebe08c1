"""Red team of text cleanup and structure on layouts the seeds lack: synthetic conventions under
tests/fixtures/redteam/structure/ (a South African Government Gazette in English, a Diário da
República text numbered in ordinal words, a BOE text with OCR damage and a page break inside a
hyphenated word, ...). Each test names the bug it guards against: what the text says, and what
taxtreaty read before the fix."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from conftest import FIXTURES

import taxtreaty
from taxtreaty.rules import decide, load_treaty
from taxtreaty.structure.model import Document, iter_nodes
from taxtreaty.structure.numbers import (
    article_eid_number,
    article_number_value,
    clean_article_number,
    ordinal_value,
)
from taxtreaty.structure.parse import heading_number
from taxtreaty.structure.topics import topic_from_heading
from taxtreaty.text.clean import (
    article_heading_match,
    furniture_rule,
    heading_run_in_gap,
    heading_title_ok,
    inline_structure_gaps,
)

HERE = FIXTURES / "redteam" / "structure"
NAMES = ["en_gazette.txt", "pt_ordinais.txt", "es_boe.txt", "en_layouts.txt", "es_dof_romanos.txt",
         "pt_en_cp1252.txt"]


@pytest.fixture(scope="module")
def docs() -> dict[str, Document]:
    return {name: taxtreaty.parse_file(str(HERE / name)) for name in NAMES}


def outline(doc: Document, language: str) -> list[tuple[str, str | None]]:
    return [(a.eid, a.topic) for a in doc.version(language).articles]


# -- invariants over every fixture -------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_eids_unique_spans_exact_and_no_furniture_left(docs, name):
    doc = docs[name]
    assert not [w for w in doc.warnings if w.code == "duplicate_eid"]
    for version in doc.versions:
        eids = [node.eid for node in iter_nodes(version)]
        assert len(eids) == len(set(eids))
        for node in iter_nodes(version):
            if not hasattr(node, "text"):
                continue
            quote = doc.quote_at(node.span).split()
            # the node's last word ends its span in the original ("in-" / "terest." joined in the
            # text); a paragraph's or point's first word starts it (an article's, its heading)
            words = node.text.split()
            assert words[-1].endswith(quote[-1]), node.eid
            if "__" in node.eid:
                assert words[0].startswith(quote[0]), node.eid
            for furniture in ("GAZETTE", "Pág.", "série", "Núm.", "Diário da República", "BOLETÍN"):
                assert furniture not in node.text, (node.eid, furniture)
    provisions = taxtreaty.provisions(doc)
    assert provisions.provisions
    for p in provisions.provisions:
        assert doc.original[p.cite.span[0] : p.cite.span[1]] == p.cite.quote


# -- "Article 18 pensions": a lower-case title after a mixed-case word -----------------------


def test_lower_case_known_title_is_a_heading_not_a_cross_reference(docs):
    """Bug: "Article 18 pensions" was read as running text, so the pensions article ran on in
    royalties 12(2) and the provisions table gave royalties a `residence_only` allocation taken
    from the pensions words; `ask --income pensions` said the article was not in the text."""
    doc = docs["en_gazette.txt"]
    art = doc.version("en").article("18")
    assert (art.eid, art.heading, art.topic) == ("art_18", "pensions", "pensions")
    assert art.paragraphs[0].text.startswith("Pensions and other similar remuneration")
    assert "Pensions" not in doc.version("en").article("12").paragraph("2").text
    royalties = taxtreaty.provisions(doc).find(topic="royalties", kind="allocation")
    assert {p.allocation for p in royalties} == {"source_may_tax"}
    assert [w.message for w in doc.warnings if w.code == "articles_missing" and w.eid == "art_18"] == [
        "article 18 follows article 12: articles 13 to 17 are not in the text"
    ]


@pytest.mark.parametrize(
    ("word", "title", "ok"),
    [
        ("Article", "pensions", True),
        ("Article", "capital gains", True),
        ("Artigo", "juros", True),
        ("Artículo", "ganancias de capital", True),
        ("Article", "shall apply to the income", False),
        ("Article", "pensions paid to a resident", False),
        ("Artigo", "do presente Protocolo", False),
    ],
)
def test_heading_title_ok_knows_usual_titles_in_any_case(word, title, ok):
    assert heading_title_ok(word, title) is ok


# -- ordinal words: "ARTIGO DÉCIMO PRIMEIRO", "ARTÍCULO DECIMOTERCERO" -----------------------


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("PRIMEIRO", 1),
        ("DÉCIMO", 10),
        ("DÉCIMO PRIMEIRO", 11),
        ("décimo-segundo", 12),
        ("DECIMOTERCERO", 13),
        ("Vigésimo Nono", 29),
        ("UNDÉCIMO", 11),
        ("trigésimo", 30),
        ("primeiro décimo", None),
        ("segundo segundo", None),
        # the units' "o" elided in one word ("decimo" + "octavo"): before, None and article 18 was lost
        ("Decimoctavo", 18),
        ("VIGESIMOCTAVO", 28),
    ],
)
def test_ordinal_value(words, value):
    assert ordinal_value(words) == value


def test_a_heading_decimoctavo_opens_the_pensions_article():
    """Bug: "Artículo decimoctavo" / "Pensiones" stayed text of the article before it: no pensions article (the
    decision said the text was incomplete)."""
    import taxtreaty

    doc = taxtreaty.parse("CONVENIO ENTRE ESPAÑA Y LA REPÚBLICA DEL ECUADOR\n\nArtículo decimoséptimo\nArtistas y deportistas\n\n"
                          "Las rentas que un residente obtenga como artista pueden someterse a imposición en el otro Estado.\n\n"
                          "Artículo decimoctavo\nPensiones\n\nLas pensiones pagadas a un residente de un Estado Contratante "
                          "en razón de un empleo anterior sólo pueden someterse a imposición en este Estado.\n")
    art = doc.version("es").article("18")
    assert (art.eid, art.heading, art.topic) == ("art_18", "Pensiones", "pensions")
    assert "pensiones" not in doc.version("es").article("17").text.lower()


def test_portuguese_articles_numbered_in_ordinal_words(docs):
    """Bug: a Diário da República text whose headings are "ARTIGO DÉCIMO PRIMEIRO" had no article
    at all ("no articles found: the text does not look like a tax convention")."""
    doc = docs["pt_ordinais.txt"]
    assert outline(doc, "pt") == [
        ("art_1", "persons_covered"), ("art_2", "taxes_covered"), ("art_10", "dividends"), ("art_11", "interest"),
        ("art_12", "royalties"), ("art_18", "pensions"), ("art_29", "entry_into_force"), ("art_30", "termination"),
    ]
    assert (doc.parties, doc.signed.date) == (["PT", "AO"], "2018-09-18")
    treaty = load_treaty(doc, ["PT", "AO"], (dt.date(2019, 1, 1), None))
    facts = {"income": "dividends", "source": "AO", "residence": "PT", "beneficial_owner": True,
             "recipient": "company", "capital_pct": 30, "held_months": 24, "date": "2024-05-01"}
    decision = decide(treaty, facts)
    assert (decision.status, decision.max_rate_pct, decision.eid) == ("determined", Decimal(8), "art_10__para_2__point_a")
    decision = decide(treaty, {**facts, "capital_pct": 20})
    assert (decision.status, decision.max_rate_pct, decision.eid) == ("determined", Decimal(15), "art_10__para_2__point_b")


def test_spanish_compound_ordinal_heading_opens_its_article(docs):
    """Bug: "ARTÍCULO DECIMOTERCERO" / "Ganancias de capital" stayed text inside royalties 12(2)."""
    doc = docs["es_boe.txt"]
    art = doc.version("es").article("13")
    assert (art.eid, art.heading, art.topic) == ("art_13", "Ganancias de capital", "capital_gains")
    assert "ganancias" not in doc.version("es").article("12").paragraph("2").text


# -- OCR in article numbers: "Artículo l0", "ARTICLE 2O" -----------------------------------------


@pytest.mark.parametrize(("raw", "number"), [("l0", "10"), ("I2", "12"), ("2O", "20"), ("10 A", "10a"), ("1O", "10")])
def test_clean_article_number_reads_ocr_ones_and_zeros(raw, number):
    assert clean_article_number(raw) == number


def test_ocr_l_for_one_in_an_article_number(docs):
    """Bug: "Artículo l0. Dividendos." stayed text: the dividend article ran on inside the taxes
    covered (its points became duplicate points a) b) of 2(2)), and `ask --income dividends`
    answered that the dividend article is not in the text."""
    doc = docs["es_boe.txt"]
    assert [a.eid for a in doc.version("es").articles] == [
        "art_1", "art_2", "art_10", "art_11", "art_12", "art_13", "art_18", "art_28", "art_29"]
    assert [p.label for p in doc.version("es").article("2").paragraph("2").points] == ["a", "b"]
    caps = sorted((p.cite.eid, p.rate_pct) for p in taxtreaty.provisions(doc).find(topic="dividends", kind="withholding_cap"))
    assert caps == [("art_10__para_2__point_a", Decimal(0)), ("art_10__para_2__point_b", Decimal(5)),
                    ("art_10__para_2__point_c", Decimal(10))]


# -- gazette furniture of other gazettes ------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("Núm. 145                         Martes 18 de junio de 2019           Sec. I.   Pág. 63120", "series_line"),
        ("Diário da República, 1.ª série — N.º 123 — 30 de junho de 2015                    4322", "gazette_title"),
        ("GOVERNMENT GAZETTE, 12 MARCH 2021                    No. 44231    24", "gazette_title_dated"),
        ("Official Gazette", "gazette_title_dated"),
        ("Diário Oficial da União - Seção 1  Nº 123, segunda-feira, 30 de junho de 2015", "gazette_title"),
        # running text that starts like a gazette line stays text
        ("Official Gazette of the Kingdom of Spain.", None),
        ("Núm. 3 del presente artículo", None),
    ],
)
def test_gazette_running_lines(line, rule):
    assert furniture_rule(line) == rule


def test_page_break_inside_a_hyphenated_word_under_a_boe_header(docs):
    """Bug: the BOE line "Núm. 145 ... Sec. I. Pág. 63121" stayed in 10(2)(b) between "divi-" and
    "dendos", so the point read "... los divi- Núm. 145 Martes 18 de junio de 2019 ... dendos;"."""
    point = docs["es_boe.txt"].version("es").article("10").paragraph("2").points[1]
    assert point.text.endswith("del capital de la sociedad que paga los dividendos;")


def test_ocr_l2_heading_after_interest_opens_royalties():
    """"Article l2" (OCR for 12) after article 11 opens article 12: the ten per cent is royalties',
    neither interest's nor lost."""
    text = (
        "Article 11\nInterest\n\n1. Interest may be taxed in the other State.\n\n"
        "2. However, the tax so charged shall not exceed 12 per cent of the gross amount of the interest.\n"
        "Article l2\nRoyalties\n"
        "1. Royalties may be taxed in the other State.\n"
        "2. However, the tax so charged shall not exceed ten per cent of the gross amount of the royalties.\n"
    )
    doc = taxtreaty.parse(text)
    assert [(a.eid, a.heading, a.topic) for a in doc.version("en").articles] == [
        ("art_11", "Interest", "interest"), ("art_12", "Royalties", "royalties")]
    caps = {(p.cite.eid, p.rate_pct) for p in taxtreaty.provisions(doc).find(kind="withholding_cap")}
    assert caps == {("art_11__para_2", Decimal(12)), ("art_12__para_2", Decimal(10))}


# -- layouts of en_layouts.txt: "§ 1", "1)", a heading run into its first paragraph, "A."/"B." ---


def test_heading_run_into_its_first_paragraph(docs):
    """Bug: "Article 11 Interest 1. Interest arising ..." on one line was not a heading: the
    interest paragraphs ran on in article 10A (branch profits tax), which took the topic
    `interest`, so the branch profits clause became an interest provision."""
    doc = docs["en_layouts.txt"]
    assert outline(doc, "en")[2:5] == [("art_10", "dividends"), ("art_10a", "business_profits"), ("art_11", "interest")]
    art = doc.version("en").article("11")
    assert [p.eid for p in art.paragraphs] == ["art_11__para_1", "art_11__para_2", "art_11__para_3"]
    assert art.paragraphs[0].text.startswith("Interest arising in a Contracting State")
    assert [p.cite.eid for p in taxtreaty.provisions(doc).find(topic="interest", kind="withholding_cap")] == ["art_11__para_2"]


@pytest.mark.parametrize(
    ("line", "split"),
    [
        ("Article 11 Interest 1. Interest arising in a State", "Article 11 Interest"),
        ("Artículo 11. Intereses. 1. Los intereses procedentes", "Artículo 11. Intereses."),
        ("ARTIGO 11.º Juros 1 — Os juros provenientes", "ARTIGO 11.º Juros"),
        ("Article 7 shall apply. 1. The", None),
        ("Article 5 of the Convention (1) The", None),
    ],
)
def test_heading_run_in_gap(line, split):
    gap = heading_run_in_gap(line)
    assert (line[: gap[0]] if gap else None) == split


def test_paragraphs_numbered_with_a_bracket_or_a_section_sign(docs):
    """Bug: "1) Dividends ..." / "2) However ..." were an unnumbered paragraph holding a point 2
    (the dividend cap cited as art_10__para_nn_1__point_2); "§ 1" / "§ 2" were one unnumbered paragraph."""
    doc = docs["en_layouts.txt"]
    version = doc.version("en")
    assert [p.eid for p in version.article("10").paragraphs] == ["art_10__para_1", "art_10__para_2"]
    assert [p.eid for p in version.article("2").paragraphs] == ["art_2__para_1", "art_2__para_2"]
    assert version.article("2").paragraph("2").text.startswith("The existing taxes")
    (cap,) = taxtreaty.provisions(doc).find(topic="dividends", kind="withholding_cap")
    assert (cap.cite.eid, cap.rate_pct) == ("art_10__para_2", Decimal(10))


def test_a_numbered_list_inside_a_bracket_paragraph_stays_a_list():
    text = (
        "Article 3 General definitions\n1) For the purposes of this Agreement the term \"State\" means:\n"
        "a) the Republic, and includes:\n1) the territorial sea;\n2) the exclusive economic zone;\n"
        "b) the Kingdom.\n2) Any term not defined shall have its meaning under the law of that State.\n"
    )
    art = taxtreaty.parse(text).version("en").article("3")
    assert [p.eid for p in art.paragraphs] == ["art_3__para_1", "art_3__para_2"]
    point_a = art.paragraph("1").points[0]
    assert [q.eid for q in point_a.points] == ["art_3__para_1__point_a__point_1", "art_3__para_1__point_a__point_2"]


def test_upper_case_divisions_hold_their_lettered_points(docs):
    """Bug: "A. In Kenya:" / "B. In Malaysia:" stayed text, so Malaysia's points (a) (b) became
    duplicate eIds art_22__para_1__point_a_2 and the credit Malaysia gives was placed in Kenya."""
    doc = docs["en_layouts.txt"]
    para = doc.version("en").article("22").paragraph("1")
    assert [(p.eid, p.intro) for p in para.points] == [
        ("art_22__para_1__point_A", "In Kenya:"), ("art_22__para_1__point_B", "In Malaysia:")]
    assert [q.eid for q in para.points[1].points] == ["art_22__para_1__point_B__point_a", "art_22__para_1__point_B__point_b"]
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]
    reliefs = [(p.cite.eid, p.state) for p in taxtreaty.provisions(doc).find(kind="relief_method")]
    assert reliefs == [("art_22__para_1__point_A__point_a", "KE"), ("art_22__para_1__point_B__point_a", "MY")]


def test_text_that_stops_mid_article_is_flagged(docs):
    doc = docs["en_layouts.txt"]
    art = doc.version("en").article("24")
    assert (art.complete, art.paragraphs[-1].complete) == (False, False)
    assert [w.eid for w in doc.warnings if w.code == "text_truncated"] == ["art_24"]


# -- roman numbers with "bis", a DOF signature, a bilingual Windows-1252 file ------------------


@pytest.mark.parametrize(("number", "value", "eid"), [("X", 10, "10"), ("Xbis", 10, "10bis"), ("XXIX", 29, "29"), ("10a", 10, "10a")])
def test_roman_article_numbers_with_a_suffix(number, value, eid):
    assert (article_number_value(number), article_eid_number(number)) == (value, eid)


def test_roman_bis_article_and_a_signature_in_la_ciudad_de_mexico(docs):
    """Bugs: "ARTÍCULO X bis" (branch tax) stayed text inside dividends 10(2); "Hecho en la Ciudad
    de México, el 17 de abril de 1998" gave no signature (the place after "la" was not read)."""
    doc = docs["es_dof_romanos.txt"]
    version = doc.version("es")
    assert [(a.eid, a.number) for a in version.articles][2:5] == [("art_10", "X"), ("art_10bis", "Xbis"), ("art_11", "XI")]
    assert "sucursales" not in version.article("X").paragraph("2").text.lower()
    assert "impuesto adicional" in version.article("Xbis").paragraphs[0].text
    assert (doc.signed.date, doc.signed.place) == ("1998-04-17", "Ciudad de México")
    assert doc.parties == ["MX", "CL"]


def test_bilingual_windows_1252_file_with_form_feeds(docs):
    doc = docs["pt_en_cp1252.txt"]
    assert [v.language for v in doc.versions] == ["pt", "en"]
    for language in ("pt", "en"):
        assert [a.eid for a in doc.version(language).articles] == ["art_9", "art_10", "art_11", "art_12", "art_29", "art_30"]
    first = doc.version("pt").article("9")
    assert (first.number_inferred, first.complete) == (True, False)
    assert (doc.version("pt").protocols, [p.eid for p in doc.version("en").protocols]) == ([], ["protocol_1"])
    assert (doc.parties, doc.signed.date, doc.prevailing_language) == (["PT", "SG"], "2021-03-24", "pt")
    assert "\f" not in doc.version("pt").article("10").paragraph("2").text
    assert [w.code for w in doc.warnings if w.code == "encoding"] == ["encoding"]


# -- a text without its line breaks; a heading hyphenated over two lines -------------------------

ONE_LINE = (
    "Article 10 Dividends 1. Dividends may be taxed in that other State. 2. However, the tax so charged shall not "
    "exceed 15 per cent of the gross amount of the dividends. Article 11 Interest 1. Interest may be taxed in that "
    "other State as provided in paragraph 2. However, the tax so charged shall not exceed 10 per cent of the gross "
    "amount of the interest.\n"
)


def test_a_treaty_printed_on_one_line_keeps_its_articles_apart():
    """Bug: a text with no line breaks was one article 10: the interest cap of 10 per cent was read
    as a second dividend cap (art_10__para_1), next to the 15 per cent the dividends article gives."""
    doc = taxtreaty.parse(ONE_LINE)
    version = doc.version("en")
    assert [(a.eid, a.heading) for a in version.articles] == [("art_10", "Dividends"), ("art_11", "Interest")]
    assert [p.eid for p in version.article("10").paragraphs] == ["art_10__para_1", "art_10__para_2"]
    # "paragraph 2. However" is a reference, not paragraph 2: the interest article keeps one paragraph
    assert [p.eid for p in version.article("11").paragraphs] == ["art_11__para_1"]
    caps = sorted((p.topic, p.cite.eid, p.rate_pct) for p in taxtreaty.provisions(doc).find(kind="withholding_cap"))
    assert caps == [("dividends", "art_10__para_2", Decimal(15)), ("interest", "art_11__para_1", Decimal(10))]
    for p in taxtreaty.provisions(doc).provisions:
        assert doc.original[p.cite.span[0] : p.cite.span[1]] == p.cite.quote


@pytest.mark.parametrize(
    ("line", "pieces"),
    [
        ("Article 3 Definitions 1. The term. 2. Another term. 4. Not in sequence.",
         ["Article 3 Definitions", "1. The term.", "2. Another term. 4. Not in sequence."]),
        ("Artigo 5.º Estabelecimento estável 1 — A expressão. 2 — Inclui.",
         ["Artigo 5.º Estabelecimento estável", "1 — A expressão.", "2 — Inclui."]),
        ("1. Dividends may be taxed. 2. However, the tax shall not exceed 5 per cent.",
         ["1. Dividends may be taxed. 2. However, the tax shall not exceed 5 per cent."]),
    ],
)
def test_inline_structure_gaps(line, pieces):
    cuts = [0] + [x for gap in inline_structure_gaps(line) for x in gap] + [len(line)]
    assert [line[cuts[k] : cuts[k + 1]] for k in range(0, len(cuts), 2)] == pieces


def test_article_word_hyphenated_over_two_lines():
    """Bug: "ARTI-" / "CLE 12" was text: the royalties article ran on inside interest."""
    text = (
        "ARTICLE 11\nINTEREST\n1. Interest may be taxed in that other State.\n"
        "ARTI-\nCLE 12\nROYALTIES\n1. Royalties may be taxed in that other State.\n"
    )
    doc = taxtreaty.parse(text)
    assert [(a.eid, a.heading, a.topic) for a in doc.version("en").articles] == [
        ("art_11", "INTEREST", "interest"), ("art_12", "ROYALTIES", "royalties")]
    assert doc.quote_at(doc.version("en").article("12").span).startswith("ARTI-\nCLE 12")


# -- "as follows:" then the rule in sentences is not a lost list -------------------------------

AS_FOLLOWS = (
    "Article 23 Elimination of double taxation\n1. In India double taxation shall be eliminated as follows:\n"
    "Where a resident of India derives income which may be taxed in the Netherlands, India shall allow as a "
    "deduction from the tax on the income of that resident an amount equal to the income tax paid in the "
    "Netherlands. Such deduction shall not, however, exceed that part of the income tax which is attributable "
    "to the income which may be taxed in the Netherlands.\n"
    "Provided that income which is not to be subjected to tax may be taken into account in calculating the rate.\n"
)
LOST_ITEMS = (
    "Article 10 Dividends\n2. However, the tax so charged shall not exceed:\n"
    "This paragraph shall not affect the taxation of the company in respect of the profits out of which the "
    "dividends are paid.\n"
)


def test_text_announced_by_a_colon_is_not_a_lost_list():
    """Bug (NL-IN 23(4)): "... as follows:" then three paragraphs of sentences was flagged
    `list_items_missing`, which marks the whole relief paragraph as damaged."""
    doc = taxtreaty.parse(AS_FOLLOWS)
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]
    (relief,) = taxtreaty.provisions(doc).find(kind="relief_method")
    assert (relief.cite.eid, relief.values["method"], relief.state) == ("art_23__para_1", "credit", "IN")


def test_a_lost_rate_list_before_a_wrap_up_sentence_is_still_flagged():
    doc = taxtreaty.parse(LOST_ITEMS)
    assert [(w.code, w.eid) for w in doc.warnings if w.code == "list_items_missing"] == [
        ("list_items_missing", "art_10__para_2")]
    decision = decide(load_treaty(doc, ["IN", "NL"], (dt.date(2000, 1, 1), None)),
                      {"income": "dividends", "source": "IN", "residence": "NL", "beneficial_owner": True,
                       "date": "2024-05-01"})
    assert decision.status != "determined" and decision.max_rate_pct is None


def test_protocol_articles_do_not_outvote_roman_convention_articles():
    """Bug: a convention numbered "ARTICLE I" ... "ARTICLE XI" (4 headings) followed by a protocol
    with "Article 1" ... "Article 5" had its roman headings demoted: "no articles found"."""
    body = "".join(
        f"ARTICLE {r}\n{title}\n1. The provision {r} applies in that other State.\n"
        for r, title in [("I", "Persons Covered"), ("II", "Taxes Covered"), ("X", "Dividends"), ("XI", "Interest")]
    )
    protocol = "PROTOCOL\n" + "".join(f"Article {n}\nText {n} of the protocol applies to the Convention.\n" for n in range(1, 6))
    text = ("CONVENTION BETWEEN THE UNITED STATES OF AMERICA AND THE REPUBLIC OF CHILE\n" + body
            + "IN WITNESS WHEREOF the undersigned have signed this Convention.\n" + protocol)
    version = taxtreaty.parse(text).version("en")
    assert [(a.eid, a.number, a.topic) for a in version.articles] == [
        ("art_1", "I", "persons_covered"), ("art_2", "II", "taxes_covered"), ("art_10", "X", "dividends"),
        ("art_11", "XI", "interest")]
    assert [p.eid for p in version.protocols] == ["protocol_1"]
    assert "Text 5 of the protocol" in version.protocols[0].paragraphs[-1].text


@pytest.mark.parametrize(
    ("heading", "language", "topic"),
    [
        # Brazilian and Latin American headings the topic table lacked (art_2 of a DOU text was topic_unknown)
        ("Tributos Visados", "pt", "taxes_covered"),
        ("Rendimentos de Bens Imóveis", "pt", "immovable_property"),
        ("Remunerações de Direção", "pt", "directors_fees"),
        ("Utilidades empresariales", "es", "business_profits"),
        # and ones it already knew, in other wordings
        ("Ganhos de Capital", "pt", "capital_gains"),
        ("Funciones públicas", "es", "government_service"),
        ("Income not expressly mentioned", "en", "other_income"),
        ("Branch profits tax", "en", None),
        # an article of its own for fees for technical services (India, Pakistan: "ARTICLE 12A") is of the royalties
        ("FEES FOR TECHNICAL SERVICES", "en", "royalties"),
        ("Technical fees", "en", "royalties"),
        ("Honorários por serviços técnicos", "pt", "royalties"),
        ("Servicios técnicos", "es", "royalties"),
    ],
)
def test_topic_headings_in_other_wordings(heading, language, topic):
    assert topic_from_heading(heading, language)[0] == topic


def test_bilingual_text_printed_a_page_of_each_language():
    """Bug: Portuguese pages (articles 10-11, then 12) alternating with English pages (10-11, then
    12): the English headings were refused as out of sequence and their text ran on inside the
    Portuguese articles; the English version was lost without a warning."""
    doc = taxtreaty.parse_file(str(HERE / "pt_en_page_each.txt"))
    assert [v.language for v in doc.versions] == ["pt", "en"]
    for language, interest in (("pt", "Os juros"), ("en", "Interest arising")):
        version = doc.version(language)
        assert [(a.eid, a.topic) for a in version.articles] == [
            ("art_10", "dividends"), ("art_11", "interest"), ("art_12", "royalties")]
        assert version.article("11").paragraph("1").text.startswith(interest)
        assert version.article("11").paragraph("2").text.endswith(("juros.", "interest."))
    caps = sorted((p.cite.eid, p.rate_pct, p.id.split(":")[0]) for p in taxtreaty.provisions(doc).find(kind="withholding_cap"))
    assert caps == [
        ("art_10__para_2", Decimal(15), "en"), ("art_10__para_2", Decimal(15), "pt"),
        ("art_11__para_2", Decimal(10), "en"), ("art_11__para_2", Decimal(10), "pt"),
        ("art_12__para_2", Decimal(5), "en"), ("art_12__para_2", Decimal(5), "pt"),
    ]


@pytest.mark.parametrize(
    ("heading", "number"),
    [("Artigo 10.º-A", "10a"), ("Artigo 2.º-A - Definições", "2a"), ("ARTIGO 10-A", "10a"), ("Artigo 10.º-Dividendos", "10"),
     ("Artículo 10 bis", "10bis"), ("ARTIGO DÉCIMO-PRIMEIRO", "11"), ("ARTICLE XVIII PENSIONS", "XVIII")],
)
def test_heading_numbers_of_inserted_articles(heading, number):
    assert heading_number(article_heading_match(heading)) == number


def test_inserted_portuguese_article_opens_its_own_article():
    """Bug: "Artigo 10.º-A" (branch profits) was read as a second article 10, refused, and its
    text ran on inside dividends 10(2)."""
    text = (
        "Artigo 10.º\nDividendos\n1 - Os dividendos podem ser tributados nesse outro Estado.\n"
        "2 - O imposto assim estabelecido não excederá 15 % do montante bruto dos dividendos.\n"
        "Artigo 10.º-A\nImposto sobre sucursais\n"
        "1 - Uma sociedade com um estabelecimento estável no outro Estado pode aí ser tributada.\n"
        "Artigo 11.º\nJuros\n1 - Os juros podem ser tributados nesse outro Estado.\n"
    )
    version = taxtreaty.parse(text).version("pt")
    assert [(a.eid, a.topic) for a in version.articles] == [
        ("art_10", "dividends"), ("art_10a", "business_profits"), ("art_11", "interest")]
    assert version.article("10").paragraph("2").text.endswith("montante bruto dos dividendos.")
