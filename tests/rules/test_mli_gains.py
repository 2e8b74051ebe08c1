"""MLI article 9 over the capital gains article (versions/mli.py): gains from shares or comparable
interests deriving their value from immovable property, the 365-day look-back, before and after the
MLI's date of effect for other taxes (article 35(1)(b))."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app
from taxtreaty.rules import decide_compiled, load_treaty, scenario_from
from taxtreaty.rules.facts import fact_schema
from taxtreaty.rules.tables import tables
from taxtreaty.text.decode import InputError
from taxtreaty.versions import mli

# a capital gains article of the fictional States Norvalia (NO) and Estmark (EE): immovable property,
# shares of a land-rich company (no look-back of its own), everything else to the residence State
GAINS = (
    "CONVENTION BETWEEN NORVALIA AND ESTMARK\n\nArticle 13\nCapital gains\n\n"
    "1. Gains derived by a resident of a Contracting State from the alienation of immovable property situated in "
    "the other Contracting State may be taxed in that other State.\n\n"
    "2. Gains from the alienation of shares deriving more than 50 per cent of their value directly or indirectly "
    "from immovable property situated in a Contracting State may be taxed in that State.\n\n"
    "3. Gains from the alienation of any property other than that referred to in paragraphs 1 and 2 shall be "
    "taxable only in the Contracting State of which the alienator is a resident.\n"
)
OPTION_4 = """agreements:
  - parties: [NO, EE]
    status: known
    reference: "positions written for this test (fictional States)"
    articles: [7, 9]
    options: ["9(4)"]
    effect_withheld_at_source: {NO: 2021-01-01, EE: 2022-01-01}
    effect_other_taxes: {NO: 2021-07-01, EE: 2022-07-01}
