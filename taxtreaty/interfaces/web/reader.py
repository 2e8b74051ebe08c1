"""The reader's view model: a treaty's language versions aligned article by article and
paragraph by paragraph on their eIds, with damage notes, divergences and one highlighted quote."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from taxtreaty.structure import Document
from taxtreaty.structure.model import Article, Paragraph, Point, Version

#: parser warnings that say words are missing from the source, shown on the node they name
DAMAGE = {
    "list_items_missing": "list items missing from the source",
    "text_truncated": "the text stops here in the source",
    "article_incomplete": "the text starts inside this article",
    "paragraph_incomplete": "this paragraph is incomplete in the source",
}


@dataclass
class Highlight:
    language: str
    eid: str
    quote: str


@dataclass
class Cell:
    language: str
    node: Paragraph | None
    notes: list[str] = field(default_factory=list)
    divergence: str | None = None


@dataclass
class Row:
    eid: str
    number: str | None
    cells: list[Cell]

    @property
    def divergent(self) -> bool:
        return any(c.divergence for c in self.cells)


@dataclass
class ArticleView:
    eid: str
    number: str
    chapter: str | None
    headings: dict[str, str | None]
    topic: str | None
    notes: dict[str, list[str]]
    incomplete: dict[str, bool]
    rows: list[Row]


@dataclass
class ChapterView:
    eid: str | None
    title: str
    articles: list[ArticleView]


def _versions(docs: list[Document], languages: list[str]) -> dict[str, list[tuple[Document, Version]]]:
    out: dict[str, list[tuple[Document, Version]]] = {}
    for doc in docs:
        for v in doc.versions:
            if v.language in languages:
                out.setdefault(v.language, []).append((doc, v))
    return out


def _notes(docs: list[Document]) -> dict[tuple[str | None, str | None], list[str]]:
    notes: dict[tuple[str | None, str | None], list[str]] = {}
    for doc in docs:
        for w in doc.warnings:
            if w.code in DAMAGE:
                notes.setdefault((w.language, w.eid), []).append(w.message or DAMAGE[w.code])
    return notes


def build(docs: list[Document], languages: list[str], divergences: list[Any]) -> list[ChapterView]:
    """Chapters -> articles -> aligned rows, in the order of the first language's text."""
    versions = _versions(docs, languages)
    notes = _notes(docs)
    diverging: dict[str, str] = {}
    for d in divergences:
        diverging[d.eid] = d.message
    order: list[str] = []
    articles: dict[str, dict[str, Article]] = {}
    chapters: dict[str, str | None] = {}
    chapter_titles: dict[str, str] = {}
    for lang in languages:
        for _doc, v in versions.get(lang, []):
            for c in v.chapters:
                chapter_titles.setdefault(c.eid, f"Chapter {c.number}" + (f" — {c.heading}" if c.heading else ""))
            for a in v.articles:
                if a.eid not in articles:
                    order.append(a.eid)
                    articles[a.eid] = {}
                    chapters[a.eid] = a.chapter
                articles[a.eid].setdefault(lang, a)
    views: list[ChapterView] = []
    for eid in order:
        by_lang = articles[eid]
        para_order: list[tuple[str, str | None]] = []
        paras: dict[str, dict[str, Paragraph]] = {}
        for lang in languages:
            article = by_lang.get(lang)
            for p in article.paragraphs if article else []:
                if p.eid not in paras:
                    para_order.append((p.eid, p.number))
                    paras[p.eid] = {}
                paras[p.eid][lang] = p
        rows = []
        for peid, number in para_order:
            cells = []
            for lang in languages:
                node = paras[peid].get(lang)
                cell_notes = list(notes.get((lang, peid), []))
                if node is not None and not node.complete and not cell_notes:
                    cell_notes.append(DAMAGE["paragraph_incomplete"])
                cells.append(Cell(lang, node, cell_notes, diverging.get(peid)))
            rows.append(Row(peid, number, cells))
        first = next(iter(by_lang.values()))
        view = ArticleView(
            eid=eid, number=first.number, chapter=chapters[eid],
            headings={lang: (by_lang[lang].heading if lang in by_lang else None) for lang in languages},
            topic=first.topic,
            notes={lang: notes.get((lang, eid), []) for lang in languages},
            incomplete={lang: (lang in by_lang and not by_lang[lang].complete) for lang in languages},
            rows=rows,
        )
        chapter = chapters[eid]
        if not views or views[-1].eid != chapter:
            views.append(ChapterView(chapter, chapter_titles.get(chapter or "", "") if chapter else "", []))
        views[-1].articles.append(view)
    return views


