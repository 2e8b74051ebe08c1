"""The workbench as a place to work: uploads and downloads (issue 15)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from conftest import wait_for_rates
from fastapi.testclient import TestClient
from test_web_pages import HOSTILE

from taxtreaty.interfaces.http import create_app
from taxtreaty.interfaces.http.backend import MemoryBackend

SYNTHETIC = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF MALTA

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed 10 per cent of the gross amount of the dividends.
"""


@pytest.fixture()
def client() -> TestClient:
    backend = MemoryBackend()
    backend.ingest(HOSTILE.encode(), "hostile.txt", "pt-cy-test")
    return TestClient(create_app(backend=backend, token="secret"))


def _alert(response: Any) -> str:
    return lxml.html.fromstring(response.text).xpath("//*[@role='alert' or @role='status']")[0].text_content()


def test_upload_a_treaty_with_the_token(client: TestClient) -> None:
    form = client.get("/web/upload")
    assert form.status_code == 200 and 'action="/web/upload/treaty"' in form.text and 'action="/ledger"' in form.text
    added = client.post("/web/upload/treaty", data={"token": "secret", "treaty": "pt-mt-test"},
                        files={"file": ("pt-mt.txt", SYNTHETIC.encode(), "text/plain")})
    assert added.status_code == 200 and "Added as" in _alert(added) and "/web/treaties/pt-mt-test" in added.text
    assert "pt-mt-test" in [t["id"] for t in client.get("/treaties").json()]
    again = client.post("/web/upload/treaty", data={"token": "secret", "treaty": "pt-mt-test"},
                        files={"file": ("x.txt", SYNTHETIC.encode())})
    assert "Already in the corpus" in _alert(again)


@pytest.mark.parametrize(("data", "files", "status", "message"), [
    ({"token": "wrong"}, {"file": ("a.txt", SYNTHETIC.encode())}, 403, "not the one this server was started with"),
    ({"token": "secret"}, {"file": ("a.txt", b"")}, 422, "could not be read"),
    ({"token": "secret"}, {"file": ("bin.txt", bytes(range(256)) * 40)}, 422, "could not be read"),
    ({"token": "secret"}, {}, 422, "Choose the file"),
])
def test_upload_refusals_are_in_plain_words_and_change_nothing(client: TestClient, data, files, status, message) -> None:  # type: ignore[no-untyped-def]
    before = client.get("/treaties").json()
    response = client.post("/web/upload/treaty", data=data, files=files or None)
    assert response.status_code == status and message in _alert(response)
    assert "?treaty=" not in response.text and "Traceback" not in response.text
    assert client.get("/treaties").json() == before


ACT = Path(__file__).resolve().parent / "cases" / "treaties" / "gazette_en_ca_act_ca_se_ca_lt.txt"


def test_upload_of_a_file_holding_several_conventions_names_them_and_reads_the_one_chosen(client: TestClient) -> None:
    # the refusal told a web user to give "--convention N", which a form cannot; the form has the field now
    act = ACT.read_bytes()
    refused = client.post("/web/upload/treaty", data={"token": "secret"}, files={"file": ("act.txt", act)})
    message = _alert(refused)
    assert refused.status_code == 422 and "holds 2 conventions" in message and "Convention in the file" in message
    assert "--convention" not in message
    bad = client.post("/web/upload/treaty", data={"token": "secret", "convention": "two"}, files={"file": ("act.txt", act)})
    assert bad.status_code == 422 and "its number in the file" in _alert(bad)
    before = {t["id"] for t in client.get("/treaties").json()}
    added = client.post("/web/upload/treaty", data={"token": "secret", "convention": "2", "treaty": "ca-lt-test"},
                        files={"file": ("act.txt", act)})
    assert added.status_code == 200 and "Added as" in _alert(added)
    (new,) = [t for t in client.get("/treaties").json() if t["id"] not in before]
    assert new["id"] == "ca-lt-test" and sorted(new["parties"]) == ["CA", "LT"]


def test_upload_is_refused_when_the_server_has_no_token() -> None:
    client = TestClient(create_app(backend=MemoryBackend(), token=""))
    assert "started without an API token" in client.get("/web/upload").text
    response = client.post("/web/upload/treaty", data={"token": "x"}, files={"file": ("a.txt", SYNTHETIC.encode())})
    assert response.status_code == 403 and "started without an API token" in _alert(response)


