"""The consolidated text of a convention as amended: the base text with each modification spliced in.

The consolidated text is built from pieces of the source texts, character for character: the
base convention's original text, and each amending instrument's new words as its own original
prints them. It is then parsed like any text, so the eIds of unchanged provisions are those of the
base (`art_10__para_2` stays `art_10__para_2`) and the paragraphs a protocol replaced carry the
protocol's words. `Consolidated.source_span` takes any span of the consolidated text back to the
document and span it came from, so a citation quotes the instrument that gave the words.

Only what the instruction says is changed. A target the base text does not hold (lost by the
extraction, or misnumbered) is reported as a problem and left as it was; two modifications of
the same provision are a clash (`versions.timeline` decides what that means for a payment).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from taxtreaty.patterns import compiled
from taxtreaty.structure.instrument import Instrument, Modification, words
from taxtreaty.structure.model import Article, Document, Paragraph, Point, iter_nodes
from taxtreaty.structure.numbers import article_number_value

BASE = "base"


@dataclass(frozen=True, slots=True)
class Segment:
    start: int  # in the consolidated text
    end: int
    source: str | None  # BASE, an instrument's key, or None for words added by the consolidation
    source_start: int


@dataclass(frozen=True, slots=True)
class Applied:
    """One modification as applied: which instrument, which of its articles, what it changed."""

    source: str
    modification: Modification
    #: the eId the provision has in the consolidated text (renumbering: the new one)
    eid: str


@dataclass
class Consolidated:
    text: str
    segments: list[Segment]
    applied: list[Applied] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: (eId, why) of each modification that could not be applied: its provision is a gap in this
    #: version (decided as unknown, never on the words it replaced)
    unapplied: list[tuple[str, str]] = field(default_factory=list)

    def source_span(self, start: int, end: int) -> tuple[str | None, tuple[int, int]] | None:
        """The source and span of `text[start:end]`, when one source piece holds all of it."""
        for seg in self.segments:
            if seg.start <= start and end <= seg.end:
                return seg.source, (seg.source_start + start - seg.start, seg.source_start + end - seg.start)
        return None

    def source_at(self, offset: int) -> str | None:
        for seg in self.segments:
            if seg.start <= offset < seg.end:
                return seg.source
        return None


@dataclass(frozen=True, slots=True)
class _Edit:
    start: int  # in the base original
    end: int
    pieces: tuple[tuple[str | None, int, int, str], ...]  # (source, source start, source end, text)
    source: str
    modification: Modification
    eid: str


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _version_for(base: Document, language: str | None):  # type: ignore[no-untyped-def]
    if language:
        found = base.version(language)
        if found is not None:
            return found
    return None


def _find(version, eid: str) -> Article | Paragraph | Point | None:  # type: ignore[no-untyped-def]
    return next((n for n in iter_nodes(version) if n.eid == eid), None)


def _marker(base: Document, node: Paragraph | Point) -> str:
    """The number or label as the base prints it before the node's words ("2 — ", "a) ")."""
    start = _line_start(base.original, node.span[0])
    return base.original[start : node.span[0]]


def _starts_with_marker(text: str, label: str | None) -> bool:
    if not label:
        return False
    stripped = text.lstrip("\"'“«(")
    return stripped.lower().startswith(label.lower()) and stripped[len(label): len(label) + 1] in (".", ")", " ", "—", "-", "–")


def _new_words(key: str, instrument_text: str, mod: Modification) -> tuple[str | None, int, int, str]:
    assert mod.span is not None
    start, end = mod.span
    return (key, start, end, instrument_text[start:end])


def _literal(text: str) -> tuple[str | None, int, int, str]:
    return (None, 0, 0, text)


def _edits_for(base: Document, key: str, instrument: Instrument, instrument_text: str, problems: list[str],
               unapplied: list[tuple[str, str]] | None = None) -> list[_Edit]:
    version = _version_for(base, instrument.language)
    if version is None:
        problems.append(f"{key}: the instrument is in {instrument.language}; the base text has no version in that language, "
                        "so its modifications cannot be placed")
        if unapplied is not None:
            unapplied.extend((mod.target_eid, problems[-1]) for mod in instrument.modifications)
        return []
    placeholder = (words(instrument.language or "") and words(instrument.language or "").raw.get("deleted")) or "(deleted)"
    edits: list[_Edit] = []
    for mod in instrument.modifications:
        before = len(problems)
        edit = _edit_for(base, version, key, instrument_text, mod, placeholder, problems)
        if edit is not None:
            edits.append(edit)
        elif unapplied is not None:
            unapplied.append((mod.target_eid, problems[-1] if len(problems) > before else
                              f"{key}: the {mod.type} of {mod.target} could not be applied"))
    return edits


