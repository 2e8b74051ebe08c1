"""A Portuguese protocol heading joins its references with the contracted "do"/"da" ("Relativamente ao n.º 3 do
artigo 12.º"): the heading names article 12. Before, "do" was no joiner, the heading stopped at "n.º 3" and
the point named no article (a point narrowing the royalties definition was then read on no article)."""

from __future__ import annotations

import pytest

from taxtreaty.provisions.protocol_points import _heading_articles
from taxtreaty.provisions.vocabulary import require_phrases


@pytest.mark.parametrize(("line", "articles"), [
    ("Relativamente ao n.º 3 do artigo 12.º, as retribuições pagas por estudos", ["12"]),
    ("Com referência à alínea a) do n.º 2 do artigo 10.º: o imposto", ["10"]),
    ("Relativamente ao artigo 11.º: os juros", ["11"]),
])
def test_a_portuguese_heading_with_contractions_names_its_article(line: str, articles: list[str]) -> None:
    found = _heading_articles(line, require_phrases("pt"))
    assert found is not None and found[0] == articles
