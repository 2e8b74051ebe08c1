"""Compare two treaties article by article, aligned by topic (article numbers differ).

For each topic: the two articles, the withholding caps and other figures of each with their
conditions and citations, what differs, and, when both texts are in the same language, a
word-level diff.
"""

from __future__ import annotations

import difflib
from decimal import Decimal, InvalidOperation

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
    return FigureView(kind=p.kind, status=p.status, value=value, conditions=describe_conditions(p.conditions),
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


def compare(connection: Session, ref_a: str, ref_b: str, topic: str | None = None) -> Comparison:
    if topic is not None and topic not in vocab.topic_keys():
        raise InputError(f"unknown topic {topic!r} (one of: {', '.join(vocab.topic_keys())})")
    ta, tb = resolve_treaty(connection, ref_a), resolve_treaty(connection, ref_b)
    if ta.id == tb.id:
        raise InputError("compare needs two different treaties")
    lang_a, lang_b = _choose_language(_languages(connection, ta.id), _languages(connection, tb.id),
                                      ta.prevailing_language, tb.prevailing_language)
    arts_a, arts_b = topic_articles(connection, ta.id, lang_a), topic_articles(connection, tb.id, lang_b)
    topics = [topic] if topic else [k for k in vocab.topic_keys() if k in arts_a or k in arts_b]
    result = []
    for name in topics:
        a, b = _side(connection, ta, lang_a, name, arts_a), _side(connection, tb, lang_b, name, arts_b)
        differences = _differences(a, b)
        diff = None
        if lang_a == lang_b and a.article and b.article:
            diff = word_diff(_article_text(connection, arts_a[name][0].id), _article_text(connection, arts_b[name][0].id))
        result.append(TopicComparison(topic=name, a=a, b=b, same=not differences and (diff is None or ("[-" not in diff
                                      and "{+" not in diff)), differences=differences, diff=diff))
    return Comparison(a=ta.id, b=tb.id, a_title=ta.title, b_title=tb.title, topics=result)
