"""What conventions a file holds: several, or none.

Several conventions in one file: an Act with conventions as its schedules ("SCHEDULE 1 / Convention
between Canada and Sweden ...", "SCHEDULE 2 / Convention between Canada and Lithuania ..."), an order
with the old convention annexed, a Finance Act's schedule of conventions.

The versions of a text are first split where a convention title or a restarting article numbering
opens a new one (`versions.version_segments`); they are language versions of one convention only
while each language appears once and every title names the same pair of States. A version in a
language the convention already has (titled or not: "AN AGREEMENT BETWEEN ..." is no title the
reader takes, but the articles numbered from 1 again cut the text there), or whose title names
another pair, opens another convention. Such a file is never read as one convention: `parse` refuses it naming the conventions
found, and reads the one chosen by its number.

None: a text that explains a convention article by article (the US Treasury's "Technical
Explanation of the Convention between ..."), whose "ARTICLE 10 (DIVIDENDS)" and "Paragraph 2
provides that ... shall not exceed 5 percent" read like a convention's; its title before the first
article (`commentary_title` in data/instruments.yaml) makes it refused, naming the title.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache

import regex

from taxtreaty import vocab
from taxtreaty.structure.lines import Line
from taxtreaty.structure.metadata import states_named
from taxtreaty.text import CleanText, InputError

#: how much of a convention's title the refusal quotes
_TITLE_SHOWN = 90


class SeveralConventionsError(InputError):
    """The file holds several conventions; `conventions` names them (number, title, line, States)."""

    def __init__(self, message: str, conventions: list[Found]) -> None:
        super().__init__(message)
        self.conventions = conventions


@dataclass
class Found:
    """One convention of a file: the indexes of its versions, its title, the line its title is
    on (1-based, in the text as given) and the States its title names."""

    versions: list[int] = field(default_factory=list)
    languages: set[str] = field(default_factory=set)
    title: str | None = None
    line: int | None = None
    states: list[str] = field(default_factory=list)


class NotAConventionError(InputError):
    """The file explains a convention (a technical explanation): it is not one."""


@cache
def _commentary_title() -> regex.Pattern[str] | None:
    from taxtreaty.structure.instrument import words

    found = [w for code in vocab.languages() if (lang := words(code)) for w in lang.words("commentary_title")]
    if not found:
        return None
    body = vocab.accent_insensitive_alternation(found).replace(r"\ ", r"\s+")
    return regex.compile(rf"^[^\S\n]*[#*_]*[^\S\n]*(?:{body})(?![\p{{L}}])", regex.IGNORECASE)


def refuse_commentary(lines: list[Line], ct: CleanText) -> None:
    """Raise `NotAConventionError` when a line before the first article opens with the title of
    a technical explanation."""
    pattern = _commentary_title()
    if pattern is None:
        return
    for line in lines:
        if line.kind == "article":
            return
        if pattern.match(line.text):
            where = ct.original.count("\n", 0, ct.original_span(line.start, line.end)[0]) + 1
            title = " ".join(line.text.split())
            title = title if len(title) <= _TITLE_SHOWN else title[:_TITLE_SHOWN].rstrip() + "…"
            raise NotAConventionError(
                f"the text explains a convention, it is not one: \"{title}\" (line {where}); "
                "give the convention's own text")


def _title_line(segment: list[Line]) -> Line | None:
    return next((line for line in segment if line.kind == "title"), None)


def group(versions: list[tuple[str, str | None, list[Line]]], ct: CleanText) -> list[Found]:
    """The conventions of a file, from its versions as (language, title, segment lines), in order;
    the lines index the cleaned text `ct` (a title's line is counted in the text as given)."""
    found: list[Found] = []
    for index, (language, title, segment) in enumerate(versions):
        heading = _title_line(segment)
        states = states_named(title) if title and heading is not None else []
        current = found[-1] if found else None
        other_pair = bool(current and len(states) == 2 and len(current.states) == 2
                          and set(states) != set(current.states))
        # a language read twice: another convention, titled or not ("AN AGREEMENT BETWEEN ...", a
        # title the reader does not take, before articles numbered from 1 again)
        again = bool(current and language != "und" and language in current.languages)
        if current is None or other_pair or again:
            current = Found()
            found.append(current)
        current.versions.append(index)
        current.languages.add(language)
        if current.title is None and title and heading is not None:
            current.title = title
        if current.line is None:
            first = heading or segment[0]
            current.line = ct.original.count("\n", 0, ct.original_span(first.start, first.end)[0]) + 1
        if len(current.states) < 2 and len(states) == 2:
            current.states = states
    return found


def convention_sha256(data: bytes, convention: int) -> str:
    """The key convention `convention` of a file holding several is kept by (the store, the HTTP corpus):
    the file's bytes and the convention's number hashed together, so that each convention of an Act's
    schedules is a document of its own; a file that holds one convention keeps its own sha256."""
    return hashlib.sha256(data + f"\0convention {convention}".encode()).hexdigest()


#: how a command line chooses one convention of a file (`refusal`)
CHOOSE_OPTION = "--convention N"


def refusal(found: list[Found], choose: str = CHOOSE_OPTION) -> SeveralConventionsError:
    """One line naming each convention found, and how to read one (`choose`: the option or field that
    chooses it where the file was given: "--convention N", an HTTP request's "convention")."""
    named = []
    for number, convention in enumerate(found, 1):
        title = " ".join((convention.title or "a convention whose title was not read").split())
        if len(title) > _TITLE_SHOWN:
            title = title[: _TITLE_SHOWN].rstrip() + "…"
        where = ["–".join(convention.states)] if convention.states else []
        if convention.line:
            where.append(f"line {convention.line}")
        named.append(f"{number}. {', '.join([*where, ''])}\"{title}\"")
    return SeveralConventionsError(
        f"the file holds {len(found)} conventions, not language versions of one: " + "; ".join(named)
        + f". Give each its own file, or choose one with {choose}", found)
