"""Regular expressions for the structural markers of a treaty, built from named pieces.

Used by the cleaner (to know where a line may not be joined) and by the structure parser.
Vocabulary (the words "Artigo", "Article", "Artículo", month names...) comes from the data files
through `taxtreaty.vocab`; this module only assembles it. Every pattern is anchored and built
without nested quantifiers, so matching a line is linear in its length.
"""

from __future__ import annotations

from functools import cache, lru_cache

import regex

from taxtreaty import vocab


@lru_cache(maxsize=4096)
def compiled(pattern: str, flags: int = 0) -> regex.Pattern[str]:
    """`regex.compile(pattern, flags)`, kept: the readers build some patterns from the language data at each
    call (a word of the language between lookarounds), and `regex`'s own cache (500 patterns, a fifth of them
    dropped at random when full) drops them again and again: `compiled(p).match(s)` is `regex.match(p, s)`
    without the recompiling and the cache lookup."""
    return regex.compile(pattern, flags)

# -- pieces ------------------------------------------------------------------------------------

#: optional markdown heading prefix ("### Article  10")
MD_PREFIX = r"(?:\#{1,6}[^\S\n]*)?"
#: a speck a scanner reads as a mark before a heading (",Articie 10" in a scanned parliamentary
#: print): one comma, stop or quote, never a letter or digit, so a wrapped sentence is not a heading
OCR_STRAY_MARK = r"(?:[,.'’‘`´][^\S\n]?)?"


def _inserted_suffixes() -> str:
    """The suffixes of an article inserted later ("bis", "ter"), from the languages' `inserted_suffixes`."""
    return _alternation(vocab.all_words("inserted_suffixes")) or "(?!)"


def article_number() -> str:
    """An article number as printed: "10", "8A", "8 A", "10 bis"; OCR prints a leading "1" as "l"
    or "I" ("Artículo l0", "ARTICLE I2", "ARTIGO IO", "Artigo l.º", "ARTICLE l" alone: a capital "I" alone is a roman one), a zero as "O" ("ARTIGO 1O") and splits the two
    digits of a number with a space ("ARTIGO 1 1"): `numbers.clean_article_number` reads them as 10,
    12, 10, 10 and 11 (a single digit after the space, then no letter or digit: "Article 1 2" is 12)."""
    return (rf"(?P<num>[lI]O(?![\p{{L}}\d])|[lI](?=[ ]?[.,]?[ ]?[º°ª])|l(?=[^\S\n]*$)|(?:[lI](?=\d))?\d{{1,3}}(?:[ ]\d(?![\p{{L}}\d]))?"
            rf"(?:[ ]?[A-Z](?![\p{{L}}\d])|[ ]?(?:{_inserted_suffixes()})\b)?)")


def _compilation_mark() -> str:
    """The mark a compilation prints after the number of its own article that holds an article of a
    convention ("Artículo 211-T2": article 211 of Title 2 of Uruguay's Texto Ordenado 1996), from the
    languages' `compilation_marks`: the number stays the compilation's (its cross-references use it)."""
    marks = _alternation(vocab.all_words("compilation_marks"))
    return rf"(?P<compilation>[-‐](?:{marks})\d{{1,2}}(?![\p{{L}}\d]))?" if marks else ""


def roman_article_number() -> str:
    """An article number in roman numerals, as US-style treaties print them ("ARTICLE IV",
    "Article II"); read only when the whole document numbers its articles that way
    (`structure.prepass`); "X bis" is the article inserted after X."""
    return rf"(?P<roman>[IVXLC]{{1,7}})(?:[ ]?(?P<roman_suffix>{_inserted_suffixes()}))?(?![\p{{L}}\d])\.?"


#: a number destroyed by OCR ("ARTIGO «.*"): 1 to 4 symbols, no letter or digit; not a lone stop or
#: comma ending the line ("... del presente\nArtículo."): that is a sentence that wrapped before its last word
DAMAGED_NUMBER = r"(?P<damaged>(?![.,;:][^\S\n]*$)[«»\"'*.°º,;:~^`´’‘”“]{1,4})"
#: what follows the number: ".º", "º", ".°", '."' (OCR of ".º"), ",º" (OCR of ".º"), ".O" (OCR of ".º"), "."; a stop after the mark ("Artículo 1o.", "Artículo 2°.")
ORDINAL = r"(?:[ ]?[.,]?[ ]?(?:[º°ª]|o(?!\p{L})|\"|''|»|\*)(?:\.(?!\d))?|\.O(?![\p{L}\d])|\.(?!\d))?"
#: the letter of an article inserted later, after the ordinal mark and a hyphen: "Artigo 10.º-A"
INSERTED_SUFFIX = r"(?:[-‐](?P<num_suffix>[A-Z])(?![\p{L}\d]))?"
#: separator before a title on the same line
TITLE_SEPARATOR = r"[^\S\n]*(?:[—–-]+[^\S\n]*|:[^\S\n]*)?"
ROMAN = r"[IVXLC]{1,7}"
#: the title on a heading's line: bounded, so that a 10 MB line is rejected in constant time
#: (a longer "title" is running text, which `title_like` refuses anyway)
HEADING_TITLE = r"[^\n]{0,200}?"


