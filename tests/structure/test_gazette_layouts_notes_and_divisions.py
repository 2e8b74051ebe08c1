"""Red team of text cleanup and structure, second round: synthetic conventions under
tests/fixtures/redteam/structure2/ (an English gazette text with footnotes, a table of contents,
a one-off gazette footer, divisions "A. In the case of Norway:" holding numbered paragraphs and a
signature block of initials; ...). Each test names the bug it guards against: what the text says,
and what taxtreaty read before the fix."""

from __future__ import annotations

from decimal import Decimal

import pytest
from conftest import FIXTURES

import taxtreaty
from taxtreaty.structure.model import Document, iter_nodes
from taxtreaty.text.clean import furniture_rule

HERE = FIXTURES / "redteam" / "structure2"
NAMES = ["en_footnotes.txt", "pt_protocolo_artigos.txt"]


@pytest.fixture(scope="module")
def docs() -> dict[str, Document]:
    return {name: taxtreaty.parse_file(HERE / name) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_every_node_and_provision_quotes_its_source_exactly(docs, name):
    doc = docs[name]
    for version in doc.versions:
        for node in iter_nodes(version):
            assert doc.quote_at(node.span) == doc.original[node.span[0]:node.span[1]]
    for p in taxtreaty.provisions(doc).provisions:
        assert p.cite.quote == doc.original[p.cite.span[0]:p.cite.span[1]]


# -- divisions "A. In the case of Norway:" holding numbered paragraphs ------------------------------


def test_divisions_hold_their_numbered_paragraphs(docs):
    """Bug: an article opening with "A. In the case of Norway:" then "1. ..." "2. ..." read A as an
    unnumbered paragraph, 1 and 2 as paragraphs and "B. In the case of Singapore:" as point B of
    paragraph 2, so Singapore's credit was placed in Norway's paragraph (and a warning was false)."""
    doc = docs["en_footnotes.txt"]
    (para,) = doc.version("en").article("23").paragraphs
    assert [(p.eid, p.intro or p.text) for p in para.points] == [
        ("art_23__para_nn_1__point_A", "In the case of Norway:"),
        ("art_23__para_nn_1__point_B", para.points[1].text),
    ]
    assert para.points[1].text.startswith("In the case of Singapore:\nWhere a resident of Singapore")
    assert [q.eid for q in para.points[0].points] == ["art_23__para_nn_1__point_A__point_1",
                                                       "art_23__para_nn_1__point_A__point_2"]
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]
    reliefs = {(p.cite.eid, p.state, p.values.get("method"))
               for p in taxtreaty.provisions(doc).find(kind="relief_method")}
    assert reliefs == {
        ("art_23__para_nn_1__point_A__point_1", "NO", "credit"),
        ("art_23__para_nn_1__point_A__point_2", "NO", "exemption"),
        ("art_23__para_nn_1__point_B", "SG", "credit"),
    }


def test_initials_in_a_signature_block_are_not_divisions(docs):
    """"A. Tan Wei Ming" / "B. Lee" / "A. Smith" under the signatures are names, never points."""
    doc = docs["en_footnotes.txt"]
    labels = [n.eid for v in doc.versions for n in iter_nodes(v) if n.eid.endswith(("point_A", "point_B"))]
    assert labels == ["art_23__para_nn_1__point_A", "art_23__para_nn_1__point_B"]


def test_a_name_line_inside_a_paragraph_is_not_a_division():
    text = ("CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF SINGAPORE\n\nArticle 25\nMutual agreement"
            "\n\n1. The competent authority of Norway is the Minister of Finance, represented at the date of\n"
            "signature by\nA. Smith, Director General, and\nB. Jones, Adviser.\n\nArticle 26\nExchange of information\n\n"
            "1. The competent authorities shall exchange information.\n")
    doc = taxtreaty.parse(text)
    para = doc.version("en").article("25").paragraph("1")
    assert para.points == []
    assert "A. Smith, Director General" in para.text


# -- gazette lines printed once ---------------------------------------------------------------------


