"""One classifier of cleaned lines, shared by the cleaner (where a line may be joined) and the
structure parser (which markers open articles, paragraphs and points).

`classify` names what a whole line is (article, chapter, protocol, title, closing, paragraph,
point, bullet or text) with the match that found it. The words come from the language data (through `patterns`).
"""

from __future__ import annotations

from functools import cache, lru_cache

import regex

from taxtreaty import patterns, vocab

#: one line of a text with its end of line
LINE = regex.compile(r"[^\n]*(?:\n|$)")
_TITLE_PUNCTUATION = regex.compile(r"[,;.:]")


def heading_title_ok(word: str, title: str | None) -> bool:
    """Is `title` (what follows an article heading's number on its line) the heading's title,
    and not the rest of a sentence that cites the article ("Article 7 shall apply ...")?"""
    if title and _enacting(title):
        return False  # "ARTICULO 2º — Comuníquese al Poder Ejecutivo": the approving law's article, not the convention's
    if not title or title_like(title):
        return True
    t = title.strip()
    # "ARTIGO 18.° (remunerações públicas)": a title in brackets is never running text
    if t.startswith("(") and t.endswith(")") and "(" not in t[1:-1] and len(t) <= 120:
        return True
    # "Article 18 pensions": the whole rest of the line is an article title the topic table knows
    if is_known_heading(t):
        return True
    # "ARTIGO 18.° remunerações públicas": running text never cites an article in capitals
    return word.isupper() and len(t) <= 80 and not _TITLE_PUNCTUATION.search(t.rstrip("."))


_NOT_WORD = regex.compile(r"[^\p{L}\d]+")


@cache
def _enacting_words() -> regex.Pattern[str]:
    """The words an approving instrument's article opens with (`enacting_words` of every language)."""
    words = sorted(set(vocab.all_words("enacting_words")), key=len, reverse=True)
    body = "|".join(r"\s+".join(_lost_accents(part) for part in w.split()) for w in words) or "(?!)"
    return regex.compile(rf"^[^\p{{L}}\d]*+(?:{body})(?![\p{{L}}\d])")


#: what a copy that lost its encoding prints for an accented letter, when it prints anything
_LOST_LETTER = "?\ufffd"


def _lost_accents(word: str) -> str:
    """The folded `word` as a regex, each accented letter also lost or printed as "?" or "\ufffd" (a copy whose
    accents went with its encoding: "Comunquese", "Comun?quese" for "Comuníquese"): the words are long and
    open a heading's title, so one letter less never makes another instrument's word."""
    parts = []
    for char in word:
        folded = vocab.fold(char)
        if folded != char.lower() and len(folded) == 1:
            parts.append(f"(?:{regex.escape(folded)}|[{_LOST_LETTER}])?")
        else:
            parts.append(regex.escape(folded))
    return "".join(parts)


def _enacting(title: str) -> bool:
    return _enacting_words().match(vocab.fold(title)) is not None


def is_enacting(text: str) -> bool:
    """Does `text` open with the words an approving instrument's article opens with ("Fica promulgada", "A Convenção
    entre ..., apensa por cópia ao presente Decreto, será executada")?"""
    return _enacting(text)


#: a title an approving instrument's article prints on a line of its own ("(Aprovação)", "Entrada em vigor")
_OWN_LINE_TITLE = regex.compile(r"\(\p{L}[^()]{0,60}\)|\p{L}[\p{L} ]{0,40}")


def enacting_after_title(title: str, following: list[str]) -> bool:
    """Do the heading's `title` and the `following` lines open with an approving instrument's words ("Art. 1o  A" /
    "Convenção ..., apensa por cópia ao presente Decreto"; Angola's and Cabo Verde's "Artigo 1.º" / "(Aprovação)" /
    "É aprovada, para ratificação, a Convenção ...": past the article's own title on its line)?"""
    lines = [line.strip() for line in following]
    if not title and len(lines) > 1 and _OWN_LINE_TITLE.fullmatch(lines[0]) and _enacting(lines[1]):
        return True
    return bool(lines) and bool(lines[0]) and _enacting(f"{title} {lines[0]}")


