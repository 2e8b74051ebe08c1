"""Language versions: where the lines of one text split into the versions it holds (a new
convention title, an article numbering that restarts, pages printed in turn in two languages).
"""

from __future__ import annotations

from functools import lru_cache

from taxtreaty import vocab
from taxtreaty.structure.languages import detect_language
from taxtreaty.structure.lines import Line, heading_value


def segment_versions(lines: list[Line]) -> list[list[Line]]:
    """Split lines into language versions: at a convention title once articles were seen, or where
    the article numbering restarts at 1 outside a protocol."""
    segments: list[list[Line]] = [[]]
    seen_article = False
    max_number = 0
    in_protocol = False
    for k, line in enumerate(lines):
        restart = False
        if line.kind == "title" and (seen_article or in_protocol):
            restart = True
        elif line.kind == "article" and not in_protocol and not line.match.group("damaged"):  # type: ignore[union-attr]
            value = heading_value(line.match)
            if value == 1 and max_number >= 3 and not _numbering_goes_on(lines, k, max_number):
                restart = True
        if restart:
            segments.append([])
            seen_article, max_number, in_protocol = False, 0, False
        segments[-1].append(line)
        if line.kind == "article" and not in_protocol:
            seen_article = True
            if not line.match.group("damaged"):  # type: ignore[union-attr]
                max_number = max(max_number, heading_value(line.match) or 0)
        elif line.kind == "protocol" and seen_article:
            in_protocol = True
    return [s for s in segments if s]


def _numbering_goes_on(lines: list[Line], k: int, max_number: int) -> bool:
    """Does the article numbering go on past `max_number` at the next heading after `k`? Then the
    "Article 1" at `k` is a damaged heading ("ARTIGO 1" for a "12" a scanner cut), not a new version."""
    for line in lines[k + 1 :]:
        if line.kind in ("title", "protocol"):
            return False
        if line.kind == "article" and not line.match.group("damaged"):  # type: ignore[union-attr]
            value = heading_value(line.match)
            return value is not None and value > max_number
    return False


@lru_cache(maxsize=1)
def _article_word_languages() -> dict[str, frozenset[str]]:
    """The supported languages that use each article word ("artigo" pt, "artículo" es; "article"
    en and fr, "art" en, es and pt)."""
    owners: dict[str, set[str]] = {}
    supported = {code for code, lang in vocab.languages().items() if lang.supported}
    for code, lang in vocab.languages().items():
        for word in lang.article_words:
            if code in supported:
                owners.setdefault(vocab.fold(word).rstrip("."), set()).add(code)
    return {word: frozenset(codes) for word, codes in owners.items()}


#: how many lines after a heading are read to tell its language when its word is shared, and at most how
#: many characters of them (a few hundred words tell English from French; the whole 8,000 characters
#: `detect_language` reads cost a fifth of parsing a convention whose every heading is "Article")
_BLOCK_LINES = 40
_BLOCK_CHARS = 2000


def _heading_language(segment: list[Line], k: int, owners: frozenset[str]) -> str | None:
    """The language of the heading at `k`: its word's, when one supported language uses that word;
    else the language of the text under it ("Article" heads French and English articles), when it
    is one of the word's languages; else None (the heading tells nothing)."""
    if len(owners) == 1:
        return next(iter(owners))
    block: list[str] = []
    size = 0
    for line in segment[k + 1 : k + 1 + _BLOCK_LINES]:
        if line.kind == "article" or size >= _BLOCK_CHARS:
            break
        block.append(line.text)
        size += len(line.text) + 1
    language, _ = detect_language("\n".join(block)[:_BLOCK_CHARS])
    return language if language in owners else None


#: headings a language needs in a segment before its pages are told apart from another's
_MIN_HEADINGS_PER_LANGUAGE = 2


def split_interleaved_pages(segment: list[Line], earlier: dict[str, int] | None = None) -> list[list[Line]]:
    """A bilingual text printed a page of each ("Artigo 10.º", "Artigo 11.º", then "Article 10",
    "Article 11", then "Artigo 12.º" ...): the numbering never restarts at 1, so the second
    language's headings would be refused as out of sequence and its text swallowed by the first.
    Blocks are cut where the heading word changes language, and each language's blocks are put
    back together. A segment whose headings use one language's words is returned as it is.
    `earlier` (language -> its last article number in an earlier segment) lets a single heading
    count: "Artículo 11" after the English title and "Article 10" goes on the Spanish version's 10."""
    words = _article_word_languages()
    marks: list[tuple[int, str]] = []  # (index of the heading line, its language)
    for k, line in enumerate(segment):
        if line.kind == "article":
            owners = words.get(vocab.fold(line.match.group("word")).rstrip("."))  # type: ignore[union-attr]
            language = _heading_language(segment, k, owners) if owners else None
            if language:
                marks.append((k, language))
    counts: dict[str, int] = {}
    for _, language in marks:
        counts[language] = counts.get(language, 0) + 1
    continues = {language for k, language in marks if earlier and language in earlier
                 and heading_value(segment[k].match) == earlier[language] + 1}
    if len([lang for lang, n in counts.items() if n >= _MIN_HEADINGS_PER_LANGUAGE or lang in continues]) < 2:
        return [segment]
    groups: dict[str, list[Line]] = {}
    current = marks[0][1]
    cuts = [k for k in range(1, len(marks)) if marks[k][1] != marks[k - 1][1]]
    start = 0
    for cut in [*cuts, len(marks)]:
        end = marks[cut][0] if cut < len(marks) else len(segment)
        current = marks[cut - 1][1]
        groups.setdefault(current, []).extend(segment[start:end])
        start = end
    return [group for group in groups.values() if group]


def _language_and_numbers(part: list[Line]) -> tuple[str | None, list[int]]:
    words = _article_word_languages()
    numbers, languages = [], []
    for k, line in enumerate(part):
        if line.kind == "article" and not line.match.group("damaged"):  # type: ignore[union-attr]
            numbers.append(heading_value(line.match) or 0)
            owners = words.get(vocab.fold(line.match.group("word")).rstrip("."))  # type: ignore[union-attr]
            languages.append(_heading_language(part, k, owners) if owners else None)
    known = [lang for lang in languages if lang]
    language = known[0] if known and all(lang == known[0] for lang in known) else None
    return language, numbers


def version_segments(lines: list[Line]) -> list[list[Line]]:
    """The lines of each language version, in order. Articles printed in turn in two languages,
    each version under its own title ("Artículo 10", then the English title and "Article 10", then
    "Artículo 11", "Article 11"): a block of one language that goes on the numbering of an earlier
    version in that language, with no title of its own, is put back with it."""
    out: list[list[Line]] = []
    last: dict[str, int] = {}  # language -> last article number of its latest version
    owner: dict[str, int] = {}  # language -> index in `out` of that version
    for seg in segment_versions(lines):
        for part in split_interleaved_pages(seg, last):
            language, numbers = _language_and_numbers(part)
            titled = any(line.kind == "title" for line in part)
            if language in owner and numbers and not titled and numbers[0] == last[language] + 1 \
                    and owner[language] < len(out) - 1:
                out[owner[language]].extend(part)
            else:
                out.append(part)
                if language:
                    owner[language] = len(out) - 1
            if language and numbers:
                last[language] = numbers[-1]
    return out
