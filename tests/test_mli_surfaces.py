"""MLI positions on every surface (issues 13 and 14): kept in the store by `ingest --mli FILE`, they
are applied alike by `ask --treaty ID`, `ledger`, `rates`, `compare`, `POST /ask`, `POST /ledger`,
`GET /rates` and the web ask form; `ledger --mli FILE` gives them for a folder of texts."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from helpers import NORVALIA_ESTMARK_DIVIDENDS
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app as cli_app
from taxtreaty.interfaces.http import create_app

# a convention of the fictional States Norvalia (NO) and Estmark (EE): 5% for a company's 25% holding,
# 15% otherwise, no holding period of its own (MLI article 8 adds 365 days from its date of effect)
DIVIDENDS = NORVALIA_ESTMARK_DIVIDENDS
POSITIONS = """agreements:
  - parties: [NO, EE]
    status: known
    reference: "positions written for this test (fictional States)"
    articles: [7, 8]
    effect_withheld_at_source: {NO: 2021-01-01, EE: 2022-01-01}
"""
FACTS = {"income": "dividends", "source": "NO", "residence": "EE", "beneficial_owner": True, "recipient": "company",
         "capital_pct": 30, "held_months": 6, "date": "2021-06-01"}
ASK = ["--income", "dividends", "--source", "NO", "--residence", "EE", "--beneficial-owner", "--recipient", "company",
       "--capital-pct", "30", "--held-months", "6", "--date", "2021-06-01", "--json"]
LEDGER = ("income,source,residence,amount,beneficial_owner,recipient,capital_pct,held_months,date\n"
          "dividends,NO,EE,1000,yes,company,30,6,2021-06-01\n"
          "dividends,NO,EE,1000,yes,company,30,6,2020-06-01\n")


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli_app, list(args))


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mli")
    (folder / "texts").mkdir()
    (folder / "texts" / "no-ee.txt").write_text(DIVIDENDS, encoding="utf-8")
    (folder / "texts" / "treaties.yaml").write_text("no-ee.txt: {parties: [NO, EE]}\n", encoding="utf-8")
    (folder / "mli.yaml").write_text(POSITIONS, encoding="utf-8")
    (folder / "payments.csv").write_text(LEDGER, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def db(texts: Path) -> str:
    path = str(texts / "store.sqlite")
    added = cli("ingest", str(texts / "texts" / "no-ee.txt"), "--parties", "NO,EE", "--db", path, "--json")
    assert added.exit_code == 0, added.output
    other = texts / "no-dk.txt"  # a second treaty to compare with (no positions for it)
    other.write_text(DIVIDENDS.replace("NORVALIA AND ESTMARK", "NORVALIA AND DANMARIA"), encoding="utf-8")
    assert cli("ingest", str(other), "--parties", "NO,DK", "--db", path).exit_code == 0
    return path


def _treaty_id(db: str, parties: str = "EE,NO") -> str:
    listed = json.loads(cli("list", "--db", db, "--json").stdout)
    return next(t["id"] for t in listed if ",".join(sorted(t["parties"])) == parties)


def _ledger_rates(path: Path) -> list[str]:
    return [row["max_rate_pct"] for row in csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))]


def _http_rates(client: TestClient) -> list[dict]:  # type: ignore[type-arg]
    response = client.get("/rates")
    for _ in range(120):
        if response.status_code != 503:
            break
        time.sleep(0.25)
        response = client.get("/rates")
    assert response.status_code == 200
    return [c for r in response.json() for c in [*r["cells"].values(), *r["notes"]]
            if c["source"] == "NO" and c["residence"] == "EE"]


def test_positions_stored_at_ingest_are_applied_by_every_surface(db: str, texts: Path) -> None:
    treaty = _treaty_id(db)
    # before the positions are stored: the convention as printed (NO-EE is not in the shipped data)
    assert json.loads(cli("ask", "--treaty", treaty, "--db", db, *ASK).stdout)["max_rate_pct"] == "5"
    client = TestClient(create_app(db, token=""))
    assert client.post(f"/ask?treaty={treaty}", json=FACTS).json()["max_rate_pct"] == "5"
    stored = cli("ingest", "--mli", str(texts / "mli.yaml"), "--db", db, "--json")
    assert stored.exit_code == 0, stored.output
    assert json.loads(stored.stdout) == {"mli": ["EE,NO"]}
    # CLI ask: held 6 months, MLI article 8's 365 days are not met -> 15%
    asked = json.loads(cli("ask", "--treaty", treaty, "--db", db, *ASK).stdout)
    assert asked["max_rate_pct"] == "15" and asked["version"]["mli"]["status"] == "known"
    assert any(c["kind"] == "mli_holding_period" and c["source"] == "mli" for c in
               json.loads(cli("ask", "--treaty", treaty, "--db", db, *ASK[:-3], "--held-days", "400",
                              "--date", "2021-06-01", "--json").stdout)["caveats"])
    # HTTP ask, the same (the server sees the stored positions without a restart)
    time.sleep(1.1)  # the store backend's freshness window
    answer = client.post(f"/ask?treaty={treaty}", json=FACTS).json()
    assert (answer["status"], answer["max_rate_pct"], answer["eid"]) == (asked["status"], "15", asked["eid"])
    # CLI ledger over the store and POST /ledger: 15% after the MLI's date, 5% before
    out = texts / "decided.csv"
    result = cli("ledger", str(texts / "payments.csv"), "--treaties", db, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert _ledger_rates(out) == ["15", "5"]
    posted = client.post("/ledger", content=LEDGER, headers={"content-type": "text/csv"})
    assert posted.status_code == 200
    assert [row["max_rate_pct"] for row in csv.DictReader(io.StringIO(posted.text))] == ["15", "5"]
    # rates (CLI) and GET /rates: the same cells, each with the MLI's note of its positions
    cli_cells = [c for c in json.loads(cli("rates", "--db", db, "--format", "json").stdout) if c["source"] == "NO" and c["treaty"] == treaty]
    http_cells = _http_rates(client)
    key = lambda c: (c["income"], c["variant"], c["status"], c["max_rate_pct"], c["eid"])  # noqa: E731
    assert sorted(map(key, cli_cells)) == sorted(map(key, http_cells)) and cli_cells
    # compare: its decided rows are the rates cells
    compared = json.loads(cli("compare", treaty, _treaty_id(db, "DK,NO"), "--db", db, "--json").stdout)
    decided = [c for c in compared["decisions"][treaty] if c["source"] == "NO"]
    assert sorted(map(key, decided)) == sorted(map(key, cli_cells))


def test_the_web_ask_form_applies_the_stored_positions(db: str, texts: Path) -> None:
    assert cli("ingest", "--mli", str(texts / "mli.yaml"), "--db", db).exit_code == 0
    treaty = _treaty_id(db)
    client = TestClient(create_app(db, token=""))
    form = {"treaty": treaty, **{k: ("yes" if v else "no") if isinstance(v, bool) else str(v) for k, v in FACTS.items()}}
    page = client.post("/web/ask", data=form)
    assert page.status_code == 200, page.text[:500]
    text = " ".join(re.sub(r"<[^>]+>", " ", page.text).split())
    assert "Decision: determined" in text and "as the MLI modifies it" in text
    assert "held for less than 365 days" in text and "at most 15%" in text


def test_ledger_over_a_folder_takes_mli(texts: Path) -> None:
    out = texts / "folder-decided.csv"
    plain = cli("ledger", str(texts / "payments.csv"), "--treaties", str(texts / "texts"), "-o", str(out))
    assert plain.exit_code == 0, plain.output
    assert _ledger_rates(out) == ["5", "5"]
    given = cli("ledger", str(texts / "payments.csv"), "--treaties", str(texts / "texts"), "-o", str(out),
                "--mli", str(texts / "mli.yaml"))
    assert given.exit_code == 0, given.output
    assert _ledger_rates(out) == ["15", "5"]


def test_a_bad_positions_file_is_refused_at_ingest_in_one_line(texts: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(POSITIONS.replace("articles: [7, 8]", "articles: [8]"), encoding="utf-8")
    result = cli("ingest", "--mli", str(bad), "--db", str(tmp_path / "s.sqlite"))
    assert result.exit_code == 2 and "article 7" in result.output and "Traceback" not in result.output
    assert cli("ingest", "--db", str(tmp_path / "s.sqlite")).exit_code == 2  # neither texts nor positions
