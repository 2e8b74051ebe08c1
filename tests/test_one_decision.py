"""One decision on a stored treaty, whatever the surface (issue 13).

A store holding what made the CLI and HTTP differ: a treaty stored as two files (a convention cut
in two), a convention with its amending protocol (its own entry into force given at ingest), a
convention with the entry into force given at ingest (`--in-force`) and one with dates of effect
the user gave (`--effect`). `taxtreaty ask --treaty ID` and `POST /ask?treaty=ID` must give the
same decision on every scenario of a grid; `GET /rates` the CLI's `rates` cells; `POST /ledger`
the CLI ledger's bytes.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import orjson
import pytest
from conftest import FIXTURES, wait_for_rates
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app as cli_app
from taxtreaty.interfaces.http import create_app
from taxtreaty.pipeline import load_store
from taxtreaty.rules import scenario_from
from taxtreaty.rules.matrix import rate_matrix
from taxtreaty.rules.questions import explain
from taxtreaty.store import Store
from taxtreaty.store.edit import TreatyFacts

TIME = FIXTURES / "time"
FRAGMENTS = FIXTURES / "store" / "fragments"
DATES = ["1999-06-01", "2005-06-01", "2011-06-01", "2012-06-01", "2024-05-01"]


@pytest.fixture(scope="module")
def store_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("one") / "one.sqlite"
    with Store.open(str(path)) as store:
        assert store.ingest([str(TIME / "en_protocol.txt")], in_force="2011-06-01").ok
        assert store.ingest([str(TIME / "en_base.txt")]).ok
        assert store.ingest([str(TIME / "es_base.txt")], in_force="2004-03-01").ok
        assert store.ingest([str(TIME / "pt_base.txt")], given=TreatyFacts(in_force_from="2006-01-01",
                                                                           in_force_until="2015-12-31")).ok
        assert store.ingest([str(FRAGMENTS)], treaty="xx-frag", given=TreatyFacts(parties=("PT", "CZ"))).ok
        return store.url


def _treaties(url: str) -> dict[str, tuple[str, str]]:
    return {t.name: t.parties for t in load_store(url, lambda _m: None)}  # type: ignore[misc]


def _scenarios(parties: tuple[str, str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    a, b = parties
    for income in ("dividends", "interest", "royalties"):
        for source, residence in ((a, b), (b, a)):
            for date in DATES:
                base = {"income": income, "source": source, "residence": residence, "date": date}
                out += [base, {**base, "beneficial_owner": True, "recipient": "company", "capital_pct": 30,
                               "amount": "1000.99"}]
    return out


def _plain(data: object) -> object:
    return json.loads(orjson.dumps(data, default=str))


def _http_view(answer: dict) -> dict:  # type: ignore[type-arg]
    answer = dict(answer)
    answer.pop("treaty", None)
    answer["trace"] = [{k: v for k, v in step.items() if k != "href"} for step in answer.get("trace") or []]
    return answer


def test_the_store_holds_what_used_to_differ(store_url: str) -> None:
    treaties = _treaties(store_url)
    assert set(treaties) == {"CL-GH-2001", "ES-PE-2003", "AO-PT-2002", "xx-frag"}, treaties
    stored = {t.name: t for t in load_store(store_url, lambda _m: None)}
    assert stored["CL-GH-2001"].timeline is not None  # the protocol is applied
    assert stored["AO-PT-2002"].in_force.given_by_user  # the --effect window
    assert stored["ES-PE-2003"].in_force.resolved.entry_into_force == dt.date(2004, 3, 1)  # --in-force
    assert stored["xx-frag"].parties == ("PT", "CZ")
    with Store.open(store_url) as store:
        assert next(t for t in store.list_treaties() if t.id == "xx-frag").documents == 2


def test_http_ask_is_cli_ask_on_every_scenario(store_url: str) -> None:
    client = TestClient(create_app(store_url, token=""))
    checked = 0
    for name, parties in _treaties(store_url).items():
        compiled = load_store(store_url, lambda _m: None, name)[0]  # what `ask --treaty ID` loads
        for scenario in _scenarios(parties):
            cli = _plain(explain(compiled, scenario_from(scenario)).to_dict())
            response = client.post(f"/ask?treaty={name}", json=scenario)
            assert response.status_code == 200, (name, scenario, response.text)
            assert _http_view(response.json()) == cli, (name, scenario)
            checked += 1
    assert checked >= 4 * 60


def test_the_dates_stored_with_a_treaty_decide_over_http(store_url: str) -> None:
    """The protocol's lower rate from 2012, the --effect window, the --in-force dates: over HTTP."""
    client = TestClient(create_app(store_url, token=""))
    dividends = {"income": "dividends", "beneficial_owner": True, "recipient": "individual"}
    ask = lambda treaty, **facts: client.post(f"/ask?treaty={treaty}", json={**dividends, **facts}).json()  # noqa: E731
    assert ask("CL-GH-2001", source="GH", residence="CL", date="2011-12-31")["max_rate_pct"] == "15"
    assert ask("CL-GH-2001", source="GH", residence="CL", date="2012-01-01")["max_rate_pct"] == "10"
    inside = ask("AO-PT-2002", source="PT", residence="AO", date="2010-06-01")
    after = ask("AO-PT-2002", source="PT", residence="AO", date="2016-06-01")
    assert inside["status"] != "not_covered" and after["status"] == "not_covered"


