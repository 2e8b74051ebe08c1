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
NAMES = ["en_footnotes.txt"]


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