"""
GAIN = {"income": "capital_gains", "source": "NO", "residence": "EE"}


def _treaty(tmp_path: Path, positions: str):
    text = tmp_path / "no_ee.txt"
    text.write_text(GAINS, encoding="utf-8")
    path = tmp_path / "mli.yaml"
    path.write_text(positions, encoding="utf-8")
    return mli.attach(load_treaty(str(text), ["NO", "EE"]), path), text, path


def _decide(treaty, **facts):
    return decide_compiled(treaty, scenario_from({**GAIN, **facts})).to_dict()


def test_after_its_date_shares_deriving_more_than_half_their_value_from_land_may_be_taxed_at_source(tmp_path: Path) -> None:
    treaty, _, _ = _treaty(tmp_path, OPTION_4)
    land_rich = {"gain_on_shares": True, "immovable_value_pct": 60}
    after = _decide(treaty, date="2021-08-01", **land_rich)
    assert (after["status"], after["source_taxation"], after["eid"]) == ("determined", "unlimited", "mli_art_9__para_4")
    cited = next(t for t in after["trace"] if t["eid"] == "mli_art_9__para_4")
    assert "365 days preceding the alienation" in cited["quote"] and cited["source"] == "MLI"
    assert after["version"]["mli"]["options"] == ["9(4)"] and after["version"]["mli"]["reference"].startswith("positions")
    # before: the convention as printed, whose paragraphs turn on the property alienated (asked, never assumed)
    before = _decide(treaty, date="2021-06-30", **land_rich)
    assert before["status"] == "indeterminate" and not any(t["eid"].startswith("mli") for t in before["trace"])
    assert "gain_property" in before["missing_facts"]
    # told it is shares, the convention's own paragraph 2 (more than 50 per cent, no look-back) decides
    own = _decide(treaty, date="2021-06-30", gain_property="shares", immovable_value_pct=60)
    assert (own["status"], own["source_taxation"], own["eid"]) == ("determined", "unlimited", "art_13__para_2")


def test_a_gain_is_decided_on_the_date_of_effect_for_other_taxes_not_the_withholding_one(tmp_path: Path) -> None:
    treaty, _, _ = _treaty(tmp_path, OPTION_4)
    # 1 March 2021: after NO's withholding date (1 January), before its date for other taxes (1 July)
    march = _decide(treaty, date="2021-03-01", gain_on_shares=True, immovable_value_pct=60)
    assert march["eid"] != "mli_art_9__para_4" and "2021-07-01" in " ".join(march["reasons"])
    # without the other-taxes date, the withholding date is the one there is
    withheld_only = OPTION_4.replace("    effect_other_taxes: {NO: 2021-07-01, EE: 2022-07-01}\n", "")
    treaty, _, _ = _treaty(tmp_path, withheld_only)
    assert _decide(treaty, date="2021-03-01", gain_on_shares=True, immovable_value_pct=60)["eid"] == "mli_art_9__para_4"


def test_the_look_back_facts_are_asked_never_assumed(tmp_path: Path) -> None:
    treaty, _, _ = _treaty(tmp_path, OPTION_4)
    unknown = _decide(treaty, date="2021-08-01")
    assert unknown["status"] == "indeterminate"
    assert {"gain_on_shares", "immovable_value_pct"} <= set(unknown["missing_facts"])
    assert any(c["eid"] == "mli_art_9__para_4" and c["source_taxation"] == "unlimited" for c in unknown["candidates"])
    schema = fact_schema()
    for key in ("gain_on_shares", "immovable_value_pct"):
        assert schema[key].question and schema[key].label and key not in tables().defaults
    # an undated gain the MLI decides: the answer depends on the date
    undated = _decide(treaty, gain_on_shares=True, immovable_value_pct=60)
    assert undated["status"] == "indeterminate" and undated["missing_facts"] == ["date"]


@pytest.mark.parametrize("facts", [{"gain_on_shares": True, "immovable_value_pct": 50},
                                   {"gain_on_shares": False, "immovable_value_pct": 90}])
def test_below_the_threshold_or_not_shares_the_mli_gives_no_answer_of_its_own(tmp_path: Path, facts) -> None:
    treaty, _, _ = _treaty(tmp_path, OPTION_4)
    decision = _decide(treaty, date="2021-08-01", **facts)
    # the convention's paragraphs decide, as printed: they turn on the property alienated, which is asked
    assert decision["status"] == "indeterminate" and decision["eid"] != "mli_art_9__para_4"
    assert "gain_property" in decision["missing_facts"]
    assert {c["eid"] for c in decision["candidates"]} <= {"art_13__para_1", "art_13__para_2", "art_13__para_3"}


def test_without_option_4_article_9_1_is_a_caveat_on_the_conventions_own_test(tmp_path: Path) -> None:
    treaty, _, _ = _treaty(tmp_path, OPTION_4.replace('    options: ["9(4)"]\n', ""))
    after = _decide(treaty, date="2021-08-01")
    lookback = [c for c in after["caveats"] if c["kind"] == "mli_immovable_lookback"]
    assert lookback and lookback[0]["eid"] == "mli_art_9__para_1" and lookback[0]["source"] == "mli"
    assert not any(c["eid"] == "mli_art_9__para_4" for c in after.get("candidates", []))
    before = _decide(treaty, date="2021-06-01")
    assert not any(c["kind"] == "mli_immovable_lookback" for c in before["caveats"])


def test_the_principal_purpose_test_does_not_settle_a_clash_of_paragraphs(tmp_path: Path) -> None:
    # article 7 only: the residence-only paragraph gets the PPT proviso; it is no exception to paragraph 1 for that
    treaty, _, _ = _treaty(tmp_path, OPTION_4.replace("articles: [7, 9]", "articles: [7]").replace('    options: ["9(4)"]\n', ""))
    decision = _decide(treaty, date="2021-08-01")
    assert decision["status"] == "indeterminate" and decision["missing_facts"][0] == "gain_property"
    # the property given, the residual paragraph applies with its proviso, not as an exception to paragraph 1
    other = _decide(treaty, date="2021-08-01", gain_property="other")
    assert (other["status"], other["source_taxation"], other["eid"]) == ("determined", "none", "art_13__para_3")


def test_ask_takes_the_gain_facts_as_options(tmp_path: Path) -> None:
    _, text, positions = _treaty(tmp_path, OPTION_4)
    result = CliRunner().invoke(app, ["ask", "--treaty", str(text), "--parties", "NO,EE", "--mli", str(positions),
                                      "--income", "capital_gains", "--source", "NO", "--residence", "EE",
                                      "--gain-on-shares", "--immovable-value-pct", "75", "--date", "2022-01-10", "--json"])
    assert result.exit_code == 0, result.output
    assert '"eid": "mli_art_9__para_4"' in result.output and '"status": "determined"' in result.output


@pytest.mark.parametrize(("change", "message"), [
    (('options: ["9(4)"]', 'options: ["9(5)"]'), "optional paragraphs"),
    (("articles: [7, 9]", "articles: [7]"), "not listed in articles"),
    (("EE: 2022-07-01", "PT: 2022-07-01"), "effect_other_taxes"),
])
def test_bad_options_are_refused_in_one_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    path = tmp_path / "mli.yaml"
    path.write_text(OPTION_4.replace(*change), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        mli.read_positions(path)