def _edit_for(base: Document, version, key: str, instrument_text: str, mod: Modification,  # type: ignore[no-untyped-def]
              placeholder: str, problems: list[str]) -> _Edit | None:
    node = _find(version, mod.target_eid)
    if mod.type == "insertion":
        return _insertion(base, version, key, instrument_text, mod, node, problems)
    if node is None:
        problems.append(f"{key}: {mod.target} ({mod.target_eid}) is not in the base text; the {mod.type} "
                        f"in {mod.cite.eid or 'the instrument'} is not applied")
        return None
    if mod.type == "substitution":
        return _substitution(base, key, instrument_text, mod, node, problems)
    if mod.type == "repeal":
        return _repeal(base, key, mod, node, placeholder)
    return _renumbering(base, key, mod, node, problems)


def _substitution(base: Document, key: str, instrument_text: str, mod: Modification, node: Article | Paragraph | Point,
                  problems: list[str]) -> _Edit | None:
    if mod.span is None or not mod.text:
        problems.append(f"{key}: the new text of {mod.target} was not found in the instrument")
        return None
    if isinstance(node, Article):
        heading_end = base.original.find("\n", node.span[0])
        first_child = node.paragraphs[0].span[0] if node.paragraphs else node.span[1]
        heading_end = heading_end if 0 <= heading_end < first_child else node.span[0]
        # the new article text with or without its own heading
        starts_with_heading = mod.text.lstrip().split("\n", 1)[0].lower().startswith(base.original[node.span[0]:heading_end].split()[0].lower()) \
            if heading_end > node.span[0] else False
        start = node.span[0] if starts_with_heading else _line_start(base.original, first_child)
        pieces = (_new_words(key, instrument_text, mod),) if starts_with_heading else \
            (_literal(""), _new_words(key, instrument_text, mod))
        return _Edit(start, node.span[1], pieces, key, mod, mod.target_eid)
    label = node.number if isinstance(node, Paragraph) else node.label
    start = _line_start(base.original, node.span[0])
    pieces: tuple[tuple[str | None, int, int, str], ...]
    if _starts_with_marker(mod.text, label):
        pieces = (_new_words(key, instrument_text, mod),)
    else:
        pieces = (_literal(_marker(base, node)), _new_words(key, instrument_text, mod))  # type: ignore[arg-type]
    return _Edit(start, node.span[1], pieces, key, mod, mod.target_eid)


def _repeal(base: Document, key: str, mod: Modification, node: Article | Paragraph | Point, placeholder: str) -> _Edit:
    if isinstance(node, Article):
        heading_end = base.original.find("\n", node.span[0])
        heading_end = node.span[1] if heading_end < 0 or heading_end > node.span[1] else heading_end
        return _Edit(heading_end, node.span[1], (_literal("\n" + placeholder),), key, mod, mod.target_eid)
    start = _line_start(base.original, node.span[0])
    return _Edit(start, node.span[1], (_literal(_marker(base, node) + placeholder),), key, mod, mod.target_eid)  # type: ignore[arg-type]


def _renumbering(base: Document, key: str, mod: Modification, node: Article | Paragraph | Point, problems: list[str]) -> _Edit | None:
    if not mod.new_number or not mod.new_eid:
        problems.append(f"{key}: the new number of {mod.target} was not read")
        return None
    if isinstance(node, Article):
        line_end = base.original.find("\n", node.span[0])
        line_end = node.span[1] if line_end < 0 else min(line_end, node.span[1])
        heading = base.original[node.span[0]:line_end]
        at = _number_at(heading, node.number)
        if at < 0:
            problems.append(f"{key}: the number of {mod.target} was not found in its heading")
            return None
        s = node.span[0] + at
        return _Edit(s, s + len(node.number), (_literal(mod.new_number),), key, mod, mod.new_eid)
    marker_start = _line_start(base.original, node.span[0])
    marker = base.original[marker_start:node.span[0]]
    label = node.number if isinstance(node, Paragraph) else node.label
    at = marker.find(label or "\uffff")
    if at < 0:
        problems.append(f"{key}: the number of {mod.target} was not found")
        return None
    return _Edit(marker_start + at, marker_start + at + len(label or ""), (_literal(mod.new_number),), key, mod, mod.new_eid)


