"""The real, complete conventions of the Dutch treaty collection and the OCR'd UN fragments.

Article counts and topics were checked by hand against the files' headings.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import CORPUS

import taxtreaty
from taxtreaty.structure.model import Document, iter_nodes

#: file -> (articles per version in order, languages)
EXPECTED = {
    "NL-BB_convention_EN.txt": ([33], ["en"]),
    "NL-CN_convention_EN.txt": ([30], ["en"]),
    "NL-DK_convention_EN.txt": ([34], ["en"]),
    "NL-EE_convention_EN.txt": ([34], ["en"]),
    "NL-ET_convention_EN.txt": ([29], ["en"]),
    "NL-GH_convention_EN.txt": ([32], ["en"]),
    "NL-GR_convention_EN.txt": ([32, 32], ["en", "nl"]),
    "NL-IN_convention_EN.txt": ([31, 31], ["en", "nl"]),
    "NL-IS_convention_EN.txt": ([32, 32], ["en", "nl"]),
    "NL-JP_convention_EN.txt": ([31], ["en"]),
    "NL-KR_convention_EN.txt": ([30, 30], ["en", "nl"]),
    "NL-LV_convention_EN.txt": ([34], ["en"]),
    "NL-PT_verdrag_NL.txt": ([34], ["nl"]),
    "NL-SE_convention_EN.txt": ([33], ["en"]),
    "NL-UG_convention_EN.txt": ([32], ["en"]),
    "NL-ZA_convention_EN.txt": ([32], ["en"]),
    "NL-ZM_convention_EN.txt": ([29, 29], ["en", "nl"]),
}

#: heading words -> topic, for the standard articles (English headings as printed in the corpus)
STANDARD = [
    ("persons covered", "persons_covered"), ("personal scope", "persons_covered"),
    ("taxes covered", "taxes_covered"), ("general definitions", "general_definitions"),
    ("resident", "resident"), ("fiscal domicile", "resident"),
    ("permanent establishment", "permanent_establishment"),
    ("income from immovable property", "immovable_property"), ("business profits", "business_profits"),
    ("shipping", "shipping_air_transport"), ("air transport", "shipping_air_transport"),
    ("associated enterprises", "associated_enterprises"), ("dividends", "dividends"),
    ("interest", "interest"), ("royalties", "royalties"), ("capital gains", "capital_gains"),
    ("independent personal services", "independent_services"),
    ("dependent personal services", "employment"), ("dependant personal services", "employment"),
    ("income from employment", "employment"), ("directors", "directors_fees"),
    ("artistes", "entertainers_sportspersons"), ("entertainers", "entertainers_sportspersons"),
    ("pensions", "pensions"), ("government", "government_service"),
    ("students", "students"), ("professors", "professors_researchers"),
    ("offshore activities", "offshore_activities"), ("continental shelf", "offshore_activities"),
    ("other income", "other_income"), ("income not expressly mentioned", "other_income"),
    ("capital", "capital"), ("elimination of double taxation", "elimination_double_taxation"),
    ("non-discrimination", "non_discrimination"), ("mutual agreement", "mutual_agreement"),
    ("exchange of information", "exchange_of_information"),
    ("assistance in", "assistance_in_collection"), ("diplomatic", "diplomatic_missions"),
    ("territorial extension", "territorial_extension"), ("entry into force", "entry_into_force"),
    ("termination", "termination"), ("limitation on benefits", "entitlement_to_benefits"),
    ("miscellaneous", "entitlement_to_benefits"),
]


@cache
def _doc(name: str) -> Document:
    return taxtreaty.parse_file(str(CORPUS / "nl" / name))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_article_in_order_protocols_apart_no_duplicate_eids(name: str) -> None:
    if not (CORPUS / "nl" / name).exists():
        pytest.skip("corpus not available")
    doc = _doc(name)
    counts, languages = EXPECTED[name]
    assert [v.language for v in doc.versions] == languages
    for version, count in zip(doc.versions, counts, strict=True):
        numbers = [a.number for a in version.articles]
        # NL-IN has an article 8A, inserted by a later protocol
        expected = [str(n) for n in range(1, count + 1)] if "8a" not in numbers else (
            [str(n) for n in range(1, 9)] + ["8a"] + [str(n) for n in range(9, count)]
        )
        assert numbers == expected
        assert len(version.protocols) == 1
        assert version.protocols[0].eid == "protocol_1"
        # the protocol's text is not inside the last article
        last = version.articles[-1]
        assert last.span[1] <= version.protocols[0].span[0]
        assert "At the moment of signing" not in last.text
        assert "Bij de ondertekening" not in last.text
        eids = [n.eid for n in iter_nodes(version)]
        duplicates = {e for e in eids if eids.count(e) > 1}
        assert not duplicates


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "en" in EXPECTED[n][1]))
def test_topics_of_the_standard_articles(name: str) -> None:
    if not (CORPUS / "nl" / name).exists():
        pytest.skip("corpus not available")
    en = _doc(name).version("en")
    checked = 0
    for article in en.articles:
        heading = (article.heading or "").casefold()
        expected = next((topic for words, topic in STANDARD if heading.startswith(words)), None)
        if expected is None:
            continue
        if heading.startswith("capital gains"):
            expected = "capital_gains"
        assert article.topic == expected, (article.eid, article.heading)
        checked += 1
    assert checked >= 25
    # the five articles of every convention that users look up most
    for topic in ("dividends", "interest", "royalties", "elimination_double_taxation", "resident"):
        assert len(en.by_topic(topic)) == 1, topic


def test_nonstandard_headings_get_the_topic_their_body_shows() -> None:
    topics = {
        ("NL-GR_convention_EN.txt", "13"): "entitlement_to_benefits",  # Limitation of Articles 10, 11 and 12
        ("NL-KR_convention_EN.txt", "13"): "entitlement_to_benefits",
        ("NL-DK_convention_EN.txt", "29"): "exchange_of_information",  # Limitation of Articles 27 and 28
        ("NL-EE_convention_EN.txt", "30"): "exchange_of_information",
        ("NL-GH_convention_EN.txt", "23"): "entitlement_to_benefits",  # Remittances
        ("NL-JP_convention_EN.txt", "29"): "entitlement_to_benefits",  # Headings
        ("NL-BB_convention_EN.txt", "22"): "entitlement_to_benefits",  # Charitable contributions
        ("NL-IN_convention_EN.txt", "29"): "entry_into_force",  # no heading: read from the body
    }
    for (name, number), topic in topics.items():
        assert _doc(name).version("en").article(number).topic == topic, (name, number)


def test_dutch_version_is_recognised_and_gets_topics_from_its_titles_only() -> None:
    """Dutch is read for structure only: no provisions, but its article titles name their topics
    from the Dutch words of data/topics.yaml ("Dividenden", "Uitbreiding tot andere gebieden")."""
    doc = _doc("NL-PT_verdrag_NL.txt")
    nl = doc.version("nl")
    assert nl.supported is False
    assert nl.article("10").topic == "dividends"
    assert nl.article("32").topic == "territorial_extension"
    assert any(w.code == "unsupported_language" and w.language == "nl" for w in doc.warnings)
    assert not any(w.code == "topic_unknown" for w in doc.warnings)
    gr = _doc("NL-GR_convention_EN.txt")
    assert gr.version("en").article("10").topic == "dividends"
    assert gr.version("nl").article("10").topic == "dividends"


def test_metadata_from_the_signature_blocks() -> None:
    facts = {
        "NL-CN_convention_EN.txt": (["NL", "CN"], "2013-05-31", "Beijing"),
        "NL-DK_convention_EN.txt": (["NL", "DK"], "1996-07-01", "Copenhagen"),  # "this first day of July 1996"
        "NL-GR_convention_EN.txt": (["NL", "GR"], "1981-07-16", "Athens"),
        "NL-JP_convention_EN.txt": (["NL", "JP"], "2010-08-25", "Tokyo"),
    }
    for name, (parties, date, place) in facts.items():
        doc = _doc(name)
        assert doc.parties == parties
        assert (doc.signed.date, doc.signed.place) == (date, place)


def test_nested_double_letter_points_and_bare_paragraph_numbers() -> None:
    art21 = _doc("NL-JP_convention_EN.txt").version("en").article("21")
    assert [p.number for p in art21.paragraphs] == [str(n) for n in range(1, 9)]
    d_i = art21.paragraph("2").points[3].points[0]
    assert d_i.eid == "art_21__para_2__point_d__point_i"
    assert [p.eid for p in d_i.points] == [
        "art_21__para_2__point_d__point_i__point_aa", "art_21__para_2__point_d__point_i__point_bb",
    ]
    # "5." alone on its line, then its points
    para5 = art21.paragraph("5")
    assert para5.intro is None and [p.label for p in para5.points] == ["a", "b", "c"]
    # "i)" after "h) ...;" is the letter i, not a roman list nested under h)
    art3 = _doc("NL-JP_convention_EN.txt").version("en").article("3")
    labels = [p.label for p in art3.paragraph("1").points]
    assert labels[:13] == list("abcdefghijklm")


@pytest.mark.parametrize("name", ["CN-KR_1994_art10.en.txt", "CN-KR_1994_art11-12.en.txt"])
def test_un_fragments(name: str) -> None:
    path = CORPUS / "fragments" / name
    if not path.exists():
        pytest.skip("corpus not available")
    doc = taxtreaty.parse_file(str(path))
    en = doc.version("en")
    expected = {"CN-KR_1994_art10.en.txt": ["10"], "CN-KR_1994_art11-12.en.txt": ["11", "12"]}[name]
    assert [a.number for a in en.articles] == expected
    assert [a.topic for a in en.articles] == [{"10": "dividends", "11": "interest", "12": "royalties"}[n] for n in expected]
    assert all("Treaty Series" not in p.text and "Recueil" not in p.text for a in en.articles for p in a.paragraphs)
