"""A protocol point that treats interest on profit-sharing bonds as dividends.

"It is understood that notwithstanding the provisions of article 11, in case one of the States subjects the income from
profit sharing bonds to a tax on dividends, article 10 is applicable to such income arising in that State" (NL-DK VI);
"in the case of the Netherlands, the term “dividends” includes income from profit-sharing bonds" (NL-RO VI): interest
on such a debt-claim is taxed at source as dividends, under the dividend article's caps. Whether the interest is of that
kind is a fact the user gives, `interest_profit_sharing` (a documented default, false, listed as an assumption where the
point was evaluated without it: most interest is not), so the point is an allocation of the interest article with
`values.reclassified_to` the dividend article and `values.reclassified_topic: dividends` (rules/reclassify.py), for
that fact true; scoped to the one State the point names ("in the case of the Netherlands": `one_state.scoped_state`),
and, where its words make it turn on a State's law ("in case one of the States subjects the income ... to a tax on
dividends": `dividend_treatment_law`), with that sentence as a `domestic_law` caveat.

The sentence must name the debt-claims (`profit_sharing_debt`: "profit sharing bonds", "participating loans",
"obligaciones participativas", "obrigações participantes") and send their income to the dividends: words that do so
(`as_dividends`: "regarded as dividends", "the term “dividends” includes"), or the dividend article named with
`applicable_words` after it ("article 10 is applicable to such income"). A point giving the source State its own law
on such income (AR-DE's "serán gravados con los impuestos que disponga la legislación de ese Estado") is none of these
and stays a caveat (`protocols.participation_caveats`).
"""

from __future__ import annotations

from taxtreaty.provisions import figures
from taxtreaty.provisions.model import Provision
from taxtreaty.provisions.one_state import scoped_state
from taxtreaty.provisions.protocol_points import ProtocolPoint, point_sentences
from taxtreaty.provisions.reading import Reading
from taxtreaty.provisions.vocabulary import Phrases, fold_same_length
from taxtreaty.structure import eids
from taxtreaty.structure.model import Article, Version

#: the fact the switch turns on (facts.yaml; a default in scenario.yaml)
FACT = "interest_profit_sharing"
_KEYS = ("profit_sharing_debt", "as_dividends", "applicable_words")


def _to_dividends(sentence: str, dividends: Article, ph: Phrases) -> bool:
    """The folded sentence sends the income to the dividends: "shall be regarded as dividends", or "article 10 is
    applicable" with 10 the dividend article."""
    if ph.has("as_dividends", sentence):
        return True
    named = [n for kind, n in figures.find_references(sentence, ph) if kind == "article"]
    return eids.article(dividends.number or "") in {eids.article(n) for n in named} and ph.has("applicable_words", sentence)


def participating_interest(reading: Reading, version: Version, ph: Phrases, found: list[ProtocolPoint]) -> list[Provision]:
    """An allocation of the interest article to the dividend article for interest on profit-sharing debt-claims."""
    if not all(key in ph.patterns for key in _KEYS):
        return []
    dividends = [a for a in version.articles if a.topic == "dividends" and a.number]
    interest = [a for a in version.articles if a.topic == "interest"]
    if len(dividends) != 1 or len(interest) != 1:
        return []
    out: list[Provision] = []
    for point in found:
        folded = fold_same_length(point.text)
        for s_start, s_end in point_sentences(point.text):
            sentence = folded[s_start:s_end]
            if not ph.has("profit_sharing_debt", sentence) or not _to_dividends(sentence, dividends[0], ph):
                continue
            conditions: dict[str, object] = {FACT: True}
            state = scoped_state(point.text[s_start:s_end], ph, reading.parties)
            if state is not None:  # "in the case of the Netherlands": interest arising there
                conditions["source_state"] = state
            if "dividend_treatment_law" in ph.patterns and ph.has("dividend_treatment_law", sentence):
                quote = " ".join(point.text[s_start:s_end].split())
                conditions["caveats"] = [{"kind": "domestic_law", "eid": point.eid, "quote": quote}]
            cite = reading.cite_cleaned(version.language, point.eid, point.start + s_start, point.start + s_end)
            out.append(reading.provision(interest[0], "allocation", cite, allocation=None, conditions=conditions,
                                         values={"reclassified_to": [dividends[0].number],
                                                 "reclassified_topic": "dividends"}))
    return out


__all__ = ["FACT", "participating_interest"]
