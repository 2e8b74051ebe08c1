"""French from data alone: a synthetic French convention (tests/fixtures/structure/fr_convention.txt)
parses into its articles, paragraphs and points with their topics and eIds, its parties, signature
and prevailing language, from `data/languages/fr.yaml`, the French headings of `data/topics.yaml`
and the French names of `data/countries.yaml`."""

from __future__ import annotations

from pathlib import Path

import pytest

import taxtreaty
from taxtreaty.structure import Document

FIXTURE = Path(__file__).parent.parent / "fixtures" / "structure" / "fr_convention.txt"

ARTICLES = [
    ("1", "Personnes visées", "persons_covered"),
    ("2", "Impôts visés", "taxes_covered"),
    ("3", "Définitions générales", "general_definitions"),
    ("4", "Résident", "resident"),
    ("5", "Établissement stable", "permanent_establishment"),
    ("6", "Revenus immobiliers", "immovable_property"),
    ("7", "Bénéfices des entreprises", "business_profits"),
    ("8", "Navigation maritime et aérienne", "shipping_air_transport"),
    ("9", "Entreprises associées", "associated_enterprises"),
    ("10", "Dividendes", "dividends"),
    ("11", "Intérêts", "interest"),
    ("12", "Redevances", "royalties"),
    ("13", "Gains en capital", "capital_gains"),
    ("14", "Entrée en vigueur", "entry_into_force"),
    ("15", "Dénonciation", "termination"),
]


@pytest.fixture(scope="module")
def doc() -> Document:
    return taxtreaty.parse_file(FIXTURE)


def test_one_supported_french_version_without_warnings(doc: Document) -> None:
    assert [(v.language, v.supported) for v in doc.versions] == [("fr", True)]
    assert doc.versions[0].title is not None and doc.versions[0].title.startswith("CONVENTION ENTRE LA RÉPUBLIQUE FRANÇAISE")
    assert doc.warnings == []


def test_articles_headings_and_topics(doc: Document) -> None:
    got = [(a.number, a.heading, a.topic) for a in doc.versions[0].articles]
    assert got == ARTICLES
    assert [a.eid for a in doc.versions[0].articles] == [f"art_{n}" for n, _, _ in ARTICLES]


@pytest.mark.parametrize(
    ("eid", "starts"),
    [
        ("art_1__para_nn_1", "La présente Convention s'applique aux personnes"),
        ("art_2__para_2__point_b", "au Portugal : l'impôt sur le revenu"),
        ("art_10__para_1", "Les dividendes payés par une société"),
        ("art_10__para_2__point_a", "5 pour cent du montant brut des dividendes si le bénéficiaire effectif"),
        ("art_10__para_2__point_b", "15 pour cent du montant brut des dividendes, dans tous les autres cas."),
        ("art_11__para_2", "Toutefois, ces intérêts sont aussi imposables"),
        ("art_12__para_2", "Toutefois, ces redevances sont aussi imposables"),
        ("art_15__para_1", "La présente Convention demeurera en vigueur"),
    ],
)
def test_paragraphs_and_points_by_eid(doc: Document, eid: str, starts: str) -> None:
    node = doc.find(eid)
    assert node is not None and node.text.startswith(starts)


def test_dividend_paragraph_holds_its_two_points(doc: Document) -> None:
    article = doc.versions[0].article("10")
    assert article is not None
    assert [p.eid for p in article.paragraphs] == ["art_10__para_1", "art_10__para_2", "art_10__para_3"]
    para = article.paragraph("2")
    assert para is not None and [p.label for p in para.points] == ["a", "b"]
    assert para.intro is not None and para.intro.endswith("ne peut excéder :")


def test_parties_signature_and_prevailing_text(doc: Document) -> None:
    assert doc.parties == ["FR", "PT"]
    assert doc.signed is not None and (doc.signed.date, doc.signed.place) == ("2021-01-14", "Paris")
    assert doc.prevailing_language == "fr"


def test_the_testimonium_closes_the_articles(doc: Document) -> None:
    last = doc.versions[0].articles[-1]
    assert last.complete and "EN FOI DE QUOI" not in last.paragraphs[-1].text


# -- the caps, from data/provisions/fr.yaml alone --------------------------------------------------


@pytest.fixture(scope="module")
def caps(doc: Document) -> dict[str, list[tuple[str, object, dict[str, object]]]]:
    from taxtreaty.provisions.extract import extract_provisions

    out: dict[str, list[tuple[str, object, dict[str, object]]]] = {}
    for p in extract_provisions(doc).provisions:
        if p.kind == "withholding_cap":
            out.setdefault(p.topic, []).append((p.cite.eid, p.rate_pct, dict(p.conditions)))
    return out


def test_dividend_caps_five_and_fifteen_per_cent(caps: dict) -> None:
    (eid_a, rate_a, cond_a), (eid_b, rate_b, cond_b) = caps["dividends"]
    assert (eid_a, rate_a, eid_b, rate_b) == ("art_10__para_2__point_a", 5, "art_10__para_2__point_b", 15)
    assert cond_a["recipient"] == "company" and cond_a["min_capital_pct"] == 10 and cond_a["holding_direct"] is True
    assert "unread_condition" not in cond_a and cond_b.get("otherwise") is True


@pytest.mark.parametrize(("topic", "eid"), [("interest", "art_11__para_2"), ("royalties", "art_12__para_2")])
def test_interest_and_royalty_caps_ten_per_cent(caps: dict, topic: str, eid: str) -> None:
    assert [(e, r) for e, r, _ in caps[topic]] == [(eid, 10)]
