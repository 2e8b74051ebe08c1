"""Ranked, accent- and OCR-tolerant, cross-language full-text search over passages.

A query is folded (case and accents) like the indexed text, split into words, and run as an
AND of OR-groups: each word OR its near spellings in the index vocabulary (OCR damage such as
"dividens" for "dividends", found with rapidfuzz). Hits come in three tiers, best first:
1. the query's own words;
2. the same phrase in the other languages (`taxtreaty/data/terms.yaml`: "beneficial owner" /
   "beneficiário efectivo" / "beneficiario efectivo");
3. articles on the topic the query names, in any language ("juros" names the interest topic,
   so the English "Interest" article is found although it never says "juros").
Within a tier, the backend's BM25-style rank orders the hits.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import regex
from pydantic import BaseModel
from rapidfuzz import fuzz, process
from sqlalchemy import bindparam, select, text
from sqlalchemy.orm import Session

from taxtreaty import vocab
from taxtreaty.store import fts
from taxtreaty.store.schema import Passage, Term, Treaty
from taxtreaty.text import InputError

_WORD = regex.compile(r"\p{L}[\p{L}-]*\p{L}|\p{L}|\d+")
#: words shorter than this are not fuzzily expanded (too many near neighbours)
_FUZZY_MIN_LENGTH = 5
_FUZZY_CUTOFF = 85
_FUZZY_LIMIT = 4
_SNIPPET_WIDTH = 240
MARK_OPEN, MARK_CLOSE = "**", "**"


class SearchHit(BaseModel):
    treaty: str
    treaty_title: str
    language: str
    eid: str
    article: str
    paragraph: str | None
    topic: str | None
    #: "text" (the query's words), "translation" (an equivalent phrase), "topic" (same topic)
    match: str
    score: float
    snippet: str
    cite: str
    span: tuple[int, int]


@dataclass(frozen=True)
class Equivalent:
    topic: str | None
    phrases: tuple[str, ...]  # folded


@cache
def equivalents() -> tuple[Equivalent, ...]:
    raw = vocab.read_data_file("terms.yaml", keys=("equivalents",))
    groups = []
    for entry in raw.get("equivalents", []):
        topic = entry.get("topic")
        phrases = tuple(vocab.fold(p) for key, values in entry.items() if key != "topic" for p in values)
        groups.append(Equivalent(topic, phrases))
    return tuple(groups)


@cache
def _stopwords() -> frozenset[str]:
    words: set[str] = set()
    for lang in vocab.languages().values():
        words |= lang.stopwords
    return frozenset(words)


@cache
def _topic_headings() -> dict[str, str]:
    """Folded heading or heading keyword -> topic, over every language."""
    table: dict[str, str] = {}
    for entry in vocab.topics():
        for field in ("headings", "heading_keywords"):
            for words in (entry.get(field) or {}).values():
                for word in words:
                    table.setdefault(vocab.fold(word), entry["key"])
    return table


def words_of(query: str) -> list[str]:
    words = _WORD.findall(vocab.fold(query))
    content = [w for w in words if w not in _stopwords()]
    return content or words


def _phrase_key(query: str) -> str:
    return " ".join(_WORD.findall(vocab.fold(query)))


class Vocabulary:
    """The index's words, bucketed by length, for fuzzy expansion of query words.

    A query word present in the index is expanded only to *rare* near spellings (OCR damage:
    "dividens" next to "dividends"), not to frequent real words of other languages
    ("dividendos"), which would only slow the query and blur it; a query word absent from the
    index (itself damaged or misspelt) may be expanded to any near word.
    """

    def __init__(self, terms: list[tuple[str, int]]) -> None:
        self.terms = {term for term, _ in terms}
        most = max((n for _, n in terms), default=1)
        self.rare_limit = max(2, most // 20)
        self.by_length: dict[int, list[str]] = {}
        self.rare_by_length: dict[int, list[str]] = {}
        for term, documents in terms:
            self.by_length.setdefault(len(term), []).append(term)
            if documents <= self.rare_limit:
                self.rare_by_length.setdefault(len(term), []).append(term)

    @classmethod
    def load(cls, connection: Session) -> Vocabulary:
        return cls([(row[0], row[1]) for row in connection.execute(select(Term.term, Term.documents))])

    def near(self, word: str) -> list[str]:
        if len(word) < _FUZZY_MIN_LENGTH:
            return []
        buckets = self.rare_by_length if word in self.terms else self.by_length
        candidates = [t for n in range(len(word) - 2, len(word) + 3) for t in buckets.get(n, ())]
        found = process.extract(word, candidates, scorer=fuzz.ratio, score_cutoff=_FUZZY_CUTOFF, limit=_FUZZY_LIMIT)
        return [term for term, _score, _ in found if term != word]


def _groups(words: list[str], vocabulary: Vocabulary | None) -> list[list[str]]:
    return [[w, *(vocabulary.near(w) if vocabulary else [])] for w in words]


def _filters(language: str | None, topic: str | None, treaty: str | None) -> tuple[str, dict[str, Any]]:
    clauses, params = [], {}
    if language:
        clauses.append("AND p.language = :language")
        params["language"] = language
    if topic:
        clauses.append("AND p.topic = :topic")
        params["topic"] = topic
    if treaty:
        clauses.append("AND p.treaty_id = :treaty")
        params["treaty"] = treaty
    return " ".join(clauses), params


def query_topics(query: str) -> set[str]:
    key = _phrase_key(query)
    topics = {eq.topic for eq in equivalents() if eq.topic and key in eq.phrases}
    if key in _topic_headings():
        topics.add(_topic_headings()[key])
    return topics


def translations(query: str) -> list[str]:
    key = _phrase_key(query)
    return sorted({p for eq in equivalents() if key in eq.phrases for p in eq.phrases if p != key})


def search(
    connection: Session,
    query: str,
    *,
    language: str | None = None,
    topic: str | None = None,
    treaty: str | None = None,
    limit: int = 20,
    vocabulary: Vocabulary | None = None,
) -> list[SearchHit]:
    words = words_of(query)
    if not words:
        raise InputError("the search query has no words")
    if limit < 1:
        raise InputError("--limit must be at least 1")
    filters, params = _filters(language, topic, treaty)
    ranked: dict[int, tuple[int, float, str, set[str]]] = {}

    def add(rows: list[tuple[int, float]], tier: int, match: str, marks: set[str]) -> None:
        for pid, score in rows:
            if pid not in ranked:
                ranked[pid] = (tier, score, match, marks)

    direct = _groups(words, vocabulary)
    add(fts.search_rows(connection, direct, filters=filters, params=params, limit=limit), 0, "text",
        {w for g in direct for w in g})
    phrases = [_groups(words_of(phrase), vocabulary) for phrase in translations(query)] if len(ranked) < limit else []
    if phrases:
        add(fts.search_any(connection, phrases, filters=filters, params=params, limit=limit), 1, "translation",
            {w for groups in phrases for g in groups for w in g})
    if len(ranked) < limit:
        for name in sorted(query_topics(query)):
            if topic and name != topic:
                continue
            add(_topic_rows(connection, name, filters, params, limit), 2, "topic", set())
    return _hits(connection, list(ranked.items()), limit)


def _topic_rows(connection: Session, name: str, filters: str, params: dict, limit: int) -> list[tuple[int, float]]:
    sql = (f"SELECT p.id FROM passages p WHERE p.topic = :topic_name {filters} "
           "ORDER BY p.treaty_id, p.language, p.article_id, p.position LIMIT :limit")
    rows = connection.execute(text(sql), {**params, "topic_name": name, "limit": limit})
    return [(int(r[0]), 0.0) for r in rows]


#: the columns a hit shows, for the ranked passage ids; built once (statement construction is
#: a measurable share of a fast query), SQLAlchemy caches its compiled form
_HIT_ROWS = (
    select(Passage.id, Passage.treaty_id, Passage.language, Passage.eid, Passage.article_number,
           Passage.paragraph_number, Passage.topic, Passage.text, Passage.span_start, Passage.span_end, Treaty.title)
    .join(Treaty, Treaty.id == Passage.treaty_id)
    .where(Passage.id.in_(bindparam("ids", expanding=True)))
)


def _hits(connection: Session, found: list[tuple[int, tuple[int, float, str, set[str]]]], limit: int) -> list[SearchHit]:
    """The best `limit` hits: by tier, then score, then a key of the content (treaty, language,
    eId), never the order passages were stored in: two stores with the same texts rank alike."""
    if not found:
        return []
    rows = {row.id: row for row in connection.execute(_HIT_ROWS, {"ids": [pid for pid, _ in found]})}
    order = sorted((item for item in found if item[0] in rows), key=lambda item: (
        item[1][0], -round(item[1][1], 9), rows[item[0]].treaty_id, rows[item[0]].language, rows[item[0]].eid))[:limit]
    hits = []
    for pid, (_tier, score, match, marks) in order:
        p = rows[pid]
        hits.append(SearchHit(
            treaty=p.treaty_id, treaty_title=p.title, language=p.language, eid=p.eid,
            article=p.article_number, paragraph=p.paragraph_number, topic=p.topic,
            match=match, score=round(score, 6), snippet=snippet(p.text, marks),
            cite=citation(p.article_number, p.paragraph_number, p.title),
            span=(p.span_start, p.span_end),
        ))
    return hits


def citation(article: str, paragraph: str | None, title: str | None = None) -> str:
    where = f"Art. {article}" + (f"({paragraph})" if paragraph else "")
    return f"{where}, {title}" if title else where


@cache
def _fold_char(char: str) -> str:
    folded = vocab.fold(char)
    return folded if len(folded) == 1 else char.lower()[:1] or char


#: code point -> its `_fold_char`, grown with each new character seen: `str.translate` then folds
#: a whole passage in C instead of one Python call per character (the snippet's main cost)
_FOLD_TABLE: dict[int, str] = {}


def fold_same_length(text: str) -> str:
    """`vocab.fold` one character at a time, so offsets in the result are offsets in `text`."""
    for char in set(text):
        if ord(char) not in _FOLD_TABLE:
            _FOLD_TABLE[ord(char)] = _fold_char(char)
    return text.translate(_FOLD_TABLE)


@cache
def _marks_pattern(marks: frozenset[str]) -> regex.Pattern[str]:
    alternatives = "|".join(regex.escape(m) for m in sorted(marks, key=len, reverse=True))
    return regex.compile(rf"(?<![\p{{L}}\d])(?:{alternatives})(?![\p{{L}}\d])")


def snippet(body: str, marks: set[str], width: int = _SNIPPET_WIDTH) -> str:
    """A window of `body` around the first marked word, each marked word wrapped in ** **."""
    spans = [m.span() for m in _marks_pattern(frozenset(marks)).finditer(fold_same_length(body))] if marks else []
    start = max(0, spans[0][0] - width // 3) if spans else 0
    end = min(len(body), start + width)
    if start > 0:
        space = body.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] else start
    out, cursor = [], start
    for s, e in spans:
        if s < start or e > end:
            continue
        out += [body[cursor:s], MARK_OPEN, body[s:e], MARK_CLOSE]
        cursor = e
    out.append(body[cursor:end])
    return ("…" if start > 0 else "") + "".join(out).replace("\n", " ") + ("…" if end < len(body) else "")