def test_the_cli_command_and_http_agree(store_url: str) -> None:
    client = TestClient(create_app(store_url, token=""))
    for args, scenario in [
        (["--income", "dividends", "--source", "GH", "--residence", "CL", "--date", "2012-06-01", "--beneficial-owner",
          "--recipient", "company", "--capital-pct", "30", "--amount", "1000.99"],
         {"income": "dividends", "source": "GH", "residence": "CL", "date": "2012-06-01", "beneficial_owner": True,
          "recipient": "company", "capital_pct": 30, "amount": "1000.99"}),
    ]:
        result = CliRunner().invoke(cli_app, ["ask", "--treaty", "CL-GH-2001", "--db", store_url, "--json", *args])
        assert result.exit_code == 0, result.output
        http = client.post("/ask?treaty=CL-GH-2001", json=scenario).json()
        assert _http_view(http) == json.loads(result.stdout)


def test_http_rates_are_cli_rates(store_url: str) -> None:
    client = TestClient(create_app(store_url, token=""))
    wait_for_rates(client)
    rows = client.get("/rates").json()
    http = sorted((c["treaty"], c["source"], c["residence"], json.dumps(c["scenario"], sort_keys=True), c["status"],
                   c["max_rate_pct"], c["eid"]) for r in rows for c in [*r["cells"].values(), *r["notes"]])
    cells = rate_matrix(load_store(store_url, lambda _m: None), as_of=dt.date.today())
    cli = sorted((c.treaty, c.source, c.residence, json.dumps(_plain(c.scenario), sort_keys=True), c.status,
                  c.max_rate_pct, c.eid) for c in cells)
    assert http == cli and len(cli) >= 8


def _payments(store_url: str, tmp_path: Path) -> Path:
    lines = ["income,source,residence,amount,beneficial_owner,recipient,capital_pct,date"]
    for a, b in _treaties(store_url).values():
        for date in DATES:
            lines += [f"dividends,{a},{b},1000.99,yes,company,30,{date}", f"interest,{b},{a},250.50,yes,,,{date}"]
    ledger = tmp_path / "payments.csv"
    ledger.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ledger


#: (input, output, how the HTTP request asks for the output)
LEDGER_WAYS = [("csv", "csv", {}), ("csv", "parquet", {"format": "parquet"}),
               ("csv", "parquet", {"accept": "application/vnd.apache.parquet, text/csv;q=0.5"}),
               ("csv", "csv", {"accept": "text/csv, application/vnd.apache.parquet;q=0.2"}),
               ("parquet", "parquet", {"format": "parquet"}), ("parquet", "csv", {})]


@pytest.mark.parametrize(("given", "wanted", "ask"), LEDGER_WAYS)
def test_http_ledger_is_the_cli_ledger(store_url: str, tmp_path: Path, given: str, wanted: str,
                                       ask: dict[str, str]) -> None:
    ledger = _payments(store_url, tmp_path)
    if given == "parquet":
        import pandas as pd

        csv_ledger, ledger = ledger, tmp_path / "payments.parquet"
        pd.read_csv(csv_ledger, dtype=str, keep_default_na=False).to_parquet(ledger, index=False)
    out = tmp_path / f"out.{wanted}"
    result = CliRunner().invoke(cli_app, ["ledger", str(ledger), "--treaties", store_url, "-o", str(out)])
    assert result.exit_code == 0, result.output
    client = TestClient(create_app(store_url, token=""))
    media = "application/vnd.apache.parquet" if given == "parquet" else "text/csv"
    params = {"format": ask["format"]} if "format" in ask else {}
    headers = {"content-type": media, **({"accept": ask["accept"]} if "accept" in ask else {})}
    response = client.post("/ledger", content=ledger.read_bytes(), headers=headers, params=params)
    assert response.status_code == 200, response.text
    assert response.content == out.read_bytes()
    assert response.headers["content-type"].startswith("text/csv" if wanted == "csv" else "application/vnd.apache.parquet")
    assert response.headers["content-disposition"].endswith(f'.{wanted}"')
    if wanted == "parquet":
        import io

        import pyarrow.parquet as pq

        table = pq.read_table(io.BytesIO(response.content))
        statuses = table.column("status").to_pylist()
        assert table.num_rows == int(response.headers["x-ledger-rows"]) == len(statuses) > 0
        assert "not_covered" in statuses and "determined" in statuses
    else:
        assert b"not_covered" in response.content and b"determined" in response.content
