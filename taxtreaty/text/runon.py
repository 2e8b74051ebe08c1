"""Texts printed without their line breaks: a copy (docplayer, 1library, a page saved from a PDF
viewer) that runs a whole convention, or long stretches of it, onto one line ("... rendimento.
CAPÍTULO II Definições Artigo 3.º Definições gerais 1 — Para efeitos ... Artigo 4.º Residente
1 — ..."). `runon_cuts` finds, inside such a line, where the lines of the gazette started: before
each heading (article, chapter, protocol, the convention's title, the closing formulas) and after
its title. The cleaner reads each piece as a line of its own, so that the paragraphs and points
inside it are cut as in any long line (`inline.py`).

Every cut rests on the shapes of the language data: a heading counts inside a line only after a
sentence end (or right after a chapter's heading, or at the line's start) and only where the end of
its title can be told: its first paragraph's number follows, or the title is one the topic table
knows, or it is in capitals, or closed by a stop, or a sentence in lower case opens after it. A
reference to an article inside a sentence ("nos termos do Artigo 7.º") is never cut.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterator
from functools import cache

import regex

from taxtreaty import patterns, vocab
from taxtreaty.text.inline import heading_run_in_gap
from taxtreaty.text.lines import article_heading_match, is_known_heading, title_like

#: a line shorter than this is never a run-on text (a long paragraph holds at most one heading)
RUNON_MIN = 400
#: the most heading shapes one line is tried for: a whole convention run on holds a few thousand article words
#: (its headings and cross-references); a hostile line of millions ("Artigo 1 Artigo 1 ...") would take minutes,
#: so the rest of such a line is left as it is (a resource bound, not a reading rule)
_MAX_TRIES = 20_000
#: how far after an article heading its title may end, and after a chapter's the article it opens
_TITLE_MAX = 160
#: the most words of a title the topic table is asked about
_TITLE_WORDS = 12
#: the rule of a piece that goes on a heading the copy broke across its own line break ("... PATRIMONIO Artículo" /
#: "232-T2 Pensiones.- 1. Las pensiones ..."): the cleaner joins it to the piece before with a blank
CONTINUED = "+continued"

#: a sentence end before a heading inside a line ("Estado.", "dividendos;", "«juros».", and "do artigo 7.º"
#: before "Artigo 11.º Juros": a reference never runs on into a heading in capitals)
_SENTENCE_END = regex.compile(r"[.;:!?][º°ª]?[\"'»”)\]]*$")
_WORD = regex.compile(r"\S+")
_LINE_BREAKS = regex.compile(r"\n")
#: the gap before a first numbered point of a protocol after its opening words, after a sentence end
#: ("... acordaram o seguinte: 1. Ad Artigo 10", "... as seguintes disposições: 1 — Com referência")
_FIRST_POINT_GAP = regex.compile(r"(?<=[.;:])[^\S\n]+(?=(?:1[.)]|\(1\)|1[^\S\n]*[—–-])[^\S\n]+[\p{Lu}«\"“(])")


def _alternation(words: list[str]) -> str:
    return "|".join(regex.escape(w) for w in sorted(set(words), key=len, reverse=True)) or "(?!)"


def _heading_words() -> tuple[str, str, str, str, str]:
    """The alternations of the heading words (article, chapter, protocol, closing formula, convention title)."""
    return (_alternation(vocab.all_words("article_words")), _alternation(vocab.all_words("chapter_words")),
            _alternation(vocab.all_words("protocol_words")),
            _alternation(vocab.all_words("testimonium") + vocab.all_words("signature_lead")),
            # a title is only cut where `patterns.convention_title` matches, which opens with a convention word in
            # capitals: looking for that word here, not for every capital, spares a try at each sentence's start
            vocab.accent_insensitive_alternation(vocab.all_words("convention_words")))


@cache
def _heading_start() -> regex.Pattern[str]:
    """A gap before a heading's first word: an article word and a number, a chapter word and a number,
    a protocol word, the convention's title, a testimonium or signature formula (every language's words,
    as printed: "Artigo 10.º", "CAPÍTULO II", "PROTOCOLO", "CONVENÇÃO ENTRE", "Feito em")."""
    article, chapter, protocol, closing, title = _heading_words()
    return regex.compile(
        rf"(?:^|(?<=\S)[^\S\n]+)(?="
        rf"(?P<article>(?:{article})[^\S\n]*[\dIVXLlO])"
        rf"|(?P<chapter>(?:{chapter})[^\S\n]+(?:[IVXL]{{1,7}}|\d{{1,2}})\b)"
        rf"|(?P<protocol>(?:{protocol})(?![\p{{L}}]))"
        rf"|(?P<closing>(?:{closing})(?![\p{{L}}]))"
        rf"|(?P<title>(?=\p{{Lu}})(?i:{title})))"
    )


@cache
def _heading_word_finders() -> tuple[regex.Pattern[str], ...]:
    """Where a heading's first word may stand (a superset of where `_heading_start`'s gaps end), found by
    patterns that open with the words themselves: the regex engine skips to their first letters, where
    `_heading_start` tries its alternation at every blank of the line (four times slower on a long line)."""
    article, chapter, protocol, closing, title = _heading_words()
    return (regex.compile(rf"(?<!\S)(?=(?:{article}|{chapter}|{protocol}|{closing}))"),
            regex.compile(rf"(?<!\S)(?=\p{{Lu}})(?=(?i:{title}))"))


#: the blanks before a position, read backwards
_BLANKS_BEFORE = regex.compile(r"(?r)[^\S\n]+")


def _heading_gaps(content: str) -> Iterator[regex.Match[str]]:
    """The matches of `_heading_start` in `content`, in order (the same as its `finditer`): each place where a
    heading's first word may stand is tried, from the blanks before it."""
    heading_start = _heading_start()
    last = -1
    for word in heapq.merge(*((m.start() for m in finder.finditer(content)) for finder in _heading_word_finders())):
        if word == last:
            continue
        last = word
        blanks = _BLANKS_BEFORE.match(content, 0, word) if word else None
        gap = blanks.start() if blanks is not None else word
        if gap == 0 and word != 0:
            continue  # blanks at the line's start: no gap of `_heading_start` (it wants a non-blank before)
        m = heading_start.match(content, gap)
        if m is not None and m.end() == word:
            yield m


