"""Decisions by date: the date of effect of each State, and payments before it."""

from __future__ import annotations

from decimal import Decimal

from helpers import BILINGUAL


def test_indian_royalties_before_1_april_are_not_covered() -> None:
    """In India the convention has effect from 1 April 2024 only; Spain's 1 January is not India's."""
    name = "es_en_boe_india.txt"
    february = BILINGUAL.decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                                date="2024-02-15")
    assert february["status"] == "not_covered"
    assert february["max_rate_pct"] is None
    april = BILINGUAL.decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                             date="2024-04-15")
    assert april["status"] == "determined"
    assert Decimal(str(april["max_rate_pct"])) == Decimal("20")


def test_spanish_royalties_from_january_are_covered_and_not_before() -> None:
    name = "es_en_boe_india.txt"
    january = BILINGUAL.decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                               date="2024-02-15")
    assert january["status"] == "determined"
    december = BILINGUAL.decide(name, income="royalties", source="ES", residence="IN", beneficial_owner=True,
                                date="2023-12-01")
    assert december["status"] == "not_covered"


def test_single_date_of_effect_without_states() -> None:
    for language in ("pt", "es"):
        p = BILINGUAL.one_in("pt_es_ocr.txt", language, "art_29__para_2", "date")
        assert p.state is None
        assert p.values["effect_from"] == "2021-01-01"
    before = BILINGUAL.decide("pt_es_ocr.txt", income="interest", source="PT", residence="PE", beneficial_owner=True,
                              date="2020-12-01")
    assert before["status"] == "not_covered"


def test_equally_authentic_dates_of_effect_that_differ_leave_the_payments_between_open() -> None:
    """PT "a partir de 1 de Janeiro de 2021", ES "a partir del 1 de enero de 2022", no text prevails:
    the later date used to decide every payment of 2021 as not covered."""
    name = "pt_es_dates_differ.txt"
    assert [d.what for d in BILINGUAL.parsed(name)[1].divergences if d.eid == "art_29__para_2"] == ["date"]
    facts = {"income": "interest", "source": "PT", "residence": "PE", "beneficial_owner": True}
    assert BILINGUAL.decide(name, **facts, date="2020-06-01")["status"] == "not_covered"
    between = BILINGUAL.decide(name, **facts, date="2021-06-01")
    assert between["status"] == "indeterminate"
    assert between["max_rate_pct"] is None
    after = BILINGUAL.decide(name, **facts, date="2022-06-01")
    assert after["status"] == "determined"
    assert Decimal(str(after["max_rate_pct"])) == Decimal("15")


def test_the_prevailing_text_gives_the_date_of_effect() -> None:
    """ES "a partir del 1 de abril de 2025" for India, EN "1 April 2024"; the English text prevails."""
    name = "es_en_dates_differ.txt"
    assert BILINGUAL.one_in(name, "es", "art_29__para_2__point_a", "date").values["effect_from"] == "2025-04-01"
    result = BILINGUAL.decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert Decimal(str(result["max_rate_pct"])) == Decimal("20")
    assert BILINGUAL.decide(name, income="royalties", source="IN", residence="ES", beneficial_owner=True,
                            date="2024-03-01")["status"] == "not_covered"


def test_india_without_a_read_date_does_not_borrow_mozambiques() -> None:
    result = BILINGUAL.decide("pt_en_mz_in.txt", income="royalties", source="IN", residence="MZ", beneficial_owner=True,
                              date="2024-05-01")
    assert result["status"] == "determined"
    assert any(a["fact"] == "in_force" for a in result["assumptions"])


def test_a_payment_before_the_first_day_of_the_second_month_after_entry_into_force_is_not_covered(tmp_path) -> None:
    """A Ghana–Chile convention of our own whose taxes withheld at source have effect "on or after the first
    day of the second month next following the date on which the Convention enters into force": entry into
    force on 20 December 2014 (given), effect from 1 February 2015; a payment of 15 January is not covered."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from taxtreaty.interfaces.cli import app

    base = (Path(__file__).parent.parent / "fixtures" / "time" / "en_base.txt").read_text(encoding="utf-8")
    old = "on or after the first day of January of the calendar year next following that in which the Convention enters into force"
    assert old in base
    path = tmp_path / "gh_cl_months.txt"
    path.write_text(base.replace(old, "on or after the first day of the second month next following the date on which "
                                      "the Convention enters into force"), encoding="utf-8")
    asked = ["ask", "--treaty", str(path), "--income", "royalties", "--source", "GH", "--residence", "CL",
             "--beneficial-owner", "--recipient", "company", "--in-force", "2014-12-20", "--json"]
    january = json.loads(CliRunner().invoke(app, [*asked, "--date", "2015-01-15"]).output)
    february = json.loads(CliRunner().invoke(app, [*asked, "--date", "2015-02-01"]).output)
    assert january["status"] == "not_covered" and "2015-02-01" in january["reasons"][0]
    assert (february["status"], february["max_rate_pct"]) == ("determined", "10")


def test_uk_payments_before_6th_april_next_following_the_entry_into_force_are_not_covered(tmp_path) -> None:
    """A Ghana–United Kingdom convention of our own: in Ghana, from 1 January after the entry into force; in the
    United Kingdom, for years of assessment from "6th April next following the date on which this Convention
    enters into force" (entry into force given: 20 December 2014, so 6 April 2015)."""
    import json
    from pathlib import Path

    from typer.testing import CliRunner

    from taxtreaty.interfaces.cli import app

    base = (Path(__file__).parent.parent / "fixtures" / "time" / "en_base.txt").read_text(encoding="utf-8")
    old = ("2. The provisions of this Convention shall have effect in both Contracting States in respect of taxes withheld at "
           "source on amounts paid or credited on or after the first day of January of the calendar year next following "
           "that in which the Convention enters into force.")
    assert old in base
    text = base.replace("THE REPUBLIC OF CHILE", "THE UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND").replace(
        "the Republic of Chile", "the United Kingdom of Great Britain and Northern Ireland").replace(old, (
            "2. The provisions of this Convention shall have effect:\n"
            "(a) in Ghana: in respect of taxes withheld at source, for amounts paid or credited on or after the first day of "
            "January of the calendar year next following that in which the Convention enters into force;\n"
            "(b) in the United Kingdom: in respect of income tax and capital gains tax, for any year of assessment beginning "
            "on or after 6th April next following the date on which this Convention enters into force."))
    path = tmp_path / "gh_gb.txt"
    path.write_text(text, encoding="utf-8")

    def ask(source: str, residence: str, date: str) -> dict:
        run = CliRunner().invoke(app, ["ask", "--treaty", str(path), "--income", "royalties", "--source", source,
                                       "--residence", residence, "--beneficial-owner", "--recipient", "company",
                                       "--in-force", "2014-12-20", "--date", date, "--json"])
        return json.loads(run.output)

    assert ask("GB", "GH", "2015-03-01")["status"] == "not_covered"
    assert (ask("GB", "GH", "2015-04-07")["status"], ask("GB", "GH", "2015-04-07")["max_rate_pct"]) == ("determined", "10")
    assert ask("GH", "GB", "2015-03-01")["status"] == "determined"
