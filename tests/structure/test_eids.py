"""The eId module: made, split, parented and made unique in one place."""

from __future__ import annotations

import pytest

import taxtreaty
from taxtreaty.structure import eids


@pytest.mark.parametrize(("made", "expected"), [
    (eids.article("10"), "art_10"),
    (eids.article("8a"), "art_8a"),
    (eids.article("IV"), "art_4"),  # roman numbers take their arabic value, so treaties align
    (eids.article("Xbis"), "art_10bis"),
    (eids.paragraph("art_10", "2"), "art_10__para_2"),
    (eids.paragraph("art_10", None, 1), "art_10__para_nn_1"),
    (eids.point(eids.paragraph("art_10", "2"), "a"), "art_10__para_2__point_a"),
    (eids.protocol(1), "protocol_1"),
    (eids.paragraph(eids.protocol(2), "3"), "protocol_2__para_3"),
    (eids.chapter("II"), "chp_II"),
])
def test_made(made: str, expected: str) -> None:
    assert made == expected


@pytest.mark.parametrize(("eid", "parts", "parent", "article", "paragraph", "number"), [
    ("art_10", [("art", "10")], None, "art_10", "art_10", "10"),
    ("art_10__para_2", [("art", "10"), ("para", "2")], "art_10", "art_10", "art_10__para_2", "10"),
    ("art_10__para_2__point_a__point_i", [("art", "10"), ("para", "2"), ("point", "a"), ("point", "i")],
     "art_10__para_2__point_a", "art_10", "art_10__para_2", "10"),
    ("art_7__para_nn_2", [("art", "7"), ("para", "nn_2")], "art_7", "art_7", "art_7__para_nn_2", "7"),
    ("protocol_1__para_3", [("protocol", "1"), ("para", "3")], "protocol_1", "protocol_1", "protocol_1__para_3",
     "protocol_1"),
])
def test_split(eid: str, parts: list[tuple[str, str]], parent: str | None, article: str, paragraph: str,
               number: str) -> None:
    assert eids.components(eid) == parts
    assert eids.parent(eid) == parent
    assert eids.article_of(eid) == article
    assert eids.paragraph_of(eid) == paragraph
    assert eids.article_number(eid) == number


@pytest.mark.parametrize(("eid", "ancestor", "inside"), [
    ("art_10__para_2__point_a", "art_10__para_2", True),
    ("art_10__para_2", "art_10__para_2", True),
    ("art_10__para_20", "art_10__para_2", False),  # a prefix of the text is not an ancestor
    ("art_1", "art_10", False),
])
def test_within(eid: str, ancestor: str, inside: bool) -> None:
    assert eids.within(eid, ancestor) is inside


def test_points_taken_off_and_found() -> None:
    assert eids.without_points("art_10__para_2__point_a__point_i") == "art_10__para_2"
    assert eids.has_point("art_10__para_2__point_a") and not eids.has_point("art_10__para_2")


def test_a_repeated_eid_gets_a_suffix_and_its_children_follow() -> None:
    # a list that restarts ("a)" again after "b)"): the second "a)" and its items are renamed
    doc = taxtreaty.parse("Article 1\nScope\n1. The list:\na) x;\nb) y;\na) z:\ni) one;\nii) two.\n"
                          "IN WITNESS WHEREOF the undersigned have signed.\n")
    points = doc.versions[0].articles[0].paragraphs[0].points
    assert [p.eid for p in points] == ["art_1__para_1__point_a", "art_1__para_1__point_b", "art_1__para_1__point_a_2"]
    assert [p.eid for p in points[2].points] == ["art_1__para_1__point_a_2__point_i", "art_1__para_1__point_a_2__point_ii"]
    assert [w.eid for w in doc.warnings if w.code == "duplicate_eid"] == ["art_1__para_1__point_a_2"]


def test_make_unique_over_plain_nodes() -> None:
    class Node:
        def __init__(self, eid: str, points: list[Node] | None = None) -> None:
            self.eid, self.points = eid, points or []

    child = Node("art_1__para_1__point_a")
    nodes = [Node("art_1__para_1"), Node("art_1__para_1", [child]), child]
    assert eids.make_unique(nodes) == [("art_1__para_1", "art_1__para_1_2")]
    assert child.eid == "art_1__para_1_2__point_a"
