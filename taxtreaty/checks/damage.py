"""Damage a treaty text the way gazettes, scanners and extractors do, for fuzz and property tests.

Each mutation is a pure function `(text, rng) -> text` driven by a `random.Random`, so the
hypothesis strategies (tests/test_fuzz.py), the atheris harness (bench/fuzz_parse.py) and any
nightly script share one definition, and a failing example is reproduced from its seed.

The damage is what DOMAIN.md lists as seen in the seeds: page furniture (date lines, page
numbers, series lines) between and inside paragraphs, OCR confusions of markers ("º" -> '"',
"b)" -> "£>)", "a)" -> "o)"), lost lines, a file cut short, whitespace noise, other encodings, and
accented letters lost with an encoding (dropped, or printed "?" or U+FFFD).
It is written independently of the parser's repair tables (taxtreaty/data/ocr.yaml), so the
tests do not only exercise what the parser already knows.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

Mutation = Callable[[str, random.Random], str]

#: page furniture as printed in Portuguese, Spanish and English gazettes
FURNITURE_LINES = (
    "13 DE SETEMBRO DE 1996", "3 DE NOVEMBRO DE 1997", "24 de abril de 1999", "14 DE MARZO DE 2003",
    "September 13, 1996", "1473", "786", "198-(15)", "1636-(5)", "II SÉRIE — NÚMERO 53",
    "I SÉRIE-A — N.º 112 — 15 de Maio de 2001", "DIÁRIO DA REPÚBLICA", "BOLETÍN OFICIAL DEL ESTADO", "Page 12",
)

#: OCR confusions of the characters of markers: (printed, misread)
OCR_SWAPS = (
    ("º", '"'), ("°", "*"), (".º", '."'), ("b)", "£>)"), ("a)", "o)"), ("i)", "í)"), ("iii)", "Hi)"),
    ("ii)", "li)"), ("c)", "e)"), ("1", "l"), ("0", "O"), ("—", "-"), ("—", "–"), ("rn", "m"), ("%", "°/o"),
)


def drop_lines(text: str, rng: random.Random) -> str:
    """Lose a few lines, as a PDF extractor drops list items."""
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    for _ in range(rng.randint(1, max(1, min(5, len(lines) // 4)))):
        del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def inject_furniture_between(text: str, rng: random.Random) -> str:
    """A page break between two lines: blank line, furniture line(s), blank line."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(lines) + 1)
        block = ["", rng.choice(FURNITURE_LINES), "", rng.choice(FURNITURE_LINES), ""][: rng.choice((3, 5))]
        lines[at:at] = block
    return "\n".join(lines)


def inject_furniture_inside(text: str, rng: random.Random) -> str:
    """A page break inside a sentence, between two words (the cleaner must join the halves)."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return text
    at = rng.choice(spaces)
    return f"{text[:at]}\n\n{rng.choice(FURNITURE_LINES)}\n\n{text[at + 1:]}"


def hyphenate_across_page(text: str, rng: random.Random) -> str:
    """A word split by a hyphen at a page end: "mon-" + furniture + "tante"."""
    words = [i for i in range(1, len(text) - 3) if text[i - 1].isalpha() and text[i].isalpha() and text[i + 1].isalpha()]
    if not words:
        return text
    at = rng.choice(words)
    return f"{text[:at]}-\n\n{rng.choice(FURNITURE_LINES)}\n\n{text[at:]}"


def ocr_swap(text: str, rng: random.Random) -> str:
    """Misread one to three marker characters."""
    for _ in range(rng.randint(1, 3)):
        printed, misread = rng.choice(OCR_SWAPS)
        places = [i for i in range(len(text)) if text.startswith(printed, i)]
        if places:
            at = rng.choice(places)
            text = text[:at] + misread + text[at + len(printed):]
    return text


def truncate(text: str, rng: random.Random) -> str:
    """The file stops early, anywhere (mid-word included)."""
    if len(text) < 2:
        return text
    return text[: rng.randrange(1, len(text))]


def shuffle_whitespace(text: str, rng: random.Random) -> str:
    """Doubled spaces, tabs, CRLF line ends, trailing blanks, blank lines removed or doubled."""
    style = rng.choice(("double", "tabs", "crlf", "trailing", "squeeze", "blank"))
    if style == "double":
        return text.replace(" ", "  ", rng.randint(1, 50))
    if style == "tabs":
        return text.replace(" ", "\t", rng.randint(1, 20))
    if style == "crlf":
        return text.replace("\n", "\r\n")
    if style == "trailing":
        return "\n".join(line + " " * rng.randint(0, 3) for line in text.split("\n"))
    if style == "squeeze":
        return text.replace("\n\n", "\n")
    return text.replace("\n\n", "\n\n\n")


def _accented(char: str) -> bool:
    """An accented Latin letter ("á", "Ç", "ñ"): a letter outside ASCII whose base letter is ASCII."""
    return char.isalpha() and not char.isascii() and unicodedata.normalize("NFD", char)[0].isascii()


def _lose_accented(text: str, lost: str) -> str:
    return "".join(lost if _accented(c) else c for c in text)


def drop_accented_letters(text: str, rng: random.Random) -> str:
    """Every accented letter lost, as an export to ASCII that drops what it cannot hold does
    ("Convención" -> "Convencin", "DIÁRIO DA REPÚBLICA" -> "DIRIO DA REPBLICA")."""
    return _lose_accented(text, "")


def question_for_accented_letters(text: str, rng: random.Random) -> str:
    """Every accented letter printed "?", as an export to ASCII with replacement does ("Art?culo")."""
    return _lose_accented(text, "?")


def replacement_for_accented_letters(text: str, rng: random.Random) -> str:
    """Every accented letter printed U+FFFD, as Latin-1 bytes read as UTF-8 print it ("Art\ufffdculo")."""
    return _lose_accented(text, "\ufffd")


#: the damage of a copy that lost its accented letters with its encoding (each takes every accented letter)
ACCENT_MUTATIONS: dict[str, Mutation] = {
    "drop_accented_letters": drop_accented_letters,
    "question_for_accented_letters": question_for_accented_letters,
    "replacement_for_accented_letters": replacement_for_accented_letters,
}

MUTATIONS: dict[str, Mutation] = {
    "drop_lines": drop_lines,
    "furniture_between": inject_furniture_between,
    "furniture_inside": inject_furniture_inside,
    "hyphenate_across_page": hyphenate_across_page,
    "ocr_swap": ocr_swap,
    "truncate": truncate,
    "shuffle_whitespace": shuffle_whitespace,
    **ACCENT_MUTATIONS,
}

#: damage that must never change a determined rate, nor make one appear: it moves no words of law
NEUTRAL_MUTATIONS = ("furniture_between", "shuffle_whitespace")

#: how the bytes reach the parser
ENCODINGS = ("utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16", "utf-16-le")


def encode(text: str, encoding: str) -> bytes:
    """The text as bytes in `encoding`; characters it cannot hold become "?" (as a lossy export does)."""
    return text.encode(encoding, errors="replace")


def damage(text: str, rng: random.Random, names: list[str] | None = None, rounds: int = 3) -> str:
    """Apply `rounds` mutations chosen from `names` (all by default)."""
    pool = names or list(MUTATIONS)
    for _ in range(rounds):
        text = MUTATIONS[rng.choice(pool)](text, rng)
    return text
