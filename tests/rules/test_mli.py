"""The Multilateral Instrument over a covered tax agreement (versions/mli.py): positions as data,
articles 7 (principal purpose test) and 8 (365-day holding) from the MLI's date of effect."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import NORVALIA_ESTMARK_DIVIDENDS
from typer.testing import CliRunner

import taxtreaty
from taxtreaty.interfaces.cli import app
from taxtreaty.rules import decide_compiled, load_treaty, scenario_from
from taxtreaty.text.decode import InputError
from taxtreaty.versions import mli

# a convention of the fictional States Norvalia (NO) and Estmark (EE), with a reduced dividend rate for a
# company's holding and no holding period of its own
DIVIDENDS = NORVALIA_ESTMARK_DIVIDENDS
POSITIONS = """agreements:
  - parties: [NO, EE]
    status: known
    reference: "positions written for this test (fictional States)"
    articles: [6, 7, 8]
    effect_withheld_at_source: {NO: 2021-01-01, EE: 2022-01-01}
"""
COMPANY = {"income": "dividends", "source": "NO", "residence": "EE", "beneficial_owner": True,
           "recipient": "company", "capital_pct": 30}


@pytest.fixture
def covered(tmp_path: Path):
    text = tmp_path / "no_ee.txt"
    text.write_text(DIVIDENDS, encoding="utf-8")
    positions = tmp_path / "mli.yaml"
    positions.write_text(POSITIONS, encoding="utf-8")
    return mli.attach(load_treaty(str(text), ["NO", "EE"]), positions), text, positions


def _decide(treaty, **facts):
    return decide_compiled(treaty, scenario_from({**COMPANY, **facts})).to_dict()


def test_before_its_date_of_effect_the_convention_is_decided_as_printed(covered) -> None:
    treaty, _, _ = covered
    decision = _decide(treaty, date="2020-12-31", held_months=2)
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "5")
    assert not [c for c in decision["caveats"] if c["eid"].startswith("mli")]
    assert decision["version"]["mli"]["status"] == "known"


def test_from_its_date_the_principal_purpose_test_is_a_caveat_and_main_purpose_withdraws_every_benefit(covered) -> None:
    treaty, _, _ = covered
    decision = _decide(treaty, date="2021-06-01", held_days=400)
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "5")
    assert {"main_purpose", "mli_holding_period"} <= {c["kind"] for c in decision["caveats"]}
    assert any(c["eid"] == "mli_art_7__para_1" and "principal purposes" in c["quote"] for c in decision["caveats"])
    denied = _decide(treaty, date="2021-06-01", held_days=400, main_purpose=True)
    assert (denied["status"], denied["source_taxation"], denied["max_rate_pct"]) == ("determined", "unlimited", None)


def test_from_its_date_article_8_asks_for_365_days_of_holding(covered) -> None:
    treaty, _, _ = covered
    short = _decide(treaty, date="2021-06-01", held_months=6)
    assert (short["status"], short["max_rate_pct"]) == ("determined", "15")
    unknown = _decide(treaty, date="2021-06-01")
    assert unknown["status"] == "indeterminate" and "held_days" in unknown["missing_facts"]
    # the date of effect is the source State's: EE's own withholding is touched only from 2022
    reverse = decide_compiled(treaty, scenario_from({**COMPANY, "source": "EE", "residence": "NO",
                                                     "date": "2021-06-01", "held_months": 6})).to_dict()
    assert reverse["max_rate_pct"] == "5"


def test_undated_payment_depends_on_the_date_only_when_the_mli_changes_the_answer(covered) -> None:
    treaty, _, _ = covered
    changes = _decide(treaty, held_months=6)
    assert changes["status"] == "indeterminate" and changes["missing_facts"] == ["date"]
    assert {c["max_rate_pct"] for c in changes["candidates"]} == {"5", "15"}
    same = _decide(treaty, held_days=400)
    assert (same["status"], same["max_rate_pct"]) == ("determined", "5")


def test_ask_takes_the_positions_with_mli(covered) -> None:
    _, text, positions = covered
    result = CliRunner().invoke(app, ["ask", "--treaty", str(text), "--parties", "NO,EE", "--mli", str(positions),
                                      "--income", "dividends", "--source", "NO", "--residence", "EE",
                                      "--beneficial-owner", "--recipient", "company", "--capital-pct", "30",
                                      "--held-months", "6", "--date", "2021-06-01", "--json"])
    assert result.exit_code == 0, result.output
    assert '"max_rate_pct": "15"' in result.output


def test_ask_refuses_positions_of_another_agreement(covered, tmp_path: Path) -> None:
    _, text, _ = covered
    other = tmp_path / "other.yaml"
    other.write_text(POSITIONS.replace("[NO, EE]", "[PT, HR]").replace("NO: 2021", "PT: 2021").replace("EE: 2022", "HR: 2022"),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["ask", "--treaty", str(text), "--parties", "NO,EE", "--mli", str(other),
                                      "--income", "dividends", "--source", "NO", "--residence", "EE"])
    assert result.exit_code == 2 and "no positions for" in result.output


@pytest.mark.parametrize(("change", "message"), [
    (("reference: \"positions written for this test (fictional States)\"", "reference: \"\""), "needs a reference"),
    (("articles: [6, 7, 8]", "articles: [6, 8]"), "article 7"),
    (("EE: 2022-01-01", "EE: 2022-13-01"), "is not a date"),
    (("{NO: 2021-01-01, EE: 2022-01-01}", "{NO: 2021-01-01}"), "for both States"),
    (("parties: [NO, EE]", "parties: [NO]"), "two ISO country codes"),
])
def test_a_bad_positions_file_is_refused_in_one_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    path = tmp_path / "mli.yaml"
    path.write_text(POSITIONS.replace(*change), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        mli.read_positions(path)


def test_positions_go_through_the_one_data_loader_with_every_value_as_text(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    from taxtreaty import vocab

    # unquoted NO is Norway (the loader's text_scalars), and the shipped file is read by read_data_file
    assert vocab.read_yaml_text("parties: [NO, EE]\n", "x.yaml", text_scalars=True) == {"parties": ["NO", "EE"]}
    assert vocab.read_yaml_text("parties: [NO, EE]\n", "x.yaml") == {"parties": [False, "EE"]}
    seen: list[tuple[str, ...]] = []
    real = vocab._data_text
    monkeypatch.setattr(vocab, "_data_text", lambda *parts: seen.append(parts) or real(*parts))
    mli.shipped.cache_clear()
    try:
        assert mli.shipped()
    finally:
        monkeypatch.undo()
        mli.shipped.cache_clear()
    assert ("mli", "positions.yaml") in seen
    # a key the file does not take is refused, naming the file (user file: one line, InputError)
    for text, words in ((POSITIONS + "agrements: []\n", "unknown keys ['agrements']"),
                        (POSITIONS.replace("    status: known", "    status: known\n    artciles: [7]"),
                         "agreement 1: unknown keys ['artciles']")):
        path = tmp_path / "mli.yaml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError, match=re.escape(words)):
            mli.read_positions(path)
    with pytest.raises(vocab.DataFileError, match=r"^mli/positions\.yaml: unknown keys"):
        vocab.read_yaml_text("agreements: []\nnotes: x\n", "mli/positions.yaml", text_scalars=True, keys=mli.FILE_KEYS)


def test_shipped_positions_name_their_reference_and_say_which_are_unknown() -> None:
    shipped = mli.shipped()
    assert shipped and all(p.reference for p in shipped.values())
    assert mli.positions_for(("NL", "HU")).status == "unknown"


def test_an_agreement_whose_positions_are_unknown_says_the_mli_may_modify_it() -> None:
    text = DIVIDENDS.replace("NORVALIA AND ESTMARK", "THE KINGDOM OF THE NETHERLANDS AND HUNGARY")
    doc = taxtreaty.parse(text)
    facts = {**COMPANY, "source": "NL", "residence": "HU", "held_days": 400}
    recent = taxtreaty.decide(doc, {**facts, "date": "2024-05-01"}, parties=["NL", "HU"]).to_dict()
    assert recent["max_rate_pct"] == "5"
    assert any(a["fact"] == "mli" and "positions" in a["why"] for a in recent["assumptions"])
    old = taxtreaty.decide(doc, {**facts, "date": "2015-05-01"}, parties=["NL", "HU"]).to_dict()
    assert not any(a["fact"] == "mli" for a in old["assumptions"])


# the Ghana–Chile fixture convention (tests/fixtures/time): 5% for a 25% holding, else 15%; its amending
# protocol replaces 10(2) with 5% / 10% from 1 January 2012 (entry into force given: 1 June 2011)
AMENDED_POSITIONS = """agreements:
  - parties: [GH, CL]
    status: known
    reference: "positions written for this test (invented)"
    articles: [7, 8]
    effect_withheld_at_source: {GH: 2020-01-01, CL: 2020-01-01}