@dataclass
class ProtocolView:
    eid: str
    headings: dict[str, str | None]
    rows: list[Row]


def build_protocols(docs: list[Document], languages: list[str]) -> list[ProtocolView]:
    """Protocols printed after the convention, aligned across languages like the articles."""
    versions = _versions(docs, languages)
    notes = _notes(docs)
    order: list[str] = []
    found: dict[str, dict[str, Any]] = {}
    for lang in languages:
        for _doc, v in versions.get(lang, []):
            for protocol in v.protocols:
                if protocol.eid not in found:
                    order.append(protocol.eid)
                    found[protocol.eid] = {}
                found[protocol.eid].setdefault(lang, protocol)
    views = []
    for eid in order:
        by_lang = found[eid]
        para_order: list[tuple[str, str | None]] = []
        paras: dict[str, dict[str, Paragraph]] = {}
        for lang in languages:
            for p in by_lang[lang].paragraphs if lang in by_lang else []:
                if p.eid not in paras:
                    para_order.append((p.eid, p.number))
                    paras[p.eid] = {}
                paras[p.eid][lang] = p
        rows = [Row(peid, number, [Cell(lang, paras[peid].get(lang), list(notes.get((lang, peid), [])))
                                   for lang in languages]) for peid, number in para_order]
        views.append(ProtocolView(eid, {lang: by_lang[lang].heading if lang in by_lang else None for lang in languages}, rows))
    return views


_HL = re.compile(r"^(?P<lang>[a-z]{2}):(?P<eid>[A-Za-z0-9_]+):(?P<start>\d+)-(?P<end>\d+)$")


def highlight_from(param: str | None, docs: list[Document]) -> Highlight | None:
    """`lang:eid:start-end` -> the quote at that span of the file holding that node."""
    m = _HL.match(param or "")
    if not m:
        return None
    start, end = int(m["start"]), int(m["end"])
    for doc in docs:
        node = doc.find(m["eid"], m["lang"])
        if node is not None and 0 <= start < end <= len(doc.original):
            return Highlight(m["lang"], m["eid"], doc.original[start:end])
    return None


def segments(text: str, quote: str | None) -> list[tuple[str, bool]]:
    """`text` split into (piece, highlighted) pairs around `quote` (whitespace-tolerant)."""
    if not quote:
        return [(text, False)]
    words = quote.split()
    if not words:
        return [(text, False)]
    pattern = r"\s*".join(re.escape(w) for w in words)
    m = re.search(pattern, text)
    if m is None:
        return [(text, False)]
    return [(text[: m.start()], False), (m.group(0), True), (text[m.end():], False)]


def point_body(p: Point) -> str:
    """A point's own words when it has sub-points (its intro), else its text."""
    return (p.intro or "") if p.points else p.text


def version_language_order(docs: list[Document]) -> list[str]:
    """Languages in the order they appear, the prevailing one first."""
    langs: list[str] = []
    for doc in docs:
        for v in doc.versions:
            if v.language not in langs:
                langs.append(v.language)
    prevailing = next((d.prevailing_language for d in docs if d.prevailing_language), None)
    if prevailing in langs:
        langs.remove(prevailing)
        langs.insert(0, prevailing)
    return langs
