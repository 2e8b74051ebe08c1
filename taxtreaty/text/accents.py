"""Accented letters a copy lost with its encoding, restored from the words of the language data.

A copy exported to ASCII, or read in the wrong encoding, loses its accented letters three ways: the
letter is dropped ("Artculo", "imposicin", "DIRIO DA REPBLICA", "Conveno" for "Convenção"), printed
as "?" ("Art?culo", "imposici?n") or as U+FFFD ("Art\ufffdculo"). Every reader matches its phrases
without accents ("imposicion" finds "imposición"), but a word that lost a letter is another word:
the phrases, headings and names of such a copy are not found, and its answers go with them.

`restore(text)` gives the edits that write such words again: a damaged word is replaced only by the
one word of the language data it can stand for (`Lexicon`: every word with an accented letter in
`data/languages/<code>.yaml`, `data/provisions/<code>.yaml`, the language's titles of
`data/topics.yaml`, the names of `data/countries.yaml` and the treaty words of `data/accents.yaml`).
A word the language data knows as printed ("no", "ser": `Lexicon.plain`) is replaced only by its
neighbour: "no" (of "não") where the word after it makes a phrase of "não" in the data and none of "no"
("no pode exceder", "a no ser que"; not "no Estado"), like a lone letter ("s podem" for "só podem"), and
"exceder" (of "excederá") after such a word ("não exceder"); a damaged word that stands for two known
words, or for none, stays as printed (its reader then reports what it could not read).

The step is on the parse's hot path and costs a few string scans when nothing is damaged: "?" and
U+FFFD are looked for inside words only when the text holds either, dropped letters only in a text
that prints the frequent words of a language of `data/accents.yaml` (Spanish, Portuguese) and
almost none of its accented letters, or (a copy that kept some, as a web page's entities) well under what
its language prints, where the words restored are a good share of those it prints with accents.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import regex

from taxtreaty import vocab

#: what a copy prints for an accented letter it cannot hold, when it prints anything
MARKS = "?\ufffd"
#: the mark the index is written with (U+FFFD is read as it)
_MARK = "?"
#: a word of letters; a word with a mark inside or around it, from its start (possessive: linear)
_WORD = regex.compile(r"\p{L}++")
_MARKED_WORD = regex.compile(r"\p{L}*+[?\ufffd][\p{L}?\ufffd]*+")
#: a mark (the words with one are found from their marks)
_MARK_RUN = regex.compile(r"[?\ufffd]")
#: an accented letter of the Latin alphabets (not the ordinal signs "º", "ª")
_ACCENTED = regex.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")
#: a mark beside a letter: the sign that some words lost a letter to it
_MARK_IN_WORD = regex.compile(r"\p{L}[?\ufffd]|[?\ufffd]\p{L}")
#: how much of the text the cheap tests look at
_SAMPLE = 20_000
#: a text of a language prints its accented letters at least this often per frequent word; a copy that
#: lost them prints (almost) none: below a tenth of that, dropped letters are looked for
_ACCENTS_PER_FREQUENT = 0.05
#: the frequent words a text of the language prints, per character of the sample, at the least
_FREQUENT_PER_CHAR = 1 / 400
#: a copy printing under this share of the accented letters its language prints may have dropped some: it is
#: read as one that did when the words restored are at least `_PARTIAL_SHARE` of the words it prints with
#: accents (a copy that prints its accents restores a few words, beside hundreds printed whole)
_PARTIAL = 0.6
_PARTIAL_SHARE = 0.5
#: a copy is read as one that dropped its letters when this many distinct words are restored
_MIN_DROPPED_WORDS = 3
#: a word of its own read by the word after it has at most this many letters once its accents went ("no" of
#: "não", "as" of "así"; not "ser" of "será": "puede ser de" is Spanish as it is)
_MAX_PAIRED = 2
#: a word of fewer letters is left as printed ("s" could be "sí" or any initial)
_MIN_KEPT = 2


def accented(char: str) -> bool:
    """An accented Latin letter ("á", "Ç", "ñ"), not an ordinal sign ("º" folds to "o" but is no letter of a word)."""
    if char.isascii() or not char.isalpha():
        return False
    folded = vocab.fold(char)
    return len(folded) == 1 and folded.isascii() and folded != char.lower()


@dataclass(frozen=True)
class Lexicon:
    """The words of one language a damaged word may stand for."""

    code: str
    #: a word with its accented letters dropped -> the words it may stand for ("artculo" -> {"artículo"})
    dropped: dict[str, frozenset[str]]
    #: a word with its accented letters printed "?" -> the words ("art?culo" -> {"artículo"})
    marked: dict[str, frozenset[str]]
    #: the words the data prints without accents ("no", "ser"): never replaced
    plain: frozenset[str]
    #: the accent-less spelling of the words with accents ("nao", "so" of "só"): the words of a copy that
    #: printed its letters without their accents, which is no copy that dropped them
    folded: frozenset[str]
    #: a word of one letter once its accents went, or a word of its own ("no" of "não", "ser" of "será"), and the
    #: word after it -> the words it may stand for (("s", "podem") -> {"só"}, ("s", "pessoas") -> {"às"},
    #: ("no", "exceder") -> {"não"}), from the phrases of the data; never a pair the data prints with the word
    #: as it is ("no estado", "ser tributad")
    pairs: dict[tuple[str, str], frozenset[str]]
    #: the frequent words whose count tells a text of this language (" de ", " que ")
    frequent: tuple[str, ...]
    #: a word of its own once its accents went and the word before it -> the words it may stand for
    #: (("no", "exceder") and ("nao", "exceder") -> {"excederá"}), from the phrases of the data
    after_pairs: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    #: the fewest accented letters a whole copy of the language prints per frequent word
    accents_per_frequent: float = 0.0


@dataclass
class Restoration:
    """What `restore` did: the language read, the edits (original start, end, word), and the damaged
    words left as printed (ambiguous, or no word of the language data)."""

    language: str
    edits: list[tuple[int, int, str]] = field(default_factory=list)
    left: int = 0

    def examples(self, text: str, count: int = 3) -> list[str]:
        """A few restorations as "printed -> restored", for a warning."""
        seen: dict[str, str] = {}
        for start, end, word in self.edits:
            seen.setdefault(text[start:end], word)
            if len(seen) >= count:
                break
        return [f"{printed} -> {word}" for printed, word in seen.items()]


def _strings(node: Any) -> Iterator[str]:
    """Every text scalar and key under `node`."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str):
                yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item)


