"""From a node of the document tree to the exact words of the original file, and back.

The structure parser keeps, for each node, its cleaned `text` and its `span` in the original
file, but not where that text sits in the cleaned text. `SourceText` cleans the original again
(the cleaner is deterministic, so this is the parser's own cleaned text), finds each node in it,
and turns any cleaned range (a sentence, a clause) into a `Citation` whose span is the smallest
original range that produced it, so `quote == document.original[span[0]:span[1]]` by
construction, page furniture or hyphenation inside the clause included.

It also cuts a node into `Unit`s (the text the extractors read: a paragraph without points, a
list's introduction, each point, the wrap-up after a list) and a unit into sentences.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.provisions.model import Citation
from taxtreaty.provisions.vocabulary import all_words, fold_same_length, phrases, word_alternation
from taxtreaty.structure.model import Article, Document, Paragraph, Point
from taxtreaty.text import clean

#: where a sentence ends: ". " / "; " / ":" then a new line, or any line break. Not after an
#: abbreviation ("Art.", "n.": `abbreviations` in the phrase files) or a lone number ("paragraph 2. (b)"
#: stays whole when the next word is lower case).
_BOUNDARY = regex.compile(r"(?<=[.;])[\"'»”)]*\s+(?=[\p{Lu}«\"'(\d])|\n+")


@cache
def _abbreviation() -> regex.Pattern[str]:
    """An abbreviation of any language with a phrase file, right at the end of a text."""
    return regex.compile(rf"\b{word_alternation(all_words('abbreviations'))}$", regex.IGNORECASE)


@dataclass
class Unit:
    """A stretch of one node's text, with the intros of the lists it sits in as context."""

    language: str
    eid: str
    article: Article
    paragraph: Paragraph
    node: Paragraph | Point
    start: int  # cleaned offsets
    end: int
    text: str
    folded: str
    role: str  # whole | intro | point | wrap
    context: list[Unit] = field(default_factory=list)
    _sentences: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)

    def sentences(self) -> list[tuple[int, int]]:
        """Sentence ranges, as offsets into `text` (computed once)."""
        if self._sentences is None:
            self._sentences = self._split()
        return self._sentences

    def _split(self) -> list[tuple[int, int]]:
        out, start = [], 0
        for m in _BOUNDARY.finditer(self.text):
            if m.group().strip() == "" and "\n" not in m.group() and _abbreviation().search(self.text[max(0, m.start() - 6) : m.start()]):
                continue
            end = m.start()
            if self.text[start:end].strip():
                out.append((start, end))
            start = m.end()
        if self.text[start:].strip():
            out.append((start, len(self.text)))
        return out


@cache
def _embedded_heading() -> regex.Pattern[str]:
    """A line inside a node's text that reads like an article heading, its number possibly damaged
    by OCR ("Article l2", "ARTIGO 1O.º"): the parser did not open an article there, so the node has
    swallowed the text of the next ones."""
    words = "|".join(regex.escape(w) for w in vocab.all_words("article_words"))
    # the number, its ordinal mark, then nothing or a title: capitalised, without sentence punctuation
    number = r"[\dlIoO]{1,3}(?:[^\S\n]?\.?[^\S\n]?[º°o\"](?!\p{L}))?\.?"
    title = r"(?:[^\S\n]*[—–:-]?[^\S\n]*[(«\p{Lu}][^\n,.;]{0,70})?"
    return regex.compile(rf"\n(?:\#{{1,6}}[^\S\n]*)?(?i:{words})[^\S\n]*{number}{title}(?=\n|$)")


def _scoped(items: list[list[Unit]], depth: int) -> list[Unit]:
    """The units of a list's items, in order; a proviso that closes the last item and names the
    whole sub-paragraph ("(ii) ..., provided that in the case of this sub-paragraph the loan
    repayment period is 3 years or more") is also read as the context of every other item, right
    under the list's introduction, so its condition binds them all."""
    flat = [u for units in items for u in units]
    if len(items) < 2 or len(items[-1]) != 1:
        return flat  # the last item is a list of its own: a proviso in it closes that list
    last = items[-1][-1]
    ph = phrases(last.language)
    if ph is None or "list_scope" not in ph.patterns:
        return flat
    scope = next((m for m in ph.finditer("list_scope", last.folded)), None)
    if scope is None:
        return flat
    openers = [m for m in ph.finditer("condition_openers", last.folded)
               if m.end() <= scope.start() and not last.folded[m.end() : scope.start()].strip(" ,")]
    if not openers:
        return flat
    at = openers[-1].start()
    proviso = Unit(last.language, last.eid, last.article, last.paragraph, last.node, last.start + at, last.end,
                   last.text[at:], last.folded[at:], "intro", list(last.context[:depth]))
    for units in items[:-1]:
        for unit in units:
            unit.context.insert(depth, proviso)
    return flat


