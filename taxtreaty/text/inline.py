"""Lines printed without their line breaks: where a point, an article heading or a numbered
paragraph runs on inside a line ("...local; ii) Ao Banco", "...this Agreement. Article 12
ROYALTIES", "Article 11 Interest 1. Interest arising ..."), the gap where a new line starts.
"""

from __future__ import annotations

from functools import cache, lru_cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.text.lines import article_heading_match


@cache
def inline_point_split() -> regex.Pattern[str]:
    # "...autoridade local; ii) Ao Banco" -> split before "ii)". Only after ";" or ":" and before a
    # capital or a digit, so references such as "alínea i) do artigo" stay in the text.
    # (the gap is a group after a literal, not a lookbehind: much faster to scan for); the word a
    # list joins its last point with may come between ("...Estado; ou b) Os juros")
    joiners = "|".join(regex.escape(w) for w in vocab.all_words("list_joiners")) or "(?!)"
    # a colon may carry a dash, or a dash stand for it (Indian texts: "shall not exceed :- (a) 15 per cent",
    # "shall not exceed — (a) 15 per cent")
    return regex.compile(rf"(?:;|:(?:[^\S\n]?[-—–])?|[^\S\n][—–])(?:[^\S\n]+(?:{joiners}))?(?P<gap>[^\S\n]+)"
                         r"(?=\(?(?:[a-z]{1,2}|[ivx]{1,5}|Hi|í)\)[^\S\n]*[\p{Lu}\d])")


def _article_words() -> str:
    """Every language's word for "article", as one regex alternation."""
    return "|".join(regex.escape(w) for w in vocab.all_words("article_words"))


@cache
def inline_article_split() -> regex.Pattern[str]:
    words = _article_words()
    # "...of this Agreement. Article 12 ROYALTIES": a heading in capitals running on after a sentence.
    return regex.compile(rf"[.;:](?P<gap>[^\S\n]+)(?=(?:{words})[^\S\n]+\d{{1,3}}[^\S\n]+\p{{Lu}}[\p{{Lu}} ,'’-]{{2,}}$)")


#: a gap before a first paragraph's number: " 1. Interest", " 1) The", " (1) Los", " 1 — Os"
_FIRST_PARAGRAPH_GAP = regex.compile(r"(?<=\S)[^\S\n]+(?=(?:1[.)]|\(1\)|1[^\S\n]*[—–-])[^\S\n]*[\p{Lu}«\"“(])")
#: a line that opens with a first paragraph's number: "1 — Os juros", "1. Interest", "(1) The", and as a conversion to
#: markdown escapes it at the line start ("1\\. Os juros", "\\(1) The")
_FIRST_PARAGRAPH_START = regex.compile(r"(?:1\\?[.)]|\\?\(1\)|1[^\S\n]*[—–-])[^\S\n]*[\p{Lu}«\"“(]")
#: the end of a title in capitals before a sentence: "AMBITO PERSONAL| El presente", "OTRAS RENTAS| Las rentas",
#: "ESTABLECIMIENTO PERMANENTE| A efectos"
_CAPITALS_TITLE_GAP = regex.compile(r"(?<=\p{Lu}{2}[.:]?)[^\S\n]+(?=\p{Lu}(?:\p{Ll}|[^\S\n]+\p{Ll}))")
#: the end of a title closed by a stop and a dash before its text: "Personas comprendidas.—| El presente"
_DASHED_TITLE_GAP = regex.compile(r"(?<=\p{L}[.:][—–-])[^\S\n]+(?=[\p{Lu}«\"“(])")
#: how far into a line a heading that runs on into its first paragraph is looked for
_RUN_IN_HEADING_MAX = 160


def heading_run_in_gap(content: str) -> tuple[int, int] | None:
    """The gap between an article heading and its first paragraph printed on the same line
    ("Article 11 Interest 1. Interest arising ...", "Artículo 11. Intereses. 1. Los intereses"),
    or None. The part before the gap must read as a whole heading (a title, not a sentence)."""
    if not patterns.article_heading_prefix().match(content):
        return None
    for gap in _FIRST_PARAGRAPH_GAP.finditer(content, 0, _RUN_IN_HEADING_MAX):
        if article_heading_match(content[: gap.start()]):
            return gap.start(), gap.end()
    # "ARTICULO 1: AMBITO PERSONAL El presente Convenio ...": a title in capitals, then an unnumbered
    # paragraph that opens with a word in lower case after its capital (the first gap where the capitals end)
    # "Artículo 1. Personas comprendidas.— El presente Convenio ...": a title closed by a stop and a dash
    for pattern in (_CAPITALS_TITLE_GAP, _DASHED_TITLE_GAP):
        gap = pattern.search(content, 0, _RUN_IN_HEADING_MAX)
        if gap is not None and article_heading_match(content[: gap.start()]):
            return gap.start(), gap.end()
    return None


@cache
def _inline_heading_break() -> regex.Pattern[str]:
    words = _article_words()
    # "... in that other State. Article 11 Interest 1. Interest ...": a text printed without line breaks
    return regex.compile(rf"[.;:](?P<gap>[^\S\n]+)(?=(?:{words})[^\S\n]*\S)")


