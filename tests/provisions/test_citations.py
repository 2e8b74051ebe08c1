"""Provisions: every quote is the original's words at its span (page furniture, hyphenation and headers
inside a clause included), and a paragraph stops at a swallowed article heading."""

from __future__ import annotations

from decimal import Decimal

import pytest
from helpers import BILINGUAL, BILINGUAL_SPLIT, EN, ES, PT, RULES, Redteam, extract_text, only

import taxtreaty

PT_FURNITURE = """CONVENÇÃO ENTRE A REPÚBLICA PORTUGUESA E O REINO DE ESPANHA

Artigo 10.º
Dividendos

1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.

2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:

a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha directa-

12 DE MARÇO DE 2003

4321

mente pelo menos 25 % do capital da sociedade que paga os dividendos;

b) 10 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha pelo menos 10 % do capital, salvo se a sociedade que paga os dividendos for uma sociedade de investimento imobiliá-

12 DE MARÇO DE 2003

4322

rio;

c) 15 % do montante bruto dos dividendos, nos restantes casos.
"""


MU = "un_mauritius_ocr.txt"


#: every red-team fixture (the bilingual ones whose versions split), by folder
REDTEAM_FILES = [(fixtures, name) for fixtures in (EN, PT, ES, RULES) for name in fixtures.files] + [
    (BILINGUAL, name) for name in BILINGUAL_SPLIT]


@pytest.mark.parametrize(("fixtures", "name"), REDTEAM_FILES,
                         ids=[f"{f.folder.name}/{n}" for f, n in REDTEAM_FILES])
def test_every_quote_is_the_original_at_its_span(fixtures: Redteam, name: str) -> None:
    doc, ps = fixtures.parsed(name)
    assert ps.provisions
    if fixtures is BILINGUAL:
        assert len([v for v in doc.versions if v.supported]) == 2
    for p in ps.provisions:
        assert p.cite.quote == doc.original[p.cite.span[0] : p.cite.span[1]], p.id


def test_mu_rate_split_by_a_page_header_and_hyphenated_income():
    (intr,) = EN.at(MU, "art_11__para_2", "withholding_cap")
    assert intr.rate_pct == Decimal("12")
    (roy,) = EN.at(MU, "art_12__para_2", "withholding_cap")
    assert roy.rate_pct == Decimal("8")
    decision = EN.decide(MU, income="interest", source="MU", residence="SG", beneficial_owner=True, recipient="company")
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "12")


def test_page_furniture_and_hyphenation_inside_a_condition():
    ps = extract_text(PT_FURNITURE)
    direct = only(ps, "art_10__para_2__point_a", "withholding_cap")
    assert direct.rate_pct == Decimal("5") and direct.conditions["min_capital_pct"] == Decimal("25")
    assert "unread_condition" not in direct.conditions  # "directa-" + page break + "mente" is one word
    assert "4321" in direct.cite.quote  # the quote is the original slice, furniture included
    reit = only(ps, "art_10__para_2__point_b", "withholding_cap")
    assert reit.conditions["unread_condition"] == (
        "salvo se a sociedade que paga os dividendos for uma sociedade de investimento imobiliário")
    assert "unread_condition" not in only(ps, "art_10__para_2__point_c", "withholding_cap").conditions


def test_a_swallowed_article_heading_stops_the_paragraph():
    """"Article Il" (OCR for 12, a number the parser cannot read) is not opened by the parser: the
    royalty rate must not become interest's. ("Article l2" is read as 12: tests/structure/test_gazette_layouts.py.)"""
    text = (
        "Article 11\nInterest\n\n1. Interest may be taxed in the other State.\n\n"
        "2. However, the tax so charged shall not exceed 12 per cent of the gross amount of the interest.\n\n"
        "3. Interest paid to the Government of the other State shall be exempt from tax.\n"
        "Article Il\nRoyalties\n"
        "1. However, the tax so charged shall not exceed ten per cent of the gross amount of the royalties.\n"
        "Article 7 or Article 14, as the case may be, shall apply.\n"
    )
    ps = taxtreaty.provisions(taxtreaty.parse(text))
    assert {(p.topic, p.rate_pct) for p in ps.provisions if p.kind == "withholding_cap"} == {("interest", Decimal("12"))}
    (cut,) = [w for w in ps.warnings if w["code"] == "swallowed_heading"]
    assert cut["eid"] == "art_11__para_3" and "Article Il" in cut["message"]
