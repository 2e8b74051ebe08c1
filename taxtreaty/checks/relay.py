"""Re-lay a treaty text in another gazette's shape, deterministically, and check the answers stay.

A convention printed by another gazette has the same law in another layout: lines hard-wrapped
at the column with long words hyphenated, running headers and footers with page numbers at
every page break, light scanner damage, the escapes and emphasis of a conversion to markdown.
A careful reader gives the same answers on every such layout (issue 11). Each shape here is a
pure function `(text, rng) -> text` driven by a seeded `random.Random`, so a failure is
reproduced from the shape's name and the seed:

    text = relay(original, "wrapped", seed=7)
    report = run_cases_on(load_cases("tests/cases/real/NL-KR_convention_EN.yaml"), text)

Shapes (`SHAPES`): `wrapped` (60-75 columns, hyphenation), `paged` (the page furniture of
`data/gazettes.yaml`, written from printed pages independently of the readers' own
`furniture.yaml`), `gazette` (both: the shape of text taken from a PDF), `ocr` (the gazette shape
with light damage a careful reader survives: quotes swapped, doubled spaces, soft hyphens,
no-break spaces, "l" for "1" in page numbers), `markdown` (escaped markers, bold headings),
`web` (the collection's web page: a head with its script and style, one `<p>` a line, markdown
headings as `<h3>`, letters as entities, no-break spaces, comments; read back by `text/markup.py`).
A YAML front matter block, markdown headings and table rows are never wrapped.

`damage_figure` is damage that does destroy meaning (a digit of a rate misread): the answer
resting on it must then be indeterminate, never another determined rate.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.checks.cases import Case, CaseFile
from taxtreaty.checks.run import CaseResult, Report, run_case
from taxtreaty.checks.treaties import TreatyLoader
from taxtreaty.structure import Document, parse

SOFT_HYPHEN = "\u00ad"
NO_BREAK_SPACE = "\u00a0"
#: a word long enough to be hyphenated at a line end, and where it may be cut
_LONG_WORD = regex.compile(r"^\p{L}{8,}$")
_FRONT_MATTER = regex.compile(r"\A---\n.*?\n---\n", regex.DOTALL)
#: a line start a converter escapes: "1." -> "1\.", "a)" -> "a\)", "(a)" -> "\(a\)"
_MARKER = regex.compile(r"^(?P<label>\d{1,2}|[a-z]{1,4})(?P<mark>[.)])(?=\s)|^(?P<open>\()(?=[a-z0-9]{1,4}\)\s)")
_MD_HEADING = regex.compile(r"^#{1,6}\s*(?P<text>\S.*?)\s*$")
_QUOTES = {"“": '"', "”": '"', "‘": "'", "’": "'", '"': "“”", "'": "’"}


def _protected(text: str) -> tuple[str, str]:
    """(front matter, body): the front matter block is publication data, left as it is."""
    found = _FRONT_MATTER.match(text)
    return (found.group(0), text[found.end():]) if found else ("", text)


def _keep_line(line: str) -> bool:
    stripped = line.lstrip()
    return not stripped or stripped[0] in "#|!<"


# -- (a) hard-wrapped lines ----------------------------------------------------------------------


def _wrap_line(line: str, width: int, rng: random.Random, hyphenate: float) -> list[str]:
    words = line.split()
    out: list[str] = []
    current = ""
    for word in words:
        if not current:
            current = word
            continue
        if len(current) + 1 + len(word) <= width:
            current += " " + word
            continue
        room = width - len(current) - 2  # the space and the hyphen
        core = word.rstrip(".,;:")
        if room >= 3 and _LONG_WORD.match(core) and rng.random() < hyphenate:
            cut = rng.randint(3, min(room, len(core) - 3)) if min(room, len(core) - 3) >= 3 else 0
            if cut:
                out.append(f"{current} {word[:cut]}-")
                current = word[cut:]
                continue
        out.append(current)
        current = word
    if current:
        out.append(current)
    return out


def wrap(text: str, rng: random.Random, *, hyphenate: float = 0.6) -> str:
    """Every long line hard-wrapped at 60-75 columns (the width changes by paragraph), long words
    cut with a hyphen at the line end; blank lines, markdown headings and tables as they are."""
    head, body = _protected(text)
    lines: list[str] = []
    for line in body.split("\n"):
        width = rng.randint(60, 75)
        if _keep_line(line) or len(line) <= width:
            lines.append(line.rstrip())
        else:
            lines.extend(_wrap_line(line, width, rng, hyphenate))
    return head + "\n".join(lines)


# -- (b) page furniture -----------------------------------------------------------------------------


@cache
def gazettes() -> dict[str, list[dict[str, list[str]]]]:
    """gazette name -> its issues (header, footer, even, odd line templates), from data/gazettes.yaml."""
    data = vocab.read_data_file("gazettes.yaml")["gazettes"]
    return {name: list(entry["issues"]) for name, entry in data.items()}


def _page_lines(issue: dict[str, list[str]], key: str, page: int, cve: int, digit_one: str) -> list[str]:
    number = str(page).replace("1", digit_one)
    return [t.format(page=number, cve=cve) for t in issue.get(key, [])]


def paginate(text: str, rng: random.Random, *, gazette: str | None = None, issue: int | None = None,
             digit_one: str = "1") -> str:
    """Page breaks every 45-55 lines: the footer of one page and the header of the next, in one
    gazette's shape (chosen by `rng` unless named). `digit_one` prints the page numbers' "1" (an
    OCR reads it "l")."""
    head, body = _protected(text)
    name = gazette or rng.choice(sorted(gazettes()))
    issues = gazettes()[name]
    chosen = issues[issue % len(issues)] if issue is not None else rng.choice(issues)
    page, cve = rng.randint(2, 9000), rng.randint(1000, 9999)
    source = body.split("\n")
    out: list[str] = []

    def header() -> list[str]:
        key = ("even" if page % 2 == 0 else "odd") if "even" in chosen else "header"
        return _page_lines(chosen, key, page, cve, digit_one)

    out.extend(header())
    until = rng.randint(45, 55)
    for i, line in enumerate(source):
        out.append(line)
        if i + 1 >= until and i + 1 < len(source):
            blank = rng.random() < 0.5  # some extractions keep a blank line round the furniture
            block = _page_lines(chosen, "footer", page, cve, digit_one)
            page += 1
            block += header()
            out.extend(["", *block, ""] if blank else block)
            until = i + 1 + rng.randint(45, 55)
    out.extend(_page_lines(chosen, "footer", page, cve, digit_one))
    return head + "\n".join(out)


# -- (c) light OCR damage ---------------------------------------------------------------------------


def ocr_light(text: str, rng: random.Random, *, rate: float = 0.04) -> str:
    """Damage a careful reader survives: curly and straight quotes swapped, doubled spaces, soft
    hyphens inside long words and for the hyphen of a word cut at a line's end, no-break spaces;
    the text's characters otherwise as they are."""
    head, body = _protected(text)
    out: list[str] = []
    for line in body.split("\n"):
        if _keep_line(line) and line.strip():
            out.append(line)
            continue
        pieces: list[str] = []
        for i, word in enumerate(line.split(" ")):
            if i:
                roll = rng.random()
                pieces.append("  " if roll < rate else NO_BREAK_SPACE if roll < 2 * rate else " ")
            if len(word) >= 8 and word.isalpha() and rng.random() < rate:
                cut = rng.randint(3, len(word) - 3)
                word = word[:cut] + SOFT_HYPHEN + word[cut:]
            pieces.append("".join(_swap_quote(c, rng) if c in _QUOTES else c for c in word))
        line = "".join(pieces)
        if line[-2:-1].isalpha() and line.endswith("-") and rng.random() < 0.5:
            line = line[:-1] + SOFT_HYPHEN
        out.append(line)
    return head + "\n".join(out)


