"""A protocol point that makes fees for technical services royalties only where they turn on results.

"Payments received as a consideration for technical services, including studies or surveys ... shall be deemed not
to be payments received as a consideration for information concerning industrial, commercial or scientific
experience, except to the extent that the amounts of such payments are based on production, sales, performance,
profits or any other similar basis related to the use of the said information" (a point ad the royalty article): such
a fee computed on the payer's production, sales or profits is a payment for know-how, a royalty; any other is no royalty
under the convention, and the business-profits article decides it (no source tax without a permanent establishment).

Whether the fee is so computed is a fact the user gives, `fee_contingent_on_results`, asked for that kind of payment
only: the point is an allocation of the royalty article with `values.reclassified_to` (rules/reclassify.py) for the
kind the sentence names before its narrowing words (`definition_narrowing`: "shall be deemed not to be", "no se
considerarán", "não serão considerados") with the fact false; true, the article's own rates decide. The sentence must
hold the exception's words (`contingent_fee`: "except to the extent ... based on production", "salvo en la medida en
que ... en función de la producción", "exceto na medida em que ... com base na produção") after the narrowing words,
and the article's definition must not name the kind itself (it would still be a royalty under that name).
"""

from __future__ import annotations

from taxtreaty.provisions.item_refs import definition_paragraph
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.outside_definition import ONLY_WHEN_NAMED
from taxtreaty.provisions.point_reclassified import PROFIT_TOPICS
from taxtreaty.provisions.protocol_points import ProtocolPoint, article_numbered, point_sentences
from taxtreaty.provisions.reading import Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.model import Article, Version

#: the fact a contingent fee turns on (facts.yaml)
FACT = "fee_contingent_on_results"


def _homes(version: Version, point: ProtocolPoint) -> list[Article]:
    """The royalty article the point's heading names; else the convention's one royalty article."""
    named = [a for n in point.articles if (a := article_numbered(version, n)) is not None and a.topic == "royalties"]
    if named:
        return named
    every = [a for a in version.articles if a.topic == "royalties"]
    return every if len(every) == 1 and not point.articles else []


def _defines(article: Article, kind: str, ph: Phrases) -> bool:
    """The article's definition of royalties names the kind itself ("... or for technical assistance")."""
    found = definition_paragraph(article, ph)
    return found is not None and any(k == kind for _, _, k in ph.group_hits("subtypes", found[1]))


def contingent_fees(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """An allocation to the profits articles of each kind a point takes out of the royalties unless its amount is
    computed on production, sales, performance or profits (the fact `fee_contingent_on_results` false)."""
    if "contingent_fee" not in ph.patterns or "definition_narrowing" not in ph.patterns:
        return []
    profits = [a.number for a in version.articles if a.topic in PROFIT_TOPICS and a.number]
    out: list[Provision] = []
    for point in found:
        folded = fold_same_length(point.text)
        for s_start, s_end in point_sentences(point.text):
            sentence = folded[s_start:s_end]
            narrowing = ph.find("definition_narrowing", sentence)
            if narrowing is None or ph.find("contingent_fee", sentence, narrowing.end()) is None:
                continue
            kinds = list(dict.fromkeys(k for start, _, k in ph.group_hits("subtypes", sentence)
                                       if start < narrowing.start() and k in ONLY_WHEN_NAMED))
            for home in _homes(version, point):
                for kind in kinds:
                    if _defines(home, kind, ph):
                        continue
                    cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
                    out.append(reading.provision(home, "allocation", cite, allocation=None,
                                                 conditions={"income_subtype": kind, FACT: False},
                                                 values={"reclassified_to": profits}))
    return out


__all__ = ["FACT", "contingent_fees"]
