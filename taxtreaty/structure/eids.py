"""Akoma Ntoso eIds, in one place: made, split, parented, and de-duplicated.

An eId is a path of components joined by "__", each an alias and a number or label:
`art_10__para_2__point_a`, `protocol_1__para_3`, `chp_II`; an unnumbered paragraph is
`para_nn_K` (the K-th unnumbered one of its owner). The alias table maps the tree's node kinds
to their aliases; every stage that names a node builds its eId here.
"""

from __future__ import annotations

from taxtreaty.structure.model import Article, Paragraph, Point, Version, Warning, iter_nodes
from taxtreaty.structure.numbers import article_eid_number

#: node kind -> eId alias
ALIASES = {"article": "art", "paragraph": "para", "point": "point", "chapter": "chp", "protocol": "protocol"}
#: between the components of an eId
SEPARATOR = "__"
#: the number of an unnumbered paragraph ("para_nn_2")
UNNUMBERED = "nn"


def article(number: str) -> str:
    """The eId of article `number` as printed ("10", "8A", "IV"): "art_10", "art_8a"."""
    return f"{ALIASES['article']}_{article_eid_number(number)}"


def chapter(number: str) -> str:
    return f"{ALIASES['chapter']}_{number}"


def protocol(index: int) -> str:
    """The eId of the `index`-th protocol of a version (from 1)."""
    return f"{ALIASES['protocol']}_{index}"


def paragraph(owner: str, number: str | None, unnumbered: int = 0) -> str:
    """Paragraph `number` of `owner`, or its `unnumbered`-th unnumbered paragraph."""
    if number is None:
        return f"{owner}{SEPARATOR}{ALIASES['paragraph']}_{UNNUMBERED}_{unnumbered}"
    return f"{owner}{SEPARATOR}{ALIASES['paragraph']}_{number}"


def point(owner: str, label: str) -> str:
    return f"{owner}{SEPARATOR}{ALIASES['point']}_{label}"


def dedupe(versions: list[Version], warnings: list[Warning]) -> None:
    """eIds must be unique within a version: a repeated one gets a suffix (and a warning)."""
    for version in versions:
        seen: dict[str, int] = {}
        for node in iter_nodes(version):
            if node.eid in seen:
                seen[node.eid] += 1
                new = f"{node.eid}_{seen[node.eid]}"
                warnings.append(Warning(code="duplicate_eid", eid=new, language=version.language,
                                        message=f"{node.eid} occurs more than once; this one is {new}"))
                _rename(node, node.eid, new)
            else:
                seen[node.eid] = 1


def _rename(node: Article | Paragraph | Point, old: str, new: str) -> None:
    node.eid = new
    children = node.paragraphs if isinstance(node, Article) else node.points
    for child in children:
        _rename(child, child.eid, new + child.eid[len(old):])