def _words(strings: Iterable[str]) -> set[str]:
    return {w.lower() for s in strings for w in _WORD.findall(s)}


def _key(word: str, lost: str) -> str:
    return "".join(lost if accented(c) else c for c in word)


@cache
def _data() -> dict[str, Any]:
    return vocab.read_data_file("accents.yaml", keys=("languages",))["languages"]


@cache
def lexicons() -> dict[str, Lexicon]:
    """The lexicon of every language of `data/accents.yaml` (built the first time a copy looks damaged)."""
    countries = [name for names in vocab.countries().values() for name in names]
    out = {}
    for code, entry in _data().items():
        strings = [
            *_strings(vocab.read_data_file("languages", f"{code}.yaml")),
            *_strings(vocab.read_data_file("provisions", f"{code}.yaml")),
            *entry.get("words", ()),
            *entry.get("plain", ()),
        ]
        for topic in vocab.topics():
            for key in ("headings", "content"):
                strings += (topic.get(key) or {}).get(code) or []
        known = _words(strings)
        # the names of the States are of no one language: their words with accents only
        known |= {w for w in _words(countries) if any(accented(c) for c in w)}
        accented_words = {w for w in known if any(accented(c) for c in w)}
        dropped: dict[str, set[str]] = {}
        marked: dict[str, set[str]] = {}
        for word in accented_words:
            dropped.setdefault(_key(word, ""), set()).add(word)
            marked.setdefault(_key(word, _MARK), set()).add(word)
        plain = known - accented_words
        pairs: dict[tuple[str, str], set[str]] = {}
        plain_pairs: set[tuple[str, str]] = set()
        after_pairs: dict[tuple[str, str], set[str]] = {}
        plain_after: set[tuple[str, str]] = set()
        for phrase in strings:
            words = [w.lower() for w in _WORD.findall(phrase)]
            for first, after in itertools.pairwise(words):
                forms = {vocab.fold(after), _key(after, "")}
                before = {vocab.fold(first), _key(first, "")}
                if after in accented_words and _key(after, "") in plain:
                    for form in before:
                        after_pairs.setdefault((form, _key(after, "")), set()).add(after)
                elif after not in accented_words:
                    plain_after |= {(form, after) for form in before}
                key = _key(first, "")
                if first in accented_words and (len(key) == 1 or (len(key) <= _MAX_PAIRED and key in plain)):
                    for form in forms:
                        pairs.setdefault((key, form), set()).add(first)
                elif first not in accented_words:
                    plain_pairs |= {(first, form) for form in forms}
        out[code] = Lexicon(
            code,
            {k: frozenset(v) for k, v in dropped.items() if k},
            {k: frozenset(v) for k, v in marked.items()},
            frozenset(plain),
            frozenset(vocab.fold(w) for w in accented_words),
            # ("no", "podem") is "não podem"; ("no", "estado") is a phrase of "no" itself: no pair
            {k: frozenset(v) for k, v in pairs.items() if k not in plain_pairs},
            tuple(f" {w} " for w in entry.get("frequent", ())),
            {k: frozenset(v) for k, v in after_pairs.items() if k not in plain_after},
            float(entry.get("accents_per_frequent", 0.0)),
        )
    return out


