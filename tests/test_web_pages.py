"""The workbench pages rendered through the test client: escaping, alignment of language
versions by eId, damage and divergence marks, highlighted quotes, the ask form and its trace
links, search highlights, the rates matrix, and the accessibility basics."""

from __future__ import annotations

import re
from typing import Any

import lxml.html
import pytest
from conftest import SEEDS, wait_for_rates
from fastapi.testclient import TestClient

from taxtreaty.interfaces.http import MemoryBackend, create_app, service
from taxtreaty.interfaces.http.demo import memory_backend
from taxtreaty.interfaces.web import pages, reader
from taxtreaty.provisions.model import Citation, Divergence, Provision, ProvisionSet
from taxtreaty.rules.facts import fact_schema
from taxtreaty.structure import parse
from taxtreaty.text import InputError

HOSTILE = """CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE REPUBLIC OF CYPRUS FOR THE AVOIDANCE OF DOUBLE TAXATION

Article 10
Dividends
1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State. <script>alert(1)</script> & "quoted" «term» <img src=x onerror=alert(2)>
2. However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident, but the tax so charged shall not exceed 15 per cent of the gross amount of the dividends. Alert: <b>bold</b>

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
"""

#: a synthetic bilingual convention (Spanish then English) with a divergent figure
BILINGUAL = """CONVENIO ENTRE LA REPÚBLICA PORTUGUESA Y EL REINO DE ESPAÑA

Artículo 11
Intereses
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado Contratante del que procedan, pero el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.

CONVENTION BETWEEN THE PORTUGUESE REPUBLIC AND THE KINGDOM OF SPAIN

Article 11
Interest
1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.
2. However, such interest may also be taxed in the Contracting State in which it arises, but the tax so charged shall not exceed 12 per cent of the gross amount of the interest.
"""


@pytest.fixture(scope="module")
def parsed_corpus() -> MemoryBackend:
    b = memory_backend([SEEDS]) if SEEDS.is_dir() else MemoryBackend()
    b.ingest(HOSTILE.encode(), "hostile.txt", "pt-cy-test")
    return b


@pytest.fixture()
def backend(parsed_corpus: MemoryBackend) -> MemoryBackend:
    return parsed_corpus.copy()


@pytest.fixture()
def client(backend: MemoryBackend) -> TestClient:
    return TestClient(create_app(backend=backend, token="t"))


def html(response: Any) -> lxml.html.HtmlElement:
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"].startswith("text/html")
    return lxml.html.fromstring(response.text)


def assert_inert(text: str) -> None:
    """The injected markup is shown as text, never as elements."""
    assert "<script>alert" not in text and "<img src=x" not in text and "<b>bold" not in text
    page = lxml.html.fromstring(text)
    assert not page.xpath("//script[contains(., 'alert')]") and not page.xpath("//img[@onerror]")
    assert not page.xpath("//main//b")


def test_list_page_shows_parties_dates_languages_status(client: TestClient) -> None:
    page = html(client.get("/web/"))
    rows = page.xpath("//table[contains(@class,'treaties')]/tbody/tr")
    by_id = {r.xpath(".//small")[0].text_content(): r for r in rows}
    assert "PT – CY" in by_id["pt-cy-test"].text_content()
    if SEEDS.is_dir():
        tl = by_id["pt-tl-2011"].text_content()
        assert "PT – TL" in tl and "2011-09-27" in tl and "Lisboa" in tl and "fragment" in tl
        assert by_id["pt-tl-2011"].xpath(".//span[@class='lang']/text()") == ["pt", "en"]
    assert client.get("/", follow_redirects=False).headers["location"] == "/web/"


