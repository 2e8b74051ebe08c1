"""A page printed in two columns that a copy read line by line, across both (a PDF extraction of El Peruano in
SUNAT's files, of a Diário da República scan): each line of the copy holds a line of the left column, then a line
of the right one, with one blank or many between them ("... cualquiera que sea el sistema de su 3. Los impuestos
actuales a los que se aplica este"). Such a text reads as sentences of two places woven together: its
paragraphs may be misread, so the parser warns (`columns_merged`) and every answer on it says so.

The sign: a paragraph's or point's number in the middle of a line ("2. Sin embargo", "2 — No entanto", "2- No entanto", "(b) the",
"(2) The") right after words no sentence ends on, where a copy in one column prints them at a line's start. A
reference ("del apartado 2 (b)", "de los párrafos 1 y 2. Los ...", "in de letters a) tot en met f)") has a
reference word or a number before it and is not counted. Lines longer than two columns
are not looked at (a copy's paragraphs on one line each, a copy run on). The text must hold several such lines, and a share of its numbers: a line or two of a text in one
column that lost a stop never warns.
"""

from __future__ import annotations

import re
from functools import cache

import regex

from taxtreaty import vocab
from taxtreaty.patterns import compiled

#: a paragraph's or point's number after a blank ("2. Sin", "2 — No", "2- No", "(b) the", "b) los", "(2) The"), what
#: follows it in `after`; the word before and the case of what follows are checked in `merged_lines` (the standard
#: library's engine scans a whole text for this in a millisecond)
_MID_MARKER = re.compile(r"[ \t](?P<marker>\d{1,2}(?:[ \t]*[—–]|\.|-)|\(?[a-h]\)|\(\d{1,2}\))[ \t]+(?P<after>[^\W\d_]{2})")
#: the same at a line's start, as a copy in one column prints them
_START_MARKER = regex.compile(
    r"^[^\S\n]*(?:\d{1,2}(?:[^\S\n]*[—–]|\.|-)[^\S\n]+\p{Lu}|\(?[a-h]\)[^\S\n]+\p{L}|\(\d{1,2}\)[^\S\n]+\p{Lu})",
    regex.MULTILINE)
_LAST_WORD = regex.compile(r"(?r)[^\s]+")
#: a line longer than this is no line of a page of two columns (a paragraph of a copy in one column, a copy run
#: on): two columns of a gazette hold some 45 characters each, 70 at most, and the blanks between them
_LONGEST_LINE = 200
#: the fewest lines that must show the sign, and the share of all the numbers they must hold
MIN_LINES = 5
MIN_SHARE = 0.12
#: how many of the lines the warning quotes
_QUOTED = 2
_QUOTE_CONTEXT = 40


@cache
def _reference_words() -> tuple[frozenset[str], tuple[str, ...], frozenset[str]]:
    """The words right before a number that make it a reference (every language's reference and article
    words), whole; those of four letters or more as prefixes too ("letters" after "letter"); and the words
    that join two numbers of one reference ("1 y 2", "a) and b)")."""
    words = {w.lower() for key in ("reference_words", "article_words") for w in vocab.all_words(key)}
    joiners = frozenset(w.lower() for w in vocab.all_words("list_joiners"))
    return frozenset(words), tuple(sorted(w for w in words if len(w) >= 4)), joiners


def _bare(word: str) -> str:
    return word.lower().strip("(),;:«»\"'“”")


def _is_reference(line: str, before: regex.Match[str]) -> bool:
    """Is the word `before` (the last before a number in `line`) one a reference puts there?"""
    whole, prefixes, joiners = _reference_words()
    word = _bare(before.group())
    if not word or word[-1].isdigit() or word in whole or word.startswith(prefixes):
        return True  # "apartado 2 (b)", "(29) artículos", "in de letters a) tot en met f)"
    if word in joiners:  # "los párrafos 1 y 2. Los": a joiner after a number or a label
        previous = _LAST_WORD.search(line, 0, before.start())
        last = _bare(previous.group()) if previous is not None else ""
        return bool(last) and (last[-1].isdigit() or compiled(r"\(?[a-h]\)?").fullmatch(last) is not None)
    return False


def merged_lines(original: str) -> list[str]:
    """The lines of `original` that hold a paragraph's or point's number in mid-line after words no sentence
    ends on (see the module docstring), a piece of each around the number."""
    found: list[str] = []
    last_line = -1  # the start of the last line counted: a line counts once
    for m in _MID_MARKER.finditer(original):
        gap = m.start()
        line_start = original.rfind("\n", 0, gap) + 1
        if line_start == last_line or gap == line_start:
            continue
        line_end = original.find("\n", gap)
        line_end = len(original) if line_end < 0 else line_end
        if line_end - line_start > _LONGEST_LINE:
            continue
        marker, after = m.group("marker"), m.group("after")
        if marker[0].isdigit() and not (after[0].isupper() and after[1].islower()):
            continue  # "2. Sin", "2 — No": a paragraph opens with a capital
        if marker.startswith("(") and marker[1].isdigit() and not after[0].isupper():
            continue
        gap_start = len(original[line_start:gap].rstrip(" \t")) + line_start
        previous = original[gap_start - 1] if gap_start > line_start else ""
        if not (previous.isdigit() or previous == "," or previous.islower()):
            continue  # after a sentence end, a line's start, a capital: no sign
        line = original[line_start:line_end]
        before = _LAST_WORD.search(line, 0, gap_start - line_start)
        if before is None or _is_reference(line, before):
            continue
        last_line = line_start
        at = gap - line_start
        found.append(" ".join(line[max(0, at - _QUOTE_CONTEXT): at + len(m.group()) + _QUOTE_CONTEXT].split()))
    return found


def columns_merged(original: str) -> str | None:
    """The warning's message where `original` reads as two columns merged line by line, else None."""
    found = merged_lines(original)
    if len(found) < MIN_LINES:
        return None
    starts = len(_START_MARKER.findall(original))
    if len(found) < MIN_SHARE * (starts + len(found)):
        return None
    quoted = "”, “".join(found[:_QUOTED])
    return (f"{len(found)} lines hold a paragraph's or point's number in mid-line after words that end no sentence "
            f"(“{quoted}”): the page looks printed in two columns and read line by line across both, so its "
            "paragraphs may be misread; read it from a copy in one column")
