"""Golden fixtures: synthetic texts in shapes and damage the seeds do not show -> the expected tree.

Each `tests/fixtures/structure/NAME.txt` has a `NAME.expected` holding the tree as rendered by
`render` below (eIds, numbers, headings, topics, flags, every node's text, the warnings). The
expected files were written by the parser and then checked line by line by hand; rewrite them
with `TAXTREATY_UPDATE_GOLDEN=1 pytest tests/test_structure_golden.py` only after checking the
difference.

What the fixtures exercise:
- es_convenio_capitulos: Spanish, chapters, "Artículo 10" with the heading on the next line,
  "2." paragraphs, nested a)/i) points, a BOE page header inside a point, a gap in the articles.
- en_convention_shapes: "ARTICLE 1" + title line in capitals, "Art. 2 Taxes covered", "Article 3 -
  Dividends", "(1)" paragraphs, "(a)"/"(i)" points, a running header and "- 2 -" page numbers in
  the middle of a point, a continuation sentence after the list, prevailing-language clause.
- pt_artigo_shapes: "Artigo 1.º — Pessoas visadas", "ARTIGO 2.° (Impostos visados)", "Artigo 3.º"
  + heading line, "ARTIGO 4." (Juros)" (OCR of .º), "ARTIGO «.*" (number lost), "1 -" paragraphs,
  OCR labels "o)", "£>)", "í)", a word hyphenated across a "Page 2 of 3" footer, a mojibake title.
- bilingual_es_en: a Spanish then an English version, each language detected from its words.
- en_fragment_mid_article: starts inside article 10 and stops mid-sentence in article 12.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import taxtreaty
from taxtreaty.structure.model import Document, Paragraph, Point

FIXTURES = Path(__file__).parent / "fixtures" / "structure"
CASES = sorted(FIXTURES.glob("*.txt"))


def _node_lines(node: Paragraph | Point, depth: int) -> list[str]:
    pad = "  " * depth
    flags = []
    if isinstance(node, Paragraph):
        flags += ["inferred"] if node.number_inferred else []
        flags += ["incomplete"] if not node.complete else []
    head = f"{pad}{node.eid}" + (f" [{', '.join(flags)}]" if flags else "")
    lines = [head]
    if node.points:
        if node.intro:
            lines.append(f"{pad}  intro: {node.intro}")
        for child in node.points:
            lines += _node_lines(child, depth + 1)
        if node.wrap_up:
            lines.append(f"{pad}  wrap_up: {node.wrap_up}")
    else:
        lines.append(f"{pad}  text: {' '.join(node.text.split())}")
    return lines


def render(doc: Document) -> str:
    signed = f"{doc.signed.date} {doc.signed.place}" if doc.signed else "-"
    out = [f"parties: {' '.join(doc.parties) or '-'} | signed: {signed} | prevailing: {doc.prevailing_language or '-'}"]
    for version in doc.versions:
        out.append(f"[{version.language}] title: {version.title or '-'}")
        for chapter in version.chapters:
            out.append(f"{chapter.eid}: {chapter.heading or '-'}")
        for article in version.articles:
            flags = [f for f, on in (("inferred", article.number_inferred), ("incomplete", not article.complete)) if on]
            out.append(
                f"{article.eid} | {article.heading or '-'} | {article.topic or '-'} | {article.chapter or '-'}"
                + (f" [{', '.join(flags)}]" if flags else "")
            )
            for para in article.paragraphs:
                out += _node_lines(para, 1)
    out.append("warnings:")
    out += [f"  {w.code} {w.eid or '-'} {w.language or '-'}" for w in doc.warnings]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_golden_tree(path: Path) -> None:
    got = render(taxtreaty.parse_file(str(path)))
    expected_path = path.with_suffix(".expected")
    if os.environ.get("TAXTREATY_UPDATE_GOLDEN") or not expected_path.exists():
        expected_path.write_text(got, encoding="utf-8")
        pytest.skip(f"wrote {expected_path.name}; check it by hand")
    assert got == expected_path.read_text(encoding="utf-8")


def test_fixtures_exist() -> None:
    assert len(CASES) >= 5
    assert all(p.with_suffix(".expected").exists() for p in CASES)