#: the paragraph marker a run-in first paragraph uses, as a template for the next ones
_FIRST_MARKER = regex.compile(r"1\\?[.)]|\\?\(1\)|1[^\S\n]*[—–-]")
#: paragraphs looked for on one line after a run-in first paragraph
_MAX_INLINE_PARAGRAPHS = 60


@lru_cache(maxsize=1024)  # asked for each line of an article's text: the printed marker is made once
def _next_paragraph_pattern(marker: str, number: int) -> regex.Pattern[str]:
    """The gap before paragraph `number` after a sentence end, numbered like `marker` ("1." -> "2.")."""
    if marker.startswith("("):
        printed = rf"\({number}\)"
    elif marker.endswith((".", ")")):
        printed = rf"{number}{regex.escape(marker[-1])}"
    else:
        printed = rf"{number}[^\S\n]*[—–-]"
    return _paragraph_gap_pattern(printed)


@lru_cache(maxsize=512)
def _paragraph_gap_pattern(printed: str) -> regex.Pattern[str]:
    # the marker may end the line, its text on the next ("... Estado. 2-" / "No entanto, ..."); the gap is
    # a group after the sentence end, not a lookbehind (much faster to scan for)
    return regex.compile(rf"[.;:](?P<gap>[^\S\n]+)(?={printed}(?:[^\S\n]+[\p{{Lu}}«\"“(]|[^\S\n]*$))")


def inline_structure_gaps(content: str) -> list[tuple[int, int]]:
    """Gaps where a line printed without its line breaks holds a new heading or paragraph:
    "Article 10 Dividends 1. Dividends ... State. 2. However, ... dividends. Article 11 Interest
    1. Interest ...". A heading inside the line counts only after a sentence end and when its
    first paragraph follows it on the line; paragraphs count only in sequence after it (2. after
    1., then 3.), each after a sentence end, so "paragraph 2. However" stays text. A line that opens
    with paragraph 1 under its heading is read the same way ("1 — ... Estado. 2 — No entanto")."""
    starts: list[tuple[int, tuple[int, int] | None]] = []
    if patterns.article_heading_prefix().match(content):
        starts.append((0, None))
    if len(content) > _RUN_IN_HEADING_MAX:
        for b in _inline_heading_break().finditer(content):
            starts.append((b.end("gap"), (b.start("gap"), b.end("gap"))))
    gaps: list[tuple[int, int]] = []
    headings: list[tuple[int, int]] = []  # (heading start, first paragraph start)
    for start, break_gap in starts:
        run_in = heading_run_in_gap(content[start:])
        if run_in is None:
            continue
        if break_gap:
            gaps.append(break_gap)
        gaps.append((start + run_in[0], start + run_in[1]))
        headings.append((start, start + run_in[1]))
    if not headings and len(content) > _RUN_IN_HEADING_MAX and _FIRST_PARAGRAPH_START.match(content):
        # "1 — Os juros ... Estado. 2 — No entanto, ...": an article's paragraphs on one line under
        # its heading (a copy of the Diário da República that lost its line breaks)
        headings.append((0, 0))
    for k, (_, first) in enumerate(headings):
        end = headings[k + 1][0] if k + 1 < len(headings) else len(content)
        marker = _FIRST_MARKER.match(content, first)
        if marker is None:
            continue
        pos = first
        for number in range(2, _MAX_INLINE_PARAGRAPHS):
            if str(number) not in content:
                break  # (the cheap test: its number is printed)
            m = _next_paragraph_pattern(marker.group().replace("\\", ""), number).search(content, pos, end)
            if m is None:
                break
            gaps.append((m.start("gap"), m.end()))
            pos = m.end()
    return sorted(set(gaps))



@cache
def _list_open() -> regex.Pattern[str]:
    """A lettered list opening inside a line, its first point in lower case, after a colon or the
    word that joins a condition to it: ": a) los intereses", ": (a) the tax", "efectivo y a) es ese"
    (capitals and digits after a label are split by `inline_point_split`)."""
    joiners = "|".join(regex.escape(w) for w in vocab.all_words("list_joiners")) or "(?!)"
    return regex.compile(rf"(?::(?:[^\S\n]?[-—–])?|[^\S\n][—–]|[^\S\n](?:{joiners}))(?P<gap>[^\S\n]+)(?=(?P<paren>\(?)(?P<first>a|i)\)[^\S\n]+\p{{Ll}})")

