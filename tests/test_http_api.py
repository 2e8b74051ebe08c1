"""The JSON API through FastAPI's test client, over an in-memory corpus of the seeds plus a
synthetic convention carrying markup: every endpoint, its bad inputs, and no change to the
corpus when a request fails."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from conftest import SEEDS, wait_for_rates
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import MemoryBackend, create_app, service
from taxtreaty.interfaces.http.demo import memory_backend
from taxtreaty.interfaces.http.limits import Limits

TOKEN = "s3cret-token"
PROBLEM = "application/problem+json"

#: a synthetic convention (not a seed): markup, guillemets, ampersands and quotes in the text
HOSTILE = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF CYPRUS FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State. <script>alert(1)</script> & "quoted" «term» <img src=x onerror=alert(2)>
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:
a) 10 per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least 25 per cent of the capital of the company paying the dividends;
b) 15 per cent of the gross amount of the dividends in all other cases.

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
"""


def fake_decide(treaty: Any, facts: dict[str, Any]) -> dict[str, Any]:
    """Stands in for the rules engine: a trace that quotes the treaty's own article 10(2)."""
    doc = treaty
    node = doc.find("art_10__para_2")
    assert node is not None
    language = next(v.language for v in doc.versions if v.article("10"))
    if facts.get("held_months") is None:
        return {"status": "indeterminate", "max_rate_pct": None, "missing_facts": ["held_months"],
                "trace": [{"eid": node.eid, "language": language, "quote": doc.quote_at(node.span)[:80], "effect": "cap"}],
                "reasons": ["the holding period decides between caps"]}
    return {"status": "determined", "source_taxation": "limited", "max_rate_pct": "10", "article_applied": "Art. 10(2)(a)",
            "trace": [{"eid": node.eid, "language": language, "quote": doc.quote_at(node.span)[:80], "effect": "cap 10%"}],
            "missing_facts": [], "reasons": []}


@pytest.fixture()
def fake_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "_rules_decide", lambda: fake_decide)
    monkeypatch.setattr(service, "treaty_rules", lambda backend, tid, parties=None: backend.documents(tid)[0])


@pytest.fixture(scope="module")
def parsed_corpus() -> MemoryBackend:
    b = memory_backend([SEEDS]) if SEEDS.is_dir() else MemoryBackend()
    b.ingest(HOSTILE.encode(), "hostile.txt", "pt-cy-test")
    return b


@pytest.fixture()
def backend(parsed_corpus: MemoryBackend) -> MemoryBackend:
    return parsed_corpus.copy()  # each test may ingest without touching the others


@pytest.fixture()
def client(backend: MemoryBackend) -> TestClient:
    return TestClient(create_app(backend=backend, token=TOKEN))


def assert_problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert "Traceback" not in response.text and 'File "' not in response.text
    return body


# -- reads --------------------------------------------------------------------------------------


def test_list_treaties_gives_parties_dates_languages_status(client: TestClient) -> None:
    rows = {t["id"]: t for t in client.get("/treaties").json()}
    assert rows["pt-cy-test"]["parties"] == ["PT", "CY"]
    assert rows["pt-cy-test"]["languages"] == ["en"]
    if SEEDS.is_dir():
        tl = rows["pt-tl-2011"]
        assert tl["parties"] == ["PT", "TL"] and tl["signed"] == "2011-09-27"
        assert tl["languages"] == ["pt", "en"] and tl["prevailing_language"] == "pt"
        assert tl["status"] == "fragment"  # list items are missing from the source


def test_treaty_detail_lists_versions_articles_and_damage_notes(client: TestClient) -> None:
    if not SEEDS.is_dir():
        pytest.skip("seeds not available")
    body = client.get("/treaties/pt-tl-2011").json()
    assert [v["language"] for v in body["versions"]] == ["pt", "en"]
    pt = body["versions"][0]
    assert pt["articles"][9]["eid"] == "art_10" and pt["articles"][9]["topic"] == "dividends"
    assert any(c["eid"] == "chp_III" for c in pt["chapters"])
    assert any(n["code"] == "list_items_missing" and n["eid"] == "art_10__para_2" for n in body["notes"])


