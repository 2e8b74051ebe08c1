"""Structure of the red-team texts (outline, parties, headings, gazette furniture) in English,
Portuguese, Spanish and bilingual gazettes."""

from __future__ import annotations

import pytest
from helpers import BILINGUAL, EN, ES, PT

import taxtreaty

UK = "uk_style_kenya.txt"


AU = "au_style_gazette.txt"


MU = "un_mauritius_ocr.txt"


OCR = "ocr_argentina_uruguay.txt"


def test_uk_outline_and_parties():
    d = EN.doc(UK)
    assert sorted(d.parties) == ["GB", "KE"]
    assert [a.eid for a in d.version("en").articles] == [
        "art_1", "art_10", "art_11", "art_12", "art_13", "art_19", "art_20"]
    assert d.version("en").article("10").topic == "dividends"


def test_mu_mauritius_is_a_known_state():
    # bug: Mauritius (and Sri Lanka, Tanzania, Botswana, ...) were not in countries.yaml: the
    # parties of a Mauritius treaty were read as Singapore alone
    assert sorted(EN.doc(MU).parties) == ["MU", "SG"]


def test_au_single_gazette_footer_is_furniture():
    # fixed (structure2): furniture.yaml gazette_issue_line
    assert "Gazette" not in EN.doc(AU).version("en").article("11").paragraph("3").text


def test_upper_case_divisions_holding_numbered_paragraphs():
    # fixed (structure2): "A. In the case of the Netherlands:" opens a division holding items 1 and 2
    name = "divisions_nl_gr.txt"
    relief = {p.state: p.values.get("method") for p in EN.provisions(name).provisions if p.kind == "relief_method"}
    assert relief == {"NL": "exemption_with_progression", "GR": "credit"}
    assert not [w for w in EN.doc(name).warnings if w.code == "list_items_missing"]


def test_lower_case_heading_after_the_article_number_is_the_heading():
    # known weak spot "Article 18 pensions": the lower-case title is the heading, not a cross-reference
    article = EN.doc("divisions_nl_gr.txt").version("en").article("18")
    assert (article.heading, article.topic) == ("pensions", "pensions")
    (p,) = EN.at("divisions_nl_gr.txt", "art_18__para_1", "allocation")
    assert p.allocation == "residence_only"


@pytest.mark.parametrize(("name", "parties"), [
    ("br_dou_ar.txt", ["BR", "AR"]), ("pt_dr_cl.txt", ["PT", "CL"]), ("mz_br_ocr.txt", ["MZ", "ES"]),
    ("ao_tl_mojibake.txt", ["TL", "AO"]), ("br_dou_antigo.txt", ["BR", "NL"]),
    ("pt_dr_protocolo.txt", ["PT", "CV"]),
])
def test_parties_are_read_from_the_title(name: str, parties: list[str]) -> None:
    assert PT.parsed(name)[0].parties == parties


def test_argentine_gazette_header_is_furniture() -> None:
    # fixed (es-struct, relaid): furniture.yaml knows the Boletín Oficial title and running line; 'dividen-/dos' is joined across it
    doc, _ = ES.parsed(OCR)
    point = doc.version("es").article("10").paragraph("2").points[1]
    assert "BOLETIN" not in point.text and "dividendos en los demás casos" in point.text


def test_alternating_articles_split_by_language() -> None:
    # fixed (es-struct): a block in one language that goes on an earlier version's numbering joins it
    doc, _ = BILINGUAL.parsed("es_en_alternating.txt")
    assert [(v.language, [a.number for a in v.articles]) for v in doc.versions if v.supported] == \
        [("es", ["10", "11"]), ("en", ["10", "11"])]


def test_a_state_named_by_its_former_style_is_a_party():
    # NL-HU (1986): "the Government of the Hungarian People's Republic" was no State, parties [NL] only
    doc = taxtreaty.parse(
        "Convention between the Government of the Kingdom of the Netherlands and the Government of the Hungarian "
        "People's Republic for the Avoidance of Double Taxation\n\nArticle 1\nPersonal scope\n\n"
        "This Convention shall apply to persons who are residents of one or both of the States.\n")
    assert sorted(doc.parties) == ["HU", "NL"]