@pytest.mark.parametrize(("line", "rule"), [
    ("Commonwealth of Australia Gazette No. S 221, 14 November 2024 7", "gazette_issue_line"),
    ("Kenya Gazette Supplement No. 12, 3 May 2019", "gazette_issue_line"),
    ("Government Gazette No. 4471, 12 March 2025 9", "gazette_title_dated"),
    ("published in the Gazette No. 12, 3 May 2019", None),
    ("Gazette No. 5 of the Republic.", None),
    # the Gazette of India's running line, in English and in Hindi, with its page and its part and section
    ("4  THE GAZETTE OF INDIA : EXTRAORDINARY  [PART II—SEC. 3(ii)]", "gazette_of_state_running_line"),
    ("[PART II—SEC. 3(ii)]  THE GAZETTE OF INDIA : EXTRAORDINARY  5", "gazette_of_state_running_line"),
    ("[भाग II—खण्ड 3(ii)]  भारत का राजपत्र : असाधारण  3", "gazette_of_state_running_line"),
    ("THE KENYA GAZETTE  12", "gazette_of_state_running_line"),
    ("published in the Gazette of India on the same day", None),
    # legislation.gov.uk's status lines above each part of an Order it shows
    ("Status: This is the original version (as it was originally made).", "legislation_gov_uk_status"),
    ("- Latest available (Revised)", "legislation_gov_uk_status"),
    ("Original (As made)", "legislation_gov_uk_status"),
    ("This is the original version of the Convention.", None),
])
def test_one_off_gazette_issue_lines_are_furniture_and_sentences_are_not(line, rule):
    assert furniture_rule(line) == rule


def test_one_off_gazette_footer_mid_article_leaves_the_paragraphs_whole(docs):
    doc = docs["en_footnotes.txt"]
    art = doc.version("en").article("10")
    assert [p.number for p in art.paragraphs] == ["1", "2", "3"]
    assert all("Gazette" not in p.text for p in art.paragraphs)
    (b,) = [p for p in taxtreaty.provisions(doc).provisions if p.cite.eid == "art_10__para_2__point_b"]
    assert b.rate_pct == Decimal("15")


# -- footnotes ----------------------------------------------------------------------------------------


def test_footnote_markers_leave_the_headings(docs):
    """Bug: "Dividends1" and "Interest (*)" were the headings "Dividends1" and "Interest (*"."""
    version = docs["en_footnotes.txt"].version("en")
    assert [(a.number, a.heading, a.topic) for a in version.articles if a.number in ("10", "11")] == [
        ("10", "Dividends", "dividends"), ("11", "Interest", "interest")]


def test_footnote_text_is_furniture_and_no_rate_is_read_from_it(docs):
    """Bug: "1 As amended by the Protocol signed on 3 May 2005", "² ... previously 20 per cent" and
    "(*) ... the former rate of 12 per cent applied until 31 December 2014" ran on in the paragraphs
    before them (article 11(2) held two rates, 7 and 12 per cent, and a date)."""
    doc = docs["en_footnotes.txt"]
    texts = [n.text for v in doc.versions for n in iter_nodes(v)]
    assert not [t for t in texts if "amended" in t or "previously" in t or "former rate" in t or "²" in t]
    assert doc.version("en").article("10").paragraph("2").points[1].text == (
        "15 per cent of the gross amount of the dividends in all other cases.")
    furniture = [doc.original[s:e] for s, e, rule in taxtreaty.text.clean(doc.original).furniture if rule == "footnote"]
    assert [f[:4] for f in furniture] == ["1 As", "² Pa", "(*) "]
    rates = {(p.cite.eid, p.rate_pct) for p in taxtreaty.provisions(doc).provisions if p.rate_pct is not None}
    assert rates == {("art_10__para_2__point_a", Decimal("5")), ("art_10__para_2__point_b", Decimal("15")),
                     ("art_11__para_2", Decimal("7"))}


_WRAPPED = ("CONVENTION BETWEEN THE REPUBLIC OF SINGAPORE AND THE KINGDOM OF NORWAY\n\nArticle 10\nDividends1\n\n"
            "2. However, such dividends may also be taxed in the Contracting State of which the company paying "
            "the dividends is a resident, but the tax so charged shall not exceed\n"
            "15 Per cent of the gross amount of the dividends.\n"
            "3 The term \"dividends\" means income from shares.\n\n"
            "Article 11\nInterest\n\n1. Interest may be taxed in the other State.\n")


