"""Several conventions in one file: an Act with conventions as its schedules ("SCHEDULE 1 / Convention
between Canada and Sweden ...", "SCHEDULE 2 / Convention between Canada and Lithuania ..."), an order
with the old convention annexed, a Finance Act's schedule of conventions.

The versions of a text are first split where a convention title or a restarting article numbering
opens a new one (`versions.version_segments`); they are language versions of one convention only
while each language appears once and every title names the same pair of States. A titled version
in a language the convention already has, or whose title names another pair, opens another
convention. Such a file is never read as one convention: `parse` refuses it naming the conventions
found, and reads the one chosen by its number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
        again = bool(current and heading is not None and language != "und" and language in current.languages)
        if current is None or other_pair or again:
            current = Found()
            found.append(current)
        current.versions.append(index)
        current.languages.add(language)
        if current.title is None and title and heading is not None:
            current.title = title
            current.line = ct.original.count("\n", 0, ct.original_span(heading.start, heading.end)[0]) + 1
        if len(current.states) < 2 and len(states) == 2:
            current.states = states
    return found


def refusal(found: list[Found]) -> SeveralConventionsError:
    """One line naming each convention found, and how to read one."""
    named = []
    for number, convention in enumerate(found, 1):
        title = " ".join((convention.title or "a convention without a title").split())
        if len(title) > _TITLE_SHOWN:
            title = title[: _TITLE_SHOWN].rstrip() + "…"
        where = ["–".join(convention.states)] if convention.states else []
        if convention.line:
            where.append(f"line {convention.line}")
        named.append(f"{number}. {', '.join([*where, ''])}\"{title}\"")
    return SeveralConventionsError(
        f"the file holds {len(found)} conventions, not language versions of one: " + "; ".join(named)
        + ". Give each its own file, or choose one with --convention N", found)