def _after_sentence(content: str, pos: int) -> bool:
    """Does the text before `pos` (its blanks aside) end a sentence, or is `pos` the line's start?"""
    # (a window before `pos`, not the whole line before it: a line run on holds thousands of headings)
    before = content[max(0, pos - 64):pos].rstrip()
    if not before and pos > 64:
        before = content[:pos].rstrip()
    return not before or _SENTENCE_END.search(before[-4:]) is not None


def _words_end(content: str, start: int, limit: int) -> list[int]:
    """The end offsets of the words after `start`, up to `limit` characters on."""
    return [m.end() for m in _WORD.finditer(content, start, min(len(content), start + limit))][:_TITLE_WORDS + 3]


def _article_title_end(content: str, start: int) -> int | None:
    """Where the article heading at `start` ends (its title included), or None where it cannot be told."""
    rest = content[start:start + _TITLE_MAX + 40]
    run_in = heading_run_in_gap(rest)
    if run_in is not None:
        return start + run_in[0]
    ends = _words_end(content, start, _TITLE_MAX)
    heading = patterns.article_heading()
    best: int | None = None
    lower_gap: int | None = None
    for k, end in enumerate(ends):
        # what follows the words up to `end` is tested first (cheap): a heading is matched only where a title
        # ending there could count, a capital or a paragraph's number after it, or a sentence in lower case
        nxt = content[end:end + 40].lstrip()
        capital_after = nxt[:1].isupper() or patterns.PARAGRAPH_MARKER.match(nxt) is not None
        lower_after = False
        if lower_gap is None and k + 2 < len(ends) and (content[end - 1].isalpha() or content[end - 1].isspace()):
            after = content[end:ends[k + 2]].split()
            lower_after = len(after) == 2 and after[0][:1].isupper() and after[1][:1].islower()
        if not (capital_after or lower_after):
            continue
        line = content[start:end]
        m = heading.match(line)
        if m is None:
            continue
        title = (m.group("title") or "").strip()
        if capital_after and title and is_known_heading(title):
            best = end  # the longest title the topic table knows, a capital after it
        if lower_after and title and title.split()[-1].isalpha() and title.split()[-1][:1].islower() \
                and article_heading_match(line) is not None:
            # "Artigo 20.º Entrada em vigor A presente Convenção": a capital opens a sentence in lower case
            lower_gap = end
    if best is None and lower_gap is None:
        return _stopped_title_end(content, start, ends)
    return best if best is not None else lower_gap


#: a title closed by a stop (not a paragraph's number: "Artículo 15. Remuneraciones de consejeros. Las ...")
_TITLE_STOP = regex.compile(r"\p{L}[.]$")
#: the most words of a title closed by a stop that the topic table does not know
_STOPPED_TITLE_WORDS = 8