def test_a_line_that_goes_on_from_the_one_before_is_never_a_footnote():
    """"15 Per cent ..." after "shall not exceed" continues the sentence even though "Dividends1"
    carries no footnote of that number; "3 The term ..." after a full stop is no footnote either,
    since no word carries a 3."""
    doc = taxtreaty.parse(_WRAPPED)
    art = doc.version("en").article("10")
    assert "shall not exceed 15 Per cent of the gross amount" in art.paragraph("2").text
    assert "3 The term" in art.paragraph("2").text
    assert art.heading == "Dividends1"  # no footnote "1" line: the glued number is left as printed


# -- "Artigo 1" divisions inside a protocol -----------------------------------------------------------


def test_protocol_articles_are_paragraphs_of_the_protocol(docs):
    """Bug: "Artigo 1 / Ad artigo 10.º / ..." and "Artigo 2 / Ad artigo 11.º / ..." after "PROTOCOLO"
    stayed text: the whole protocol was one paragraph, with a false list_items_missing warning on
    its opening words ("... que fazem parte integrante da Convenção:")."""
    doc = docs["pt_protocolo_artigos.txt"]
    (protocol,) = doc.version("pt").protocols
    assert [(p.eid, p.number) for p in protocol.paragraphs] == [
        ("protocol_1__para_nn_1", None), ("protocol_1__para_1", "1"), ("protocol_1__para_2", "2")]
    assert protocol.paragraphs[1].text.startswith("Ad artigo 10.º\nFica entendido que o n.º 2 do artigo 10.º")
    assert protocol.paragraphs[2].text.startswith("Ad artigo 11.º\nFica entendido que os juros")
    assert not [w for w in doc.warnings if w.code == "list_items_missing"]
    # the protocol still qualifies the dividend caps it switches off
    unread = {p.cite.eid for p in taxtreaty.provisions(doc).provisions if "unread_condition" in p.conditions}
    assert unread == {"art_10__para_2__point_a", "art_10__para_2__point_b"}


def test_protocol_article_numbers_out_of_sequence_stay_text():
    text = ("CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E A REPÚBLICA DO PANAMÁ\n\nArtigo 10.º\nDividendos\n\n"
            "1 — Os dividendos podem ser tributados nesse outro Estado.\n\nEM TESTEMUNHO DO QUE os signatários "
            "assinaram a presente Convenção.\n\nPROTOCOLO\n\nFica entendido que:\n"
            "Artigo 10 da Convenção não se aplica aos fundos de pensões.\n")
    (protocol,) = taxtreaty.parse(text).version("pt").protocols
    assert [p.number for p in protocol.paragraphs] == [None]
    assert "Artigo 10 da Convenção" in protocol.paragraphs[0].text


def test_portuguese_star_footnote_is_furniture_and_its_old_rate_is_not_read(docs):
    """"Dividendos (*)" with "(*) Redacção dada pelo Protocolo de 2019; a taxa anterior era de 5 %." under
    point b): the 5 % ran on in point b) (15 %)."""
    doc = docs["pt_protocolo_artigos.txt"]
    art = doc.version("pt").article("10")
    assert art.heading == "Dividendos"
    assert art.paragraph("2").points[1].text == "15 % do montante bruto dos dividendos, nos restantes casos."
    rates = sorted(p.rate_pct for p in taxtreaty.provisions(doc).provisions if p.rate_pct is not None)
    assert rates == [Decimal("10"), Decimal("10"), Decimal("15")]


# -- a table of contents before the articles ----------------------------------------------------------

_CONTENTS = ("AGREEMENT BETWEEN THE REPUBLIC OF SINGAPORE AND THE KINGDOM OF NORWAY\n\nTABLE OF CONTENTS\n"
             "Article 1 Persons covered 2\nArticle 10 Dividends 7\nArticle 11 Interest 8\n\n"
             "Article 1\nPersons covered\n\nThis Agreement shall apply to persons who are residents of a Contracting State.\n\n"
             "Article 10\nDividends\n\n1. Dividends paid by a company may be taxed in that other State.\n\n"
             "2. However, the tax so charged shall not exceed 15 per cent of the gross amount of the dividends.\n\n"
             "Article 11\nInterest\n\n1. Interest may be taxed in the other State.\n\n"
             "2. However, the tax so charged shall not exceed 7 per cent of the gross amount of the interest.\n\n"
             "IN WITNESS WHEREOF the undersigned have signed this Agreement.\n")


