"""`taxtreaty ask`: flags or a JSON scenario in, a readable trace or JSON out, one-line errors."""

from __future__ import annotations

import json

import pytest
from conftest import FIXTURES, seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app, main

DIVIDENDS = ["--income", "dividends", "--source", "CZ", "--residence", "PT", "--beneficial-owner",
             "--recipient", "company", "--capital-pct", "30", "--held-months", "26", "--date", "1998-05-01"]


def ask(*args: str):
    return CliRunner().invoke(app, ["ask", *args])


def test_ask_readable_trace():
    result = ask("--treaty", str(seed_path("000")), "--parties", "PT,CZ", *DIVIDENDS, "--amount", "1000")
    assert result.exit_code == 0, result.output
    assert "determined" in result.output
    assert "max rate: 10%" in result.output
    assert "art_10__para_3" in result.output
    assert "max withholding: 100.00" in result.output
    assert "not effectively connected" in result.output  # the PE default is stated
    assert "art_10__para_3 [en]" in result.output  # the quote's language is shown, not eaten as markup


def test_ask_json():
    result = ask("--treaty", str(seed_path("000")), "--parties", "PT,CZ", *DIVIDENDS[:-6], "--json")
    data = json.loads(result.output)
    assert data["status"] == "indeterminate"
    assert set(data["missing_facts"]) == {"capital_pct", "held_months", "date"}
    assert {c["max_rate_pct"] for c in data["candidates"]} == {"10", "15"}


def test_ask_scenario_file_and_credit(tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"income": "interest", "source": "TL", "residence": "PT", "beneficial_owner": True,
                                    "amount": "1000"}), encoding="utf-8")
    result = ask("--treaty", str(seed_path("002")), "--scenario", str(scenario), "--residence-tax", "60", "--json")
    data = json.loads(result.output)
    assert data["max_rate_pct"] == "10"
    assert data["relief"]["credit"] == 6000 and data["relief"]["eid"] == "art_24__para_1"


def test_ask_user_dates_of_effect_make_it_not_covered():
    result = ask("--treaty", str(FIXTURES / "rules" / "synthetic_pt.txt"), "--parties", "PT,BR", "--income", "interest",
                 "--source", "BR", "--residence", "PT", "--date", "1999-01-01", "--in-force-from", "2001-01-01", "--json")
    assert json.loads(result.output)["status"] == "not_covered"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--income", "wages", "--source", "CZ", "--residence", "PT"], "income must be one of"),
        (["--income", "dividends", "--source", "CZ"], "residence is required"),
        (["--income", "dividends", "--source", "CZ", "--residence", "PT", "--date", "1998-02-30"], "date must be a date"),
        (["--income", "dividends", "--source", "CZ", "--residence", "PT", "--parties", "PT"], "--parties takes two"),
        (["--income", "dividends", "--source", "CZ", "--residence", "PT", "--in-force-from", "soon"], "--in-force-from takes a date"),
    ],
)
def test_ask_errors_are_one_line(monkeypatch, capsys, args, message):
    monkeypatch.setattr("sys.argv", ["taxtreaty", "ask", "--treaty", str(seed_path("000")), *args])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("taxtreaty: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_ask_scenario_with_unknown_key(monkeypatch, capsys, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text('{"income": "dividends", "source": "CZ", "residence": "PT", "withholding": 5}', encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["taxtreaty", "ask", "--treaty", str(seed_path("000")), "--scenario", str(scenario)])
    with pytest.raises(SystemExit):
        main()
    assert "unknown key 'withholding'" in capsys.readouterr().err


def test_ask_scenario_and_flags_together_refused(monkeypatch, capsys, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text('{"income": "dividends", "source": "CZ", "residence": "PT"}', encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["taxtreaty", "ask", "--treaty", str(seed_path("000")), "--scenario", str(scenario),
                                     "--income", "interest"])
    with pytest.raises(SystemExit):
        main()
    assert "not both" in capsys.readouterr().err


def test_ask_unknown_treaty_id(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("TAXTREATY_DB", str(tmp_path / "none.sqlite"))
    monkeypatch.setattr("sys.argv", ["taxtreaty", "ask", "--treaty", "pt-xx", "--income", "dividends", "--source", "CZ",
                                     "--residence", "PT"])
    with pytest.raises(SystemExit):
        main()
    err = capsys.readouterr().err
    assert "pt-xx: no such file" in err
    assert not (tmp_path / "none.sqlite").exists()


def test_ask_and_ledger_with_a_stored_treaty(tmp_path):
    from taxtreaty.store import Store

    db = tmp_path / "store.sqlite"
    with Store.open(str(db)) as store:
        store.ingest([str(seed_path("002"))])
        treaty_id = store.list_treaties()[0].id
    result = ask("--treaty", treaty_id, "--db", str(db), "--income", "pensions", "--source", "TL", "--residence", "PT",
                 "--json")
    data = json.loads(result.output)
    assert (data["status"], data["source_taxation"], data["eid"]) == ("determined", "none", "art_18__para_nn_1")
    ledger = tmp_path / "p.csv"
    ledger.write_text("income,source,residence,beneficial_owner,amount\ninterest,TL,PT,yes,1000\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    run = CliRunner().invoke(app, ["ledger", str(ledger), "--treaties", str(db), "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert "100.00" in out.read_text(encoding="utf-8")
