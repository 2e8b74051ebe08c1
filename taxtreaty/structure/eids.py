"""Akoma Ntoso eIds, in one place: made, split, parented and made unique.

An eId is a path of components joined by "__", each an alias and a number or label:
`art_10__para_2__point_a`, `protocol_1__para_3`, `chp_II`. An unnumbered paragraph is
`para_nn_K`, the K-th unnumbered paragraph of its owner. `ALIASES` maps the tree's node kinds
to their aliases; every stage that names or takes apart a node's eId does it here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from taxtreaty.structure.numbers import article_eid_number

#: node kind -> eId alias
ALIASES = {"article": "art", "paragraph": "para", "point": "point", "chapter": "chp", "protocol": "protocol"}
#: between the components of an eId
SEPARATOR = "__"
#: the number of an unnumbered paragraph ("para_nn_2")
UNNUMBERED = "nn"


def article(number: str) -> str:
    """The eId of article `number` as printed ("10", "8a", "IV"): "art_10", "art_8a", "art_4"."""
    return f"{ALIASES['article']}_{article_eid_number(number)}"


def chapter(number: str) -> str:
    return f"{ALIASES['chapter']}_{number}"


def protocol(index: int) -> str:
    """The eId of the `index`-th protocol of a version (from 1)."""
    return f"{ALIASES['protocol']}_{index}"


def paragraph(owner: str, number: str | None, unnumbered: int = 0) -> str:
    """Paragraph `number` of `owner` ("art_10__para_2"), or, for None, its `unnumbered`-th
    unnumbered paragraph ("art_10__para_nn_1")."""
    if number is None:
        return f"{owner}{SEPARATOR}{ALIASES['paragraph']}_{UNNUMBERED}_{unnumbered}"
    return f"{owner}{SEPARATOR}{ALIASES['paragraph']}_{number}"


def point(owner: str, label: str) -> str:
    """Point `label` of `owner` (a paragraph or a point): "art_10__para_2__point_a"."""
    return f"{owner}{SEPARATOR}{ALIASES['point']}_{label}"


def components(eid: str) -> list[tuple[str, str]]:
    """(alias, number or label) of each component: "art_10__para_nn_2" -> [("art", "10"), ("para", "nn_2")]."""
    return [(alias, value) for alias, _, value in (part.partition("_") for part in eid.split(SEPARATOR))]


def parent(eid: str) -> str | None:
    """The eId of the node that holds this one, None for a top-level node ("art_10")."""
    owner, sep, _ = eid.rpartition(SEPARATOR)
    return owner if sep else None


def article_of(eid: str) -> str:
    """The top-level node (article or protocol) an eId is in: "art_10__para_3" -> "art_10"."""
    return eid.split(SEPARATOR)[0]


def paragraph_of(eid: str) -> str:
    """The paragraph an eId is in: "art_10__para_3__point_a" -> "art_10__para_3" (an article's
    own eId is returned as it is)."""
    return SEPARATOR.join(eid.split(SEPARATOR)[:2])


def article_number(eid: str) -> str:
    """The number an article's eId carries ("art_10__para_3" -> "10"); the top-level component as
    it is for a protocol ("protocol_1")."""
    top = article_of(eid)
    alias, _, value = top.partition("_")
    return value if alias == ALIASES["article"] else top


def within(eid: str, ancestor: str) -> bool:
    """Is `eid` the node `ancestor` or inside it ("art_10__para_2__point_a" is within "art_10__para_2")?"""
    return eid == ancestor or eid.startswith(ancestor + SEPARATOR)


def has_point(eid: str) -> bool:
    """Does the eId name a point (or a node inside one)?"""
    return any(alias == ALIASES["point"] for alias, _ in components(eid))


def without_points(eid: str) -> str:
    """The eId of the paragraph (or article) that holds a point: "art_10__para_2__point_a" -> "art_10__para_2"."""
    return SEPARATOR.join(part for part in eid.split(SEPARATOR) if not part.startswith(ALIASES["point"] + "_"))


class _Named(Protocol):
    eid: str


def make_unique(nodes: Iterable[_Named]) -> list[tuple[str, str]]:
    """eIds must be unique within a version: the second node of an eId gets the suffix "_2", the
    third "_3" ..., and the nodes inside it are renamed with it. `nodes` are every node of one
    version, parents before their children. Returns (old, new) for each node renamed, in order."""
    renamed: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for node in nodes:
        if node.eid in seen:
            seen[node.eid] += 1
            new = f"{node.eid}_{seen[node.eid]}"
            renamed.append((node.eid, new))
            _rename(node, node.eid, new)
        else:
            seen[node.eid] = 1
    return renamed


def _rename(node: _Named, old: str, new: str) -> None:
    node.eid = new
    children: Sequence[_Named] = node.paragraphs if hasattr(node, "paragraphs") else node.points  # type: ignore[attr-defined]
    for child in children:
        _rename(child, child.eid, new + child.eid[len(old):])