def test_a_table_of_contents_is_not_the_articles():
    """Bug: "Article 1 Persons covered 2" / "Article 10 Dividends 7" / "Article 11 Interest 8" were read
    as the headings (titles "Dividends 7", ...); the real headings were refused as out of sequence
    and the contents' article 11 swallowed the convention's articles 1, 10 and 11: the 15% dividend
    cap was cited as art_11 (interest), wrong and confident."""
    doc = taxtreaty.parse(_CONTENTS)
    version = doc.version("en")
    assert [(a.number, a.heading, [p.number for p in a.paragraphs]) for a in version.articles] == [
        ("1", "Persons covered", [None]), ("10", "Dividends", ["1", "2"]), ("11", "Interest", ["1", "2"])]
    caps = {(p.cite.eid, p.rate_pct) for p in taxtreaty.provisions(doc).find(kind="withholding_cap")}
    assert caps == {("art_10__para_2", Decimal("15")), ("art_11__para_2", Decimal("7"))}


@pytest.mark.parametrize("leader", ["------------------", ". . . . . . . ", "______"])
@pytest.mark.parametrize("numbers", [("1", "10", "11"), ("I", "X", "XI")])
def test_a_table_of_articles_joined_by_leaders_is_not_the_articles(leader, numbers):
    """A United States Treasury text's "TABLE OF ARTICLES" gives no pages: "Article 10--------Dividends".
    Bug: those lines were read as headings of a first, empty English version of the convention."""
    one, ten, eleven = numbers
    contents = (f"TABLE OF ARTICLES\nArticle {one}{leader}Persons covered\nArticle {ten}{leader}Dividends\n"
                f"Article {eleven}{leader}Interest\n\n")
    text = _CONTENTS.replace("TABLE OF CONTENTS\nArticle 1 Persons covered 2\nArticle 10 Dividends 7\nArticle 11 Interest 8\n\n",
                             contents)
    for arabic, printed in zip(("1", "10", "11"), numbers, strict=True):
        text = text.replace(f"\n\nArticle {arabic}\n", f"\n\nArticle {printed}\n")
    doc = taxtreaty.parse(text)
    assert len(doc.versions) == 1
    assert [(a.number, [p.number for p in a.paragraphs]) for a in doc.versions[0].articles] == [
        (one, [None]), (ten, ["1", "2"]), (eleven, ["1", "2"])]


def test_one_heading_with_a_number_in_its_title_is_not_a_contents_table():
    text = _CONTENTS.replace("TABLE OF CONTENTS\nArticle 1 Persons covered 2\nArticle 10 Dividends 7\nArticle 11 Interest 8\n\n", "")
    text = text.replace("Article 10\nDividends\n", "Article 10 Dividends 7\n")  # a lone title ending in a digit stays a heading
    assert [a.number for a in taxtreaty.parse(text).version("en").articles] == ["1", "10", "11"]


def test_text_after_an_unfinished_footnote_outside_a_rule_is_treaty_text():
    """A page that ends with "² See the Protocol of 2005" (no stop, no rule above it) and a paragraph
    that goes on in lower case on the next page: the words going on are the treaty's."""
    text = ("CONVENTION BETWEEN THE KINGDOM OF NORWAY AND THE REPUBLIC OF SINGAPORE\n\nArticle 11\nInterest²\n\n"
            "1. Interest arising in a Contracting State and paid to a resident of the other State may be taxed\n"
            "² See the Protocol of 2005\n"
            "in that other State only if the recipient is the beneficial owner.\n\n"
            "Article 12\nRoyalties\n\n1. Royalties may be taxed in the other State.\n")
    doc = taxtreaty.parse(text)
    para = doc.version("en").article("11").paragraph("1")
    assert para.text.endswith("may be taxed in that other State only if the recipient is the beneficial owner.")
    assert "Protocol" not in para.text
