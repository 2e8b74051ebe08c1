"""Decisions on texts with two language versions: the prevailing text decides, equally authentic
texts that differ leave the answer open."""

from __future__ import annotations

from decimal import Decimal

from helpers import BILINGUAL


def test_interest_rate_differs_and_the_english_text_prevails() -> None:
    name = "pt_en_mz_in.txt"
    assert BILINGUAL.one_in(name, "pt", "art_11__para_2", "withholding_cap").rate_pct == Decimal("12")
    assert BILINGUAL.one_in(name, "en", "art_11__para_2", "withholding_cap").rate_pct == Decimal("10")
    divergence = [d for d in BILINGUAL.parsed(name)[1].divergences if d.eid == "art_11__para_2"]
    assert [(d.what, d.prevailing_language) for d in divergence] == [("rate", "en")]
    result = BILINGUAL.decide(name, income="interest", source="MZ", residence="IN", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("10")
    assert {t["language"] for t in result["trace"] if t["eid"] == "art_11__para_2"} == {"en"}


def test_royalty_rate_differs_in_the_boe_and_the_english_text_prevails() -> None:
    name = "es_en_boe_india.txt"
    assert BILINGUAL.one_in(name, "es", "art_12__para_2", "withholding_cap").rate_pct == Decimal("10")
    assert BILINGUAL.one_in(name, "en", "art_12__para_2", "withholding_cap").rate_pct == Decimal("20")
    result = BILINGUAL.decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")


def test_equally_authentic_versions_that_differ_leave_the_rate_open() -> None:
    """PT: "b) 15 % ... nos restantes casos"; ES: "b) 10 por ciento ... en todos los demás casos";
    no text prevails, so neither rate may be answered."""
    name = "pt_es_ocr.txt"
    assert BILINGUAL.one_in(name, "pt", "art_10__para_2__point_b", "withholding_cap").rate_pct == Decimal("15")
    assert BILINGUAL.one_in(name, "es", "art_10__para_2__point_b", "withholding_cap").rate_pct == Decimal("10")
    # "1O %": the OCR'd Portuguese rate is not read as a number
    assert BILINGUAL.one_in(name, "pt", "art_10__para_2__point_a", "withholding_cap").status == "unknown"
    result = BILINGUAL.decide(name, income="dividends", source="PT", residence="PE", beneficial_owner=True,
                              recipient="individual", date="2022-05-01")
    assert result["status"] == "indeterminate"
    assert result["max_rate_pct"] is None


def test_equal_rates_in_both_versions_are_determined() -> None:
    result = BILINGUAL.decide("pt_es_ocr.txt", income="interest", source="PE", residence="PT", beneficial_owner=True,
                              date="2022-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("15")


def test_alternating_articles_are_never_answered_from_the_wrong_language() -> None:
    result = BILINGUAL.decide("es_en_alternating.txt", income="interest", source="AR", residence="GB", beneficial_owner=True,
                              date="2024-05-01")
    assert result["max_rate_pct"] is None or Decimal(str(result["max_rate_pct"])) == Decimal("10")
    assert result["status"] != "determined" or Decimal(str(result["max_rate_pct"])) == Decimal("10")


def test_the_text_that_prevails_over_another_is_the_one_that_prevails() -> None:
    """"the English text shall prevail over the Spanish text" named Spanish (the language nearest
    after the verb) as prevailing, and the Spanish 10% royalty was answered against the English 20%."""
    result = BILINGUAL.decide("es_en_prevail_over.txt", income="royalties", source="ES", residence="IN", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")


def test_fara_fe_o_texto_ingles_names_the_prevailing_text() -> None:
    """"fará fé o texto em língua inglesa" / "the English text shall be authoritative": no prevailing
    text was found, so the interest rate (PT 12%, EN 10%) stayed open where the text settles it."""
    result = BILINGUAL.decide("pt_en_fara_fe.txt", income="interest", source="MZ", residence="IN", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("10")
