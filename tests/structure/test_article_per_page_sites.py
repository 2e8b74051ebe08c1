"""Legislation sites that print a convention one article per page (Brazil's legjur.com copies of the promulgating
decrees): the site's own heading of the article, then the chapter as a link ("Capítulo III - TRIBUTAÇÃO DA
RENDA (Ir para)"), then the article's heading again with its title on the next line behind a dash ("- Dividendos").
Before, the second heading was read as a repeated number and dropped, and every line under it with it: the
article had no text, no topic and no provision. Sentences of our own in that shape."""

from __future__ import annotations

import taxtreaty

PAGE = """Legislação

Decreto 12.345, de 10/03/2024

Art. {n}

Capítulo III - TRIBUTAÇÃO DA RENDA (Ir para)

Art. {n}

- {title}

{body}
"""
DIVIDENDS = """1. Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante poderão ser tributados nesse outro Estado.

2. Todavia, esses dividendos poderão também ser tributados no Estado Contratante em que residir a sociedade que os pagar, mas, se o beneficiário efetivo dos dividendos for um residente do outro Estado Contratante, o imposto assim exigido não excederá 15 por cento do montante bruto dos dividendos."""
INTEREST = """1. Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante poderão ser tributados nesse outro Estado."""


def test_a_heading_printed_twice_around_the_chapter_is_one_article_with_its_text():
    text = PAGE.format(n=10, title="Dividendos", body=DIVIDENDS) + PAGE.format(n=11, title="Juros", body=INTEREST)
    doc = taxtreaty.parse(text.encode())
    articles = doc.version("pt").articles
    assert [(a.number, a.heading, a.topic) for a in articles] == [("10", "Dividendos", "dividends"),
                                                                  ("11", "Juros", "interest")]
    assert [p.number for p in articles[0].paragraphs] == ["1", "2"]
    decision = taxtreaty.decide(doc, {"income": "dividends", "source": "BR", "residence": "PT",
                                      "beneficial_owner": True, "recipient": "individual"}).to_dict()
    assert (decision["status"], decision["max_rate_pct"]) == ("determined", "15")


def test_two_different_articles_in_a_row_stay_two():
    doc = taxtreaty.parse(b"Artigo 10\nDividendos\n1. Os dividendos podem ser tributados.\nArtigo 11\nArtigo 12\n"
                          b"Royalties\n1. Os royalties podem ser tributados.\n")
    assert {"10", "12"} <= {a.number for a in doc.version("pt").articles}
