"""The document tree: convention -> language versions -> articles -> paragraphs -> points.

Plain pydantic models (serialisable as the `taxtreaty parse --json` shape). Every node carries
its Akoma Ntoso eId and the character span of its text in the *original* (decoded) file, so any
quote can be found in the source. `text` is the node's cleaned text, markers excluded, children
included; `intro` / `wrap_up` are the parts before the first and after the last child point.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from taxtreaty.structure import eids
from taxtreaty.structure.instrument import Instrument

Span = tuple[int, int]


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Point(Node):
    eid: str
    label: str
    #: the label as printed when OCR damage was repaired ("£>" for "b")
    label_printed: str | None = None
    text: str
    span: Span
    intro: str | None = None
    wrap_up: str | None = None
    points: list[Point] = Field(default_factory=list)


class Paragraph(Node):
    eid: str
    #: null for an unnumbered paragraph
    number: str | None
    number_inferred: bool = False
    complete: bool = True
    text: str
    span: Span
    intro: str | None = None
    wrap_up: str | None = None
    points: list[Point] = Field(default_factory=list)


class Article(Node):
    eid: str
    number: str
    number_inferred: bool = False
    heading: str | None
    topic: str | None
    complete: bool = True
    chapter: str | None = None
    span: Span
    paragraphs: list[Paragraph] = Field(default_factory=list)

    def paragraph(self, number: str) -> Paragraph | None:
        return next((p for p in self.paragraphs if p.number == number), None)

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.paragraphs)


class Chapter(Node):
    eid: str
    number: str
    heading: str | None
    span: Span


class Protocol(Node):
    """A protocol (or other instrument) printed after the convention: kept apart from its articles."""

    eid: str
    heading: str
    span: Span
    paragraphs: list[Paragraph] = Field(default_factory=list)


class Version(Node):
    language: str
    #: false for a language recognised but not supported (e.g. Dutch): no topics are inferred
    supported: bool = True
    title: str | None = None
    span: Span
    chapters: list[Chapter] = Field(default_factory=list)
    articles: list[Article] = Field(default_factory=list)
    protocols: list[Protocol] = Field(default_factory=list)

    def article(self, number: str) -> Article | None:
        """The article numbered `number` as printed ("10", "IV"), or by its eId's number ("4" finds
        a roman "IV", whose eId is `art_4`)."""
        found = next((a for a in self.articles if a.number == number), None)
        return found or next((a for a in self.articles if a.eid == eids.article(number)), None)

    def by_topic(self, topic: str) -> list[Article]:
        return [a for a in self.articles if a.topic == topic]


class Source(Node):
    #: the file's path as text; a `pathlib.Path` (any path-like object) is accepted and stored as text
    path: str | None
    sha256: str
    bytes: int
    encoding: str = "utf-8"

    @field_validator("path", mode="before")
    @classmethod
    def _path_as_text(cls, value: object) -> object:
        return os.fsdecode(value) if isinstance(value, (os.PathLike, bytes)) else value


class Signed(Node):
    date: str | None
    place: str | None
    eid: str | None = None
    language: str | None = None


class Warning(Node):
    code: str
    eid: str | None
    language: str | None
    message: str


class Document(Node):
    source: Source
    parties: list[str] = Field(default_factory=list)
    signed: Signed | None = None
    prevailing_language: str | None = None
    versions: list[Version] = Field(default_factory=list)
    warnings: list[Warning] = Field(default_factory=list)
    #: what kind of instrument the text is and, for an amending one, what it changes (`instrument.py`)
    instrument: Instrument | None = None
    #: where the text was published, from its front matter (`publication.py`): reference, gazette,
    #: published, source_url, ...
    publication: dict[str, str] = Field(default_factory=dict)

    _original: str = PrivateAttr(default="")
    #: the parser's `CleanText` (cleaned text + span map), kept so later stages need not clean again
    _clean: object | None = PrivateAttr(default=None)
    #: of a file holding several conventions, the number of the one this document is (None: the file holds one)
    _convention: int | None = PrivateAttr(default=None)

    @property
    def original(self) -> str:
        """The decoded source text that every span indexes into."""
        return self._original

    def quote_at(self, span: Span) -> str:
        return self._original[span[0] : span[1]]

    def version(self, language: str) -> Version | None:
        return next((v for v in self.versions if v.language == language), None)

    def find(self, eid: str, language: str | None = None) -> Article | Paragraph | Point | None:
        for version in self.versions:
            if language and version.language != language:
                continue
            for node in iter_nodes(version):
                if node.eid == eid:
                    return node
        return None

    def to_json_dict(self) -> dict:
        return self.model_dump(mode="json")


def iter_points(points: list[Point]) -> Iterator[Point]:
    for p in points:
        yield p
        yield from iter_points(p.points)


def iter_nodes(version: Version) -> Iterator[Article | Paragraph | Point]:
    for article in version.articles:
        yield article
        for para in article.paragraphs:
            yield para
            yield from iter_points(para.points)
    for protocol in version.protocols:
        for para in protocol.paragraphs:
            yield para
            yield from iter_points(para.points)
