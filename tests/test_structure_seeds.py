"""What issue 2 says the parser must show on the five gazette seeds (values checked by hand)."""

from __future__ import annotations

import pytest
from conftest import seed_path

import taxtreaty
from taxtreaty.structure.model import Document, iter_nodes


def _parse(prefix: str) -> Document:
    return taxtreaty.parse_file(str(seed_path(prefix)))


def _outline(doc: Document, language: str) -> list[tuple[str, bool, bool, str | None]]:
    version = doc.version(language)
    assert version is not None
    return [(a.number, a.number_inferred, a.complete, a.topic) for a in version.articles]


def _warnings(doc: Document, code: str) -> set[tuple[str | None, str | None]]:
    return {(w.eid, w.language) for w in doc.warnings if w.code == code}


def test_000_english_articles_paragraphs_points() -> None:
    doc = _parse("000")
    assert [v.language for v in doc.versions] == ["en"]
    assert _outline(doc, "en") == [
        ("8", False, True, "shipping_air_transport"),
        ("9", False, True, "associated_enterprises"),
        ("10", False, True, "dividends"),
        ("11", False, False, "interest"),  # the file stops inside article 11
    ]
    en = doc.version("en")
    art10 = en.article("10")
    assert art10.heading == "Dividends"
    assert [p.number for p in art10.paragraphs] == ["1", "2", "3", "4", "5", "6"]
    para2 = art10.paragraph("2")
    # runs on past the blank line that split it, keeps its continuation sentence, and holds no furniture
    assert "beneficial owner of the dividends the tax so charged shall not exceed 15 per cent" in para2.text
    assert para2.text.endswith("out of which the dividends are paid.")
    assert "1473" not in para2.text and "SETEMBRO" not in para2.text and "1996" not in para2.text
    assert para2.eid == "art_10__para_2"
    points = en.article("11").paragraph("3").points
    assert [(p.label, p.eid) for p in points] == [("a", "art_11__para_3__point_a"), ("b", "art_11__para_3__point_b")]
    assert points[0].text.startswith("If the debter of such interest is the Government")
    assert ("art_11", "en") in _warnings(doc, "text_truncated")


def test_001_portuguese_fragment_inferred_article_and_hyphen_across_page() -> None:
    doc = _parse("001")
    assert _outline(doc, "pt") == [
        ("8", True, False, "shipping_air_transport"),
        ("9", False, True, "associated_enterprises"),
        ("10", False, True, "dividends"),
        ("11", False, False, "interest"),
    ]
    pt = doc.version("pt")
    assert pt.article("8").heading is None
    assert pt.article("11").heading == "Juros"
    assert pt.article("9").heading == "Empresas associadas"
    assert "montante bruto" in pt.article("10").paragraph("2").text
    assert "mon-" not in pt.article("10").paragraph("2").text
    # OCR-damaged roman labels "í)" and "Hi)" are read in sequence and reported
    nested = pt.article("11").paragraph("3").points[0].points
    assert [p.label for p in nested] == ["i", "ii", "iii", "iv", "v"]
    assert [p.label_printed for p in nested[:3]] == ["í", None, "Hi"]
    assert ("art_11__para_3__point_a__point_iii", "pt") in _warnings(doc, "ocr_repaired")
    assert ("art_8", "pt") in _warnings(doc, "article_incomplete")


def test_002_bilingual_versions_metadata_and_missing_items() -> None:
    doc = _parse("002")
    assert [v.language for v in doc.versions] == ["pt", "en"]
    pt, en = doc.version("pt"), doc.version("en")
    assert [a.number for a in pt.articles] == [str(n) for n in range(1, 33)]
    assert [a.number for a in en.articles] == [str(n) for n in range(1, 13)]
    assert pt.article("22").topic == "offshore_activities"
    assert pt.article("23").topic == "other_income"
    assert pt.article("24").topic == "elimination_double_taxation"
    assert pt.article("11").heading == "Juros" and en.article("11").heading == "Interest"
    missing = _warnings(doc, "list_items_missing")
    assert ("art_10__para_2", "pt") in missing
    assert ("art_10__para_2", "en") in missing
    assert "não excederá:\nAs autoridades competentes" in pt.article("10").paragraph("2").text
    assert pt.article("10").paragraph("2").points == []
    assert doc.parties == ["PT", "TL"]
    assert doc.signed is not None and (doc.signed.date, doc.signed.place) == ("2011-09-27", "Lisboa")
    assert doc.prevailing_language == "pt"
    # the English version stops inside article 12 (the file is cut)
    assert en.article("12").complete is False
    assert all(a.complete for a in pt.articles)


