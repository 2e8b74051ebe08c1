"""Pathological input ends quickly with a result or a one-line error, and random text never crashes.

These inputs once took minutes (a joined line re-scanned for every line added, a label set
rebuilt for every point, an unbounded lazy heading title); each is now linear. No timing is
asserted here (that is bench/'s job); the suite's own run time is the check.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taxtreaty
from taxtreaty.text import InputError


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("10 MB, no newline", "a" * 10_000_000),
        ("10 MB of words, no newline", "the tax so charged shall not exceed; " * 270_000),
        ("headings run together", "Artigo 1 " * 1_100_000),
        ("damaged heading, 5 MB", "ARTIGO " + "«" * 5_000_000),
    ],
)
def test_long_lines_are_refused_as_no_articles(name: str, text: str) -> None:
    with pytest.raises(InputError, match="no articles found"):
        taxtreaty.parse(text)


def test_many_repeated_points_and_paragraphs() -> None:
    doc = taxtreaty.parse("Article 1\nScope\n1. The list:\n" + "a) item;\n" * 5_000)
    para = doc.versions[0].article("1").paragraph("1")
    assert len(para.points) == 5_000
    assert para.points[1].eid == "art_1__para_1__point_a_2"  # duplicates get a suffix, with a warning
    assert sum(w.code == "duplicate_eid" for w in doc.warnings) == 4_999
    doc = taxtreaty.parse("Article 1\nScope\n" + "".join(f"{i}. Text {i}.\n" for i in range(1, 1_000)))
    assert len(doc.versions[0].article("1").paragraphs) == 999  # paragraph numbers have at most three digits


def test_many_headings_in_sequence() -> None:
    doc = taxtreaty.parse("".join(f"Artigo {i}\nTexto do artigo {i}, que se aplica.\n" for i in range(1, 1_000)))
    assert [a.number for a in doc.versions[0].articles][-1] == "999"


_TREATY_ALPHABET = st.sampled_from(
    [*list("aeiouAEIOU ()—-–.,;:«»\"'0123456789\n\n"), "Article ", "ARTIGO ", "Artículo ", "1 — ", "a) ", "ii) ", "(2) ", "PROTOCOL\n", "CHAPTER I\n", "ANEXO", "£>)", "«.*"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TREATY_ALPHABET, max_size=300).map("".join))
def test_random_treaty_like_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        doc = taxtreaty.parse(text)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    for version in doc.versions:
        for article in version.articles:
            assert article.eid.startswith("art_")
            for para in article.paragraphs:
                start, end = para.span
                assert 0 <= start <= end <= len(doc.original)


@pytest.mark.parametrize("data", [b"#\n", b"## \n", b"#", b"###\n\n#\nArticle 1\nScope\n1. Text.\n"])
def test_lines_that_are_only_a_markdown_mark(data: bytes) -> None:
    try:
        doc = taxtreaty.parse(data)
    except InputError as exc:
        assert "no articles" in str(exc) or "empty" in str(exc)
        return
    assert doc.versions[0].article("1").paragraph("1").text == "Text."


def test_ocr_letter_o_for_zero_in_an_article_number() -> None:
    text = ("Artigo 9.º — Empresas associadas\n1 — Texto.\nArtigo 1O.º — Dividendos\n1 — Os dividendos.\n"
            "Artigo 11.º — Juros\n1 — Os juros.\n2 — Mais juros.\n")
    doc = taxtreaty.parse(text)
    assert len(doc.versions) == 1
    assert [a.number for a in doc.versions[0].articles] == ["9", "10", "11"]
    assert doc.versions[0].article("11").paragraph("2") is not None


def test_point_nesting_is_bounded() -> None:
    text = "Artigo 10.º — Dividendos\n1 — Texto:\n" + "".join(f"{label})\n" for label in "ai1A" * 260)
    doc = taxtreaty.parse(text)
    depth, points = 0, doc.versions[0].article("10").paragraph("1").points
    while points:
        depth += 1
        points = points[-1].points
    assert depth == 6  # MAX_POINT_DEPTH: deeper labels stay text of the innermost point