def _heading_key(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", vocab.fold(text)).split())


@cache
def _known_headings() -> frozenset[str]:
    """Every usual article title of `topics.yaml` in every language, folded ("pensions", "juros")."""
    return frozenset(
        _heading_key(heading)
        for topic in vocab.topics()
        for headings in (topic.get("headings") or {}).values()
        for heading in headings
    )


def is_known_heading(title: str) -> bool:
    """Is `title`, whole, a usual article title ("pensions", "Capital gains", "juros")? A line
    "Article 18 pensions" is a heading however it is cased; "Article 7 shall apply" is not."""
    return len(title) <= 80 and _heading_key(title) in _known_headings()


@lru_cache(maxsize=8192)
def article_heading_match(line: str) -> regex.Match[str] | None:
    """The article heading a whole line is, or None (one definition for the cleaner and the parser)."""
    m = patterns.article_heading().match(line)
    return m if m and heading_title_ok(m.group("word"), m.group("title")) else None


#: the kinds `classify` gives, in the order they are tried
KINDS = ("article", "chapter", "protocol", "title", "closing", "paragraph", "point", "bullet", "text")


@lru_cache(maxsize=8192)  # a line's kind depends on its text only; repeated lines are classified once
def classify(line: str) -> tuple[str, regex.Match[str] | None]:
    """(kind, the match that found it) for a whole line: the one classification of lines, used by
    the cleaner (a structural line is never joined to the one before) and by the parser (which
    markers may open an article, a paragraph, a point). The match is None for a title, a closing
    formula, a bullet and text."""
    m = article_heading_match(line)
    if m:
        return "article", m
    m = patterns.chapter_heading().match(line)
    if m and (not m.group("title") or title_like(m.group("title"))):
        return "chapter", m
    m = patterns.protocol_heading().match(line)
    # "Protocol to the Convention between ... with respect to taxes on income" runs long and may
    # go on in lower case; it still may not read as a sentence
    # "... en el presente\nProtocolo).": a reference that wrapped before its closing bracket, not a heading
    if m and (not m.group("title") or (m.group("title")[:1] not in ").,;" and title_like(
            m.group("title")[:1].upper() + m.group("title")[1:], max_length=300))):
        return "protocol", m
    if patterns.convention_title().match(line):
        return "title", None
    if patterns.closing_formula().match(line):
        return "closing", None
    m = patterns.PARAGRAPH_MARKER.match(line)
    if m:
        return "paragraph", m
    m = patterns.POINT_MARKER.match(line)
    if m:
        return "point", m
    if patterns.BULLET.match(line):
        return "bullet", None
    return "text", None


def line_kind(line: str) -> str:
    """The kind of a whole line (see `classify`)."""
    return classify(line)[0]


def title_like(title: str, max_length: int = 120) -> bool:
    """Could this be the title part of a heading, rather than running text?"""
    t = title.strip().strip("()[]").strip()
    if not t:
        return True
    if len(t) > max_length or t[0].islower() or t[0] in ",;":
        return False
    if t.endswith((",", ";")):
        return False
    if t[-1] in "-‐" and len(t) > 1 and t[-2].isalpha():
        return False  # "O Ministério ... fica encarregue de real-": a word cut at the end of a line of text
    return t.count(". ") == 0


_LETTERS = regex.compile(r"\p{L}+")


def title_cased(text: str) -> bool:
    """Every word of four letters or more starts with a capital ("Miembros de Misiones Diplomáticas o"):
    a line of an article's title, not the first line of its text."""
    words = [w for w in _LETTERS.findall(text) if len(w) >= 4]
    return bool(words) and all(w[0].isupper() for w in words)