"""


def test_the_mli_modifies_every_version_of_an_amended_convention(tmp_path: Path) -> None:
    import datetime as dt

    from taxtreaty.pipeline import compile_document, with_amendments

    time = Path(__file__).resolve().parents[1] / "fixtures" / "time"
    doc = taxtreaty.parse_file(time / "en_base.txt")
    amended = with_amendments(compile_document(doc), doc, [str(time / "en_protocol.txt")], dt.date(2011, 6, 1))
    positions = tmp_path / "mli.yaml"
    positions.write_text(AMENDED_POSITIONS, encoding="utf-8")
    treaty = mli.attach(amended, positions)
    facts = {**COMPANY, "source": "GH", "residence": "CL", "held_months": 6}
    before = decide_compiled(treaty, scenario_from({**facts, "date": "2019-06-01"})).to_dict()
    after = decide_compiled(treaty, scenario_from({**facts, "date": "2021-06-01"})).to_dict()
    assert (before["status"], before["max_rate_pct"]) == ("determined", "5")
    assert not [c for c in before["caveats"] if c["eid"].startswith("mli")]
    # held 6 months: article 8's 365 days are not met, and the rate left is the protocol's 10%, not the original 15%
    assert (after["status"], after["max_rate_pct"]) == ("determined", "10")
    assert "as amended by" in after["version"]["label"] and after["version"]["mli"]["status"] == "known"
    facts.pop("held_months")
    long = decide_compiled(treaty, scenario_from({**facts, "held_days": 400, "date": "2021-06-01"})).to_dict()
    assert long["max_rate_pct"] == "5" and {"main_purpose", "mli_holding_period"} <= {c["kind"] for c in long["caveats"]}
    assert any(c["eid"] == "mli_art_7__para_1" for c in long["caveats"])