class SourceText:
    """The cleaned text of a document, with the way back to the original characters."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        # the parser's own cleaned text when it keeps it (a private `_clean` on the Document), else
        # the same text again: the cleaner is deterministic
        kept = (doc.__pydantic_private__ or {}).get("_clean")
        self.clean = kept if kept is not None and kept.original == doc.original else clean(doc.original)
        self.text = self.clean.text
        #: the folded cleaned text, same offsets (folding is per character)
        self.folded = fold_same_length(self.text)
        spans = self.clean.map
        exact = [i for i, e in enumerate(spans.exact) if e]
        self._orig_starts = [spans.orig_starts[i] for i in exact]
        self._pieces = exact
        #: (language, eid, heading line) where a node's text was cut at a heading it swallowed
        self.cuts: list[tuple[str, str, str]] = []
        self._cut_restarts = False
        #: units by (language, paragraph, cut_restarts): several passes read the same paragraphs
        self._units: dict[tuple[str, int, bool], list[Unit]] = {}

    def clean_offset(self, original_offset: int) -> int | None:
        """The cleaned offset of an original character copied verbatim, or None."""
        k = bisect_right(self._orig_starts, original_offset) - 1
        if k < 0:
            return None
        i = self._pieces[k]
        m = self.clean.map
        if m.orig_starts[i] <= original_offset < m.orig_ends[i]:
            return m.clean_starts[i] + original_offset - m.orig_starts[i]
        return None

    def cited_text(self, cite: Citation) -> str:
        """The cleaned text a citation was made from: its words as the readers read them (the quote is
        the original's characters, which may hold what the cleaner repaired: mojibake, escapes, furniture)."""
        start, end = self.clean.map.to_clean(*cite.span)
        return self.text[start:end] if end > start else cite.quote

    def locate(self, node_text: str, span: tuple[int, int]) -> int | None:
        """Where a node's cleaned text starts in the cleaned document."""
        if not node_text:
            return None
        guess = self.clean_offset(span[0])
        if guess is not None and self.text.startswith(node_text, guess):
            return guess
        around = self.text.find(node_text, max(0, (guess or 0) - 400))
        if around >= 0:
            return around
        found = self.text.find(node_text)
        return found if found >= 0 else None

    def cite(self, language: str, eid: str, start: int, end: int) -> Citation:
        """Cite cleaned[start:end], trimmed of blanks and of a leading comma or conjunction mark."""
        text = self.text
        while start < end and (text[start].isspace() or text[start] in ",;"):
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        span = self.clean.original_span(start, end)
        return Citation(language=language, eid=eid, quote=self.doc.original[span[0] : span[1]], span=span)

    def cite_original(self, language: str, eid: str, span: tuple[int, int]) -> Citation:
        return Citation(language=language, eid=eid, quote=self.doc.original[span[0] : span[1]], span=span)

    # -- units ------------------------------------------------------------------------------------

    def units(self, language: str, article: Article, paragraph: Paragraph, *, cut_restarts: bool = False) -> list[Unit]:
        """The units of a paragraph; with `cut_restarts`, a line that restarts the paragraph
        numbering ends the paragraph (used where merged articles would mix up rates).

        Computed once per paragraph (units are read, never changed, by the extractor's passes)."""
        key = (language, id(paragraph), cut_restarts)
        if key not in self._units:
            self._units[key] = self._make_units(language, article, paragraph, cut_restarts)
        return self._units[key]

    def _make_units(self, language: str, article: Article, paragraph: Paragraph, cut_restarts: bool) -> list[Unit]:
        self._cut_restarts = cut_restarts
        start = self.locate(paragraph.text, paragraph.span)
        if start is None:
            return []
        whole = self._unit(language, paragraph.eid, article, paragraph, paragraph, start, start + len(paragraph.text), "whole")
        if not paragraph.points:
            return [whole]
        out: list[Unit] = []
        context: list[Unit] = []
        if paragraph.intro:
            intro = self._unit(language, paragraph.eid, article, paragraph, paragraph, start, start + len(paragraph.intro), "intro")
            out.append(intro)
            context = [intro]
        items: list[list[Unit]] = []
        for point in paragraph.points:
            items.append(self._point_units(language, article, paragraph, point, context))
        out += _scoped(items, len(context))
        if paragraph.wrap_up:
            end = start + len(paragraph.text)
            wrap = self._unit(language, paragraph.eid, article, paragraph, paragraph, end - len(paragraph.wrap_up), end, "wrap")
            if wrap.text == paragraph.wrap_up:
                out.append(wrap)
        return out

    def _point_units(self, language: str, article: Article, paragraph: Paragraph, point: Point,
                     context: list[Unit]) -> list[Unit]:
        start = self.locate(point.text, point.span)
        if start is None:
            return []
        if not point.points:
            return [self._unit(language, point.eid, article, paragraph, point, start, start + len(point.text), "point", context)]
        intro_text = point.intro or ""
        intro = self._unit(language, point.eid, article, paragraph, point, start, start + len(intro_text), "intro", context)
        items = [self._point_units(language, article, paragraph, child, [*context, intro]) for child in point.points]
        return [intro, *_scoped(items, len(context) + 1)]

    def _restarted_numbering(self, paragraph: Paragraph, start: int, end: int) -> int | None:
        """A line inside paragraph N that starts with a paragraph number up to N, or with "1 —": the
        numbering restarted, so a heading was lost and the next article's paragraphs ran into this one."""
        if paragraph.number is None or not paragraph.number.isdigit():
            return None
        own = int(paragraph.number)
        pos = self.text.find("\n", start, end)
        while 0 <= pos < end:
            line_end = self.text.find("\n", pos + 1, end)
            line = self.text[pos + 1 : line_end if line_end >= 0 else end]
            m = patterns.PARAGRAPH_MARKER.match(line)
            if m and (int(m.group("num") or m.group("pnum")) <= own or m.group("num") == "1"):
                return pos
            pos = line_end
        return None

    def _unit(self, language: str, eid: str, article: Article, paragraph: Paragraph, node: Paragraph | Point,
              start: int, end: int, role: str, context: list[Unit] | None = None) -> Unit:
        heading = _embedded_heading().search(self.text, start, end)
        if heading is not None:
            self.cuts.append((language, eid, heading.group().strip()))
            end = heading.start()
        restart = self._restarted_numbering(paragraph, start, end) if self._cut_restarts else None
        if restart is not None:
            self.cuts.append((language, eid, self.text[restart + 1 : self.text.find("\n", restart + 1) % (end + 1)][:60]))
            end = restart
        return Unit(language, eid, article, paragraph, node, start, end, self.text[start:end],
                    self.folded[start:end], role, list(context or []))