def _swap_quote(char: str, rng: random.Random) -> str:
    if rng.random() >= 0.5:
        return char
    swapped = _QUOTES[char]
    return rng.choice(swapped) if len(swapped) > 1 else swapped


# -- (d) markdown conversion artefacts ------------------------------------------------------------------


def markdown_artefacts(text: str, rng: random.Random) -> str:
    """What a conversion to markdown does: a marker at a line start escaped ("1\\.", "a\\)",
    "\\(a)"), a markdown heading printed as a bold line instead ("**Article 10**")."""
    head, body = _protected(text)
    out: list[str] = []
    for line in body.split("\n"):
        heading = _MD_HEADING.match(line)
        if heading and rng.random() < 0.8:
            out.append(f"**{heading.group('text')}**")
            continue
        marker = _MARKER.match(line)
        if marker and rng.random() < 0.8:
            at = marker.start("open") if marker.group("open") else marker.start("mark")
            line = line[:at] + "\\" + line[at:]
        out.append(line)
    return head + "\n".join(out)


# -- (e) a web page ------------------------------------------------------------------------------------

_ENTITIES = {"á": "&aacute;", "é": "&eacute;", "í": "&iacute;", "ó": "&oacute;", "ú": "&uacute;", "ñ": "&ntilde;",
             "ç": "&ccedil;", "ã": "&atilde;", "õ": "&otilde;", "º": "&ordm;", "°": "&deg;", "“": "&ldquo;",
             "”": "&rdquo;", "’": "&rsquo;", "—": "&mdash;", "–": "&ndash;"}