def _number_at(heading: str, number: str) -> int:
    import regex

    m = compiled(rf"(?<![\dA-Za-z]){regex.escape(number)}(?![\d])", regex.IGNORECASE).search(heading)
    return m.start() if m else -1


def _insertion(base: Document, version, key: str, instrument_text: str, mod: Modification,  # type: ignore[no-untyped-def]
               node: Article | Paragraph | Point | None, problems: list[str]) -> _Edit | None:
    if node is not None:
        problems.append(f"{key}: {mod.target} ({mod.target_eid}) is inserted, but the base text already holds it")
        return None
    if mod.span is None or not mod.text:
        problems.append(f"{key}: the new text of {mod.target} was not found in the instrument")
        return None
    parts = mod.target_eid.split("__")
    if len(parts) == 1:
        # a new article: after the last article numbered before it ("10A" after 10)
        number = parts[0].removeprefix("art_")
        value = article_number_value(number.upper() if not number[:1].isdigit() else number) or 0
        before = [a for a in version.articles if (article_number_value(a.number) or 0) <= value and a.eid != mod.target_eid]
        if not before:
            problems.append(f"{key}: no article of the base text precedes the new {mod.target}")
            return None
        at = before[-1].span[1]
        lead = "\n\n"
        has_heading = mod.text.lstrip().lower().startswith(mod.target.split()[0].lower())
        pieces = (_literal(lead), _new_words(key, instrument_text, mod)) if has_heading else \
            (_literal(lead + mod.target + "\n"), _new_words(key, instrument_text, mod))
        return _Edit(at, at, pieces, key, mod, mod.target_eid)
    owner = _find(version, "__".join(parts[:-1]))
    if owner is None:
        problems.append(f"{key}: {mod.target}: the provision it is added to is not in the base text")
        return None
    children = owner.paragraphs if isinstance(owner, Article) else owner.points
    at = children[-1].span[1] if children else owner.span[1]
    return _Edit(at, at, (_literal("\n\n"), _new_words(key, instrument_text, mod)), key, mod, mod.target_eid)


def consolidate(base: Document, amendments: list[tuple[str, Instrument, str]]) -> Consolidated:
    """The base text with the modifications of `amendments` ((key, instrument, instrument's
    original text), in the order they take effect) applied."""
    problems: list[str] = []
    unapplied: list[tuple[str, str]] = []
    edits: list[_Edit] = []
    for key, instrument, text in amendments:
        for edit in _edits_for(base, key, instrument, text, problems, unapplied):
            clash = next((e for e in edits if (e.start < edit.end and edit.start < e.end)
                          or (e.start == edit.start and e.end == edit.end)), None)
            if clash is not None and clash.source == edit.source:
                problems.append(f"{key}: two modifications of {edit.eid} in one instrument; the second is not applied")
                unapplied.append((edit.eid, problems[-1]))
                continue
            if clash is not None:
                # a later instrument changes the words an earlier one gave: the later one applies
                edits.remove(clash)
            edits.append(edit)
    edits.sort(key=lambda e: (e.start, e.end))
    out: list[str] = []
    segments: list[Segment] = []
    pos = 0
    length = 0

    def add(text: str, source: str | None, source_start: int) -> None:
        nonlocal length
        if not text:
            return
        out.append(text)
        segments.append(Segment(length, length + len(text), source, source_start))
        length += len(text)

    applied: list[Applied] = []
    for edit in edits:
        if edit.start < pos:
            problems.append(f"{edit.source}: {edit.eid} overlaps another modification; not applied")
            unapplied.append((edit.eid, problems[-1]))
            continue
        add(base.original[pos:edit.start], BASE, pos)
        for source, s, _e, text in edit.pieces:
            add(text, source, s)
        pos = edit.end
        applied.append(Applied(edit.source, edit.modification, edit.eid))
    add(base.original[pos:], BASE, pos)
    return Consolidated("".join(out), segments, applied, problems, unapplied)
