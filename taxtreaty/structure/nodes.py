"""The mutable nodes the tree builder opens and extends, before they become the model."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    start: int  # content start (after the marker), cleaned offsets
    end: int
    children: list[PointNode] = field(default_factory=list)
    child_labels: set[str] = field(default_factory=set)
    pending_wrap_start: int | None = None  # text after the last child, not yet known to be a wrap-up

    def extend(self, end: int) -> None:
        self.end = max(self.end, end)


@dataclass
class PointNode(Node):
    label: str = ""
    printed: str | None = None
    kind: str = "letter"


@dataclass
class ParaNode(Node):
    number: str | None = None
    eid_hint: str | None = None
    number_inferred: bool = False
    complete: bool = True
    #: numbered "1)" rather than "1." (a later "2)" is the next paragraph, not a point)
    bracket: bool = False
    #: an "Article 1" division of a protocol: its own "1 —", "2." lines stay in its text
    protocol_article: bool = False


@dataclass
class ArticleNode:
    start: int
    end: int
    number: str
    number_inferred: bool = False
    heading: str | None = None
    chapter: str | None = None
    complete: bool = True
    paragraphs: list[ParaNode] = field(default_factory=list)
    fragment: bool = False


@dataclass
class ProtocolNode:
    start: int
    end: int
    heading: str
    paragraphs: list[ParaNode] = field(default_factory=list)
