"""Every node's span points at the words it holds in the original file.

The honest check: take `doc.original[span]`, remove only what the cleaner is documented to remove
(the page furniture it recorded, with its rule name; simple inline HTML tags; a line-end hyphen
before a lower-case word), collapse whitespace, and the result must be *exactly* the node's
text with whitespace collapsed. Nothing else may differ: no lost words, no extra words, no
stray page number inside a paragraph.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import regex
from conftest import CORPUS, SEEDS

import taxtreaty
from taxtreaty.structure.model import Article, Document, iter_nodes
from taxtreaty.text import clean

SAMPLES = Path(taxtreaty.__file__).parent / "samples"
FIXTURES = Path(__file__).parent / "fixtures" / "structure"

_HTML_TAG = regex.compile(r"</?(?:sup|sub|i|b|em|strong|u|span|br)\b[^<>]{0,40}>", regex.IGNORECASE)
_LINE_END_HYPHEN = regex.compile(r"(?<=\p{L})[-‐]\s*\n\s*(?=\p{Ll}{2})")


def source_view(doc: Document, span: tuple[int, int], furniture: list[tuple[int, int, str]]) -> str:
    """original[span] without the furniture the cleaner recorded, whitespace collapsed."""
    start, end = span
    pieces, pos = [], start
    for f_start, f_end, _rule in furniture:
        if f_end <= start or f_start >= end:
            continue
        pieces.append(doc.original[pos:max(pos, f_start)])
        pos = max(pos, f_end)
    pieces.append(doc.original[pos:end])
    text = _HTML_TAG.sub("", "\n".join(pieces))
    text = _LINE_END_HYPHEN.sub("", text)
    return " ".join(text.split())


def span_mismatches(doc: Document) -> list[str]:
    bad = []
    furniture = sorted(clean(doc.original).furniture)
    for version in doc.versions:
        for node in iter_nodes(version):
            if isinstance(node, Article):
                continue
            expected = " ".join(node.text.split())
            found = source_view(doc, node.span, furniture)
            if expected != found:
                bad.append(f"{version.language} {node.eid}: {expected[:60]!r} != {found[:60]!r}")
    return bad


FILES = [
    *sorted(SEEDS.glob("*.txt")),
    *sorted((CORPUS / "nl").glob("*.txt")),
    *sorted((CORPUS / "fragments").glob("*.txt")),
    *sorted(SAMPLES.glob("*.txt")),
    *sorted(FIXTURES.glob("*.txt")),
]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_node_text_is_exactly_its_source_span(path: Path) -> None:
    doc = taxtreaty.parse_file(str(path))
    assert span_mismatches(doc) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_article_spans_cover_their_paragraphs_and_follow_each_other(path: Path) -> None:
    doc = taxtreaty.parse_file(str(path))
    for version in doc.versions:
        previous_end = -1
        for article in version.articles:
            a_start, a_end = article.span
            assert a_start >= previous_end, article.eid
            for para in article.paragraphs:
                assert a_start <= para.span[0] <= para.span[1] <= a_end, para.eid
            previous_end = a_end


def test_the_check_catches_a_page_number_left_inside_a_paragraph() -> None:
    doc = taxtreaty.parse("Article 1\nPersons covered\n1. This Convention shall apply\n\n1473\n\nto persons.\n"
                          "Article 2\nTaxes covered\n1. Taxes.\nArticle 3\nDefinitions\n1. Terms.\n")
    para = doc.version("en").article("1").paragraph("1")
    assert para.text == "This Convention shall apply to persons."
    # the furniture is removed from the view, so the text matches...
    assert span_mismatches(doc) == []
    # ...and a node whose text kept the page number would not
    para.text = "This Convention shall apply 1473 to persons."
    assert span_mismatches(doc) == [
        "en art_1__para_1: 'This Convention shall apply 1473 to persons.' != 'This Convention shall apply to persons.'"
    ]
