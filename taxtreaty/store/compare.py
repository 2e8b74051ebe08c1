"""Compare two treaties article by article, aligned by topic (article numbers differ).

For each topic: the two articles, the withholding caps and other figures of each with their
conditions and citations, what differs, and, when both texts are in the same language, a
word-level diff.
"""

from __future__ import annotations

import difflib
from decimal import Decimal, InvalidOperation
from typing import Any

import regex
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from taxtreaty import vocab
from taxtreaty.provisions.model import Provision
from taxtreaty.store.provisions import (
    describe_conditions,
    extraction_missing,
    pct,
    topic_articles,
    treaty_provisions,
)
from taxtreaty.store.queries import _languages, resolve_treaty
from taxtreaty.store.schema import ArticleRow, Passage, Treaty
from taxtreaty.structure.model import Document as ParsedDocument
from taxtreaty.text import InputError

_TOKEN = regex.compile(r"\S+")
#: provision kinds that carry figures worth comparing
_FIGURE_KINDS = ("withholding_cap", "exemption", "threshold", "allocation", "time_limit", "relief_method")


class FigureView(BaseModel):
    kind: str
    status: str
    value: str
    conditions: str
    reason: str | None
    eid: str
    language: str
    quote: str


class SideView(BaseModel):
    treaty: str
    language: str | None
    article: str | None
    heading: str | None
    eid: str | None
    complete: bool | None
    figures: list[FigureView] = Field(default_factory=list)
    note: str | None = None


class TopicComparison(BaseModel):
    topic: str
    a: SideView
    b: SideView
    same: bool
    differences: list[str] = Field(default_factory=list)
    #: word diff, "[-removed-]" / "{+added+}", only for same-language pairs
    diff: str | None = None


class Comparison(BaseModel):
    a: str
    b: str
    a_title: str
    b_title: str
    topics: list[TopicComparison]


def _figure(p: Provision) -> FigureView:
    if p.kind == "withholding_cap" or p.rate_pct is not None:
        value = pct(p.rate_pct) if p.status == "determined" else "?"
    elif p.allocation:
        value = p.allocation
    elif p.values:
        value = ", ".join(f"{k} {v}" for k, v in p.values.items())
    else:
        value = p.kind
    return FigureView(kind=p.kind, status=p.status, value=value, conditions=describe_conditions(p.conditions, topic=p.topic),
                      reason=p.reason, eid=p.cite.eid, language=p.cite.language, quote=p.cite.quote)


def _choose_language(langs_a: list[str], langs_b: list[str], pref_a: str | None, pref_b: str | None) -> tuple[str | None, str | None]:
    shared = [lang for lang in langs_a if lang in langs_b]
    if shared:
        for pref in (pref_a, pref_b):
            if pref in shared:
                return pref, pref
        return shared[0], shared[0]
    pick_a = pref_a if pref_a in langs_a else (langs_a[0] if langs_a else None)
    pick_b = pref_b if pref_b in langs_b else (langs_b[0] if langs_b else None)
    return pick_a, pick_b


def _side(connection: Session, t: Treaty, language: str | None, topic: str,
          articles: dict[str, list[ArticleRow]]) -> SideView:
    rows = articles.get(topic) or []
    if not rows:
        return SideView(treaty=t.id, language=language, article=None, heading=None, eid=None, complete=None,
                        note="no article on this topic in the stored text")
    row = rows[0]
    if extraction_missing(connection, t.id):
        return SideView(treaty=t.id, language=language, article=row.number, heading=row.heading, eid=row.eid,
                        complete=row.complete, note="provisions were not extracted from this text: figures unknown")
    figures = [_figure(p) for p in treaty_provisions(connection, t.id, topic, language) if p.kind in _FIGURE_KINDS]
    note = None if row.complete else "the stored text of this article is incomplete"
    return SideView(treaty=t.id, language=language, article=row.number, heading=row.heading, eid=row.eid,
                    complete=row.complete, figures=figures, note=note)


def _document_side(treaty: str, text: tuple[ParsedDocument, Any], language: str | None, topic: str) -> tuple[SideView, str]:
    """`_side` of a parsed document and its provisions (the text in effect on a day, `compare
    --as-of`), with the article's words for the diff."""
    doc, provisions = text
    version = next((v for v in doc.versions if v.language == language), None)
    article = next((a for a in version.articles if a.topic == topic), None) if version is not None else None
    if article is None:
        return SideView(treaty=treaty, language=language, article=None, heading=None, eid=None, complete=None,
                        note="no article on this topic in the text in effect that day"), ""
    figures = [_figure(p) for p in provisions.provisions
               if p.topic == topic and p.cite.language == language and p.kind in _FIGURE_KINDS]
    note = None if article.complete else "the text of this article is incomplete"
    side = SideView(treaty=treaty, language=language, article=article.number, heading=article.heading, eid=article.eid,
                    complete=article.complete, figures=figures, note=note)
    return side, "\n".join(p.text for p in article.paragraphs)


