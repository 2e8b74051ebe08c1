"""Joining lines broken by the page or the typesetter: whether the next kept line goes on the
previous one after a space, after dropping its hyphen ("mon-" + "tante"), or starts a new line.
"""

from __future__ import annotations

from functools import cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.text.lines import article_heading_match, is_known_heading

#: a line ending in one of these after a letter may be a word cut in two ("mon-" + "tante")
_HYPHENS = frozenset("-‐\u00ad")  # the soft hyphen at a line's end marks exactly such a cut
#: a line ending in a letter, digit or one of these is open: the sentence may go on below
_OPEN_END_PUNCTUATION = frozenset(",)]»”'-–")
_TITLE_PUNCTUATION = regex.compile(r"[,;.:]")
#: a line starting with one of these goes on the line before: a figure's sign or a clause's comma the
#: wrap put first ("al menos el 25" + "% del capital", "15" + "% do montante")
_CONTINUING_START = frozenset("%‰,;")
#: the last word of a line, a whole word after a blank ("artigo 7.º" ends on no word: "º" is the number's);
#: searched from the end (`(?r)`): a pattern anchored at the end is tried there first, not at every letter
_LAST_WORD = regex.compile(r"(?r)(?:^|(?<=\s))\p{L}+$")


def reference_wrapped(prev_kind: str, prev_line: str, line: str) -> bool:
    """Is this article heading (or convention title) line a sentence the typesetter wrapped to the
    start of a line? The line before it stops on a word no sentence ends on ("... referred to in
    paragraph 1 of" + "Article 14."; "... lo dispuesto en el" + "Artículo 8"; "... en que el" +
    "Acuerdo entre"), and what follows an article's number is not its usual title ("Article 5
    Permanent establishment" stays a heading). A short title-like line that ends a sentence under a
    line still open ("... in the framework of a cultural" + "Agreement between the two States.") is
    the sentence going on, too."""
    if prev_kind not in ("paragraph", "point", "text", "bullet"):
        return False
    if (prev_line[-1:].islower() and len(line) <= 80 and line[-1:] in ".;,"
            and not article_heading_match(line)):
        return True
    last = _LAST_WORD.search(prev_line[-40:])
    if not last or vocab.fold(last.group()) not in vocab.reference_lead_words():
        return False
    m = article_heading_match(line)
    title = ((m.group("title") or "") if m else "").strip()
    return not (title and is_known_heading(title))


@cache
def _reference_tail() -> regex.Pattern[str]:
    """The end of a line that names a division and waits for its label ("... del inciso",
    "subapartado 2", "and subparagraph"), folded: every language's `reference_words`."""
    words = sorted({vocab.fold(w) for w in vocab.all_words("reference_words")}, key=len, reverse=True)
    body = "|".join(regex.escape(w) for w in words) or "(?!)"
    # searched from the end (`(?r)`), where it is anchored
    return regex.compile(rf"(?r)(?<![\p{{L}}\d-])(?:{body})(?:\s+\d{{1,3}}[a-z]?)?\s*$")


def label_wrapped(prev_kind: str, prev_line: str) -> bool:
    """Is a paragraph number or an item label at the start of this line the one a cross-reference
    on the line before names ("... and subparagraph" + "a) of paragraph 3 shall not apply", "... del
    inciso" + "a) o del inciso b)", "el apartado" + "2.c)", "del artículo" + "7.")? Then the line is the
    sentence going on, never a new paragraph or item."""
    if prev_kind not in ("paragraph", "point", "text", "bullet"):
        return False
    tail = prev_line[-60:]
    if _reference_tail().search(vocab.fold(tail)) is not None:
        return True
    # "... son aplicables las disposiciones del artículo" + "7.", "... the provisions of Article" + "7.": an
    # article word after other words (a heading's "ARTICLE" or "Article" opening its own line, or in capitals
    # after a title, stays a heading)
    last = _LAST_WORD.search(tail)
    return last is not None and last.start() > 0 and not last.group().isupper() and \
        vocab.fold(last.group()) in _article_words()


@cache
def _article_words() -> frozenset[str]:
    return frozenset(vocab.fold(w) for w in vocab.all_words("article_words"))


def heading_title_of(kind: str, line: str) -> str:
    pattern = patterns.article_heading() if kind == "article" else patterns.chapter_heading()
    m = pattern.match(line)
    return (m.group("title") or "").strip() if m else ""


def join_mode(prev_kind: str, prev_line: str, kind: str, line: str) -> str:
    """'hyphen', 'space' or 'newline' between the previous kept line and this one."""
    # a structural line starts a line of its own; the text after a paragraph, a point, a bullet or
    # a closing formula ("DONE at Lisbon, on" + "6 March 1992") may go on it
    if kind != "text" or prev_kind not in ("paragraph", "point", "text", "bullet", "closing"):
        return "newline"
    last = prev_line[-1:]
    if last in _HYPHENS and patterns.article_heading_start().match(line):
        # "b) 10 % do mon-" then "ARTIGO 18.° ...": the cut word is lost with the page, and the
        # heading starts a line of its own whatever follows its number
        return "newline"
    if last in _HYPHENS and prev_line[-2:-1].isalpha() and line[:1].islower():
        return "hyphen"
    if last in _HYPHENS and prev_line[:-1].isalpha() and article_heading_match(prev_line[:-1] + line):
        # "ARTI-" alone on its line, then "CLE 12": an article heading cut in two
        return "hyphen"
    if not (last.isalnum() or last in _OPEN_END_PUNCTUATION):
        return "newline"
    first = line[:1]
    if first.islower() or first.isdigit() or first in "(«\"“'" or first in _CONTINUING_START:
        return "space"
    if first.isupper() and prev_line[-1:].islower() and not title_like_short(line):
        return "space"
    return "newline"


def title_like_short(line: str) -> bool:
    """A short capitalised line with no sentence punctuation: a title, never a continuation."""
    return len(line) <= 60 and not _TITLE_PUNCTUATION.search(line) and line[:1].isupper() and line.isupper()