def _stopped_title_end(content: str, start: int, ends: list[int]) -> int | None:
    """"Artículo 15. Remuneraciones en calidad de consejero. Las participaciones ...": a heading whose number
    and title each close with a stop, then a sentence that opens with a capital and goes on in lower case
    (or the heading of a chapter the copy prints after it): the title ends at its stop. Its words are few,
    open with a capital, and hold no other stop, so a sentence after a reference is never taken for one."""
    for end in ends[:_STOPPED_TITLE_WORDS + 2]:
        line = content[start:end]
        if not _TITLE_STOP.search(line):
            continue
        m = article_heading_match(line)
        title = (m.group("title") or "").strip() if m else ""
        if not title or not title[:1].isupper() or not title_like(title[:-1]) or "." in title[:-1] \
                or len(title.split()) > _STOPPED_TITLE_WORDS:
            return None
        number_end = m.start("title")
        if not content[start:start + number_end].rstrip().endswith("."):
            return None  # "Artículo 15 Remuneraciones." : the heading's own stop is missing, no such shape
        after = content[end:end + 60].split()
        if len(after) >= 2 and after[0][:1].isupper() and after[0].isalpha() and after[1][:1].islower():
            return end
        heading = _heading_start().match(content, end)
        return end if heading is not None and heading.group("chapter") is not None else None
    return None


def _next_article_within(content: str, start: int) -> int | None:
    """The start of an article heading within a chapter title's reach of `start`, or None."""
    for m in _heading_start().finditer(content, start, min(len(content), start + _TITLE_MAX)):
        if m.group("article") is not None:
            return m.end()
    return None


def _capitals_end(content: str, start: int) -> int | None:
    """The end of a run of words in capitals from `start` (a convention's title, "PROTOCOLO"), before a
    word that is not in capitals."""
    end = last = None
    for m in _WORD.finditer(content, start):
        word = m.group()
        letters = [c for c in word if c.isalpha()]
        if letters and not all(c.isupper() for c in letters):
            if last is not None and len(last.group()) == 1 and word[:1].isupper():
                end = content[:last.start()].rstrip() and len(content[:last.start()].rstrip())
            break
        end, last = m.end(), m
    return end if end and end > start else None


@cache
def _inline_furniture() -> list[tuple[str, regex.Pattern[str], tuple[str, ...]]]:
    return [(rule["name"], regex.compile(rule["regex"]), tuple(rule.get("literals") or ()))
            for rule in vocab.inline_furniture_patterns()]


def runon_furniture(content: str) -> list[tuple[int, int, str]]:
    """(start, end, rule name) of the page furniture inside a long line (`inline` of `furniture.yaml`):
    a running line a copy without line breaks left between two sentences or inside one. Each match
    starts and ends at a word's edge."""
    if len(content) < RUNON_MIN:
        return []
    found: list[tuple[int, int, str]] = []
    for name, pattern, literals in _inline_furniture():
        if literals and not any(literal in content for literal in literals):
            continue  # (the cheap test: every match holds one of them)
        for m in pattern.finditer(content):
            start, end = m.start(), m.end()
            if (start and not content[start - 1].isspace()) or (end < len(content) and not content[end].isspace()):
                continue
            if not any(s < end and start < e for s, e, _ in found):
                found.append((start, end, name))
    return sorted(found)


def runon_pieces(content: str) -> list[tuple[int, int, str]]:
    """The pieces a text printed without its line breaks is read as, (start, end, "" or the name of the
    furniture rule the piece is): the text between the cuts of `runon_cuts`, the furniture of
    `runon_furniture` apart (the cuts are looked for with the furniture blanked out, so that a running
    line between a sentence and a heading hides neither). `content` may hold line breaks (a few long
    lines read as one): they count as blanks, and a piece never runs across one."""
    blanked = content.replace("\r", " ").replace("\n", " ")
    furniture = runon_furniture(blanked)
    for start, end, _ in furniture:
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    spans: list[tuple[int, int]] = []
    pos = 0
    cuts, headings = _runon_cuts(blanked)
    for gap_start, gap_end in cuts:
        spans.append((pos, gap_start))
        pos = gap_end
    spans.append((pos, len(content)))
    pieces: list[tuple[int, int, str]] = []
    for start, end in spans:
        for f_start, f_end, _ in furniture:
            if start < f_end and f_start < end:
                if f_start > start:
                    pieces.append((start, f_start, ""))
                start = max(start, f_end)
        if end > start:
            pieces.append((start, end, ""))
    pieces += furniture
    out: list[tuple[int, int, str]] = []
    heading_starts = [h_start for h_start, _ in headings]
    for start, end, rule in sorted(pieces):
        if "\n" not in content[start:end]:
            if content[start:end].strip():
                out.append((start, end, rule))
            continue
        broken = False  # the last line break was inside a heading
        for line in _LINE_BREAKS.split(content[start:end]):
            if line.strip():
                out.append((start, start + len(line), CONTINUED if broken and not rule else rule))
            start += len(line) + 1
            k = bisect.bisect_left(heading_starts, start - 1) - 1  # the last heading that starts before the break
            broken = k >= 0 and headings[k][0] < start - 1 < headings[k][1]
    return out