def _article_text(connection: Session, article_id: int) -> str:
    return "\n".join(connection.execute(select(Passage.text).where(Passage.article_id == article_id)
                                        .order_by(Passage.position)).scalars())


def word_diff(old: str, new: str) -> str:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=[vocab.fold(w) for w in a], b=[vocab.fold(w) for w in b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out.append(" ".join(b[j1:j2]))
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


def _rate_key(value: str) -> tuple[int, Decimal]:
    try:
        return 0, Decimal(value.rstrip("%"))
    except InvalidOperation:
        return 1, Decimal(0)


def _differences(a: SideView, b: SideView) -> list[str]:
    if a.article is None or b.article is None:
        missing = a if a.article is None else b
        return [f"{missing.treaty}: {missing.note}"]
    notes = [f"{s.treaty}: {s.note}" for s in (a, b) if s.note]
    caps_a = sorted((f.value, f.conditions) for f in a.figures if f.kind == "withholding_cap")
    caps_b = sorted((f.value, f.conditions) for f in b.figures if f.kind == "withholding_cap")
    rates_a, rates_b = sorted({v for v, _ in caps_a}, key=_rate_key), sorted({v for v, _ in caps_b}, key=_rate_key)
    if rates_a != rates_b:
        notes.append(f"rates: {' / '.join(rates_a) or '-'} against {' / '.join(rates_b) or '-'}")
    elif caps_a != caps_b:
        notes.append(f"same rates ({' / '.join(rates_a)}) on different conditions")
    other_a = sorted((f.kind, f.value, f.conditions) for f in a.figures if f.kind != "withholding_cap")
    other_b = sorted((f.kind, f.value, f.conditions) for f in b.figures if f.kind != "withholding_cap")
    for label, mine, theirs in (("A", other_a, other_b), ("B", other_b, other_a)):
        for kind, value, conditions in sorted(set(mine) - set(theirs)):
            notes.append(f"only in {label}: {kind.replace('_', ' ')} {value} ({conditions})")
    unknown = [s.treaty for s in (a, b) if any(f.status == "unknown" for f in s.figures)]
    for name in unknown:
        notes.append(f"{name}: some figures are unknown (source text incomplete)")
    return notes


def compare(connection: Session, ref_a: str, ref_b: str, topic: str | None = None,
            texts: dict[str, tuple[ParsedDocument, Any]] | None = None) -> Comparison:
    """The two stored treaties compared; `texts` (treaty id -> a parsed document and its
    provisions) replaces a treaty's stored text by another, such as the version in effect on a day."""
    if topic is not None and topic not in vocab.topic_keys():
        raise InputError(f"unknown topic {topic!r} (one of: {', '.join(vocab.topic_keys())})")
    ta, tb = resolve_treaty(connection, ref_a), resolve_treaty(connection, ref_b)
    if ta.id == tb.id:
        raise InputError("compare needs two different treaties")
    texts = texts or {}

    def languages(t: Treaty) -> list[str]:
        return [v.language for v in texts[t.id][0].versions] if t.id in texts else _languages(connection, t.id)

    def topics_of(t: Treaty, language: str | None) -> set[str]:
        if t.id in texts:
            return {a.topic for v in texts[t.id][0].versions if v.language == language for a in v.articles if a.topic}
        return set(topic_articles(connection, t.id, language))

    lang_a, lang_b = _choose_language(languages(ta), languages(tb), ta.prevailing_language, tb.prevailing_language)
    arts_a = topic_articles(connection, ta.id, lang_a) if ta.id not in texts else {}
    arts_b = topic_articles(connection, tb.id, lang_b) if tb.id not in texts else {}
    present = topics_of(ta, lang_a) | topics_of(tb, lang_b)
    topics = [topic] if topic else [k for k in vocab.topic_keys() if k in present]

    def side(t: Treaty, language: str | None, name: str, arts: dict[str, list[ArticleRow]]) -> tuple[SideView, str | None]:
        if t.id in texts:
            return _document_side(t.id, texts[t.id], language, name)
        found = _side(connection, t, language, name, arts)
        return found, (_article_text(connection, arts[name][0].id) if found.article else None)

    result = []
    for name in topics:
        (a, text_a), (b, text_b) = side(ta, lang_a, name, arts_a), side(tb, lang_b, name, arts_b)
        differences = _differences(a, b)
        diff = None
        if lang_a == lang_b and a.article and b.article:
            diff = word_diff(text_a or "", text_b or "")
        result.append(TopicComparison(topic=name, a=a, b=b, same=not differences and (diff is None or ("[-" not in diff
                                      and "{+" not in diff)), differences=differences, diff=diff))
    return Comparison(a=ta.id, b=tb.id, a_title=ta.title, b_title=tb.title, topics=result)