def test_injected_markup_stays_inert_in_every_page(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    reader_page = client.get("/web/treaties/pt-cy-test")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in reader_page.text
    assert "«term»" in reader_page.text and "&amp;" in reader_page.text
    wait_for_rates(client)
    for response in (reader_page, client.get("/web/"), client.get("/web/search?q=alert"),
                     client.get("/web/search?q=<script>alert(3)</script>"), client.get("/web/rates"),
                     client.get("/web/treaties/pt-cy-test?lang=en")):
        assert response.status_code == 200
        assert_inert(response.text)
    assert "&lt;script&gt;" in client.get("/web/search?q=alert").text

    def quoting_decide(treaty: Any, facts: dict[str, Any]) -> dict[str, Any]:
        node = treaty.find("art_10__para_1")
        return {"status": "determined", "max_rate_pct": "15", "trace": [
            {"eid": node.eid, "language": "en", "quote": treaty.quote_at(node.span), "effect": "<i>x</i>"}]}

    monkeypatch.setattr(service, "_rules_decide", lambda: quoting_decide)
    monkeypatch.setattr(service, "treaty_rules", lambda backend, tid, parties=None: backend.documents(tid)[0])
    answer = client.post("/web/ask", data={"treaty": "pt-cy-test", "income": "dividends", "source": "CY",
                                           "residence": "PT", "recipient_name": "<script>alert(4)</script>"})
    assert answer.status_code == 200 and "&lt;script&gt;alert(1)" in answer.text
    assert_inert(answer.text)
    assert "<i>x</i>" not in answer.text


def test_reader_aligns_bilingual_versions_paragraph_by_eid(client: TestClient) -> None:
    if not SEEDS.is_dir():
        pytest.skip("seeds not available")
    page = html(client.get("/web/treaties/pt-tl-2011"))
    row = page.get_element_by_id("art_10__para_2")
    cells = row.xpath("./div[contains(@class,'cell')]")
    assert [c.get("id") for c in cells] == ["pt-art_10__para_2", "en-art_10__para_2"]
    assert [c.get("lang") for c in cells] == ["pt", "en"]
    assert "não excederá" in cells[0].text_content() or "nao excedera" in cells[0].text_content().lower()
    assert "shall not exceed" in cells[1].text_content()
    # the lost list items are marked as such in both versions
    assert all("damaged" in c.get("class") for c in cells)
    assert all(c.xpath(".//p[@class='damage']") for c in cells)
    # the English text has fewer articles: its cells there say so instead of going blank
    missing = page.get_element_by_id("en-art_20__para_nn_1") if page.xpath("//*[@id='en-art_20__para_nn_1']") else None
    if missing is not None:
        assert "Not in this version" in missing.text_content()
    # chapters and article anchors
    assert page.xpath("//section[@id='chp_III']//section[@id='art_10']")
    assert page.xpath("//nav[@aria-label='Articles']//a[@href='#art_10']")


def test_reader_language_switch_shows_one_version(client: TestClient) -> None:
    if not SEEDS.is_dir():
        pytest.skip("seeds not available")
    page = html(client.get("/web/treaties/pt-tl-2011?lang=en"))
    ids = page.xpath("//div[contains(@class,'cell')]/@id")
    assert ids and all(i.startswith("en-") for i in ids)
    current = page.xpath("//nav[@aria-label='Language versions']//a[@aria-current='page']")
    assert [a.get("data-lang") for a in current] == ["en"]
    assert not page.xpath("//*[@id='art_12__para_6']")  # the English text stops in article 12


def test_reader_shows_protocols_after_the_articles(backend: MemoryBackend) -> None:
    text = HOSTILE + """
PROTOCOL
At the moment of signing the Convention the undersigned have agreed that the following provisions shall form an integral part of the Convention.
1. Ad Article 10 It is understood that the term <dividends> includes «distributions» & more.
"""
    backend.ingest(text.encode(), "with-protocol.txt", "pt-cy-protocol")
    client = TestClient(create_app(backend=backend, token="t"))
    detail = client.get("/treaties/pt-cy-protocol").json()
    protocols = detail["versions"][0]["protocols"]
    assert protocols and protocols[0]["eid"].startswith("protocol_")
    page = html(client.get("/web/treaties/pt-cy-protocol"))
    section = page.get_element_by_id(protocols[0]["eid"])
    assert "protocol" in section.get("class") and "term <dividends> includes «distributions» & more" in section.text_content()
    assert page.xpath(f"//nav[@aria-label='Articles']//a[@href='#{protocols[0]['eid']}']")
    assert_inert(client.get("/web/treaties/pt-cy-protocol").text)


def test_reader_unknown_treaty_is_a_404_page(client: TestClient) -> None:
    response = client.get("/web/treaties/nope")
    assert response.status_code == 404 and "no treaty" in response.text


def test_web_errors_are_pages_and_api_errors_stay_problems(client: TestClient) -> None:
    for path, status in (("/web/nothing-here", 404), ("/web/search?q=" + "x" * 300, 422)):
        response = client.get(path)
        assert response.status_code == status and response.headers["content-type"].startswith("text/html")
        assert lxml.html.fromstring(response.text).xpath("//p[@role='alert']")
        assert "Traceback" not in response.text
    api = client.get("/nothing-here")
    assert api.status_code == 404 and api.headers["content-type"].startswith("application/problem+json")


def test_highlight_marks_the_quote_at_its_span(client: TestClient, backend: MemoryBackend) -> None:
    doc = backend.documents("pt-cy-test")[0]
    node = doc.find("art_10__para_2", "en")
    start = doc.original.index("the tax so charged")
    end = doc.original.index("dividends. Alert") + len("dividends")
    page = html(client.get(f"/web/treaties/pt-cy-test?hl=en:art_10__para_2:{start}-{end}"))
    marks = page.xpath("//mark[@class='quote']")
    assert len(marks) == 1 and marks[0].text_content().startswith("the tax so charged shall not exceed 15 per cent")
    assert marks[0].xpath("ancestor::div[@id='en-art_10__para_2']")
    assert node is not None
    # a bad or foreign highlight parameter is ignored, never an error
    for bad in ("en:art_10__para_2:90-10", "xx", "en:art_99:1-5", "en:art_10__para_2:0-999999999"):
        assert not html(client.get(f"/web/treaties/pt-cy-test?hl={bad}")).xpath("//mark")


def test_segments_tolerate_whitespace_differences() -> None:
    assert reader.segments("a  b\nc d", "b c") == [("a  ", False), ("b\nc", True), (" d", False)]
    assert reader.segments("abc", "zz") == [("abc", False)]
    assert reader.segments("abc", None) == [("abc", False)]


def test_provisions_panel_links_each_fact_to_its_highlighted_quote(client: TestClient, backend: MemoryBackend,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    doc = backend.documents("pt-cy-test")[0]
    start = doc.original.index("shall not exceed 15 per cent")
    end = start + len("shall not exceed 15 per cent")
    cap = Provision(id="en:art_10__para_2:withholding_cap:1", topic="dividends", kind="withholding_cap",
                    rate_pct=15, cite=Citation(language="en", eid="art_10__para_2", quote=doc.original[start:end],
                                               span=(start, end)))
    monkeypatch.setattr(pages, "provisions_of", lambda d: ProvisionSet(parties=["PT", "CY"], provisions=[cap]))
    page = html(client.get("/web/treaties/pt-cy-test"))
    links = page.xpath("//aside[contains(@class,'provisions')]//a")
    assert len(links) == 1 and "15 %" in links[0].text_content()
    href = links[0].get("href")
    assert href.endswith("#en-art_10__para_2") and f"hl=en:art_10__para_2:{start}-{end}" in href
    target = html(client.get(href.split("#")[0]))
    assert target.xpath("//div[@id='en-art_10__para_2']//mark")[0].text_content() == "shall not exceed 15 per cent"


def test_provisions_panel_reads_conditions_and_allocations_in_words(client: TestClient, backend: MemoryBackend,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    doc = backend.documents("pt-cy-test")[0]
    start = doc.original.index("shall not exceed 15 per cent")
    cite = Citation(language="en", eid="art_10__para_2", quote=doc.original[start:start + 10], span=(start, start + 10))
    cap = Provision(id="en:art_10__para_2:withholding_cap:1", topic="dividends", kind="withholding_cap", rate_pct=5,
                    conditions={"beneficial_owner": True, "recipient": "partnership_excluded_company",
                                "min_capital_pct": 25, "capital_basis": "capital", "holding_direct": True},
                    cite=cite)
    rule = Provision(id="en:art_10__para_2:allocation:1", topic="dividends", kind="allocation",
                     allocation="source_may_tax", cite=cite)
    monkeypatch.setattr(pages, "provisions_of", lambda d: ProvisionSet(parties=["PT", "CY"], provisions=[cap, rule]))
    panel = html(client.get("/web/treaties/pt-cy-test")).xpath("//aside[contains(@class,'provisions')]")[0].text_content()
    assert "a company (other than a partnership)" in panel
    assert "the recipient holds at least 25% of the paying company's capital" in panel
    assert "the source State may tax" in panel and "Dividends · who may tax" in " ".join(panel.split())
    for raw in ("partnership_excluded_company", "withholding_cap", "min_capital_pct", "holding_direct", "source_may_tax", "True"):
        assert raw not in panel


def test_divergences_are_highlighted_on_the_aligned_row() -> None:
    doc = parse(BILINGUAL.encode())
    assert [v.language for v in doc.versions] == ["es", "en"]
    es = doc.find("art_11__para_2", "es")
    en = doc.find("art_11__para_2", "en")
    cites = [Citation(language=lang, eid="art_11__para_2", quote=doc.quote_at(n.span), span=n.span)
             for lang, n in (("es", es), ("en", en))]
    divergence = Divergence(eid="art_11__para_2", what="rate", values={"es": "10", "en": "12"}, cites=cites,
                            prevailing_language=None, message="the cap is 10% in es but 12% in en")
    chapters = reader.build([doc], ["es", "en"], [divergence])
    rows = {r.eid: r for ch in chapters for a in ch.articles for r in a.rows}
    assert rows["art_11__para_2"].divergent and not rows["art_11__para_1"].divergent
    assert [c.language for c in rows["art_11__para_2"].cells] == ["es", "en"]
    backend = MemoryBackend()
    backend.ingest(BILINGUAL.encode(), "es-en.txt", "pt-es-test")
    client = TestClient(create_app(backend=backend, token="t"))
    import taxtreaty.interfaces.web.pages as pages_module

    original = pages_module.provisions_of
    pages_module.provisions_of = lambda d: ProvisionSet(divergences=[divergence])
    try:
        page = html(client.get("/web/treaties/pt-es-test"))
    finally:
        pages_module.provisions_of = original
    row = page.get_element_by_id("art_11__para_2")
    assert "divergent" in row.get("class")
    assert "10% in es but 12% in en" in row.text_content()
    assert page.xpath("//div[@class='divergence-summary']//a[@href='#art_11__para_2']")


def test_ask_form_is_labelled_and_decides_with_trace_links(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    form = html(client.get("/web/ask?treaty=pt-cy-test"))
    fields = form.xpath("//form[@class='ask']//input | //form[@class='ask']//select")
    assert len(fields) == len(fact_schema().keys) + 2  # every fact of the schema, the treaty and its parties
    for field in fields:
        assert form.xpath(f"//label[@for='{field.get('id')}']"), field.get("name")
    assert form.xpath("//select[@id='treaty']/option[@selected]/@value") == ["pt-cy-test"]

    def fake(treaty: Any, facts: dict[str, Any]) -> dict[str, Any]:
        assert facts == {"income": "dividends", "source": "CY", "residence": "PT", "beneficial_owner": True,
                         "recipient": "company", "capital_pct": "30", "held_months": 26}
        node = treaty.find("art_10__para_2")
        return {"status": "determined", "max_rate_pct": "15", "article_applied": "Art. 10(2)",
                "trace": [{"eid": node.eid, "language": "en", "quote": "the tax so charged", "effect": "cap 15%"}]}

    monkeypatch.setattr(service, "_rules_decide", lambda: fake)
    monkeypatch.setattr(service, "treaty_rules", lambda backend, tid, parties=None: backend.documents(tid)[0])
    page = html(client.post("/web/ask", data={"treaty": "", "income": "dividends", "source": "cy", "residence": "PT",
                                              "beneficial_owner": "yes", "recipient": "company", "capital_pct": "30",
                                              "held_months": "26", "pe_connected": "unknown", "date": ""}))
    links = page.xpath("//ol[@class='trace']//a[@class='trace-link']")
    assert [a.get("href") for a in links] == ["/web/treaties/pt-cy-test#en-art_10__para_2"]
    assert "15 %" in page.xpath("//section[contains(@class,'decision')]")[0].text_content()
    # the form keeps what was typed
    assert page.xpath("//input[@id='capital_pct']/@value") == ["30"]


@pytest.mark.parametrize(("data", "status", "message"), [
    ({"income": "wages", "source": "CY", "residence": "PT"}, 422, "income"),
    ({"income": "dividends", "source": "CYP", "residence": "PT"}, 422, "source"),
    ({"income": "dividends", "source": "FR", "residence": "DE"}, 404, "no treaty between FR and DE"),
    ({"income": "dividends", "source": "CY", "residence": "PT", "parties": "PT"}, 422, "parties"),
])
def test_ask_form_errors_are_shown_not_thrown(client: TestClient, data: dict[str, str], status: int, message: str) -> None:
    response = client.post("/web/ask", data=data)
    assert response.status_code == status
    alert = lxml.html.fromstring(response.text).xpath("//div[@role='alert']")[0].text_content()
    assert message in alert


def test_search_page_highlights_hits_and_links_into_the_reader(client: TestClient) -> None:
    page = html(client.get("/web/search?q=taxed&topic=interest"))
    items = page.xpath("//ol[@class='hits']/li")
    assert items
    for item in items:
        assert re.match(r"/web/treaties/[\w-]+#[a-z]{2}-art_11__", item.xpath(".//a/@href")[0])
        assert item.xpath(".//mark")[0].text_content().lower() == "taxed"
    assert "0 results" in html(client.get("/web/search?q=zzzzqqq")).text_content()


def test_search_and_rates_pages_explain_bad_input(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> list[Any]:
        raise InputError("unknown topic 'zzz' (one of: dividends, ...)")

    monkeypatch.setattr(client.app.state.backend, "search", refuse)
    response = client.get("/web/search?q=tax&topic=zzz")
    assert response.status_code == 422 and response.headers["content-type"].startswith("text/html")
    assert "unknown topic" in lxml.html.fromstring(response.text).xpath("//*[@role='alert']")[0].text_content()
    rates = client.get("/web/rates?country=X1")
    assert rates.status_code == 422 and "two-letter ISO code" in rates.text


def test_rates_page_shows_the_decisions_and_links_them(client: TestClient) -> None:
    wait_for_rates(client)
    rows = [r for r in client.get("/rates", params={"country": "CY"}).json()]
    page = html(client.get("/web/rates?country=CY"))
    lines = page.xpath("//table[contains(@class,'rates')]/tbody/tr")
    assert len(lines) == len(rows) == 2
    for line, row in zip(lines, rows, strict=True):
        cells = line.xpath("./td")
        assert cells[0].text_content().strip() == f"{row['source']} → {row['residence']}"
        portfolio = row["cells"]["dividends: portfolio"]
        assert portfolio["shown"] in cells[1].text_content()
        if portfolio["eid"]:
            assert cells[1].xpath(".//a/@href") == [f"/web/treaties/pt-cy-test#{portfolio['language']}-{portfolio['eid']}"]


def test_pages_have_landmarks_skip_link_and_viewport(client: TestClient) -> None:
    wait_for_rates(client)
    for path in ("/web/", "/web/treaties/pt-cy-test", "/web/ask", "/web/rates", "/web/search?q=tax"):
        page = html(client.get(path))
        assert page.xpath("//header[@role='banner']") and page.xpath("//main[@id='main']")
        assert page.xpath("//nav[@aria-label='Main']") and page.xpath("//form[@role='search']//label[@for='site-q']")
        assert page.xpath("//a[@class='skip' and @href='#main']")
        assert page.xpath("//meta[@name='viewport']")
        assert len(page.xpath("//h1")) == 1


def test_pages_forbid_inline_scripts_and_styles(client: TestClient) -> None:
    for path in ("/web/", "/web/treaties/pt-cy-test", "/web/ask", "/web/treaties/nope"):
        response = client.get(path)
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "'unsafe-inline'" not in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        page = lxml.html.fromstring(response.text)
        assert not page.xpath("//*[@style]") and not page.xpath("//script[not(@src)]") and not page.xpath("//style")


def test_static_files_are_served(client: TestClient) -> None:
    css = client.get("/static/style.css")
    assert css.status_code == 200 and ":focus-visible" in css.text and "@media (max-width: 760px)" in css.text
    assert client.get("/static/app.js").status_code == 200


def test_every_corpus_convention_renders_with_all_its_articles(corpus_dir: Any) -> None:
    """Conventions the workbench was not written against: every one reads, with an anchor per
    article and per paragraph, and its detail lists the same articles."""
    corpus = memory_backend([corpus_dir])
    client = TestClient(create_app(backend=corpus, token="t"))
    treaties = client.get("/treaties").json()
    assert len(treaties) >= 10
    for treaty in treaties:
        if all(not d.versions and d.instrument is not None for d in corpus.documents(treaty["id"])):
            continue  # an amending protocol filed alone (AR-DE 1996): its changes, no articles of its own
        detail = client.get(f"/treaties/{treaty['id']}").json()
        ids = set(html(client.get(f"/web/treaties/{treaty['id']}")).xpath("//@id"))
        articles = {a["eid"] for v in detail["versions"] for a in v["articles"]}
        assert articles and articles <= ids, (treaty["id"], sorted(articles - ids)[:5])
        first = corpus.documents(treaty["id"])[0].versions[0]
        cells = {f"{first.language}-{p.eid}" for a in first.articles for p in a.paragraphs}
        assert cells <= ids, (treaty["id"], sorted(cells - ids)[:5])
