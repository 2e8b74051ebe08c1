"""Footnotes: the lines of footnote text at the foot of a page and the markers ("cases.²",
"Interest (*)", "Dividends1") that point to them. Both are dropped as page furniture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import regex

from taxtreaty import patterns
from taxtreaty.patterns import compiled
from taxtreaty.text.lines import LINE as _LINE

_SUPERSCRIPT_DIGITS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
#: the rule a printer sets above a page's footnotes: "__________", "----------", "——————"
_FOOTNOTE_RULE = regex.compile(r"^[_—–-]{5,}$")
#: a footnote's own line starts with its marker: "¹ Paragraph 2 as replaced ...", "(*) Article 11
#: as amended ...", "1 As amended by the Protocol ..." (a bare number before a capital: never a
#: paragraph marker, which takes "." or a dash)
_FOOTNOTE_LINE = regex.compile(
    rf"^(?:(?P<sup>[{_SUPERSCRIPT_DIGITS}]{{1,2}})|(?P<star>\(\*{{1,3}}\))|(?P<num>\d{{1,2}})(?=[^\S\n]+\p{{Lu}}))"
    r"[^\S\n]*\S"
)
#: a footnote marker printed after a word or a stop: "cases.²", "Interest (*)"
_INLINE_SUPERSCRIPT = regex.compile(rf"(?<=[\p{{L}}.,;:)\]])[{_SUPERSCRIPT_DIGITS}]{{1,2}}(?![\p{{L}}\d])")
_INLINE_STAR = regex.compile(r"[^\S\n]?\(\*{1,3}\)(?=\s|$|[.,;:])")
#: a footnote number glued to the word it annotates ("Dividends1"); looked for only when a
#: footnote line with that number is there
_INLINE_NUMBER_BEFORE = r"(?<=\p{Ll})"
_INLINE_NUMBER_AFTER = r"(?![\p{L}\d])"


@dataclass(frozen=True)
class Footnotes:
    #: original offsets of the lines that are footnote text (page furniture)
    line_starts: frozenset[int]
    #: the numbers of the footnotes found ("1", "12"): a word glued to one ("Dividends1") is marked
    numbers: frozenset[str]
    #: a "(*)" footnote was found: "(*)" after a word is its marker
    star: bool
    #: the text holds a superscript digit somewhere (else no line is searched for one)
    superscripts: bool = True


_NO_FOOTNOTES = Footnotes(frozenset(), frozenset(), star=False, superscripts=False)
#: a line that could start a footnote or its rule (the cheap test before the line loop)
#: (the standard `re` module: a literal "\n" first lets it skip through a text far faster)
_FOOTNOTE_HINT = re.compile(rf"\n[ \t]*(?:[{_SUPERSCRIPT_DIGITS}]|\(\*|\d{{1,2}}[ \t]+[A-ZÀ-ÖØ-Þ]|[_—–-]{{5}})")


def find_footnotes(original: str) -> Footnotes:
    """Footnote lines: after a rule of underscores or dashes, lines that start with a footnote
    marker (and the lower-case lines that go on one left without a stop); without a rule, a line
    starting with a superscript or "(*)" whose marker is printed
    earlier in the text, or "1 As amended ..." when a word earlier carries that number glued
    to it ("Dividends1") and the line before ends a sentence (so that "15 per cent of ..." that
    goes on from the line before is never taken). Nothing else is removed."""
    superscripts = any(digit in original for digit in _SUPERSCRIPT_DIGITS)
    if not _FOOTNOTE_HINT.search("\n" + original[:200]) and not _FOOTNOTE_HINT.search(original):
        # most texts: one scan, no line loop
        return _NO_FOOTNOTES if not superscripts else Footnotes(frozenset(), frozenset(), False, True)
    starts: set[int] = set()
    numbers: set[str] = set()
    star = False
    after_rule = False
    in_note = False  # the previous line was footnote text that did not end its sentence
    previous = ""
    for m in _LINE.finditer(original):
        if m.start() == m.end():
            break
        content = m.group().strip()
        if not content:
            after_rule = after_rule and not in_note
            in_note = False
            continue
        if _FOOTNOTE_RULE.match(content):
            after_rule, previous = True, content
            continue
        fm = _FOOTNOTE_LINE.match(content) if content[0] in _SUPERSCRIPT_DIGITS or content[0] in "(0123456789" else None
        note = False
        if fm is not None:
            before = original[max(0, m.start() - 20_000):m.start()]
            if fm.group("sup"):
                note = after_rule or fm.group("sup") in before
            elif fm.group("star"):
                note = after_rule or bool(_INLINE_STAR.search(before))
                star = star or note
            else:
                number = fm.group("num")
                glued = compiled(_INLINE_NUMBER_BEFORE + regex.escape(number) + _INLINE_NUMBER_AFTER).search(before)
                note = after_rule or (glued is not None and bool(patterns.SENTENCE_END.search(previous)))
                if note:
                    numbers.add(number)
        elif in_note and after_rule and content[0].islower():
            # only inside a block under a rule: elsewhere a lower-case line after a footnote that
            # ends without a stop is the paragraph going on from the page before
            note = True
        if note:
            starts.add(m.start())
            in_note = not patterns.SENTENCE_END.search(content)
        else:
            after_rule = in_note = False
        previous = content
    return Footnotes(frozenset(starts), frozenset(numbers), star, superscripts)


def footnote_marker_edits(content: str, base: int, notes: Footnotes) -> list[tuple[int, int, str]]:
    """Edits (original offsets) that drop the footnote markers printed inside a line."""
    edits = []
    if notes.superscripts and not content.isascii():
        edits += [(base + x.start(), base + x.end(), "") for x in _INLINE_SUPERSCRIPT.finditer(content)]
    if notes.star and "(*" in content:
        edits += [(base + x.start(), base + x.end(), "") for x in _INLINE_STAR.finditer(content)]
    for number in notes.numbers:
        if number in content:
            pattern = regex.compile(_INLINE_NUMBER_BEFORE + regex.escape(number) + _INLINE_NUMBER_AFTER)
            edits += [(base + x.start(), base + x.end(), "") for x in pattern.finditer(content)]
    return edits