def test_the_ledger_form_posts_to_the_one_ledger(client: TestClient) -> None:
    ledger = "income,source,residence,beneficial_owner,recipient,amount\ndividends,CY,PT,yes,individual,1000.00\n"
    response = client.post("/ledger", files={"file": ("payments.csv", ledger.encode(), "text/csv")})
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert rows[0]["max_rate_pct"] == "15" and rows[0]["treaty"] == "pt-cy-test"


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "md"])
def test_rates_download_has_the_pages_cells(client: TestClient, fmt: str) -> None:
    wait_for_rates(client)
    cells = [c for r in client.get("/rates").json() for c in [*r["cells"].values(), *r["notes"]]]
    response = client.get(f"/web/rates/download?format={fmt}")
    assert response.status_code == 200 and f'filename="rates.{fmt}"' in response.headers["content-disposition"]
    if fmt == "csv":
        lines = list(csv.DictReader(io.StringIO(response.text)))
    elif fmt == "md":
        table = [line.strip("|").split(" | ") for line in response.text.splitlines() if not line.startswith("|---")]
        lines = [dict(zip([h.strip() for h in table[0]], [v.strip() for v in row], strict=True)) for row in table[1:]]
    else:
        from openpyxl import load_workbook

        sheet = load_workbook(io.BytesIO(response.content)).active
        values = [[("" if v is None else str(v)) for v in row] for row in sheet.iter_rows(values_only=True)]
        lines = [dict(zip(values[0], row, strict=True)) for row in values[1:]]
    assert len(lines) == len(cells)
    for line, cell in zip(lines, cells, strict=True):
        assert (line["treaty"], line["source"], line["status"], line["max_rate_pct"] or None) == \
            (cell["treaty"], cell["source"], cell["status"], cell["max_rate_pct"])


def test_rates_download_refuses_an_unknown_format(client: TestClient) -> None:
    response = client.get("/web/rates/download?format=pdf")
    assert response.status_code == 422 and "CSV, XLSX or Markdown" in response.text


def test_ask_without_a_treaty_explains_in_a_users_words(client: TestClient) -> None:
    response = client.post("/web/ask", data={"income": "dividends", "source": "FR", "residence": "DE"})
    assert response.status_code == 404
    assert "There is no treaty between FR and DE in this corpus" in response.text and "?treaty=" not in response.text


FRONT = """---
identifier: "LEY-99999"
publication_date: "1999-01-02"
gazette_number: "12345"
source: "{source}"
---
""" + SYNTHETIC


@pytest.mark.parametrize(("source", "linked"), [("https://example.org/ley.htm", True), ("javascript:alert(1)", False)])
def test_treaty_page_shows_publication_dates_and_a_safe_source_link(source: str, linked: bool) -> None:
    backend = MemoryBackend()
    backend.ingest(FRONT.format(source=source).encode(), "pt-mt.txt", "pt-mt-pub")
    client = TestClient(create_app(backend=backend, token=""))
    page = lxml.html.fromstring(client.get("/web/treaties/pt-mt-pub").text)
    facts = {dt.text_content(): dd.text_content() for dt, dd in zip(page.xpath("//dl[@class='treaty-facts']/dt"),
                                                                      page.xpath("//dl[@class='treaty-facts']/dd"), strict=True)}
    assert "LEY-99999" in facts["Published"] and "12345" in facts["Published"] and "1999-01-02" in facts["Published"]
    assert "Has effect for payments" in facts
    assert bool(page.xpath(f"//dl[@class='treaty-facts']//a[@href='{source}']")) is linked
    assert ("Source" in facts) is linked


def test_front_matter_is_publication_data_not_articles() -> None:
    import taxtreaty

    doc = taxtreaty.parse(FRONT.format(source="https://example.org/x"))
    assert doc.publication == {"reference": "LEY-99999", "published": "1999-01-02", "gazette": "12345",
                               "source_url": "https://example.org/x"}
    assert [a.number for a in doc.versions[0].articles] == ["10"]
    assert taxtreaty.parse("---\n: not yaml [\n---\n" + SYNTHETIC).publication == {}


def test_a_text_with_no_articles_read_is_not_complete() -> None:
    from taxtreaty.interfaces.http.backend import treaty_status

    assert treaty_status(0, False) == "no articles read"
    assert treaty_status(12, True) == "fragment" and treaty_status(12, False) == "complete"
