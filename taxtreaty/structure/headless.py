"""A copy that lost every article heading: the articles cut where the paragraph numbering starts again.

Some web copies of a gazette keep the numbered paragraphs of a convention and drop its headings (the BOE's
own web page of a text's original version prints "Artículo 10. Dividendos." in an element a copy may lose:
"Han acordado lo siguiente:" / "El presente Convenio se aplica a las personas residentes ..." / "1. El
presente Convenio se aplica a los impuestos ..." / "2. Se consideran impuestos ..." / "1. Los dividendos
..."). Without headings no article is read and the file is refused; a reader still sees the articles: each
one opens where the numbering starts again at 1, and an article of one unnumbered paragraph is the
paragraph that sits alone between the preamble (or an article) and the next article's "1.", saying
something of its own (its words name another topic than the article before, `topics.topic_from_content`).

`counted_headings` puts a heading of no width before each such line ("Article N", counted in order), only
when the version has no heading at all and its numbering starts again often enough to be a convention's.
The numbers are counted, not printed: `parse` marks every such article `number_inferred` and warns
(`article_headings_missing`), and the rules engine says so with each answer; an unnumbered paragraph the
count takes for an article's tail (or the reverse) shifts the numbers of the articles after it, never their
words or topics (each article's topic comes from its own words).
"""

from __future__ import annotations

from taxtreaty.structure.lines import Line
from taxtreaty.structure.topics import topic_from_content
from taxtreaty.text.lines import classify

#: a convention's numbering starts again at "1." at least this many times (articles of several paragraphs)
MIN_RESTARTS = 5
#: what `parse` warns when it counted the articles (structure warning `article_headings_missing`)
WARNING = ("the copy prints no article headings: the articles were cut where the paragraph numbering starts again and "
           "numbered in their order, so each article's number is counted, not printed (its words and topic are its own)")
#: the kinds of line after which no article is counted (a protocol's points, the signatures)
_STOP = ("protocol", "closing")


def _restarts(line: Line) -> bool:
    return line.kind == "paragraph" and line.match is not None and line.match.group("num") == "1"  # type: ignore[union-attr]


def _alone(lines: list[Line], k: int, topic: str | None, language: str | None) -> bool:
    """Line k is an unnumbered article: a sentence of its own that opens in capitals right after a line
    that ends one, with the next article's "1." (or the end of the articles) right under it, and its words
    name a topic of their own."""
    line, previous = lines[k], lines[k - 1] if k else None
    if line.kind != "text" or not line.text[:1].isupper() or previous is None or not _ends_before(lines, k - 1):
        return False
    following = lines[k + 1] if k + 1 < len(lines) else None
    if following is not None and not (_restarts(following) or following.kind in _STOP):
        return False
    found = topic_from_content(line.text, language)[0]
    return found is not None and found != topic


def _ends_before(lines: list[Line], k: int) -> bool:
    """Line k ends what comes before an article: a sentence, the preamble's "han acordado lo siguiente:", a
    chapter's heading or its title ("CAPÍTULO I" / "Ámbito de aplicación del Convenio")."""
    return (lines[k].text.rstrip().endswith((".", ":")) or lines[k].kind == "chapter"
            or (k > 0 and lines[k - 1].kind == "chapter"))


def counted_headings(lines: list[Line], language: str | None) -> bool:
    """Put a heading of no width, numbered in order, before each article of a version that prints none
    (module docstring); True when it did. `lines` is changed in place."""
    # the convention's own lines: from its title (an approving decree's "Art. 1.- Ratifícase ..." before it is
    # the decree's), up to its protocol or signatures
    begin = next((k for k, line in enumerate(lines) if line.kind == "title"), None)
    if begin is None or any(line.kind == "article" for line in lines[begin:]):
        return False  # a text with no convention's title is no convention that lost its headings
    stop = next((k for k in range(begin, len(lines)) if lines[k].kind in _STOP), len(lines))
    opens = [k for k in range(begin, stop) if _restarts(lines[k])]
    if len(opens) < MIN_RESTARTS:
        return False
    starts: list[int] = []
    topic: str | None = None
    # before the first "1.": an article of one paragraph right under the preamble ("han acordado lo siguiente:")
    # or a chapter's title
    for k in range(max(begin + 1, opens[0] - 1), stop):
        if _restarts(lines[k]) or _alone(lines, k, topic, language):
            starts.append(k)
            topic = topic_from_content(lines[k].text, language)[0]
    for number, k in reversed(list(enumerate(starts, start=1))):
        kind, match = classify(f"Article {number}")
        assert kind == "article"
        lines.insert(k, Line(lines[k].start, lines[k].start, f"Article {number}", kind, match))
    return True
