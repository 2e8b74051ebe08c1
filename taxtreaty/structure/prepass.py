"""Passes over the classified lines before the tree is built: headings that are not articles
(a table of contents, numbers in the style the document does not use, the reference of a
schedule to the article of the instrument that gives it effect) go back to text.
"""

from __future__ import annotations

import regex

from taxtreaty.structure.lines import Line


def number_style(lines: list[Line]) -> None:
    """Roman article numbers ("ARTICLE IV") are read only when the document numbers its
    articles that way: the style most headings use wins, and headings of the other style are
    demoted to text (in an arabic treaty "Article I" is not a heading, and vice versa). Headings
    inside a protocol do not vote: a protocol's "Article 1", "Article 2" never open articles, and
    must not outvote a convention numbered "ARTICLE I" ... "ARTICLE XI"."""
    headings = []
    in_protocol = False
    for ln in lines:
        if ln.kind == "protocol":
            in_protocol = True
        elif ln.kind == "title":
            in_protocol = False
        elif ln.kind == "article" and not in_protocol and not ln.match.group("damaged"):  # type: ignore[union-attr]
            headings.append(ln)
    roman = sum(1 for ln in headings if ln.match.group("roman"))  # type: ignore[union-attr]
    roman_style = roman > len(headings) - roman
    for ln in headings:
        if bool(ln.match.group("roman")) != roman_style:  # type: ignore[union-attr]
            ln.kind, ln.match = "text", None


#: the page a table of contents gives after a heading: "Dividends 7", "Dividends ........ 7"
_CONTENTS_PAGE = regex.compile(r"(?:[^\S\n]|\.{2,}|…)[^\S\n]*\d{1,4}$")
#: the leader a table of contents joins a heading's number and its title with, when it gives no page:
#: "Article 10--------Dividends" (a United States Treasury text's "TABLE OF ARTICLES")
_CONTENTS_LEADER = regex.compile(r"(?:[-–—_.…·][^\S\n]*){3,}")
#: a table of contents lists at least this many headings, one under the other
_CONTENTS_MIN_ENTRIES = 2


def _leader(line: Line) -> bool:
    """Is the heading's number joined to its title by a leader ("Article 10--------Dividends")?"""
    m = line.match
    if m is None or not m.group("title"):  # type: ignore[union-attr]
        return False
    ends = [m.end(g) for g in ("num", "roman") if g in m.re.groupindex and m.group(g)]  # type: ignore[union-attr]
    gap = line.text[max(ends, default=m.start("title")):m.start("title")]  # type: ignore[union-attr]
    return _CONTENTS_LEADER.search(gap) is not None or _CONTENTS_LEADER.match(m.group("title")) is not None  # type: ignore[union-attr]


def contents_table(lines: list[Line]) -> None:
    """A table of contents before the articles ("Article 1 Persons covered 2", "Article 10 Dividends
    ........ 7", "Article 10--------Dividends"): article headings one right under the other, each ending with its page, are not the
    articles (read as headings they take the real articles' text, and article 11 of the contents
    swallows articles 10 and 11 of the convention). They are left as text."""
    run: list[Line] = []
    for line in [*lines, None]:
        title = (line.match.group("title") or "") if line is not None and line.kind == "article" else None  # type: ignore[union-attr]
        if title is not None and (_CONTENTS_PAGE.search(title.rstrip()) or _leader(line)):  # type: ignore[arg-type]
            run.append(line)  # type: ignore[arg-type]
            continue
        if len(run) >= _CONTENTS_MIN_ENTRIES:
            for entry in run:
                entry.kind, entry.match = "text", None
            _protocol_entries(lines, next(i for i, ln in enumerate(lines) if ln is run[-1]) + 1)
        run = []
    _bare_contents(lines)


def _protocol_entries(lines: list[Line], k: int) -> None:
    """The entries right after a table of contents' articles ("Protocol of 23 July, 1982", "Letter of Submittal of
    ...", "Understanding"): short lines, a protocol's among them, that are no protocol's heading either."""
    for line in lines[k:]:
        if not line.text.strip():
            continue
        if line.kind not in ("protocol", "text") or len(line.text.strip()) > 80:
            return
        if line.kind == "protocol":
            line.kind, line.match = "text", None


#: headings one right under the other, with no words of an article between them, this many at least: a table
#: of contents without pages or leaders ("Article 1 General Scope" / "Article 2 Taxes Covered" / ...)
_BARE_CONTENTS_MIN_ENTRIES = 3


def _bare_contents(lines: list[Line]) -> None:
    """"TABLE OF ARTICLES Article 1 General Scope / Article 2 Taxes Covered / ... / Protocol of 23 July, 1982 /
    Letter of Submittal ..." (a United States treaty as its collections print it): titled headings with nothing
    of their own under them are the contents, not articles (read as headings they open a first version of empty
    articles, and the entry naming the protocol opens a protocol). The protocol entries right after them, too."""
    kept = [ln for ln in lines if ln.text.strip()]
    k = 0
    while k < len(kept):
        run = []
        while k < len(kept) and kept[k].kind in ("article", "chapter"):
            run.append(kept[k])
            k += 1
        headings = [ln for ln in run if ln.kind == "article" and (ln.match.group("title") or "").strip()]  # type: ignore[union-attr]
        if len(headings) >= _BARE_CONTENTS_MIN_ENTRIES and len(headings) == sum(1 for ln in run if ln.kind == "article"):
            for entry in run:
                entry.kind, entry.match = "text", None
            _protocol_entries(lines, next(i for i, ln in enumerate(lines) if ln is run[-1]) + 1)
        k += 1 if not run else 0


def instrument_references(lines: list[Line]) -> None:
    """A heading with no title of its own right before a convention's (or a protocol's) title is
    not the convention's article: an instrument that schedules a convention prints, under its
    schedule's heading, the article of the instrument that gives the schedule effect ("SCHEDULE",
    "Article 2", then "CONVENTION BETWEEN ..." in a UK Order in Council). Read as a heading it
    opens an article 2 that takes the instrument's own paragraphs as an article 1. It is left as text."""
    for k, line in enumerate(lines[:-1]):
        if line.kind != "article" or (line.match.group("title") or "").strip():  # type: ignore[union-attr]
            continue
        following = next((ln for ln in lines[k + 1:] if ln.text.strip()), None)
        if following is not None and following.kind in ("title", "protocol"):
            line.kind, line.match = "text", None