def _alternation(words: list[str]) -> str:
    # the words of a phrase apart by any run of blanks ("DONE in  duplicate at", as a scan spaces it)
    return "|".join(r"[^\S\n]+".join(regex.escape(part) for part in w.split()) for w in words)


def _ordinal_article_number() -> str:
    """An article number in ordinal words, tens then units: "DÉCIMO PRIMEIRO", "decimotercero",
    "Vigésimo-Segundo", "UNDÉCIMO", "PRIMERO" (words from the languages' `ordinal_words`)."""
    ordinals = vocab.all_ordinal_words()
    tens = vocab.accent_insensitive_alternation(w for w, v in ordinals.items() if v >= 10)
    units = vocab.accent_insensitive_alternation(w for w, v in ordinals.items() if v < 10)
    if not ordinals:
        return r"(?P<ordinal>(?!))"
    return rf"(?P<ordinal>(?i:(?:{tens})(?:[^\S\n]?-?[^\S\n]?(?:{units}))?|(?:{units})))(?![\p{{L}}\d])\.?"


@cache
def article_heading() -> regex.Pattern[str]:
    """`ARTIGO 10.° (Dividendos)`, `Article 8 Shipping...`, `Artículo 10`, `Art. 5`, `ARTIGO «.*`, `ARTICLE IV`,
    `ARTIGO DÉCIMO PRIMEIRO`."""
    words = _alternation(vocab.all_words("article_words"))
    # the article word as OCR or a typist damages it, any case: one error; two in a word of eight
    # letters or more, where two letters swapped ("ARITUCULO 27") are two errors
    ocr = vocab.all_words("ocr_article_words")
    short = _alternation([w for w in ocr if len(w) < 8]) or "(?!)"
    long = _alternation([w for w in ocr if len(w) >= 8]) or "(?!)"
    fuzzy_words = rf"(?:(?:{short}){{e<=1}}|(?:{long}){{e<=2}})"
    return regex.compile(
        rf"^{MD_PREFIX}{OCR_STRAY_MARK}(?P<word>(?:{words})|(?i:{fuzzy_words}))[^\S\n]*"
        rf"(?:{article_number()}{ORDINAL}{INSERTED_SUFFIX}{_compilation_mark()}|{roman_article_number()}|{_ordinal_article_number()}|{DAMAGED_NUMBER})"
        rf"{TITLE_SEPARATOR}(?P<title>{HEADING_TITLE})[^\S\n]*$",
        regex.BESTMATCH,
    )


@cache
def article_heading_start() -> regex.Pattern[str]:
    """A line that begins like an article heading, an article word and a number ("ARTIGO 18",
    "Article 7(1) of ..."), whatever follows: such a line is never the rest of a hyphenated word."""
    words = _alternation(vocab.all_words("article_words"))
    return regex.compile(rf"^{MD_PREFIX}(?:{words})[^\S\n]*\d")


@cache
def article_heading_prefix() -> regex.Pattern[str]:
    """A line that begins with an article word and a space ("Article 11 ...", "ARTIGO DÉCIMO ..."):
    a cheap test before a heading is looked for inside the line."""
    words = _alternation(vocab.all_words("article_words"))
    return regex.compile(rf"^{MD_PREFIX}(?:{words})[^\S\n]*\S")


@cache
def chapter_heading() -> regex.Pattern[str]:
    words = _alternation(vocab.all_words("chapter_words"))
    return regex.compile(
        # a lower-case numeral after a lower-case word only: a copy that lost its capitals ("chapter iii")
        rf"^{MD_PREFIX}(?P<word>{words})[^\S\n]+(?P<num>{ROMAN}|\d{{1,2}}|(?<=^{MD_PREFIX}\p{{Ll}}+[^\S\n]+)[ivxlc]{{1,7}})\b\.?"
        rf"{TITLE_SEPARATOR}(?P<title>{HEADING_TITLE})[^\S\n]*$"
    )


