"""What the texts do not say, said by the user: `ingest --parties/--signed/--effect` and
`taxtreaty edit`, kept in the store's history; then `list`, `rates`, ledgers and the server find the
treaty by its States. Also: `--version`, plain tables off a terminal, `--format`, and a relief
article that is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, seed_path
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    db = tmp_path / "s.sqlite"
    result = cli("ingest", str(seed_path("000")), "--db", str(db), "--parties", "PT,CZ", "--effect", "1997-01-01")
    assert result.exit_code == 0, result.output
    assert cli("ingest", str(seed_path("001")), "--db", str(db)).exit_code == 0  # a fragment naming no State
    return db


def treaty_of(db: Path, country: str) -> list[dict]:
    result = cli("list", "--db", str(db), "--country", country, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_ingest_parties_make_the_treaty_findable_by_its_states(store: Path, tmp_path: Path) -> None:
    found = treaty_of(store, "CZ")
    assert [t["parties"] for t in found] == [["CZ", "PT"]]
    history = json.loads(cli("edit", found[0]["id"], "--history", "--db", str(store), "--json").output)["history"]
    assert [(h["field"], h["new"], h["how"]) for h in history] == [("parties", "CZ,PT", "ingest"),
                                                                   ("in_force_from", "1997-01-01", "ingest")]
    ledger = tmp_path / "p.csv"
    ledger.write_text("income,source,residence,date\ninterest,CZ,PT,1996-06-01\ninterest,CZ,PT,1998-06-01\n",
                      encoding="utf-8")
    out = tmp_path / "o.csv"
    assert cli("ledger", str(ledger), "--treaties", str(store), "-o", str(out)).exit_code == 0
    rows = out.read_text(encoding="utf-8").splitlines()
    assert ",not_covered," in rows[1] and "1997-01-01" in rows[1]  # before the dates of effect given at ingest
    assert ",not_covered," not in rows[2]


def test_edit_parties_is_kept_in_the_history_and_seen_by_list_ledger_and_server(store: Path, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from taxtreaty.interfaces.http import create_app

    assert treaty_of(store, "CN") == []
    unnamed = next(t["id"] for t in json.loads(cli("list", "--db", str(store), "--json").output) if not t["parties"])
    client = TestClient(create_app(str(store)))
    before = client.post("/ledger", content=b"income,source,residence\ninterest,CN,PT\n",
                         headers={"content-type": "text/csv"})
    assert ",not_covered," in before.text
    result = cli("edit", unnamed[:5], "--parties", "pt,cn", "--signed", "1998-04-21", "--db", str(store))
    assert result.exit_code == 0, result.output
    assert "parties: - -> CN,PT" in result.output
    assert [t["id"] for t in treaty_of(store, "CN")] == [unnamed]
    again = cli("edit", unnamed, "--parties", "CN,PT", "--db", str(store))
    assert "nothing changed" in again.output  # no second history row for the same value
    history = json.loads(cli("edit", unnamed, "--history", "--db", str(store), "--json").output)["history"]
    assert [(h["field"], h["old"], h["new"], h["how"]) for h in history] == [
        ("parties", None, "CN,PT", "edit"), ("signed_date", None, "1998-04-21", "edit")]
    ledger = tmp_path / "p.csv"
    ledger.write_text("income,source,residence\ninterest,CN,PT\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    assert cli("ledger", str(ledger), "--treaties", str(store), "-o", str(out)).exit_code == 0
    assert f",{unnamed}," in out.read_text(encoding="utf-8")
    client.app.state.backend.refresh_view()
    after = client.post("/ledger", content=b"income,source,residence\ninterest,CN,PT\n",
                        headers={"content-type": "text/csv"})
    assert f",{unnamed}," in after.text
    rates = cli("rates", "--db", str(store), "--country", "CN", "--format", "csv")
    assert rates.exit_code == 0 and unnamed in rates.output


@pytest.mark.parametrize(("args", "words"), [
    (["--parties", "PT"], "--parties takes two different ISO 3166 codes"),
    (["--parties", "PT,PT"], "--parties takes two different"),
    (["--signed", "20240501"], "--signed takes a date as YYYY-MM-DD"),
    (["--effect", "2030-01-01:2020-01-01"], "is before the start"),
    ([], "nothing to change"),
])
def test_edit_refuses_bad_values_in_one_line(store: Path, args: list[str], words: str) -> None:
    result = cli("edit", "CZ", *args, "--db", str(store))
    assert result.exit_code == 2 and words in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_version() -> None:
    from taxtreaty import __version__

    result = cli("--version")
    assert result.exit_code == 0 and result.output.strip() == f"taxtreaty {__version__}"


def test_tables_off_a_terminal_are_plain_and_formats(store: Path) -> None:
    plain = cli("list", "--db", str(store))
    assert plain.exit_code == 0
    lines = plain.output.splitlines()
    assert lines[0].split() == ["treaty", "parties", "signed", "languages", "files", "articles", "title"]
    assert len(lines) == 3 and not any("│" in line or "┃" in line for line in lines)
    titles = [t["title"] for t in json.loads(cli("list", "--db", str(store), "--json").output)]
    assert all(any(line.endswith(title) for line in lines) for title in titles)  # whole, never wrapped
    as_csv = cli("list", "--db", str(store), "--format", "csv").output.splitlines()
    assert as_csv[0] == "treaty,parties,signed,languages,files,articles,title" and len(as_csv) == 3
    as_md = cli("list", "--db", str(store), "--format", "markdown").output.splitlines()
    assert as_md[1].startswith("|---|") and len(as_md) == 4
    as_json = json.loads(cli("list", "--db", str(store), "--format", "json").output)
    assert {row["treaty"] for row in as_json} == {t["id"] for t in json.loads(cli("list", "--db", str(store), "--json").output)}
    assert cli("list", "--db", str(store), "--format", "xml").exit_code == 2


def test_residence_tax_without_a_relief_article_keeps_the_decision() -> None:
    result = cli("ask", "--treaty", str(FIXTURES / "ledger" / "pt-mt-synthetic.txt"), "--income", "dividends",
                 "--source", "MT", "--residence", "PT", "--amount", "1000", "--beneficial-owner", "--recipient",
                 "company", "--capital-pct", "30", "--residence-tax", "200", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["status"], data["max_rate_pct"], data["max_withholding"]) == ("determined", "5", "50.00")
    assert data["relief"]["credit"] is None
    assert data["relief"]["reason"].startswith("no credit computed: ") and "elimination of double taxation" in data["relief"]["reason"]
    no_amount = cli("ask", "--treaty", str(FIXTURES / "ledger" / "pt-mt-synthetic.txt"), "--income", "dividends",
                    "--source", "MT", "--residence", "PT", "--residence-tax", "200", "--json")
    assert no_amount.exit_code == 0
    assert json.loads(no_amount.output)["relief"]["credit"] is None