def _web_line(line: str, rng: random.Random) -> str:
    escaped = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = []
    for char in escaped:
        if char in _ENTITIES and rng.random() < 0.5:
            out.append(_ENTITIES[char])
        elif char == " " and rng.random() < 0.03:
            out.append("&nbsp;")
        else:
            out.append(char)
    return "".join(out)


def web_page(text: str, rng: random.Random) -> str:
    """The text as a collection's web page: a head with a title, a script and a style, the front
    matter as a `<pre>` block, every line a `<p>` (a markdown heading an `<h3>`), letters as named
    entities, a few no-break spaces, and a comment between blocks now and then."""
    head, body = _protected(text)
    blocks = [f"<pre>{_web_line(head.rstrip(chr(10)), rng)}</pre>"] if head else []
    for line in body.split("\n"):
        if not line.strip():
            continue
        heading = _MD_HEADING.match(line)
        if heading:
            blocks.append(f"<h3>{_web_line(heading.group('text'), rng)}</h3>")
        else:
            blocks.append(f'<p class="parrafo">{_web_line(line, rng)}</p>')
        if rng.random() < 0.02:
            blocks.append("<!-- página -->")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Documento</title>"
            "<style>p.parrafo { margin: 0 }</style><script>var pagina = 1;</script></head>\n"
            "<body><div id=\"textoxslt\">\n" + "\n".join(blocks) + "\n</div></body></html>\n")


# -- the shapes ---------------------------------------------------------------------------------

#: which gazette's pages, and which of its issues (None: chosen by the seed)
Page = tuple[str | None, int | None]


def _wrapped(text: str, rng: random.Random, page: Page) -> str:
    return wrap(text, rng)


def _paged(text: str, rng: random.Random, page: Page) -> str:
    return paginate(text, rng, gazette=page[0], issue=page[1])


def _gazette(text: str, rng: random.Random, page: Page) -> str:
    return paginate(wrap(text, rng), rng, gazette=page[0], issue=page[1])


def _ocr(text: str, rng: random.Random, page: Page) -> str:
    # the typesetter's soft hyphens and spaces are in the body; the scanner misreads the page numbers
    return paginate(ocr_light(wrap(text, rng), rng), rng, gazette=page[0], issue=page[1], digit_one="l")


def _markdown(text: str, rng: random.Random, page: Page) -> str:
    return markdown_artefacts(text, rng)


