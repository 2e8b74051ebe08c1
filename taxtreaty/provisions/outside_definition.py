"""A kind of payment a royalties article's definition does not name: no royalty, profits.

"3. The term “royalties” as used in this Article means payments of any kind received as a consideration
for the use of, or the right to use: a) any copyright ...; b) any patent, trade mark, ... equipment; or
information concerning industrial, commercial or scientific experience": fees for technical services
are not among them, so they are no royalties under the convention and the business-profits article
decides (no source tax without a permanent establishment). Before, such a fee matched no cap and took
the paragraph's uncapped source right: confidently wrong.

Kept narrow, as a wrong "no royalty" would be wrong the other way:
- only the kinds the OECD Model never counts as royalties (`ONLY_WHEN_NAMED`);
- only where the convention says nothing else of that kind: no provision anywhere carries it (a cap, a
  technical-fees article, a protocol point);
- only where the article (its heading and every paragraph, the definition's included) and the protocol
  points on it hold none of the
  language's `definition_hint_words` ("technical", "services", "técnic", "assistência" ...): words the
  reader might not read as the kind leave the article as it is. A protocol point's sentence that only
  narrows or clarifies the definition ("payments ... for studies ... of a technical nature shall not be
  considered as payments for 'information concerning ... experience'", `definition_narrowing`) keeps
  nothing: its technical word names what is NOT a royalty; with words widening it again in the same
  sentence (`definition_widening`, `definition_extends`, `unless_words`) it still keeps the article.
The provision is an allocation of the article with `values.reclassified_to` (rules/reclassify.py) and
`values.outside_definition`: it holds only for a kind given, never asks for the kind.
"""

from __future__ import annotations

from taxtreaty.provisions.item_refs import definition_paragraph
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.point_reclassified import PROFIT_TOPICS
from taxtreaty.provisions.protocol_points import point_sentences, points
from taxtreaty.provisions.reading import Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure.model import Version

#: kinds of payment that are royalties only where a convention's definition names them (the OECD Model's
#: definition never does); the value of the fact royalty_kind, each with its hint words in the language data
ONLY_WHEN_NAMED = ("technical_services",)


def _kinds_of(p: Provision) -> set[str]:
    out: set[str] = set()
    for key in ("income_subtype", "income_subtype_not", "income_subtype_apart"):
        value = p.conditions.get(key)
        out |= set(value) if isinstance(value, list) else {str(value)} if value else set()
    return out


def _narrows(sentence: str, ph: Phrases) -> bool:
    """A folded sentence that says a kind is NOT within the definition ("payments ... for studies ... of a technical
    nature shall not be considered as payments for 'information concerning ... experience'") and holds no words
    that widen it again ("but shall be deemed ...", "shall include", "unless")."""
    if "definition_narrowing" not in ph.patterns:
        return False
    found = ph.finditer("definition_narrowing", sentence)
    if not found:
        return False
    rest = sentence
    for m in found:  # "shall not be considered" holds "be considered": blank the narrowing words first
        rest = rest[:m.start()] + " " * (m.end() - m.start()) + rest[m.end():]
    return not any(key in ph.patterns and ph.has(key, rest)
                   for key in ("definition_widening", "definition_extends", "unless_words", "contingent_fee"))


def _widening_words(text: str, hints: list[str], ph: Phrases) -> str:
    """A protocol point's words that may widen the definition: its sentences, less those holding a hint word
    that only narrow or clarify it (a technical word there names what is NOT a royalty)."""
    folded = fold_same_length(text).lower()
    kept = [folded[s:e] for s, e in point_sentences(text)
            if not (any(h in folded[s:e] for h in hints) and _narrows(folded[s:e], ph))]
    return " ".join(kept)


def outside_definition(reading: Reading, version: Version, ph: Phrases, provisions: list[Provision]) -> list[Provision]:
    """An allocation of each royalties article to the profits articles for a kind its definition does not name."""
    if "kind_definition" not in ph.patterns or "definition_hint_words" not in ph.raw:
        return []
    # (a text with no profits article, a fragment of articles 11-12: the allocation still holds, to articles the
    # text does not hold, and the rules abstain saying so rather than give the royalties' rate)
    profits = [a.number for a in version.articles if a.topic in PROFIT_TOPICS and a.number]
    # (another language version's provisions of this pass say nothing of the convention's words)
    named = set().union(set(), *(_kinds_of(p) for p in provisions if not p.values.get("outside_definition")))
    hints = [fold_same_length(w).lower() for w in ph.words("definition_hint_words")]
    protocol_points = points(reading, version, ph)
    out: list[Provision] = []
    for article in version.articles:
        if article.topic != "royalties":
            continue
        found = definition_paragraph(article, ph)
        if found is None:
            continue
        paragraph, folded = found
        # the whole article, its heading too: "Royalties and fees for technical services", a paragraph of its own
        # defining "fees for technical services" beside the royalties' definition; and a protocol point on the article
        # ("as disposições do artigo 12 aplicam-se aos pagamentos ... de serviços técnicos")
        on_it = [_widening_words(point.text, hints, ph) for point in protocol_points if article.number in point.articles]
        whole = fold_same_length(" ".join([article.heading or "", *(p.text for p in article.paragraphs), *on_it])).lower()
        if any(h in whole for h in hints):
            continue
        kinds = [k for k in ONLY_WHEN_NAMED if k not in named
                 and not any(kind == k for _, _, kind in ph.group_hits("subtypes", folded))]
        units = reading.source.units(version.language, article, paragraph)
        if not kinds or not units:
            continue
        first = units[0]
        cite = reading.cite(first, 0, len(first.text))
        for kind in kinds:
            out.append(reading.provision(article, "allocation", cite, allocation=None,
                                         conditions={"income_subtype": kind},
                                         values={"reclassified_to": profits, "outside_definition": True}))
    return out


__all__ = ["ONLY_WHEN_NAMED", "outside_definition"]