#: the letters a list printed on one line is followed through, after its "a)"
_NEXT_LETTERS = "bcdefghijklmn"
#: the numerals a list numbered in roman is followed through, after its "i)" ("de: (i) préstamos ...; (ii) bonos")
_NEXT_ROMANS = ("ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


@lru_cache(maxsize=64)
def _next_point_pattern(paren: str, letter: str) -> regex.Pattern[str]:
    """The gap before point `letter` of a list: after ";" (or ","), and the word a list joins its
    last point with ("; or (b)", "; y b)"), before the label and its text (or the label ending the
    line, its text on the next: "; (e)" / "a workshop")."""
    joiners = "|".join(regex.escape(w) for w in vocab.all_words("list_joiners")) or "(?!)"
    return regex.compile(rf"[;,](?:[^\S\n]+(?:{joiners}))?(?P<gap>[^\S\n]+)(?={regex.escape(paren)}{letter}\)(?:[^\S\n]+\S|[^\S\n]*$))")


def inline_list_gaps(content: str) -> list[tuple[int, int]]:
    """Gaps before the points of a lettered list printed on one line whose points open in lower
    case ("... si: a) los intereses son pagados ...; b) los intereses ..."): the list counts only from
    an "a)" after a colon (or "y", "and") and with its "b)" after a ";" further on (or with the line
    ending inside its first point, before any ";" or final stop), the labels in sequence, so a reference ("el apartado a) del
    artículo") stays text."""
    gaps: list[tuple[int, int]] = []
    if "a)" not in content and "i)" not in content:
        return gaps  # (the cheap test: the list opens at its "a)" or "i)")
    for m in _list_open().finditer(content):
        if any(start == m.start("gap") for start, _ in gaps):
            continue  # the ninth point "i)" of a lettered list already cut, not a list in roman of its own
        pos = m.end()
        found: list[tuple[int, int]] = []
        for letter in (_NEXT_LETTERS if m.group("first") == "a" else _NEXT_ROMANS):
            n = _next_point_pattern(m.group("paren"), letter).search(content, pos)
            if n is None:
                break
            found.append((n.start("gap"), n.end("gap")))
            pos = n.end()
        rest = content[m.end():].rstrip()
        if found or (";" not in rest and not rest.endswith(".")):
            # (its first point running to the end of the line: the list goes on on the next lines, where
            # the cleaner looks for its next labels in sequence, `next_point_gaps`)
            gaps.append((m.start("gap"), m.end("gap")))
            gaps.extend(found)
    return gaps


#: the number and marker a line opens with as a paragraph: "2- ", "3 — ", "4. ", "(5) "
_PARAGRAPH_OPEN = regex.compile(r"(?:(?P<num>\d{1,3})(?P<mark>[.)]|[^\S\n]*[—–-])|\((?P<pnum>\d{1,3})\))(?=[^\S\n]|$)")


def paragraph_opened(line: str) -> tuple[str, int] | None:
    """(marker as printed, number) of a line that opens a numbered paragraph ("2- No entanto" ->
    ("2-", 2)), or None: the template the next paragraph of the article is looked for with."""
    m = _PARAGRAPH_OPEN.match(line)
    if m is None:
        return None
    if m.group("pnum"):
        return m.group(), int(m.group("pnum"))
    return m.group(), int(m.group("num"))


def next_paragraph_gaps(content: str, marker: str, number: int) -> tuple[list[tuple[int, int]], int]:
    """Gaps before the next paragraphs of the article being read, in sequence from `number`, where a
    line of its text holds them after a sentence end ("... dos juros. 3- Não obstante ...": the line
    breaks of a paragraph printed on one line, then hard-wrapped); the gaps and the next number."""
    gaps: list[tuple[int, int]] = []
    pos = 0
    while number < _MAX_INLINE_PARAGRAPHS and str(number) in content:  # (the cheap test: its number is printed)
        m = _next_paragraph_pattern(marker, number).search(content, pos)
        if m is None:
            break
        gaps.append((m.start("gap"), m.end()))
        pos = m.end()
        number += 1
    return gaps, number


#: a line that opens with a lettered point: "b) Os juros", "(c) an office"
_POINT_OPEN = regex.compile(r"(?P<paren>\(?)(?P<letter>[a-m])\)(?=[^\S\n]|$)")


def point_opened(line: str) -> tuple[str, str] | None:
    """("(" or "", the next letter) after a line that opens a lettered point ("(b) a branch;" ->
    ("(", "c")), or None; a label that ends the line, its text on the next ("...; (e)" / "a workshop;
    (f) a mine"), opens its point too."""
    m = _POINT_OPEN.match(line)
    if m is None or m.group("letter") == _NEXT_LETTERS[-1]:
        return None
    return m.group("paren"), chr(ord(m.group("letter")) + 1)


def next_point_gaps(content: str, paren: str, letter: str) -> tuple[list[tuple[int, int]], str]:
    """Gaps before the next points of the list being read, in sequence from `letter`, where a line of
    its text holds them after a ";" ("... a branch; (c) an office; (d) a factory"): a list printed on
    one line, then hard-wrapped; the gaps and the next letter."""
    gaps: list[tuple[int, int]] = []
    pos = 0
    while letter in _NEXT_LETTERS and f"{letter})" in content:  # (the cheap test: its label is printed)
        m = _next_point_pattern(paren, letter).search(content, pos)
        if m is None:
            break
        gaps.append((m.start("gap"), m.end("gap")))
        pos = m.end()
        letter = chr(ord(letter) + 1)
    return gaps, letter