def _web(text: str, rng: random.Random, page: Page) -> str:
    return web_page(text, rng)


SHAPES: dict[str, Callable[[str, random.Random, Page], str]] = {
    "web": _web,
    "wrapped": _wrapped,
    "paged": _paged,
    "gazette": _gazette,
    "ocr": _ocr,
    "markdown": _markdown,
}


def seed_of(name: str, seed: int = 0) -> int:
    """A stable seed for a file name (Python's `hash` changes between runs)."""
    return zlib.crc32(name.encode("utf-8")) ^ seed


def relay(text: str, shape: str, seed: int, *, gazette: str | None = None, issue: int | None = None) -> str:
    """`text` re-laid in `shape` (a key of `SHAPES`), the same for the same seed; the shapes with
    pages use `gazette` (a key of `gazettes()`) and its `issue`, or ones the seed chooses."""
    return SHAPES[shape](text, random.Random(seed), (gazette, issue))


# -- damage that destroys a figure -----------------------------------------------------------------

#: how a scanner misreads digits
DIGIT_MISREADS = {"0": "O", "1": "l", "5": "S", "8": "B", "2": "Z", "6": "b"}


_FIGURE = regex.compile(r"(?<![\d.,])\d{1,3}(?:[.,]\d{1,2})?(?!\d)")


def printed_rate(text: str, start: int, end: int, rate: float) -> str | None:
    """The figure of `rate` as `text[start:end]` prints it ("10", "12,5", "12.5"), or None."""
    for m in _FIGURE.finditer(text, start, end):
        if abs(float(m.group().replace(",", ".")) - rate) < 1e-9:
            return m.group()
    return None


def damage_figure(text: str, start: int, end: int, figure: str, rng: random.Random) -> str | None:
    """`text` with one digit of `figure` misread where it is printed inside `text[start:end]`
    ("10" -> "1O"), or None when the figure is not there or has no digit a scanner misreads."""
    at = text.find(figure, start, end)
    while at >= 0 and (text[at - 1 : at].isdigit() or text[at + len(figure) : at + len(figure) + 1].isdigit()):
        at = text.find(figure, at + 1, end)
    if at < 0:
        return None
    places = [i for i, c in enumerate(figure) if c in DIGIT_MISREADS]
    if not places:
        return None
    i = at + rng.choice(places)
    return text[:i] + DIGIT_MISREADS[text[i]] + text[i + 1 :]


# -- running a pack on a re-laid text --------------------------------------------------------------


class _GivenDocument(TreatyLoader):
    """A loader that hands every case the one document given (the re-laid text's)."""

    def __init__(self, text: str) -> None:
        super().__init__(None)
        self.text = text
        self.documents: dict[int | None, Document] = {}

    def load(self, reference: str, cases_dir: Path, convention: int | None = None) -> Document:
        if convention not in self.documents:
            self.documents[convention] = parse(self.text, convention=convention)
        return self.documents[convention].model_copy(deep=False)


def run_cases_on(case_file: CaseFile, text: str, cases: Iterable[Case] | None = None) -> Report:
    """Run the cases of `case_file` (or the given subset) against `text` instead of the file they
    name (of a text holding several conventions, each case on the one it names); the quotes were
    checked against that file when the pack loaded."""
    loader = _GivenDocument(text)
    cache: dict[Any, Any] = {}
    return Report([run_case(case, loader, cache) for case in (case_file.cases if cases is None else cases)])


@dataclass
class Difference:
    """A case whose result on the re-laid text differs from its result on the original."""

    case: Case
    original: CaseResult
    relaid: CaseResult

    def line(self, shape: str) -> str:
        return f"[{shape}] {self.case.file.stem}:{self.case.id}: original passes; re-laid: {self.relaid.line()}"


def differences(original: Report, relaid: Report) -> list[Difference]:
    """Cases that pass on the original and not on the re-laid text."""
    return [Difference(o.case, o, r) for o, r in zip(original.results, relaid.results, strict=True)
            if o.passed and not r.passed]