def test_article_by_language_and_default_prevailing(client: TestClient) -> None:
    if not SEEDS.is_dir():
        pytest.skip("seeds not available")
    en = client.get("/treaties/pt-tl-2011/articles/10", params={"lang": "en"}).json()
    assert en["language"] == "en" and en["heading"] == "Dividends" and en["languages"] == ["pt", "en"]
    assert en["paragraphs"][1]["eid"] == "art_10__para_2"
    assert "shall not exceed" in en["paragraphs"][1]["text"]
    assert any(n["code"] == "list_items_missing" for n in en["notes"])
    default = client.get("/treaties/pt-tl-2011/articles/10").json()
    assert default["language"] == "pt" and default["heading"] == "Dividendos"


def test_article_keeps_markup_as_text(client: TestClient) -> None:
    body = client.get("/treaties/pt-cy-test/articles/10").json()
    assert "<script>alert(1)</script>" in body["paragraphs"][0]["text"]
    assert body["paragraphs"][1]["points"][0]["label"] == "a"


@pytest.mark.parametrize(("path", "status"), [
    ("/treaties/no-such-treaty", 404),
    ("/treaties/no-such-treaty/articles/10", 404),
    ("/treaties/pt-cy-test/articles/99", 404),
    ("/treaties/pt-cy-test/articles/10?lang=pt", 404),
    ("/treaties/pt-cy-test/articles/ten", 422),
    ("/treaties/pt-cy-test/articles/10?lang=english", 422),
    ("/search", 422),
    ("/search?q=" + "x" * 201, 422),
    ("/search?q=dividends&limit=0", 422),
    ("/search?q=%20%20", 422),
    ("/rates?country=POR", 422),
    ("/treaties/bad%20id", 422),
])
def test_bad_reads_are_problems(client: TestClient, path: str, status: int) -> None:
    assert_problem(client.get(path), status)


def test_search_highlights_match_words_in_every_language(client: TestClient) -> None:
    hits = client.get("/search", params={"q": "beneficial owner"}).json()
    assert hits, "expected English hits"
    for hit in hits:
        assert hit["language"] == "en"
        marked = [hit["snippet"][a:b].lower() for a, b in hit["highlights"]]
        assert "beneficial" in marked or "beneficial owner" in " ".join(marked)
    if SEEDS.is_dir():
        pt = client.get("/search", params={"q": "beneficiario efectivo", "lang": "pt"}).json()
        assert pt and all(h["language"] == "pt" for h in pt)
        assert any("efectivo" in h["snippet"][a:b] for h in pt for a, b in h["highlights"])


def test_search_topic_and_treaty_filters(client: TestClient) -> None:
    hits = client.get("/search", params={"q": "taxed", "topic": "interest", "treaty": "pt-cy-test"}).json()
    assert hits and {h["topic"] for h in hits} == {"interest"} and {h["treaty"] for h in hits} == {"pt-cy-test"}


def test_rates_matrix_has_a_row_per_treaty_and_direction(client: TestClient) -> None:
    wait_for_rates(client)
    rows = client.get("/rates").json()
    assert {r["treaty"] for r in rows} >= {"pt-cy-test"}
    for row in rows:
        for cell in row["cells"].values():
            assert cell["status"] in ("determined", "indeterminate", "not_covered")
            assert cell["max_rate_pct"] is not None or cell["status"] != "determined" or cell["source_taxation"] != "limited", cell
            assert {cell["scenario"]["source"], cell["scenario"]["residence"]} == {row["source"], row["residence"]}
    only_cy = client.get("/rates", params={"country": "cy"}).json()
    assert {(r["treaty"], r["source"], r["residence"]) for r in only_cy} == {("pt-cy-test", "PT", "CY"), ("pt-cy-test", "CY", "PT")}


