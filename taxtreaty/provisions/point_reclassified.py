"""Protocol points that say what a kind of payment is, by the `reclassified` words:

- `reclassifications`: "Payments received as a consideration for technical services ... are
  payments to which the provisions of Article 7 or Article 14 apply": the kind of income the words
  name goes to the business-profits (or independent-services) article, an allocation of the
  payment article with `values.reclassified_to` that the engine applies before the article's rates;
- `deemed_items`: "... shall be deemed to be payments to which the provisions of subparagraph (a) of
  paragraph 2 of Article 12 apply": a cap of that item's rate for the kind named.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from taxtreaty.provisions import figures
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.protocol_points import ProtocolPoint, article_numbered, point_sentences
from taxtreaty.provisions.reading import PAYMENT_TOPICS, Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.model import Version

#: topics a payment may be reclassified to
PROFIT_TOPICS = ("business_profits", "independent_services")


def _reclassifying_sentences(found: list[ProtocolPoint], ph: Phrases) -> Iterator[tuple[ProtocolPoint, int, int, str, Any]]:
    """(point, start, end, folded sentence, match) of each sentence of the points that holds `reclassified` words."""
    for point in found:
        folded = fold_same_length(point.text)
        for s_start, s_end in point_sentences(point.text):
            sentence = folded[s_start:s_end]
            match = ph.find("reclassified", sentence)
            if match is not None:
                yield point, s_start, s_end, sentence, match


def reclassifications(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """"... technical services ... are payments to which the provisions of Article 7 or Article 14
    apply": an allocation of the payment article that sends the kind of income the words name to
    the articles of profits. Filed under the payment article the point's heading names, else under
    each payment article whose words name the same kind."""
    if "reclassified" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point, s_start, s_end, sentence, match in _reclassifying_sentences(found, ph):
        targets = [n for kind, n in figures.find_references(sentence, ph) if kind == "article"]
        profit = [n for n in targets if (a := article_numbered(version, n)) is not None and a.topic in PROFIT_TOPICS]
        kinds = [kind for start, _, kind in ph.group_hits("subtypes", sentence) if start < match.start()]
        if not profit or not kinds:
            continue
        subtype = kinds[0]
        # the payment article the heading names; else the heading's own (the rules file it under the
        # income whose kind it is: "Ad Article 7 and 14" about technical services is about royalties)
        named = [a for n in point.articles if (a := article_numbered(version, n)) is not None]
        homes = [a for a in named if a.topic in PAYMENT_TOPICS] or named[:1] or [article_numbered(version, profit[0])]
        cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
        for home in homes:
            if home is None:
                continue
            out.append(reading.provision(home, "allocation", cite, allocation=None,
                                         conditions={"income_subtype": subtype},
                                         values={"reclassified_to": profit}))
    return out


def deemed_items(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint],
                 read: list[Provision]) -> list[Provision]:
    """"... payments for technical services ... shall be deemed to be payments to which the provisions [of]
    subparagraph (a) of paragraph 2 of Article 12 apply", "serão considerados pagamentos a que se aplica a alínea
    a) do n.º 2 do artigo 12.º": a kind of payment the point deems within one item of a list of rates. Each cap of
    that item gives a cap for that kind (its rate and conditions, cited by the point), which displaces the list's
    rate "in all other cases" (the kind is no longer among them)."""
    if "reclassified" not in ph.patterns:
        return []
    out: list[Provision] = []
    for point, s_start, s_end, sentence, match in _reclassifying_sentences(found, ph):
        after = sentence[match.start():]
        refs = figures.find_references(after, ph)
        # "lo dispuesto por el apartado 2 c)" in a point headed "Con referencia al artículo 12": that article's item
        articles = list(dict.fromkeys(n for kind, n in refs if kind == "article")) \
            or (point.articles if len(point.articles) == 1 else [])
        paragraphs = list(dict.fromkeys(n for kind, n in refs if kind == "paragraph"))
        letters = figures.find_point_references(after, ph) \
            or list(dict.fromkeys(letter for _, letter in figures.find_paragraph_items(after, ph)))
        kinds = list(dict.fromkeys(kind for start, _, kind in ph.group_hits("subtypes", sentence) if start < match.start()))
        article = article_numbered(version, articles[0]) if len(articles) == 1 else None
        if article is None or article.topic not in PAYMENT_TOPICS or len(paragraphs) != 1 or len(letters) != 1 \
                or len(kinds) != 1:
            continue
        paragraph = eids.paragraph(article.eid, paragraphs[0])
        target = eids.point(paragraph, letters[0])
        caps = [p for p in read if p.kind == "withholding_cap" and p.cite.language == version.language
                and p.topic == article.topic and eids.within(p.cite.eid, paragraph)]
        items = [p for p in caps if p.status == "determined" and eids.within(p.cite.eid, target)]
        if not items:
            continue
        # the kind is in that item now: no other item of the list (its "in all other cases" rate, an item whose
        # kinds may hold it: "derechos de autor" for software) is its rate
        residual = list(dict.fromkeys(p.cite.eid for p in caps if not eids.within(p.cite.eid, target)))
        cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
        for item in items:
            conditions = {k: v for k, v in item.conditions.items()
                          if k not in ("income_subtype", "income_subtype_not", "otherwise", "unread_condition")}
            conditions["income_subtype"] = kinds[0]
            out.append(reading.provision(article, "withholding_cap", cite, rate_pct=item.rate_pct,
                                         values=dict(item.values), conditions=conditions, overrides=residual))
            cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
    return out