@cache
def protocol_heading() -> regex.Pattern[str]:
    words = _alternation(vocab.all_words("protocol_words"))
    return regex.compile(rf"^{MD_PREFIX}(?P<word>{words})\b[^\S\n]*[.:]?[^\S\n]*(?P<title>.{{0,300}}?)[^\S\n]*$")


@cache
def convention_title() -> regex.Pattern[str]:
    """The title line that opens a language version: "CONVENÇÃO ENTRE ...", "Convention between ...".
    It starts with a capital: a line "convenio entre en vigor;" is a sentence wrapped before "convenio"."""
    words = vocab.accent_insensitive_alternation(vocab.all_words("convention_words"))
    between = vocab.accent_insensitive_alternation(vocab.all_words("between_words"))
    # "... a aquel en que el\nAcuerdo entre en vigor;": the verb "entrar", not "between"
    not_after = vocab.phrase_alternation(vocab.all_words("not_title_after_between"), accents=True)
    return regex.compile(rf"^{MD_PREFIX}(?=\p{{Lu}})(?i:(?:{words})[^\S\n]+(?:{between})\b(?![^\S\n]+(?:{not_after})\b))")


#: "2 — text", "2 - text", "2 —text", "2. text", "(2) text", "§ 2 text"; not "2.5" nor "1.º". A marker alone on
#: its line ("5." followed by points "a) ...") is a paragraph whose text is all in its points.
PARAGRAPH_MARKER = regex.compile(
    r"^(?:(?P<num>\d{1,3})(?:[^\S\n]*[—–-][^\S\n]*|\.(?![\d º°ª])[^\S\n]*|\.[^\S\n]+)|\((?P<pnum>\d{1,3})\)[^\S\n]*"
    r"|§[^\S\n]*(?P<pnum>\d{1,3})\.?[^\S\n]+)(?=\S|$)"
)

#: a point label before ")": "a)", "(b)", "ii)", and OCR-damaged shapes ("£>)", "Hi)", "í)"); or a
#: lower-case letter or roman numeral and a dot before a space ("a. to carry out", "iv. the tax"),
#: as the Dutch treaty collection prints them ("i.e." has no space after its first dot); or an
#: upper-case division of an article before a capital ("A. In Kenya:", "B. In Malaysia:"). A label
#: followed by "," or ";" ("(b), the net amount ...") is a cross-reference that wrapped, not a marker
POINT_MARKER = regex.compile(
    r"^(?:(?P<open>\()?(?P<label>[^\s()]{1,4}?)\)(?![^\S\n]*[,;])[^\S\n]*(?=\S|$)|(?P<label>[a-z]|[ivx]{2,6})\.[^\S\n]+(?=\S)"
    r"|(?P<label>[A-H])\.[^\S\n]+(?=\p{Lu}))"
)

#: dash bullets in lists of taxes ("- de inkomstenbelasting", "— the income tax")
BULLET = regex.compile(r"^[-–—•·][^\S\n]*\S")

#: a title run in before the text on the line under a bare heading, closed by a stop and a dash
#: ("Artículo 172-T2" then "Empresas asociadas.- Cuando a) ..."): the gap after the dash starts the text
RUN_IN_TITLE = regex.compile(r"^(?P<title>\p{Lu}[^\n.;:,()]{1,80}?)\.[-–—](?P<gap>[^\S\n]+)(?=\S)")
#: the dash a title is printed behind on the line under a bare heading ("Art. 10" then "- Dividendos")
TITLE_DASH = regex.compile(r"^[-–—][^\S\n]+(?=\p{Lu})")
#: that stop and dash at the end of a title ("Dividendos.-")
RUN_IN_TITLE_END = regex.compile(r"\.[-–—]$")

SENTENCE_END = regex.compile(r"[.;:!?][\"'»”)\]*]*$")


@cache
def closing_formula() -> regex.Pattern[str]:
    """The testimonium or signature line that ends a convention's articles ("IN WITNESS WHEREOF")."""
    words = _alternation(vocab.all_words("testimonium") + vocab.all_words("signature_lead"))
    # case-insensitive: "IN WITNESS whereof", "In Witness Whereof", "EN FE DE LO CUAL"; but it opens
    # with a capital: "signed at The Hague on ..., shall terminate" is a sentence wrapped before "signed"
    return regex.compile(rf"^{MD_PREFIX}[*_]*(?=\p{{Lu}})(?i:{words})\b")
