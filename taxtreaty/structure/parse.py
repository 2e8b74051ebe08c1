"""Parse cleaned treaty text into the document tree.

Pipeline: lines of the cleaned text -> language versions (split at a new convention title or an
article numbering that restarts) -> per version, a single pass that opens articles, paragraphs
and points as their markers are accepted. A marker is accepted only when it fits the sequence
(article 9 after 8, paragraph 3 after 2, point "b" after "a"), so cross-references that happen
to start a line ("Article 7 or Article 14, as the case may be...") stay text. The parser never
refuses input: what it cannot place is kept as text of the enclosing node and reported.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache

import regex

from taxtreaty import vocab
from taxtreaty.structure import columns, conventions, eids, headless, metadata, publication
from taxtreaty.structure.builder import VersionBuilder
from taxtreaty.structure.languages import detect_language
from taxtreaty.structure.lines import Line, classify, heading_number, heading_value, split_lines
from taxtreaty.structure.lists import MAX_POINT_DEPTH
from taxtreaty.structure.model import Document, Source, Version, Warning, iter_nodes
from taxtreaty.structure.prepass import contents_table, instrument_references, number_style
from taxtreaty.structure.versions import version_segments
from taxtreaty.text import InputError, check_lines, clean, decode_bytes
from taxtreaty.text.accents import Restoration
from taxtreaty.text.decode import PAGE_WARNING, read_page

#: names other modules import from here (the stages live in their own modules)
__all__ = [
    "MAX_POINT_DEPTH", "Line", "NoArticlesError", "classify", "heading_number", "heading_value", "parse",
    "parse_file", "parse_text", "split_lines",
]


class NoArticlesError(InputError):
    """The text was read but holds no article of a convention."""


_NOT_NEWLINE = regex.compile(r"[^\n]")


def _blank(text: str) -> str:
    return _NOT_NEWLINE.sub(" ", text)


#: the warnings of numbers read out of sequence (a page of two columns read line by line leaves some)
_OUT_OF_SEQUENCE = frozenset({"articles_missing", "paragraphs_missing", "list_items_missing", "paragraph_number_inferred"})
#: how many characters around a protocol's mention the warning quotes
_MENTION_CONTEXT = 60


@cache
def _protocol_word() -> regex.Pattern[str]:
    """A word of `protocol_words` in any case, as a whole word (built once: parse is a hot path)."""
    words = "|".join(regex.escape(w) for w in sorted(set(vocab.all_words("protocol_words")), key=len, reverse=True))
    return regex.compile(rf"(?<![\p{{L}}])(?:{words or '(?!)'})(?![\p{{L}}])", regex.IGNORECASE)


def _protocol_not_read(versions: list[Version], original: str) -> list[Warning]:
    """"Promulga a Convenção ... e o seu Protocolo", "Convenio ... y su Protocolo, hecho en ...": the words before
    the first article name a protocol (a word of `protocol_words`), yet no protocol was read (a copy that lost it,
    a heading in a shape no reader knows). A protocol may set rates and exemptions of the articles, so the
    answers are said to rest on the articles alone."""
    if any(v.protocols for v in versions) or not versions or not versions[0].articles:
        return []
    before = original[: versions[0].articles[0].span[0]]
    m = _protocol_word().search(before)
    if m is None:
        return []
    start = before.find(" ", max(0, m.start() - _MENTION_CONTEXT), m.start()) + 1  # from a word's start
    quote = " ".join(before[start: m.end() + _MENTION_CONTEXT // 2].rsplit(" ", 1)[0].split())
    return [Warning(code="protocol_not_read", eid=None, language=versions[0].language,
                    message=f"the text names a protocol (“…{quote}…”) but no protocol was read: its points may set "
                    "the rates and exemptions of the articles; the answers rest on the articles alone")]


def _lost_accents(restored: Restoration, original: str) -> Warning:
    """The words a copy printed without their accented letters, read as the words they stand for."""
    left = (f"; {restored.left} more could stand for several words or for none the language data knows, and "
            "were read as printed") if restored.left else ""
    return Warning(code="lost_accents", eid=None, language=restored.language,
                   message=f"the copy lost accented letters with its encoding: {len(restored.edits)} words were "
                   f"read as the words they stand for ({', '.join(restored.examples(original))}){left}")


def parse_text(original: str, *, path: str | os.PathLike[str] | None = None, data: bytes | None = None,
               encoding: str = "utf-8", decode_warnings: list[str] | None = None,
               convention: int | None = None) -> Document:
    """Parse decoded text. Raises `NoArticlesError` when no article could be found at all, and
    `SeveralConventionsError` when the file holds several conventions and `convention` (1-based)
    does not choose one."""
    raw = data if data is not None else original.encode("utf-8")
    # front matter (a markdown mirror's YAML block) is publication data, never text: blanked
    # character for character, so every span still indexes `original`
    head = publication.front_matter_end(original)
    ct = clean(_blank(original[:head]) + original[head:] if head else original)
    ct.original = original  # quotes come from the text as given, front matter and all
    lines = split_lines(ct.text)
    contents_table(lines)
    instrument_references(lines)
    number_style(lines)
    counted = headless.counted_headings(lines, detect_language(ct.text)[0])
    conventions.refuse_commentary(lines, ct)
    warnings: list[Warning] = [Warning(code="web_page" if w.startswith(PAGE_WARNING) else "encoding", eid=None,
                                       language=None, message=w) for w in decode_warnings or []]
    versions: list[Version] = []
    read: list[tuple[str, str | None, list[Line]]] = []
    #: each warning with the version it is of (None: of a part read as no version), in order
    told: list[tuple[int | None, Warning]] = []
    for segment in version_segments(lines):
        seg_text = "\n".join(line.text for line in segment)
        language, _margin = detect_language(seg_text)
        lang_info = vocab.languages().get(language or "")
        supported = bool(lang_info and lang_info.supported)
        builder = VersionBuilder(segment, ct, language, supported)
        builder.build()
        articles, protocols = builder.finish()
        here: list[Warning] = []
        if language is None:
            here.append(Warning(code="language_unknown", eid=None, language=None,
                                message="could not tell the language of a part of the text"))
        elif not supported:
            here.append(Warning(
                code="unsupported_language", eid=None, language=language,
                message=f"a version in {lang_info.name if lang_info else language} ({language}) was found; "
                "this language is not supported, so no provisions are inferred from it (its articles' topics only "
                "from the words of topics.yaml in that language)",
            ))
        if not articles and not protocols:
            told += [(None, w) for w in here]
            continue
        told += [(len(versions), w) for w in [*here, *builder.warnings]]
        read.append((language or "und", builder.title, segment))
        start, end = segment[0].start, segment[-1].end
        versions.append(Version(
            language=language or "und", supported=supported, title=builder.title,
            span=ct.original_span(start, end), chapters=builder.chapters, articles=articles, protocols=protocols,
        ))
    if not any(v.articles for v in versions):
        merged = columns.columns_merged(original)
        raise NoArticlesError("no articles found: the text does not look like a tax convention"
                              + (f" ({merged})" if merged else ""))
    found = conventions.group(read, ct)
    chosen = list(range(len(versions)))
    bounds: tuple[int, int] | None = None
    if len(found) > 1 or (convention is not None and convention != 1):
        if convention is None:
            raise conventions.refusal(found)
        if not 1 <= convention <= len(found):
            raise InputError(f"--convention {convention}: the file holds {len(found)} convention(s)")
        chosen = found[convention - 1].versions
        first = read[chosen[0]][2]
        title = next((line for line in first if line.kind == "title"), first[0])
        lines = [line for line in lines if title.start <= line.start <= read[chosen[-1]][2][-1].start]
        bounds = (title.start, lines[-1].end)
    versions = [versions[k] for k in chosen]
    warnings += [w for k, w in told if k is None or k in chosen]
    for version in versions:
        for old, new in eids.make_unique(iter_nodes(version)):
            warnings.append(Warning(code="duplicate_eid", eid=new, language=version.language,
                                    message=f"{old} occurs more than once; this one is {new}"))
    warnings += _protocol_not_read(versions, original)
    if counted:
        for version in versions:
            for article in version.articles:
                article.number_inferred = True
        warnings.append(Warning(code="article_headings_missing", eid=None, language=versions[0].language,
                                message=headless.WARNING))
    if ct.accents is not None:
        warnings.append(_lost_accents(ct.accents, original))
    # (looked for only where the reading already found numbers out of sequence, as a page read across its two
    # columns always leaves: the test costs nothing on a text read in order)
    if any(w.code in _OUT_OF_SEQUENCE for w in warnings) and (merged := columns.columns_merged(original)) is not None:
        warnings.append(Warning(code="columns_merged", eid=None, language=versions[0].language, message=merged))
    doc = Document(
        source=Source(path=path, sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw), encoding=encoding),
        versions=versions,
        warnings=warnings,
    )
    doc._original = original
    doc._clean = ct
    doc._convention = convention if len(found) > 1 else None
    metadata.fill(doc, ct, lines, bounds)
    doc.publication = publication.read(original)
    return doc


def parse(source: str | bytes, *, path: str | os.PathLike[str] | None = None,
          convention: int | None = None) -> Document:
    """Parse a treaty text (str, or bytes in any common encoding) into a `Document`; of a file
    holding several conventions, the one numbered `convention` (1-based; else the file is refused)."""
    if isinstance(source, bytes):
        decoded = decode_bytes(source)
        return parse_text(decoded.text, path=path, data=source, encoding=decoded.encoding,
                          decode_warnings=decoded.warnings, convention=convention)
    if not source.strip():
        raise InputError("input is empty")
    text = source[1:] if source.startswith("\ufeff") else source
    page_warnings: list[str] = []
    text = read_page(text, page_warnings)
    check_lines(text)
    return parse_text(text, path=path, decode_warnings=page_warnings, convention=convention)


def read_file(path: str | os.PathLike[str]) -> tuple[str, bytes]:
    """The path as text and the file's bytes, or a one-line `InputError`."""
    path = os.fsdecode(path)
    try:
        with open(path, "rb") as fh:
            return path, fh.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def parse_file(path: str | os.PathLike[str], convention: int | None = None) -> Document:
    """Parse the file at `path` (a `str` or any path-like object; the document keeps it as text);
    `convention` chooses one of a file holding several."""
    name, data = read_file(path)
    return parse(data, path=name, convention=convention)

