"""A gazette's web page as input (text/markup.py): the HTML the BOE, the Diário da República or a
treaty collection serves is read as the page shows it, and gives the answers its text gives;
documents that are not text (PDF, DOCX, RTF, Word 97) are refused by name, in one line."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.text import InputError, decode_bytes
from taxtreaty.text.markup import html_to_text, looks_like_html

CONVENIO = """\
Artículo 10
Dividendos
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro
Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos dividendos pueden someterse también a imposición en el Estado Contratante en que
resida la sociedad que pague los dividendos y según la legislación de este Estado, pero si el beneficiario
efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 5 por 100 del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea
directamente al menos el 25 por 100 del capital de la sociedad que paga los dividendos;
b) 15 por 100 del importe bruto de los dividendos en los demás casos.
Artículo 11
Intereses
1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante
pueden someterse a imposición en ese otro Estado.
"""


def _as_page(text: str) -> str:
    """The convention as a gazette's web page: head, script and style, one <p> a paragraph with
    the source's own line breaks inside it, entities, a comment and a signature table."""
    blocks = text.split("\n")
    paragraphs = []
    for line in blocks:
        if not line:
            continue
        if line[:1].isdigit() or line[:2] in ("a)", "b)") or line.startswith(("Artículo", "Dividendos", "Intereses")):
            paragraphs.append(line)
        else:
            paragraphs[-1] += "\n    " + line  # a line of the source wrapped inside one <p>
    body = "\n".join(f'<p class="parrafo">{p.replace("í", "&iacute;")}</p>' for p in paragraphs)
    return (
        "<!DOCTYPE html>\n<html lang='es'><head><meta charset='utf-8'><title>BOE-A-2099-1</title>"
        "<style>p { margin: 0 }</style><script>var Art\u00edculo = 12;</script></head>\n"
        "<body><div id='textoxslt'><!-- Artículo 99 -->\n" + body +
        "<table><tr><td>Por el Reino de España</td><td>Por la República</td></tr></table>"
        "</div></body></html>"
    )


def _decision(document: taxtreaty.Document, **facts: object) -> dict:
    scenario = {"income": "dividends", "source": "AR", "residence": "ES", "date": "2024-05-01",
                "beneficial_owner": True, "recipient": "company", **facts}
    return taxtreaty.decide(document, scenario).to_dict()


def test_a_web_page_gives_the_answers_its_text_gives() -> None:
    page = taxtreaty.parse(_as_page(CONVENIO).encode("utf-8"))
    text = taxtreaty.parse(CONVENIO)
    for doc in (page, text):
        doc.parties = ["AR", "ES"]
    assert [(a.number, a.topic) for a in page.versions[0].articles] == [("10", "dividends"), ("11", "interest")]
    assert any(w.code == "web_page" for w in page.warnings)
    for held in (30, 10):
        mine, theirs = _decision(page, capital_pct=held), _decision(text, capital_pct=held)
        assert (mine["status"], mine["max_rate_pct"]) == (theirs["status"], theirs["max_rate_pct"])
    assert _decision(page, capital_pct=30)["max_rate_pct"] == "5"
    # the quote is the page's words, one space where the source wrapped inside a paragraph
    cap = next(s for s in _decision(page, capital_pct=30)["trace"] if s["eid"].endswith("point_a"))
    assert "sociedad que posea directamente al menos el 25 por 100" in cap["quote"]
    assert page.original[cap["span"][0]:cap["span"][1]] == cap["quote"]


@pytest.mark.parametrize(("page", "text"), [
    ("<html><body><p>uno\n   dos</p><p>tres</p></body></html>", "uno dos\n\ntres\n"),
    ("<html><body><p>a<br>b</p></body></html>", "a\nb\n"),
    ("<html><body><pre>x\n  y</pre></body></html>", "x\ny\n"),  # its line breaks kept, its margins not
    ("<html><head><title>t</title></head><body><script>s()</script>after<style>p{}</style></body></html>", "after\n"),
    ("<html><body>antes<!-- nota -->después</body></html>", "antesdespués\n"),
    ("<html><body><table><tr><td>Por A</td><td>Por B</td></tr></table></body></html>", "Por A Por B\n"),
    ("<html><body><p>Art&iacute;culo&nbsp;10</p></body></html>", "Artículo 10\n"),
    ("<html><body><script>only()</script></body></html>", "\n"),
])
def test_the_text_a_browser_shows(page: str, text: str) -> None:
    assert html_to_text(page) == text


@pytest.mark.parametrize(("text", "is_page"), [
    ("<!DOCTYPE html><html><body>x</body></html>", True),
    ("<?xml version='1.0'?>\n<html xmlns='http://www.w3.org/1999/xhtml'><body>x</body></html>", True),
    ("<body>\nArtículo 1\n</body>", True),
    ("ARTICULO 1<br>\nÁmbito", False),            # a markdown mirror with an inline break stays text
    ("<b>Article 10</b>\nDividends", False),
    ("Artículo 10\n" + "Los dividendos pagados. " * 200 + "<html>", False),  # past the first 4,096 characters
])
def test_only_a_document_that_declares_itself_a_page_is_converted(text: str, is_page: bool) -> None:
    assert looks_like_html(text) is is_page


@pytest.mark.parametrize(("data", "named"), [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "a PDF document"),
    (b"PK\x03\x04\x14\x00\x06\x00word/document.xml", "a ZIP archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "a Word 97-2003 document"),
    (b"{\\rtf1\\ansi\\deff0 {\\fonttbl}", "an RTF document"),
    (b"<html><body><script>x()</script></body></html>", "shows no text"),
])
def test_documents_that_are_not_text_are_refused_by_name(data: bytes, named: str) -> None:
    with pytest.raises(InputError, match=named):
        decode_bytes(data)
    with pytest.raises(InputError, match=named):
        taxtreaty.parse(data)