def _cased(printed: str, word: str, capital: bool = False) -> str:
    """`word` in the case `printed` has ("DIRIO" -> "DIÁRIO", "Conveno" -> "Convenção"); with `capital`, its
    first letter a capital (one the copy dropped)."""
    letters = [c for c in printed if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and (len(letters) > 1 or capital):
        return word.upper()
    return word[0].upper() + word[1:] if printed[:1].isupper() or capital else word


def _one(found: frozenset[str] | None) -> str | None:
    return next(iter(found)) if found is not None and len(found) == 1 else None


def _suspects(text: str) -> tuple[bool, list[Lexicon], str | None, set[str]]:
    """(whether words may hold marks, the languages whose copy may have dropped its letters, the language
    whose frequent words the text prints most if it prints them often enough, the languages whose copy kept
    only some of its letters): cheap tests, the lexicons built only when one passes."""
    marks = any(m in text for m in MARKS) and _MARK_IN_WORD.search(text) is not None
    sample = text[:_SAMPLE]
    dropping: list[Lexicon] = []
    partial: set[str] = set()
    accents: int | None = None
    language, most = None, 0
    for code, entry in _data().items():
        frequent = sum(sample.count(f" {w} ") for w in entry.get("frequent", ()))
        if frequent < max(1.0, len(sample) * _FREQUENT_PER_CHAR):
            continue
        if frequent > most:
            language, most = code, frequent
        if accents is None:
            accents = 0 if sample.isascii() else len(_ACCENTED.findall(sample))
        if accents < frequent * _ACCENTS_PER_FREQUENT:
            dropping.append(lexicons()[code])
        elif accents < frequent * float(entry.get("accents_per_frequent", 0.0)) * _PARTIAL:
            partial.add(code)
    # some letters kept: looked for in the language of the text only (a Spanish text prints the "de" and "que"
    # of Portuguese, and fewer accents than a Portuguese one)
    partial &= {language} - {lexicon.code for lexicon in dropping}
    dropping += [lexicons()[code] for code in partial]
    return marks, dropping, language, partial


def _replacement(lexicon: Lexicon, printed: str) -> str | None:
    """The one word a word printed with marks stands for, in its case, or None."""
    word = _one(lexicon.marked.get(printed.lower().replace("\ufffd", _MARK)))
    return None if word is None else _cased(printed, word)


def _dropped(text: str, lexicon: Lexicon, partial: bool = False) -> tuple[list[tuple[int, int, str]], int]:
    """The edits of the words that dropped their accented letters, and how many stand for several words;
    none unless the copy reads as one that dropped them: more distinct words of it restored than printed
    without their accents ("Conveno", "tributao" against "Convencao", "tributacao"), and at least
    `_MIN_DROPPED_WORDS` of them."""
    edits: list[tuple[int, int, str]] = []
    left = 0
    restored: set[str] = set()
    folded: set[str] = set()
    whole: set[str] = set()  # the words printed with their accents
    words = list(_WORD.finditer(text))
    for i, m in enumerate(words):
        printed = m.group()
        low = printed.lower()
        if partial and not printed.isascii() and _ACCENTED.search(printed):
            whole.add(low)
        if (m.start() and text[m.start() - 1] in MARKS) or (m.end() < len(text) and text[m.end()] in MARKS):
            continue  # a piece of a word printed with a mark ("per" of "per?odo"): that word is read whole
        if len(low) < _MIN_KEPT or low in lexicon.plain:
            # "s podem" for "só podem", "s pessoas" for "às pessoas": a letter, read by the word after it; a word
            # of its own only where the word after it makes a phrase of the accented one ("no exceder" for
            # "não excederá"), never one of its own ("no Estado")
            after = words[i + 1] if i + 1 < len(words) else None
            choices = None
            if after is not None and not text[m.end() : after.start()].strip():
                choices = lexicon.pairs.get((low, after.group().lower()))
            if choices is None and edits and i and edits[-1][1] == words[i - 1].end() \
                    and not text[words[i - 1].end() : m.start()].strip():
                # "no exceder" for "não excederá": read by the word before it, itself written again
                choices = lexicon.after_pairs.get((words[i - 1].group().lower(), low))
            if choices is None:
                continue
        else:
            if low in lexicon.folded:
                folded.add(low)
            choices = lexicon.dropped.get(low)
        if choices is None:
            continue
        word = _one(choices)
        if word is None:
            left += 1
        else:
            restored.add(low)
            edits.append(
                (m.start(), m.end(), _cased(printed, word, _capital_lost(text, m.start(), word, low)))
            )
    if len(restored) < _MIN_DROPPED_WORDS or len(restored) <= len(folded - restored):
        return [], 0
    if partial and len(restored) < _PARTIAL_SHARE * len(whole):
        return [], 0
    return edits, left


def _capital_lost(text: str, start: int, word: str, printed: str) -> bool:
    """Whether the word's first letter, a capital the copy dropped, opened a line or a sentence ("mbito de
    aplicação" for "Âmbito de aplicação")."""
    if not accented(word[0]) or printed[:1] == word[:1]:
        return False
    before = text[max(0, start - 3) : start].rstrip(" \t")
    return not before or before[-1] in "\n.:"


def _marked_words(text: str) -> list[tuple[int, str]]:
    """(start, word) of each word with a mark inside or around it, from the marks (a few in a text; the
    words of letters around them are found from there, each once)."""
    found: list[tuple[int, str]] = []
    end = 0
    for mark in _MARK_RUN.finditer(text):
        if mark.start() < end:
            continue
        at = mark.start()
        while at > end and text[at - 1].isalpha():
            at -= 1
        whole = _MARKED_WORD.match(text, at)
        if whole is not None:
            end = whole.end()
            found.append((at, whole.group()))
    return found


def _restore_with(text: str, lexicon: Lexicon, marks: bool, dropped: bool, partial: bool = False) -> Restoration:
    found = Restoration(lexicon.code)
    if dropped:
        found.edits, found.left = _dropped(text, lexicon, partial)
    if marks:
        for at, printed in _marked_words(text):
            core = printed.strip(MARKS)
            if not core:
                continue
            # the whole word ("est?" for "está"), else without the marks around it: a question's own
            # punctuation ("?Cu?ndo?" for "¿Cuándo?")
            start, word = at, _replacement(lexicon, printed)
            if word is None and core != printed:
                start, printed, word = at + printed.index(core), core, _replacement(lexicon, core)
            if word is not None:
                found.edits.append((start, start + len(printed), word))
            elif _MARK_IN_WORD.search(core):
                found.left += 1
    found.edits.sort()
    return found


def restore(text: str) -> Restoration | None:
    """The words of `text` that lost their accented letters, written again (see the module docstring); None
    when none did. The language is the one whose frequent words the text prints most; else, of those that
    could be the text's, the one that restores the most words."""
    marks, dropping, language, partial = _suspects(text)
    if not marks and not dropping:
        return None
    candidates = [(lexicon, lexicon in dropping) for lexicon in (lexicons().values() if marks else dropping)]
    if language is not None:
        # the text prints the frequent words of one language more than of any other: it is of that language
        candidates = [c for c in candidates if c[0].code == language] or candidates
    best: Restoration | None = None
    for lexicon, dropped in candidates:
        found = _restore_with(text, lexicon, marks, dropped, lexicon.code in partial)
        if found.edits and (best is None or len(found.edits) > len(best.edits)):
            best = found
    return best


def apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, word) of `edits` (sorted, not overlapping) written in."""
    out, pos = [], 0
    for start, end, word in edits:
        out += [text[pos:start], word]
        pos = end
    out.append(text[pos:])
    return "".join(out)
