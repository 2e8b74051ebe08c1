"""Cross-references a provision makes to others: which rates a "notwithstanding" displaces, which
a "... shall not apply" switches off, and which paragraph an item named by its letter alone sits in.

Each function reads the folded words of one sentence (or one list introduction) of a `Unit` and
returns eIds ("art_10__para_2__point_a"; "*" for "notwithstanding any other provision").
"""

from __future__ import annotations

from functools import cache

import regex

from taxtreaty.provisions import figures
from taxtreaty.provisions.citing import Unit
from taxtreaty.provisions.vocabulary import Phrases, require_phrases
from taxtreaty.structure import eids


@cache
def _reference_end(language: str) -> regex.Pattern[str]:
    """Where a "notwithstanding" reference ends: ";", ":", or a comma not followed by more numbers,
    items, a joiner ("and", "ou") or a word that goes on listing (`reference_continuations`)."""
    ph = require_phrases(language)
    joiners = ph.word_group("and_words", "or_words")
    goes_on = ph.word_group("reference_continuations")
    return regex.compile(rf"[;:]|,(?!\s*(?:\(?\d|\(?[a-z]\)|{joiners}\b|{goes_on}))")


#: the end of a "notwithstanding" reference, for readers of other modules
reference_end = _reference_end


def references_displaced(unit: Unit, folded: str, ph: Phrases) -> list[str]:
    """The eIds the "notwithstanding" at the start of `folded` displaces ("*" for any other provision)."""
    if ph.has("notwithstanding_any", folded[:80]):
        return ["*"]
    m = ph.find("notwithstanding", folded)
    if m is None or m.start() > 40:
        return []
    window = folded[m.start() : m.start() + 120]
    # the reference ends at ";" or ":", or at a comma that does not go on listing numbers or items
    end = _reference_end(ph.code).search(window)
    window = window[: end.start()] if end else window
    refs = figures.find_references(window, ph)
    arts = [n for kind, n in refs if kind == "article"]
    article = eids.article(arts[0]) if arts else unit.article.eid
    paragraphs = [n for kind, n in refs if kind == "paragraph"]
    points = figures.find_point_references(window, ph)
    if points:
        para = paragraphs[0] if paragraphs else paragraph_holding(unit, points[0])
        if para is None:
            return []
        return [eids.point(eids.paragraph(article, para), p) for p in points]
    return [eids.paragraph(article, n) for n in paragraphs]


def paragraph_holding(unit: Unit, letter: str) -> str | None:
    """"Não obstante o disposto na alínea a)" names no paragraph: the unit's own paragraph when it
    has that item, else the nearest paragraph before it that has."""
    paragraphs = unit.article.paragraphs
    here = next((i for i, p in enumerate(paragraphs) if p is unit.paragraph), len(paragraphs) - 1)
    for paragraph in [paragraphs[here], *reversed(paragraphs[:here])]:
        if any(eids.components(p.eid)[-1] == (eids.ALIASES["point"], letter) for p in paragraph.points):
            return paragraph.number
    return None


def switched_off(unit: Unit, folded: str, ph: Phrases, bracketed: bool = False) -> list[str]:
    """The eIds a "... shall not apply" sentence names before its verb: "alínea a) do n.º 2" ->
    art_10__para_2__point_a; "o n.º 3" -> art_10__para_3; nothing for a reference to another article."""
    refs = figures.find_references(folded, ph, bracketed)
    if any(kind == "article" for kind, _ in refs):
        return []
    paragraphs = [n for kind, n in refs if kind == "paragraph"]
    points = figures.find_point_references(folded, ph)
    if points and len(paragraphs) > 1:
        # "subparagraph a) of paragraph 2 and subparagraph a) of paragraph 3": the items of each (a
        # name that matches no item switches nothing off)
        return [eids.point(eids.paragraph(unit.article.eid, n), p) for n in paragraphs for p in points]
    if points:
        para = paragraphs[0] if paragraphs else paragraph_holding(unit, points[0])
        return [eids.point(eids.paragraph(unit.article.eid, para), p) for p in points] if para else []
    return [eids.paragraph(unit.article.eid, n) for n in paragraphs]


def overrides_named(unit: Unit, sentence: str, ph: Phrases) -> list[str]:
    """"Notwithstanding any other provision" -> ["*"]; "Notwithstanding paragraph 1" -> that paragraph's eid;
    "Notwithstanding subparagraph a) of paragraph 2" -> that item's eid."""
    if ph.has("notwithstanding_any", sentence):
        return ["*"]
    if figures.find_point_references(sentence[:160], ph):
        return references_displaced(unit, sentence, ph)
    m = ph.find("notwithstanding", sentence)
    if m is None or m.start() > 40:
        return []
    refs = figures.find_references(sentence[m.start() : m.start() + 90], ph)
    article = unit.article.eid
    arts = [n for kind, n in refs if kind == "article"]
    owner = eids.article(arts[0]) if arts else article
    return [eids.paragraph(owner, n) for kind, n in refs if kind == "paragraph"]


def item_named(articles: list[str], folded: str, at: int, ph: Phrases) -> str | None:
    """"As a person meant in subparagraph a) of paragraph 3 of Article 11 shall also be considered ...": the item
    the sentence of the including words names, under a heading that names no paragraph ("Ad Article 11", its `articles`)."""
    start = max(folded.rfind(". ", 0, at) + 1, 0)
    refs = figures.find_references(folded[start:at], ph)
    articles = [n for kind, n in refs if kind == "article"] or articles[:1]
    paragraphs = [n for kind, n in refs if kind == "paragraph"]
    if len(set(articles)) != 1 or len(set(paragraphs)) != 1:
        return None
    target = eids.paragraph(eids.article(articles[0]), paragraphs[0])
    letters = figures.find_point_references(folded[start:at], ph)
    return eids.point(target, letters[0]) if len(letters) == 1 else target
