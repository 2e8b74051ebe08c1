"""The ask page in a practitioner's words and its printable decision memo (issue 12)."""

from __future__ import annotations

import lxml.html
import pytest
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import MemoryBackend, create_app
from taxtreaty.rules.facts import fact_schema

TEXT = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF CYPRUS

Article 12
Royalties

1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.

2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall not exceed:

a) 5 per cent of the gross amount of the royalties paid for the use of, or the right to use, industrial, commercial or scientific equipment;

b) 10 per cent of the gross amount of the royalties in all other cases.
"""

ROYALTY = {"treaty": "pt-cy-roy", "income": "royalties", "source": "CY", "residence": "PT", "beneficial_owner": "yes"}


@pytest.fixture()
def client() -> TestClient:
    backend = MemoryBackend()
    backend.ingest(TEXT.encode(), "pt-cy-roy.txt", "pt-cy-roy")
    return TestClient(create_app(backend=backend, token="t"))


def main_text(response) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == 200, response.text[:500]
    return lxml.html.fromstring(response.text).xpath("//main")[0].text_content()


def test_the_ask_form_takes_every_fact_of_the_schema(client: TestClient) -> None:
    page = lxml.html.fromstring(client.get("/web/ask").text)
    names = set(page.xpath("//form[@class='ask']//*[self::input or self::select]/@name"))
    assert set(fact_schema().keys) <= names


def test_an_open_answer_asks_in_words_and_each_answer_says_where_it_leads(client: TestClient) -> None:
    text = main_text(client.post("/web/ask", data=ROYALTY))
    assert fact_schema()["royalty_kind"].question in text
    assert "at most 5%" in text and "at most 10%" in text
    assert "missing_facts" not in text and "royalty_kind" not in text
    given = main_text(client.post("/web/ask", data={**ROYALTY, "royalty_kind": "equipment"}))
    assert "at most 5% of the gross amount" in given


def test_the_printable_memo_page(client: TestClient) -> None:
    text = main_text(client.post("/web/ask/memo", data=ROYALTY))
    for words in ("Royalties paid from CY to a resident of PT", "Answer", "Facts given", "Open questions",
                  "The words of the convention", fact_schema()["royalty_kind"].question,
                  "the recipient is the beneficial owner of the income"):
        assert words in text, words
    for raw in ("None", "True", "False", "royalty_kind", "beneficial_owner", "unread_condition"):
        assert raw not in text, raw
