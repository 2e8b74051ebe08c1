"""`--as-of DATE` (show, export) and the web reader's version selector (issue 14): the text in
effect on a day is the version the engine decides on for a payment of that day.

The fixture convention (Ghana–Chile, invented) caps dividends at 5%/15%; its amending protocol
(entry into force given at ingest: 1 June 2011) replaces 10(2) with 5%/10% from 1 January 2012,
inserts article 10A and deletes 11(3).
"""

from __future__ import annotations

import json

import lxml.etree
import pytest
from conftest import FIXTURES
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from taxtreaty.interfaces.cli import app as cli_app
from taxtreaty.interfaces.http import create_app, service
from taxtreaty.interfaces.http.limits import Limits
from taxtreaty.store import Store

TIME = FIXTURES / "time"
BEFORE, AFTER = "2011-06-01", "2012-06-01"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("asof") / "s.sqlite"
    with Store.open(str(path)) as store:
        assert store.ingest([str(TIME / "en_protocol.txt")], in_force="2011-06-01").ok
        assert store.ingest([str(TIME / "en_base.txt")]).ok
        assert store.ingest([str(TIME / "es_base.txt")]).ok
    return str(path)


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli_app, list(args))


def _para(db: str, day: str, ref: str = "10(2)") -> dict:  # type: ignore[type-arg]
    result = cli("show", "CL-GH-2001", ref, "--db", db, "--as-of", day, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_show_as_of_gives_the_words_in_effect_that_day(db: str) -> None:
    before, after = _para(db, BEFORE), _para(db, AFTER)
    assert "15 per cent" in before["versions"][0]["paragraphs"][0]["text"]
    assert before["version"]["label"] == "original text"
    paragraph = after["versions"][0]["paragraphs"][0]
    assert "10 per cent of the gross amount of the dividends in all other cases" in paragraph["text"]
    assert "words of en_protocol.txt" in paragraph["cite"]
    assert after["version"]["from"] == "2012-01-01" and after["version"]["instruments"][0]["source"] == "en_protocol.txt"


def test_the_decision_of_that_day_cites_the_words_shown(db: str) -> None:
    asked = cli("ask", "--treaty", "CL-GH-2001", "--db", db, "--json", "--income", "dividends", "--source", "GH",
                "--residence", "CL", "--beneficial-owner", "--recipient", "individual", "--date", AFTER)
    decision = json.loads(asked.stdout)
    assert decision["max_rate_pct"] == "10"
    shown = _para(db, AFTER)["versions"][0]["paragraphs"][0]["text"]
    assert any(step["eid"].startswith("art_10__para_2") and "10 per cent" in step["quote"]
               and " ".join(step["quote"].split()) in " ".join(shown.split()) for step in decision["trace"])


def test_show_lists_the_articles_of_the_version(db: str) -> None:
    def numbers(day: str) -> set[str]:
        data = json.loads(cli("show", "CL-GH-2001", "--db", db, "--as-of", day, "--json").stdout)
        return {a["number"] for a in data["articles"]}
    assert "10a" not in numbers(BEFORE) and "10a" in numbers(AFTER)


def test_export_as_of_is_one_well_formed_document_of_that_version(db: str) -> None:
    for day, rate in ((BEFORE, "15 per cent"), (AFTER, "10 per cent")):
        result = cli("export", "CL-GH-2001", "--db", db, "--as-of", day, "--format", "akn")
        assert result.exit_code == 0, result.output
        root = lxml.etree.fromstring(result.stdout.encode())
        assert rate + " of the gross amount of the dividends in all other cases" in " ".join(root.itertext())
    data = json.loads(cli("export", "CL-GH-2001", "--db", db, "--as-of", AFTER, "--format", "json").stdout)
    assert data["version"]["from"] == "2012-01-01" and len(data["documents"]) == 1


def test_bad_as_of_input_is_one_line(db: str) -> None:
    for args in (["show", "CL-GH-2001", "--as-of", "2012-13-01"], ["export", "CL-GH-2001", "--as-of", AFTER, "--format", "xml"]):
        result = cli(*args, "--db", db)
        assert result.exit_code == 2 and "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_a_treaty_with_one_version_says_so_and_shows_the_stored_text(db: str) -> None:
    plain = cli("show", "ES-PE-2003", "10", "--db", db, "--json")
    dated = cli("show", "ES-PE-2003", "10", "--db", db, "--json", "--as-of", AFTER)
    assert dated.exit_code == 0 and json.loads(dated.stdout) == json.loads(plain.stdout)
    assert "only version" in dated.stderr


def test_the_web_reader_shows_the_version_of_the_day(db: str) -> None:
    app = create_app(db, token="", limits=Limits(seconds=300))
    service.treaty_rules(app.state.backend, "CL-GH-2001")  # compiled once (a loaded machine is slow the first time)
    client = TestClient(app)
    before = client.get(f"/web/treaties/CL-GH-2001?as_of={BEFORE}").text
    after = client.get(f"/web/treaties/CL-GH-2001?as_of={AFTER}").text
    assert "15 per cent of the gross amount of the dividends in all" in before
    assert "10 per cent of the gross amount of the dividends in all" in after
    assert 'href="#art_10__para_2">art_10__para_2</a>: amended by en_protocol.txt' in after
    plain = client.get("/web/treaties/CL-GH-2001").text
    assert 'name="as_of"' in plain and "as amended by" in plain  # the selector lists the versions
    assert client.get("/web/treaties/CL-GH-2001?as_of=2012-13-01").status_code == 422


def test_compare_as_of_compares_the_versions_in_effect(db: str) -> None:
    def caps(day: str | None) -> set[str]:
        args = ["compare", "CL-GH-2001", "ES-PE-2003", "--topic", "dividends", "--db", db, "--json"]
        result = cli(*args, *(["--as-of", day] if day else []))
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        (topic,) = data["topics"]
        if day:
            assert set(data["versions"]) == {"CL-GH-2001"}  # ES-PE has one version: its stored text
        return {f["value"] for f in topic["a"]["figures"] if f["kind"] == "withholding_cap"}

    assert caps(BEFORE) == {"5%", "15%"}
    assert caps(AFTER) == {"5%", "10%"}
