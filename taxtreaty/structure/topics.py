"""Map an article to its OECD Model topic from its heading and, failing that, its content.

The vocabularies are in `data/topics.yaml`. Headings are compared whole (OCR-tolerant, with
rapidfuzz) and then by keyword; the body is used only when the heading is missing or says
nothing, and then only when one topic clearly leads.
"""

from __future__ import annotations

from functools import cache

import regex
from rapidfuzz import fuzz, process

from taxtreaty import vocab

_NON_WORD = regex.compile(r"[^\p{L}\d ]+")
_SPACES = regex.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACES.sub(" ", _NON_WORD.sub(" ", vocab.fold(text))).strip()


@cache
def _tables() -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    headings, keywords, content = [], [], []
    for topic in vocab.topics():
        for lang, items in (topic.get("headings") or {}).items():
            headings += [(topic["key"], lang, _norm(h)) for h in items]
        for lang, items in (topic.get("heading_keywords") or {}).items():
            keywords += [(topic["key"], lang, _norm(k)) for k in items]
        for lang, items in (topic.get("content") or {}).items():
            content += [(topic["key"], lang, _norm(c)) for c in items]
    return headings, keywords, content


@cache
def _heading_choices() -> list[str]:
    """The known headings alone, in the order of `_tables()`'s: what a heading is compared with."""
    return [candidate for _, _, candidate in _tables()[0]]


@cache
def _keyword_patterns() -> list[tuple[str, str, regex.Pattern[str]]]:
    """Each heading keyword as a pattern matching at the start of a word."""
    _, keywords, _ = _tables()
    return [(key, lang, regex.compile(rf"(?:^| ){regex.escape(kw)}")) for key, lang, kw in keywords]


def topic_from_heading(heading: str, language: str | None = None) -> tuple[str | None, float]:
    """(topic, score 0..100) for an article heading; languages other than `language` count less."""
    h = _norm(heading)
    if not h:
        return None, 0.0
    headings, _, _ = _tables()
    choices = _heading_choices()
    # whole-heading similarity over every known heading (one C loop), then the penalty for a
    # heading of another language
    best: tuple[str | None, float] = (None, 0.0)
    for _choice, score, index in process.extract(h, choices, scorer=fuzz.ratio, limit=20, score_cutoff=70):
        key, lang, _ = headings[index]
        if language and lang != language:
            score -= 5
        if score > best[1]:
            best = (key, score)
    if best[1] >= 85:
        return best
    for key, lang, pattern in _keyword_patterns():  # first listed topic wins
        if pattern.search(h):
            return key, 80.0 if (not language or lang == language) else 75.0
    return None, best[1]


def topic_from_content(text: str, language: str | None = None) -> tuple[str | None, float]:
    """(topic, hits) from the article body, when one topic's phrases clearly lead."""
    body = _norm(text[:6000])
    if not body:
        return None, 0.0
    _, _, content = _tables()
    hits: dict[str, float] = {}
    for key, lang, phrase in content:
        if language and lang != language:
            continue
        n = body.count(phrase)
        if n:
            # longer phrases are stronger evidence than single words
            hits[key] = hits.get(key, 0.0) + n * (1 + phrase.count(" "))
    if not hits:
        return None, 0.0
    ranked = sorted(hits.items(), key=lambda kv: kv[1], reverse=True)
    top_key, top = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0.0
    if top >= 2 and top >= 1.5 * runner:
        return top_key, top
    return None, top


@cache
def _no_topic_headings() -> frozenset[str]:
    return frozenset(_norm(h) for items in vocab.no_topic_headings().values() for h in items)


def classify_article(heading: str | None, body: str, language: str | None) -> str | None:
    if heading:
        topic, _ = topic_from_heading(heading, language)
        if topic:
            return topic
        if _norm(heading) in _no_topic_headings():
            return None  # "FUENTE DE LA RENTA": a heading no topic has, whatever incomes its body names
    topic, _ = topic_from_content(body, language)
    return topic