def _protocol_in_capitals(m: regex.Match[str], content: str, start: int) -> bool:
    """"... PELO REINO DA TAILÂNDIA Ministro das Finanças PROTOCOLO No momento da assinatura ...": a protocol's
    heading in capitals before a sentence's first word follows a signature block, where no sentence ends."""
    if m.group("protocol") is None:
        return False
    end = _capitals_end(content, start)
    return end is not None and content[start:end].isupper() and content[end:end + 3].lstrip()[:1].isupper()


def _protocol_title(content: str, start: int, end: int) -> tuple[int, int] | None:
    """"Artículo 244-T2 Protocolo.-": a compilation that numbers the protocol as one of its articles prints the
    protocol's heading as the article's title, a line of its own when printed: the gap before it, or None."""
    m = article_heading_match(content[start:end])
    if m is None or not m.group("title"):
        return None
    protocol = patterns.protocol_heading().match(m.group("title").strip())
    if protocol is None or protocol.group("title").strip(" .-—–:"):
        return None
    gap = patterns.compiled(r"[^\S\n]+$").search(content, start, start + m.start("title"))
    return (gap.start(), gap.end()) if gap is not None else None


def runon_cuts(content: str) -> list[tuple[int, int]]:
    """The gaps (start, end of the blanks) where a line printed without its line breaks held a new
    line of the gazette: before and after each heading it holds (see the module docstring); [] for a
    short line or one that holds no heading in that shape."""
    return _runon_cuts(content)[0]


def _runon_cuts(content: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """`runon_cuts`, and the (start, end) of each heading cut out with its title."""
    if len(content) < RUNON_MIN:
        return [], []
    cuts: list[tuple[int, int]] = []
    headings: list[tuple[int, int]] = []
    heading_end = -1  # where the last heading cut ended: a heading may follow it without a sentence end
    for tries, m in enumerate(_heading_gaps(content)):
        if tries >= _MAX_TRIES:
            break
        start = m.end()
        if start < heading_end:
            continue
        # only blanks since the last heading's end: the gap this match opens reaches back to it (the match
        # starts right after a non-blank, so a later start has one in between); before the first heading, yes
        after_heading = heading_end < 0 or start == heading_end or m.start() <= heading_end
        if not (after_heading or _after_sentence(content, m.start()) or _protocol_in_capitals(m, content, start)):
            continue
        end: int | None = None
        if m.group("article") is not None:
            end = _article_title_end(content, start)
            if end is not None and (title_at := _protocol_title(content, start, end)) is not None:
                cuts.append(title_at)
        elif m.group("chapter") is not None:
            end = _next_article_within(content, start)
            if end is not None:
                # the chapter's heading and title, then the article it opens
                chapter = content[start:end].rstrip()
                end = None if patterns.chapter_heading().match(chapter) is None else start + len(chapter)
        elif m.group("protocol") is not None:
            end = _capitals_end(content, start)
            if end is None or end == start or not content[start:end].isupper():
                end = None
        elif m.group("closing") is not None:
            end = start  # the formula's sentence goes on in its piece
        elif patterns.convention_title().match(content[start:start + 200]):
            end = _capitals_end(content, start)
            if end is not None and not title_like(content[start:end], max_length=400):
                end = None
        if end is None:
            continue
        if m.group("protocol") is not None and (first := _FIRST_POINT_GAP.search(content, end)) is not None:
            cuts.append((first.start(), first.end()))  # the protocol's numbered points, after its opening words
        cuts.append((m.start(), start))
        headings.append((start, end))
        if end > start:
            gap = patterns.compiled(r"[^\S\n]+").match(content, end)
            if gap is not None and gap.end() < len(content):
                cuts.append((gap.start(), gap.end()))
                heading_end = gap.end()
    return sorted({c for c in cuts if c[1] > c[0]}), headings
