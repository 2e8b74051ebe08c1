"""`taxtreaty provisions FILE [--json | --table] [--parties PT,CN]`."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import FIXTURES, seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app, main

runner = CliRunner()


def test_json_shape_and_decimals_as_strings():
    result = runner.invoke(app, ["provisions", "--json", str(seed_path("000"))])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"parties", "provisions", "divergences", "warnings"}
    cap = next(p for p in data["provisions"] if p["cite"]["eid"] == "art_10__para_3" and p["kind"] == "withholding_cap")
    assert cap["rate_pct"] == "10"
    assert cap["conditions"]["min_capital_pct"] == "25"
    assert cap["conditions"]["paid_after"] == "1996-12-31"
    assert cap["conditions"]["min_holding_months"] == 24
    assert {"topic", "kind", "status", "rate_pct", "conditions", "cite"} <= set(cap)
    assert set(cap["cite"]) == {"language", "eid", "quote", "span"}


def test_table_is_the_default_and_parties_are_taken():
    path = FIXTURES / "provisions" / "pt_furniture.txt"
    result = runner.invoke(app, ["provisions", str(path), "--parties", "PT,EE"])
    assert result.exit_code == 0, result.output
    assert "PT–EE" in result.stdout and "withholding_cap" in result.stdout and "15%" in result.stdout
    both = runner.invoke(app, ["provisions", "--table", str(path)])
    assert both.exit_code == 0 and "relief_method" in both.stdout


def test_table_reads_conditions_in_a_practitioners_words():
    result = runner.invoke(app, ["provisions", str(seed_path("000")), "--parties", "PT,CZ"])
    assert result.exit_code == 0, result.output
    # the conditions column, its wrapped lines joined
    rows = [line.split("│") for line in result.stdout.splitlines() if line.count("│") == 9]
    conditions = " ".join(" ".join(row[6].strip() for row in rows).split())
    assert "the recipient holds at least 25% of the paying company's capital" in conditions
    assert "min_capital_pct" not in result.stdout and "paid_after=" not in result.stdout


def test_unknown_rate_is_shown_as_unknown():
    result = runner.invoke(app, ["provisions", str(FIXTURES / "provisions" / "en_damaged.txt")])
    assert result.exit_code == 0
    assert "unknown" in result.stdout and "cut off" in result.stdout


@pytest.mark.parametrize("args", [
    ["provisions", "{tmp}/missing.txt"],
    ["provisions", "{tmp}/empty.txt"],
    ["provisions", "--parties", "PORTUGAL", "{seed}"],
])
def test_bad_input_is_one_line_and_exit_2(args, tmp_path, capsys, monkeypatch):
    (tmp_path / "empty.txt").write_text("")
    argv = ["taxtreaty", *(a.format(tmp=tmp_path, seed=seed_path("004")) for a in args)]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("taxtreaty: error: ") and err.count("\n") == 1 and "Traceback" not in err
