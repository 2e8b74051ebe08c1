"""A gazette's web page to its text: the HTML the BOE, the Diário da República or a treaty
collection serves, read as the page shows it.

Guarantees: only a document that declares itself HTML (a doctype, an `<html>` or a `<body>` tag
near its start) is converted, so a markdown text with an inline `<br>` stays as it is; scripts,
styles, the head and comments are left out; every block (paragraph, heading, list item, table
row, division) starts a line of its own and blocks are apart by a blank line, as a gazette's
paragraphs are; the white space inside a block is one space, as a browser shows it (a `<pre>` keeps
its line breaks; every line loses its margins); entities are characters. The result is the document's text: spans count its
characters. lxml parses; it neither fetches nor expands anything outside the page.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml import html as lxml_html

#: how far into a file the HTML markers are looked for (a long comment or BOM may come first)
_SNIFF_CHARS = 4096
_HTML_MARK = re.compile(r"<!doctype\s+html|<html[\s>]|<body[\s>]", re.IGNORECASE)

#: the elements a browser lays out as blocks: each starts a line of the text
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "caption", "dd", "div", "dl", "dt", "fieldset", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol",
    "p", "pre", "section", "table", "tbody", "tfoot", "thead", "tr", "ul",
})
#: cells of a row are apart by a space (a signature block laid out as a table)
_CELLS = frozenset({"td", "th"})
_LEFT_OUT = "//script|//style|//noscript|//template|//head|//comment()"
_SPACE = re.compile(r"\s+")
_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")


def looks_like_html(text: str) -> bool:
    """The text declares itself a web page (doctype, `<html>` or `<body>` near its start)."""
    return bool(_HTML_MARK.search(text[:_SNIFF_CHARS]))


def _in_pre(element: etree._Element) -> bool:
    return any(ancestor.tag == "pre" for ancestor in element.iterancestors())


def html_to_text(page: str) -> str:
    """The text a browser shows of `page`, one block a paragraph; '' when it shows none."""
    try:
        root = lxml_html.document_fromstring(page)
    except (etree.ParserError, ValueError):
        return ""
    for node in root.xpath(_LEFT_OUT):
        tail = node.tail
        parent = node.getparent()
        if parent is None:
            continue
        # the words after a dropped node stay where they were
        previous = node.getprevious()
        if tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        parent.remove(node)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        keep = element.tag == "pre" or _in_pre(element)
        if element.text and not keep:
            element.text = _SPACE.sub(" ", element.text)
        if element.tail and not _in_pre(element):
            element.tail = _SPACE.sub(" ", element.tail)
        if element.tag == "br":
            element.tail = "\n" + (element.tail or "")
        elif element.tag in _CELLS:
            element.tail = " " + (element.tail or "")
        elif element.tag in _BLOCKS:
            element.text = "\n\n" + (element.text or "")
            element.tail = "\n\n" + (element.tail or "")
    text = root.text_content()
    lines = [line.strip(" \t") for line in text.split("\n")]
    return _BLANK_RUN.sub("\n\n", "\n".join(lines)).strip() + "\n"


__all__ = ["html_to_text", "looks_like_html"]
