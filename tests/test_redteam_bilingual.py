"""Red team, bilingual: conventions of our own wording published with two language versions in one
gazette file (PT then EN in a Boletim da República; ES then EN in the BOE with its page furniture
and a prevailing-language clause; PT then ES in the Diário da República with OCR damage "1O %" and
a running header between the Spanish articles). We wrote them, so we know what each says.

Findings covered here:
- dates of effect per State ("(a) in India, ... on or after 1 April 2024; (b) in Spain: (i) ... 1
  January 2024"): Spain's 1 January was the date of effect for every payment, so Indian royalties
  paid in February 2024 were answered at the treaty rate (wrong and confident); the State each
  item names now keeps its own date and the source State's date decides;
- "entrará em vigor no trigésimo dia após ... a última das notificações" was not read (missed);
- a rate that differs between versions is answered from the prevailing version only, and stays
  indeterminate when both texts are equally authentic;
- dates of effect that differ between versions: the last version read decided (PT 2021, ES 2022 and
  a 2021 payment "not covered"); now the prevailing text's dates, or, with none prevailing, the
  payments between the dates are indeterminate.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import taxtreaty
from taxtreaty.provisions.model import Provision, ProvisionSet

HERE = Path(__file__).resolve().parent / "fixtures" / "redteam" / "bilingual"
#: versions split correctly (es_en_alternating.txt is an open finding, below)
FIXTURES = sorted(p.name for p in HERE.glob("*.txt") if p.name != "es_en_alternating.txt")


@cache
def parsed(name: str) -> tuple[taxtreaty.Document, ProvisionSet]:
    doc = taxtreaty.parse_file(str(HERE / name))
    return doc, taxtreaty.provisions(doc)


def at(name: str, language: str, eid: str, kind: str) -> list[Provision]:
    return [p for p in parsed(name)[1].provisions
            if p.cite.language == language and p.cite.eid == eid and p.kind == kind]


def one(name: str, language: str, eid: str, kind: str) -> Provision:
    found = at(name, language, eid, kind)
    assert len(found) == 1, [p.id for p in found]
    return found[0]


def decide(name: str, **scenario: Any) -> dict[str, Any]:
    return taxtreaty.decide(parsed(name), scenario).to_dict()


# -- every fixture: two versions, quotes that are the original's words ---------------------------

@pytest.mark.parametrize("name", FIXTURES)
def test_every_provision_quotes_the_original_at_its_span(name: str) -> None:
    doc, provision_set = parsed(name)
    assert len([v for v in doc.versions if v.supported]) == 2
    assert provision_set.provisions
    for p in provision_set.provisions:
        assert p.cite.quote == doc.original[p.cite.span[0] : p.cite.span[1]], p.id


@pytest.mark.parametrize(("name", "languages", "prevailing"), [
    ("pt_en_mz_in.txt", ["pt", "en"], "en"),
    ("es_en_boe_india.txt", ["es", "en"], "en"),
    ("pt_es_ocr.txt", ["pt", "es"], None),
    ("pt_es_dates_differ.txt", ["pt", "es"], None),
    ("es_en_dates_differ.txt", ["es", "en"], "en"),
    ("es_en_prevail_over.txt", ["es", "en"], "en"),
    ("pt_en_fara_fe.txt", ["pt", "en"], "en"),
])
def test_versions_and_prevailing_language(name: str, languages: list[str], prevailing: str | None) -> None:
    doc, _ = parsed(name)
    assert [v.language for v in doc.versions if v.supported] == languages
    assert doc.prevailing_language == prevailing
    for version in doc.versions:
        assert [a.number for a in version.articles][:2] in (["10", "11"], ["11", "12"])


# -- divergent rates -------------------------------------------------------------------------------

def test_interest_rate_differs_and_the_english_text_prevails() -> None:
    name = "pt_en_mz_in.txt"
    assert one(name, "pt", "art_11__para_2", "withholding_cap").rate_pct == Decimal("12")
    assert one(name, "en", "art_11__para_2", "withholding_cap").rate_pct == Decimal("10")
    divergence = [d for d in parsed(name)[1].divergences if d.eid == "art_11__para_2"]
    assert [(d.what, d.prevailing_language) for d in divergence] == [("rate", "en")]
    result = decide(name, income="interest", source="MZ", residence="IN", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("10")
    assert {t["language"] for t in result["trace"] if t["eid"] == "art_11__para_2"} == {"en"}


def test_royalty_rate_differs_in_the_boe_and_the_english_text_prevails() -> None:
    name = "es_en_boe_india.txt"
    assert one(name, "es", "art_12__para_2", "withholding_cap").rate_pct == Decimal("10")
    assert one(name, "en", "art_12__para_2", "withholding_cap").rate_pct == Decimal("20")
    result = decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")


def test_equally_authentic_versions_that_differ_leave_the_rate_open() -> None:
    """PT: "b) 15 % ... nos restantes casos"; ES: "b) 10 por ciento ... en todos los demás casos";
    no text prevails, so neither rate may be answered."""
    name = "pt_es_ocr.txt"
    assert one(name, "pt", "art_10__para_2__point_b", "withholding_cap").rate_pct == Decimal("15")
    assert one(name, "es", "art_10__para_2__point_b", "withholding_cap").rate_pct == Decimal("10")
    # "1O %": the OCR'd Portuguese rate is not read as a number
    assert one(name, "pt", "art_10__para_2__point_a", "withholding_cap").status == "unknown"
    result = decide(name, income="dividends", source="PT", residence="PE", beneficial_owner=True,
                    recipient="individual", date="2022-05-01")
    assert result["status"] == "indeterminate"
    assert result["max_rate_pct"] is None


def test_equal_rates_in_both_versions_are_determined() -> None:
    result = decide("pt_es_ocr.txt", income="interest", source="PE", residence="PT", beneficial_owner=True,
                    date="2022-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("15")


# -- entry into force, effect per State, termination -------------------------------------------------

@pytest.mark.parametrize("language", ["pt", "en"])
def test_thirtieth_day_after_the_last_notification(language: str) -> None:
    """"no trigésimo dia após a data da última das notificações" / "on the thirtieth day after"."""
    p = one("pt_en_mz_in.txt", language, "art_28__para_2", "date")
    assert p.values == {"event": "entry_into_force", "days_after": 30, "after": "last_notification"}


@pytest.mark.parametrize("language", ["es", "en"])
def test_each_state_keeps_its_own_date_of_effect(language: str) -> None:
    name = "es_en_boe_india.txt"
    india = one(name, language, "art_29__para_2__point_a", "date")
    assert (india.state, india.values["effect_from"]) == ("IN", "2024-04-01")
    for eid in ("art_29__para_2__point_b__point_i", "art_29__para_2__point_b__point_ii"):
        spain = one(name, language, eid, "date")
        assert (spain.state, spain.values["effect_from"]) == ("ES", "2024-01-01")


def test_indian_royalties_before_1_april_are_not_covered() -> None:
    """In India the convention has effect from 1 April 2024 only; Spain's 1 January is not India's."""
    name = "es_en_boe_india.txt"
    february = decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                      date="2024-02-15")
    assert february["status"] == "not_covered"
    assert february["max_rate_pct"] is None
    april = decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                   date="2024-04-15")
    assert april["status"] == "determined"
    assert Decimal(str(april["max_rate_pct"])) == Decimal("20")


def test_spanish_royalties_from_january_are_covered_and_not_before() -> None:
    name = "es_en_boe_india.txt"
    january = decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                     date="2024-02-15")
    assert january["status"] == "determined"
    december = decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                      date="2023-12-01")
    assert december["status"] == "not_covered"


def test_effect_item_naming_one_state_is_that_states() -> None:
    """"a) em Moçambique, ... 1 de Janeiro do ano civil seguinte": Mozambique's, not India's (whose
    "1 de Abril" item is relative to entry into force and not read as a date)."""
    for language in ("pt", "en"):
        p = one("pt_en_mz_in.txt", language, "art_28__para_2__point_a", "date")
        assert p.state == "MZ"
        assert p.values["from"] == "january_1_of_year_after_entry_into_force"
        assert at("pt_en_mz_in.txt", language, "art_28__para_2__point_b", "date") == []


def test_single_date_of_effect_without_states() -> None:
    for language in ("pt", "es"):
        p = one("pt_es_ocr.txt", language, "art_29__para_2", "date")
        assert p.state is None
        assert p.values["effect_from"] == "2021-01-01"
    before = decide("pt_es_ocr.txt", income="interest", source="PT", residence="PE", beneficial_owner=True,
                    date="2020-12-01")
    assert before["status"] == "not_covered"


@pytest.mark.parametrize("language", ["es", "en"])
def test_termination_notice_and_effect(language: str) -> None:
    dates = [p.values for p in at("es_en_boe_india.txt", language, "art_30__para_nn_1", "date")]
    assert {"event": "termination_notice", "months_before_year_end": 6} in dates
    assert {"event": "termination_effect", "from": "january_1_of_year_after_notice"} in dates


# -- dates of effect that differ between versions ----------------------------------------------------

def test_equally_authentic_dates_of_effect_that_differ_leave_the_payments_between_open() -> None:
    """PT "a partir de 1 de Janeiro de 2021", ES "a partir del 1 de enero de 2022", no text prevails:
    the later date used to decide every payment of 2021 as not covered."""
    name = "pt_es_dates_differ.txt"
    assert [d.what for d in parsed(name)[1].divergences if d.eid == "art_29__para_2"] == ["date"]
    facts = {"income": "interest", "source": "PT", "residence": "PE", "beneficial_owner": True}
    assert decide(name, **facts, date="2020-06-01")["status"] == "not_covered"
    between = decide(name, **facts, date="2021-06-01")
    assert between["status"] == "indeterminate"
    assert between["max_rate_pct"] is None
    after = decide(name, **facts, date="2022-06-01")
    assert after["status"] == "determined"
    assert Decimal(str(after["max_rate_pct"])) == Decimal("15")


def test_the_prevailing_text_gives_the_date_of_effect() -> None:
    """ES "a partir del 1 de abril de 2025" for India, EN "1 April 2024"; the English text prevails."""
    name = "es_en_dates_differ.txt"
    assert one(name, "es", "art_29__para_2__point_a", "date").values["effect_from"] == "2025-04-01"
    result = decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")
    assert decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                  date="2024-03-01")["status"] == "not_covered"


# -- open findings ---------------------------------------------------------------------------------

@pytest.mark.xfail(strict=True, reason="'(b) in India, ... on or after the first day of April of the calendar year next "
                   "following' is not read (only 1 January is a relative date of effect); India's payments fall "
                   "back to the stated assumption that the convention is in force, not to Mozambique's date")
def test_open_relative_first_of_april_for_india() -> None:
    p = one("pt_en_mz_in.txt", "en", "art_28__para_2__point_b", "date")
    assert p.state == "IN"
    assert p.values["from"] == "april_1_of_year_after_entry_into_force"


def test_india_without_a_read_date_does_not_borrow_mozambiques() -> None:
    result = decide("pt_en_mz_in.txt", income="royalties", source="IN", residence="MZ", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert any(a["fact"] == "in_force" for a in result["assumptions"])


@pytest.mark.xfail(strict=True, reason="ES and EN articles alternating (Artículo 10, Article 10, Artículo 11, "
                   "Article 11): the Spanish 'Artículo 11 Intereses' is taken into the English version and the "
                   "Spanish version stops at article 10 (structure: version splitting); interest is indeterminate, "
                   "never wrong, but the English 10% is not answered")
def test_open_alternating_articles_split_by_language() -> None:
    doc, _ = parsed("es_en_alternating.txt")
    assert [(v.language, [a.number for a in v.articles]) for v in doc.versions if v.supported] == \
        [("es", ["10", "11"]), ("en", ["10", "11"])]


def test_alternating_articles_are_never_answered_from_the_wrong_language() -> None:
    result = decide("es_en_alternating.txt", income="interest", source="AR", residence="GB", beneficial_owner=True,
                    date="2024-05-01")
    assert result["max_rate_pct"] is None or Decimal(str(result["max_rate_pct"])) == Decimal("10")
    assert result["status"] != "determined" or Decimal(str(result["max_rate_pct"])) == Decimal("10")


def test_the_text_that_prevails_over_another_is_the_one_that_prevails() -> None:
    """"the English text shall prevail over the Spanish text" named Spanish (the language nearest
    after the verb) as prevailing, and the Spanish 10% royalty was answered against the English 20%."""
    result = decide("es_en_prevail_over.txt", income="royalties", source="ES", residence="IN", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")


def test_fara_fe_o_texto_ingles_names_the_prevailing_text() -> None:
    """"fará fé o texto em língua inglesa" / "the English text shall be authoritative": no prevailing
    text was found, so the interest rate (PT 12%, EN 10%) stayed open where the text settles it."""
    result = decide("pt_en_fara_fe.txt", income="interest", source="MZ", residence="IN", beneficial_owner=True,
                    date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("10")