def test_003_spanish_inferred_fragment_and_ocr_points() -> None:
    doc = _parse("003")
    assert [v.language for v in doc.versions] == ["es"]
    assert _outline(doc, "es") == [
        ("7", True, False, "business_profits"),
        ("8", False, True, "shipping_air_transport"),
        ("9", False, True, "associated_enterprises"),
        ("10", False, False, "dividends"),
    ]
    es = doc.version("es")
    assert [p.number for p in es.article("8").paragraphs] == ["1", "2", "3", "4", "5"]
    points = es.article("9").paragraph("1").points
    assert [(p.label, p.label_printed) for p in points] == [("a", "o"), ("b", "£>")]
    # the leading fragment is the end of paragraph 4 (paragraph 5 follows it), marked inferred
    first = es.article("7").paragraphs[0]
    assert (first.number, first.number_inferred, first.complete) == ("4", True, False)
    assert first.text.startswith("esté de acuerdo con los principios")
    assert "198-(15)" not in first.text and "NOVEMBRO" not in first.text


def test_004_damaged_heading_and_unnumbered_paragraph() -> None:
    doc = _parse("004")
    assert _outline(doc, "pt") == [
        ("6", True, False, "immovable_property"),
        ("7", False, True, "business_profits"),
        ("8", True, True, "shipping_air_transport"),  # from the damaged "ARTIGO «.*"
        ("9", False, True, "associated_enterprises"),
        ("10", False, False, "dividends"),
    ]
    pt = doc.version("pt")
    assert [p.number for p in pt.article("7").paragraphs] == [str(n) for n in range(1, 8)]
    assert pt.article("8").heading == "Navegação marítima e aérea"
    assert ("art_8", "pt") in _warnings(doc, "article_number_inferred")
    art9 = pt.article("9")
    assert [p.number for p in art9.paragraphs] == [None]
    assert art9.paragraphs[0].eid == "art_9__para_nn_1"
    assert art9.paragraphs[0].intro == "Quando:"
    assert [p.eid for p in art9.paragraphs[0].points] == ["art_9__para_nn_1__point_a", "art_9__para_nn_1__point_b"]
    assert "II SÉRIE" not in pt.article("6").paragraphs[0].text


@pytest.mark.parametrize("prefix", ["000", "001", "002", "003", "004"])
def test_no_duplicate_eids_per_version_and_every_article_has_a_topic(prefix: str) -> None:
    doc = _parse(prefix)
    for version in doc.versions:
        eids = [n.eid for n in iter_nodes(version)]
        assert len(eids) == len(set(eids))
        assert all(a.topic for a in version.articles)
        assert all(e.startswith(("art_", "protocol_")) for e in eids)


def test_json_shape_is_the_interface_of_issue_2() -> None:
    data = _parse("002").to_json_dict()
    assert set(data) >= {"source", "parties", "signed", "prevailing_language", "versions", "warnings"}
    assert set(data["source"]) >= {"path", "sha256", "bytes"}
    article = data["versions"][0]["articles"][9]
    assert set(article) >= {"eid", "number", "number_inferred", "heading", "topic", "complete", "paragraphs"}
    paragraph = article["paragraphs"][1]
    assert set(paragraph) >= {"eid", "number", "text", "span", "points"}
    assert isinstance(paragraph["span"], list) and len(paragraph["span"]) == 2
    assert set(data["warnings"][0]) == {"code", "eid", "language", "message"}