def test_rates_are_computed_once_per_change_of_the_corpus(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from taxtreaty.interfaces.http import rates as rates_module

    calls = []
    real_build = rates_module.build
    monkeypatch.setattr(rates_module, "build", lambda *a: calls.append(1) or real_build(*a))
    client.app.state.backend._rate_table = None  # a fresh table for this test
    wait_for_rates(client)
    first = client.get("/rates").json()
    assert client.get("/rates").json() == first and client.get("/rates", params={"country": "CY"}).status_code == 200
    assert len(calls) == 1  # several requests, one build


def test_health_and_openapi(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    spec = client.get("/openapi.json").json()
    for path in ("/treaties", "/treaties/{treaty_id}", "/treaties/{treaty_id}/articles/{number}", "/search",
                 "/rates", "/ask", "/ledger"):
        assert path in spec["paths"], path
    ask = spec["paths"]["/ask"]["post"]
    assert ask["summary"] and "422" in ask["responses"]
    schema = spec["components"]["schemas"]["Scenario"]
    from taxtreaty.rules.facts import fact_schema

    assert list(schema["properties"]) == list(fact_schema().keys)  # one definition: the fact schema
    assert schema["properties"]["capital_pct"]["description"] == fact_schema()["capital_pct"].help
    assert schema.get("additionalProperties") is False and schema.get("examples")
    assert not any(p.startswith("/web") for p in spec["paths"])


# -- /ask ---------------------------------------------------------------------------------------


def test_ask_returns_decision_with_links_into_the_reader(client: TestClient, fake_rules: None) -> None:
    scenario = {"income": "dividends", "source": "cy", "residence": "PT", "beneficial_owner": True,
                "recipient": "company", "capital_pct": 30, "held_months": 26, "date": "2024-05-01"}
    body = client.post("/ask", json=scenario).json()
    assert body["treaty"] == "pt-cy-test" and body["status"] == "determined" and body["max_rate_pct"] == "10"
    step = body["trace"][0]
    assert step["eid"] == "art_10__para_2" and step["href"] == "/web/treaties/pt-cy-test#en-art_10__para_2"


def test_ask_indeterminate_names_missing_fact(client: TestClient, fake_rules: None) -> None:
    body = client.post("/ask?treaty=pt-cy-test", json={"income": "dividends", "source": "CY", "residence": "PT"}).json()
    assert body["status"] == "indeterminate" and body["missing_facts"] == ["held_months"]


@pytest.mark.parametrize(("payload", "fragment"), [
    ('{"income": "dividends", "source": "CY"', "json"),  # malformed JSON
    ('{"income": "dividends", "source": "CY", "residence": "PT", "colour": "red"}', "colour"),  # unknown key
    ('{"income": "wages", "source": "CY", "residence": "PT"}', "income"),
    ('{"income": "dividends", "source": "CYP", "residence": "PT"}', "source"),
    ('{"income": "dividends", "source": "CY", "residence": "PT", "capital_pct": 130}', "capital_pct"),
    ('{"income": "dividends", "source": "CY", "residence": "PT", "date": "1998-02-30"}', "date"),
    ('[1, 2]', ""),
])
def test_ask_bad_scenarios_are_422(client: TestClient, fake_rules: None, payload: str, fragment: str) -> None:
    body = assert_problem(client.post("/ask", content=payload, headers={"content-type": "application/json"}), 422)
    assert fragment in json.dumps(body).lower()


def test_ask_unknown_treaty_or_pair_is_404(client: TestClient, fake_rules: None) -> None:
    assert_problem(client.post("/ask?treaty=nope", json={"income": "interest", "source": "CY", "residence": "PT"}), 404)
    body = assert_problem(client.post("/ask", json={"income": "interest", "source": "FR", "residence": "DE"}), 404)
    assert "FR" in body["detail"] and "DE" in body["detail"]


def test_ask_engine_errors_never_leak_a_stack_trace(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(treaty: Any, facts: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("secret internal detail /etc/passwd")

    monkeypatch.setattr(service, "_rules_decide", lambda: broken)
    monkeypatch.setattr(service, "treaty_rules", lambda backend, tid, parties=None: backend.documents(tid)[0])
    response = client.post("/ask", json={"income": "interest", "source": "CY", "residence": "PT"})
    body = assert_problem(response, 500)
    assert "secret" not in response.text and body["incident"]


# -- /ledger ------------------------------------------------------------------------------------

LEDGER = ("income,source,residence,amount,beneficial_owner,recipient,capital_pct,held_months,date\n"
          "dividends,CY,PT,1000,yes,company,30,26,2024-05-01\n"
          "dividends,CY,PT,250.50,yes,company,30,26,2024-05-01\n"
          "dividends,CY,PT,80,yes,company,30,,2024-05-01\n"
          "wages,CY,PT,10,,,,,\n"
          "dividends,FR,DE,10,,,,,\n")


LEDGER_HEADER = ("treaty,status,source_taxation,max_rate_pct,withholding,withholding_minor,article,eid,"
                 "missing_facts,reason")


def test_ledger_adds_rate_withholding_citation_and_keeps_every_row(client: TestClient) -> None:
    response = client.post("/ledger", content=LEDGER, headers={"content-type": "text/csv"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert (response.headers["x-ledger-rows"], response.headers["x-ledger-rejected"]) == ("5", "1")
    lines = response.text.strip().split("\n")
    assert lines[0].endswith("," + LEDGER_HEADER)
    assert len(lines) == 6
    # the rate paragraph's eId (not the relief article's), withholding rounded down
    assert lines[1].endswith(",pt-cy-test,determined,limited,10,100.00,10000,10,art_10__para_2__point_a,,")
    assert ",determined,limited,10,25.05,2505," in lines[2]
    assert ",malformed," in lines[4] and "line 5: income:" in lines[4] and "'wages'" in lines[4]
    assert ",not_covered," in lines[5] and "FR and DE" in lines[5]
    assert response.headers["x-ledger-missing-facts"] == ""  # no row is open


def test_ledger_names_the_facts_its_open_rows_turn_on(client: TestClient) -> None:
    open_rows = LEDGER.split("\n")[0] + "\n" + "dividends,CY,PT,1000,,company,30,26,2024-05-01\n" * 3
    response = client.post("/ledger", content=open_rows, headers={"content-type": "text/csv"})
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.text)))
    counted: dict[str, int] = {}
    for row in rows:
        assert row["status"] == "indeterminate"
        for fact in filter(None, row["missing_facts"].split(",")):
            counted[fact] = counted.get(fact, 0) + 1
    assert counted.get("beneficial_owner") == 3
    header = dict(item.split("=") for item in response.headers["x-ledger-missing-facts"].split(","))
    assert {fact: int(n) for fact, n in header.items()} == counted


def test_ledger_accepts_multipart_upload(client: TestClient) -> None:
    response = client.post("/ledger", files={"file": ("payments.csv", LEDGER.encode(), "text/csv")})
    assert response.status_code == 200 and response.text.count("\n") == 6


@pytest.mark.parametrize(("body", "ctype", "status", "words"), [
    ("", "text/csv", 422, "empty"),
    ("amount,date\n1,2\n", "text/csv", 422, "missing column 'income'"),
    ("income,source,residence,status\ndividends,CY,PT,x\n", "text/csv", 422, "'status'"),
    ("income,source,residence,source\ndividends,CY,PT,PT\n", "text/csv", 422, "'source' twice"),
    ("income,source,residence\n", "application/json", 415, "text/csv"),
    ("\x16\ufffd=\r^", "text/csv", 422, "missing column 'income'"),  # a lone carriage return (schemathesis)
    ('"income\n', "text/csv", 422, "missing column"),
    ("PAR1 cut short", "application/vnd.apache.parquet", 422, "not a readable Parquet file"),
])
def test_ledger_bad_uploads(client: TestClient, body: str, ctype: str, status: int, words: str) -> None:
    problem = assert_problem(client.post("/ledger", content=body.encode(), headers={"content-type": ctype}), status)
    assert words in problem["detail"]


def test_ledger_answers_in_the_format_asked_and_refuses_others(client: TestClient) -> None:
    import io

    import pyarrow.parquet as pq

    csv_headers = {"content-type": "text/csv"}
    parquet = client.post("/ledger?format=parquet", content=LEDGER.encode(), headers=csv_headers)
    assert parquet.status_code == 200 and parquet.content[:4] == b"PAR1"
    plain = client.post("/ledger", content=LEDGER.encode(), headers=csv_headers)
    assert pq.read_table(io.BytesIO(parquet.content)).num_rows == plain.text.count("\n") - 1 > 0
    assert_problem(client.post("/ledger?format=xlsx", content=LEDGER.encode(), headers=csv_headers), 422)
    # a Parquet answer uploaded again is read as a ledger (its added columns are refused by name)
    problem = assert_problem(client.post("/ledger", content=parquet.content,
                                         headers={"content-type": "application/vnd.apache.parquet"}), 422)
    assert "'treaty'" in problem["detail"]


def test_ledger_bad_lines_are_rows_not_errors(client: TestClient) -> None:
    body = ('income,source,residence,amount\n"dividends,CY,PT\n'  # a quote never closed
            "dividends,CY,PT,10,extra\n"
            "dividends,CY,PT,10\n")
    response = client.post("/ledger", content=body.encode(), headers={"content-type": "text/csv"})
    assert response.status_code == 200, response.text
    assert int(response.headers["x-ledger-rejected"]) >= 1
    assert "malformed" in response.text


def test_ledger_latin1_and_semicolons_with_decimal_commas(client: TestClient) -> None:
    body = "income;source;residence;amount;memo\ndividends;CY;PT;1.000,99;São Tomé\n".encode("latin-1")
    response = client.post("/ledger", content=body, headers={"content-type": "text/csv"})
    assert response.status_code == 200, response.text
    assert response.content.startswith("\ufeff".encode())  # the input was not UTF-8: a BOM for spreadsheets
    row = response.content.decode("utf-8-sig").splitlines()[1].split(";")
    assert row[4] == "São Tomé"
    assert row[5:7] == ["pt-cy-test", "determined"] or row[6] == "indeterminate"


def test_ledger_too_large_is_413_declared_and_streamed(backend: MemoryBackend) -> None:
    small = TestClient(create_app(backend=backend, token=TOKEN,
                                  limits=Limits(body_bytes_by_path={"/ledger": 1000, "/treaties": 1000})))
    big = "income,source,residence\n" + "dividends,CY,PT\n" * 200
    body = assert_problem(small.post("/ledger", content=big, headers={"content-type": "text/csv"}), 413)
    assert "1000" in body["detail"]

    def chunks():  # no Content-Length: the limit is enforced while the body streams in
        for _ in range(50):
            yield b"dividends,CY,PT\n" * 10

    assert_problem(small.post("/ledger", content=chunks(), headers={"content-type": "text/csv"}), 413)


def test_ledger_row_limit(backend: MemoryBackend) -> None:
    limited = TestClient(create_app(backend=backend, token=TOKEN, limits=Limits(ledger_rows=3)))
    body = assert_problem(limited.post("/ledger", content=LEDGER, headers={"content-type": "text/csv"}), 422)
    assert "3 rows" in body["detail"]


# -- POST /treaties ---------------------------------------------------------------------------

SYNTHETIC = HOSTILE.replace("CYPRUS", "MALTA").replace("Dividends paid", "Dividends so paid")


def test_ingest_needs_the_token_and_adds_once(client: TestClient, backend: MemoryBackend) -> None:
    before = backend.fingerprint()
    payload = {"text": SYNTHETIC, "name": "pt-mt.txt"}
    assert_problem(client.post("/treaties", json=payload), 401)
    assert client.post("/treaties", json=payload).headers["www-authenticate"].startswith("Bearer")
    assert_problem(client.post("/treaties", json=payload, headers={"Authorization": "Bearer wrong"}), 403)
    assert_problem(client.post("/treaties", json=payload, headers={"Authorization": "Basic " + TOKEN}), 401)
    assert backend.fingerprint() == before

    auth = {"Authorization": f"Bearer {TOKEN}"}
    first = client.post("/treaties", json=payload, headers=auth)
    assert first.status_code == 201 and first.json()["status"] == "added"
    treaty = first.json()["treaty"]
    assert treaty == "pt-mt"
    again = client.post("/treaties", json=payload, headers=auth)
    assert again.status_code == 201 and again.json()["status"] == "skipped"
    assert client.get(f"/treaties/{treaty}").json()["parties"] == ["PT", "MT"]


@pytest.mark.parametrize(("payload", "status"), [
    ('{"text": "x"', 422),
    ('{"text": ""}', 422),
    ('{"text": "Article 1", "extra": 1}', 422),
    ('{"text": "Article 1", "treaty": "../etc"}', 422),
    ('"just a string"', 422),
])
def test_ingest_bad_bodies_change_nothing(client: TestClient, backend: MemoryBackend, payload: str, status: int) -> None:
    before = backend.fingerprint()
    assert_problem(client.post("/treaties", content=payload,
                               headers={"Authorization": f"Bearer {TOKEN}", "content-type": "application/json"}), status)
    assert backend.fingerprint() == before


def test_ingest_too_large_is_413_and_changes_nothing(backend: MemoryBackend) -> None:
    small = TestClient(create_app(backend=backend, token=TOKEN, limits=Limits(body_bytes_by_path={"/treaties": 2000})))
    before = backend.fingerprint()
    payload = {"text": SYNTHETIC * 5}
    assert_problem(small.post("/treaties", json=payload, headers={"Authorization": f"Bearer {TOKEN}"}), 413)
    assert backend.fingerprint() == before


def test_ingest_disabled_without_a_token(backend: MemoryBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAXTREATY_API_TOKEN", raising=False)
    closed = TestClient(create_app(backend=backend))
    before = backend.fingerprint()
    body = assert_problem(closed.post("/treaties", json={"text": SYNTHETIC},
                                      headers={"Authorization": "Bearer anything"}), 403)
    assert "TAXTREATY_API_TOKEN" in body["detail"]
    assert backend.fingerprint() == before
    monkeypatch.setenv("TAXTREATY_API_TOKEN", "from-env")
    opened = TestClient(create_app(backend=backend))
    assert opened.post("/treaties", json={"text": SYNTHETIC}, headers={"Authorization": "Bearer from-env"}).status_code == 201


def test_unknown_route_and_method_are_problems(client: TestClient) -> None:
    assert_problem(client.get("/nope"), 404)
    assert_problem(client.delete("/treaties"), 405)


def test_slow_work_is_cut_at_the_time_limit(backend: MemoryBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    slow = TestClient(create_app(backend=backend, token=TOKEN, limits=Limits(seconds=0.2)))
    monkeypatch.setattr(backend, "list_treaties", lambda: time.sleep(1) or [])
    body = assert_problem(slow.get("/treaties"), 504)
    assert "0.2" in body["detail"]


def test_every_response_has_a_request_id_and_logs_are_json(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    from taxtreaty.interfaces.http.logs import JsonFormatter

    with caplog.at_level("INFO", logger="taxtreaty.http"):
        response = client.get("/treaties/pt-cy-test")
    assert len(response.headers["x-request-id"]) == 16
    records = [r for r in caplog.records if r.getMessage() == "request"]
    assert records
    line = json.loads(JsonFormatter().format(records[-1]))
    assert line["path"] == "/treaties/pt-cy-test" and line["status"] == 200 and line["request_id"] == response.headers["x-request-id"]


def test_ledger_over_the_time_limit_is_504(backend: MemoryBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from taxtreaty.interfaces.http import ledger as http_ledger

    real = http_ledger.treaty_book

    def slow(*args: Any) -> Any:
        time.sleep(1.0)
        return real(*args)

    monkeypatch.setattr(http_ledger, "treaty_book", slow)
    limited = TestClient(create_app(backend=backend, token=TOKEN, limits=Limits(seconds=0.5)))
    rows = "income,source,residence,held_months\n" + "".join(f"dividends,CY,PT,{m}\n" for m in range(6))
    body = assert_problem(limited.post("/ledger", content=rows, headers={"content-type": "text/csv"}), 504)
    assert "0.5" in body["detail"]
